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
#include <time.h>
#include <unistd.h>

#include "diag.h"
#include "exitcodes.h"
#include "loop.h"

static int times_fd = -1;
static const char *times_name;
static long times_iter;

void
times_open(const char *path)
{
	if (path == NULL)
		return;
	times_fd = open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC,
	    0666);
	if (times_fd < 0)
		diag_fatal_whole(EXIT_CANTCREAT, "%s: %s", path,
		    strerror(errno));
	times_name = path;
}

/* times_at: the programs run from now on are iteration n's. */
void
times_at(long n)
{
	times_iter = n;
}

/* times_start: now, for times_log. */
double
times_start(void)
{
	struct timespec ts;

	if (times_fd < 0)
		return 0;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

/* times_log: argv0, of kind, ran from t0 until now. */
void
times_log(const char *kind, const char *argv0, double t0)
{
	const char *base = strrchr(argv0, '/');
	double secs = times_start() - t0;

	if (times_fd < 0)
		return;
	if (dprintf(times_fd, "%ld %s %s %.6f\n", times_iter, kind,
	    base != NULL ? base + 1 : argv0, secs) < 0) {
		diag_error(times_name, "%s; no more times are written",
		    strerror(errno));
		close(times_fd);
		times_fd = -1;
	}
}
