/*
 * times.c: -T FILE, a line for each program the loop runs:
 *
 *   ITERATION KIND PROGRAM SECONDS
 *
 * KIND is step (its output is kept: a planning step, the refresh
 * program, the actuator), check (upkit-check) or ask (a question whose
 * answer the loop reads: upkit-sim --progress, jq); SECONDS is wall
 * time from the fork to the end of the wait.  What is not in the file is
 * the loop's own time.  A failed write is said once and ends the file,
 * not the upgrade.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "diag.h"
#include "exitcodes.h"
#include "loop.h"
#include "monotonic.h"

void
times_open(struct times *t, const char *path)
{
	t->fd = -1;
	t->name = path;
	t->iter = 0;
	if (path == NULL)
		return;
	t->fd = open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0666);
	if (t->fd < 0)
		diag_fatal_whole(EXIT_CANTCREAT, "%s: %s", path,
		    strerror(errno));
}

/* times_at: the programs run from now on are iteration n's. */
void
times_at(struct times *t, long n)
{
	t->iter = n;
}

/* times_start: now, for times_log. */
double
times_start(const struct times *t)
{
	return t->fd < 0 ? 0 : monotonic_seconds();
}

/* times_log: argv0, of kind, ran from t0 until now. */
void
times_log(struct times *t, const char *kind, const char *argv0, double t0)
{
	const char *base = strrchr(argv0, '/');
	double secs = times_start(t) - t0;

	if (t->fd < 0)
		return;
	if (dprintf(t->fd, "%ld %s %s %.6f\n", t->iter, kind,
	    base != NULL ? base + 1 : argv0, secs) < 0) {
		diag_error(t->name, "%s; no more times are written",
		    strerror(errno));
		close(t->fd);
		t->fd = -1;
	}
}
