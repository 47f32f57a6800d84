/*
 * worker.h: seed 002's OS upgrade worker (see osu-worker(1)).
 *
 * The worker reads the controller's commands for its host from the
 * os-upgrade:control topic, runs the operator's commands for prepare,
 * upgrade and reboot, replies, and only then acks.  Its transient
 * state, kept in a file that is replaced atomically, is what keeps a
 * replayed command from running twice.
 */
#ifndef WORKER_H
#define WORKER_H

#include <stdint.h>
#include <jansson.h>

#include "libnats/bus.h"

/* The upgrade command's exit status that means "reboot-required". */
#define REBOOT_REQUIRED_STATUS 10

enum phase {
	PH_IDLE,
	PH_PREPARING,
	PH_PREPARED,
	PH_UPGRADING,
	PH_UPGRADED,
	PH_REBOOT_REQUESTED,
	PH_REBOOTING,
	PH_COUNT
};
extern const char *const phase_names[];

struct config {
	const char *host;
	const char *state_file;
	int upgrade_reboots;	/* the upgrade command may reboot the host */
	char **prepare, **upgrade, **reboot, **versions;  /* NULL-ended */
	char **upgrade_check;	/* after such a reboot; NULL: none */
};

/* config_load: the worker's configuration document (0 or -1). */
int config_load(const char *file, json_t *doc, struct config *c);
void config_free(struct config *c);

/* The transient state (see osu-worker(1), FILES). */
struct wstate {
	json_int_t seq;		/* the last command acted on */
	enum phase phase;
	json_t *reply;		/* the reply to it, once sent, or NULL */
	json_t *versions;	/* the versions last published, or NULL */
	char *boot_id;		/* the host's boot as the command began */
};

/* wstate_load: the file, or a fresh state if it does not exist. */
int wstate_load(const char *file, struct wstate *w);
/* wstate_save: write to file.tmp, fsync, rename, fsync the folder
 * (durable_rename); 0 or -1. */
int wstate_save(const char *file, const struct wstate *w);
void wstate_free(struct wstate *w);
json_t *wstate_json(const struct wstate *w);

/*
 * run_argv: run argv (no shell), stdin from /dev/null, stdout into
 * *out (if out is not NULL; else to stderr); the exit status (127: not
 * found, 128 + a signal that killed it), or -1 if it could not start.
 */
int run_argv(char **argv, char **out);

/* How a command ended, and the end of its standard error. */
#define OUTCOME_TAIL 400
struct outcome {
	int status;		/* run_argv's; -1: it did not start */
	int signal;		/* the signal that killed it, or 0 */
	char tail[OUTCOME_TAIL];
	size_t tail_len;
	int cut;		/* stderr was longer than the tail */
};

/*
 * run_command: run argv (no shell), stdin from /dev/null, stdout and
 * stderr to the worker's stderr; how it ended into *o.
 */
void run_command(char **argv, struct outcome *o);
/* outcome_error: the reply to a failed command, "WHAT command ...". */
char *outcome_error(const char *what, const struct outcome *o);

/*
 * boot_id_read: the host's boot ID, the first line of file
 * (/proc/sys/kernel/random/boot_id), new on every boot; NULL, said,
 * when it cannot be read.
 */
char *boot_id_read(const char *file);

struct worker {
	struct config cfg;
	struct wstate st;
	struct bus *bus;
	const char *boot_id_file;
	int stop;		/* 1: a reboot was started, exit */
};

/* handle: one command message; acks (or not) as the seed says. */
int handle(struct worker *w, struct bus_msg *m);
/* publish_versions: the versions command's output, if it changed. */
void publish_versions(struct worker *w);

#endif
