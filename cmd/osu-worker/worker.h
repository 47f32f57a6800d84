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
	char **prepare, **upgrade, **reboot, **versions;  /* NULL-ended */
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

struct worker {
	struct config cfg;
	struct wstate st;
	struct bus *bus;
	int stop;		/* 1: a reboot was started, exit */
};

/* handle: one command message; acks (or not) as the seed says. */
int handle(struct worker *w, struct bus_msg *m);
/* publish_versions: the versions command's output, if it changed. */
void publish_versions(struct worker *w);

#endif
