/*
 * osu.h: the OS upgrade controller of seed 002 as a pure step (see
 * osu-ctl(1) and the os_upgrade section of upkit-state(5)).
 *
 * A step reads the section, the replies received since the last step
 * and the time now, and writes the section anew: the run's progress,
 * the commands to send next and when to be stepped again.
 */
#ifndef OSU_H
#define OSU_H

#include <stddef.h>
#include <stdint.h>
#include <jansson.h>

#include "access.h"
#include "tzone.h"

#define OSU_PRODUCER "os-upgrade-controller"
/* The trigger's timeout when it names none (the seed's default). */
#define OSU_DEFAULT_TIMEOUT (4 * 3600)

/* A maintenance window: days of week (bit 0 Sunday), start, length. */
struct window {
	unsigned days;
	int64_t start;		/* seconds after local midnight */
	int64_t duration;
	struct tzone zone;
};

struct windows {
	struct window *w;
	size_t n;
};

/* windows_parse: the config's maintenance-windows (absent: none). */
int windows_parse(struct access *a, const json_t *config,
    const char *site_zone, struct windows *out);
void windows_free(struct windows *ws);

/*
 * The windows at instant now: *open_at the earliest opening of a window
 * occurrence that holds now and *close_at the latest end of one (both
 * -1 when none holds now); *next the first opening after now (-1 when
 * there are no windows).
 */
void windows_at(const struct windows *ws, int64_t now, int64_t *open_at,
    int64_t *close_at, int64_t *next);

/* Host status during a run and, at its end, in last-upgrade-info. */
enum hstatus {
	H_PENDING,		/* prepare sent, no reply yet */
	H_PREPARED,
	H_UPGRADING,		/* upgrade sent */
	H_REBOOT_REQUIRED,	/* upgrade answered reboot-required */
	H_REBOOTING,		/* reboot sent */
	H_UPGRADED,
	H_FAILED,
	H_NOT_UPGRADED,		/* final: prepared, never upgraded */
	H_NO_REPLY,		/* final: still waiting at not-after */
	H_COUNT
};
extern const char *const hstatus_names[];

struct host {
	const char *name;
	enum hstatus st;
	const char *error;	/* the reply's result when failed */
};

struct run {
	int active;
	const char *trigger;	/* "window" or "manual" */
	int64_t start, not_after;
	json_int_t last_seq;	/* highest reply sequence number seen */
	struct host *hosts;
	size_t n;
};

/* run_load: the section's run (absent: inactive); hosts from the doc. */
int run_load(struct access *a, const json_t *sec, struct run *r);
/* run_start: a new run over the hosts of the config's applications. */
int run_start(struct access *a, const json_t *sec, struct run *r);
void run_free(struct run *r);
/* run_check_apps: config.worker-applications, a list of {"name": ...}. */
int run_check_apps(struct access *a, const json_t *config);
json_t *run_json(const struct run *r);
/* hosts_json: the hosts as [{"hostname", "status", "error"?}]. */
json_t *hosts_json(const struct run *r);

/* One reply: the producer (a host name), its sequence, the message. */
struct reply {
	const char *producer;
	json_int_t seq;		/* -1 when the transport gave none */
	const json_t *msg;
};

struct replies {
	struct access *a;	/* the replies file, for warnings */
	struct reply *r;
	size_t n;
};

int replies_load(struct access *a, const json_t *doc, struct replies *out);
/* replies_apply: record the replies the run was waiting for. */
void replies_apply(struct run *r, const struct replies *rs);

/*
 * state_consistent: refuse (-1, said) a section no step leaves: two
 * hosts of the run upgrading at once, a run host not in
 * scheduled-workers, a failed host or run with no error, a
 * last-upgrade-info that started after now; warn when now is before
 * the run's start (the clock went backwards).
 */
int state_consistent(struct access *a, const json_t *sec,
    const struct run *r, int64_t now);

/*
 * step: the whole step on section sec (changed in place) at time now:
 * start a run when due, apply the replies, then advance or end it.
 */
int step(struct access *a, json_t *sec, const struct replies *rs,
    int64_t now);

#endif
