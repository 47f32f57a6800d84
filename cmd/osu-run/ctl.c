/*
 * ctl.c: one controller step, run as a separate osu-ctl process: the
 * replies go to STATE.replies, the new document to STATE.next, which
 * replaces STATE only when osu-ctl succeeded.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "diag.h"
#include "durable.h"
#include "load.h"
#include "monotonic.h"
#include "run.h"
#include "spawn.h"
#include "timefmt.h"

/*
 * spawn_ctl: osu-ctl's exit status (128 + a signal that killed it), or
 * -1; replies may be NULL.
 */
static int
spawn_ctl(struct driver *d, char *now, char *replies, char *next)
{
	char *argv[] = { (char *)d->ctl, "-c", "-t", now,
		(char *)d->state_file, NULL, NULL, NULL };
	struct spawn_how how = SPAWN_INHERITED;
	pid_t pid = -1;
	int st = -1;

	if (replies != NULL) {
		argv[4] = "-r";
		argv[5] = replies;
		argv[6] = (char *)d->state_file;
	}
	how.in = open("/dev/null", O_RDONLY | O_CLOEXEC);
	how.out = open(next, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (how.in < 0 || how.out < 0)
		diag_error(how.in < 0 ? "/dev/null" : next, "%s",
		    strerror(errno));
	else if ((pid = spawn_argv(argv, &how)) < 0)
		diag_error(NULL, "cannot run '%s': %s", d->ctl,
		    strerror(errno));
	if (how.in >= 0)
		close(how.in);
	if (how.out >= 0)
		close(how.out);
	if (pid > 0)
		st = spawn_wait(pid);
	return st;
}

json_t *
ctl_step(struct driver *d, int64_t now)
{
	char stamp[32], replies[4096], next[4096];
	json_t *doc = NULL;
	double t0;
	int st;

	time_format(now, stamp, sizeof stamp);
	snprintf(replies, sizeof replies, "%s.replies", d->state_file);
	snprintf(next, sizeof next, "%s.next", d->state_file);
	if (json_dump_file(d->replies, replies, JSON_PRESERVE_ORDER |
	    JSON_COMPACT) != 0) {
		diag_error(replies, "cannot write the replies");
		return NULL;
	}
	t0 = monotonic_seconds();
	st = spawn_ctl(d, stamp, replies, next);
	d->step_seconds += monotonic_seconds() - t0;
	d->steps++;
	if (st != 0) {
		if (st > 0)
			diag_error(NULL, "%s failed with status %d; the state "
			    "is left as it was", d->ctl, st);
		return NULL;
	}
	if (durable_rename(next, d->state_file) != 0) {
		diag_error(d->state_file, "cannot replace: %s",
		    strerror(errno));
		return NULL;
	}
	json_array_clear(d->replies);
	if (load_document(d->state_file, &doc) != 0)
		return NULL;
	return doc;
}

int
ctl_check(struct driver *d, int64_t now)
{
	char stamp[32];

	time_format(now, stamp, sizeof stamp);
	return spawn_ctl(d, stamp, NULL, "/dev/null");
}

json_t *
ctl_dry(struct driver *d, int64_t now)
{
	char stamp[32], tmp[] = "/tmp/osu-run.XXXXXX";
	json_t *doc = NULL;
	int fd = mkstemp(tmp), st;

	if (fd < 0) {
		diag_error(NULL, "cannot make a scratch file: %s",
		    strerror(errno));
		return NULL;
	}
	close(fd);
	time_format(now, stamp, sizeof stamp);
	st = spawn_ctl(d, stamp, NULL, tmp);
	if (st == 0 && load_document(tmp, &doc) != 0)
		doc = NULL;
	unlink(tmp);
	return doc;
}
