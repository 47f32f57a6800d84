/*
 * run.h: osu-run, the driver of the OS upgrade controller: it steps
 * osu-ctl(1) on the state file, publishes the commands of each step on
 * NATS JetStream and collects the replies until the next deadline.
 */
#ifndef RUN_H
#define RUN_H

#include <signal.h>
#include <stdint.h>
#include <jansson.h>

#include "libnats/bus.h"

/*
 * The site's lease lives this long after its last renewal, which comes
 * every third of it: a driver that stopped without giving it up (one
 * of another host, or killed by a signal) holds it up to that long.
 */
#define LEASE_TTL 30		/* seconds */

struct driver {
	const char *state_file;
	const char *ctl;	/* the osu-ctl program */
	int once;		/* stop when the section is idle */
	struct bus_conf conf;	/* the server and the stream's limits */
	struct bus *bus;
	struct bus_lease *lease;	/* the site's, held while running */
	int lease_lost;
	struct bus_sub *sub;
	uint64_t floor;		/* replies at or before it are older */
	json_t *replies;	/* collected since the last step */
	struct bus_msg last;	/* the last message taken, to ack */
	int have_last;
	double step_seconds;	/* osu-ctl's time, summed */
	long steps, published, received;
};

/*
 * ctl_step: run osu-ctl on the state file with the replies at time now
 * and replace the file with its output; the new document, or NULL
 * (osu-ctl's diagnostics are on standard error).
 */
json_t *ctl_step(struct driver *d, int64_t now);

/*
 * ctl_check: osu-ctl's exit status on the state file as it is, the
 * output thrown away: the state is checked before the driver connects.
 */
int ctl_check(struct driver *d, int64_t now);

/* ctl_dry: the document osu-ctl would write at now, state untouched. */
json_t *ctl_dry(struct driver *d, int64_t now);

/* collect: replies until deadline (or a burst of them has come). */
int collect(struct driver *d, int64_t deadline,
    volatile sig_atomic_t *stopping);

#endif
