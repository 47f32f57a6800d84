/*
 * consistent.c: what a step refuses before it acts: a section that no
 * step of osu-ctl leaves (two hosts upgrading at once, a run host no
 * worker is scheduled on, a failure with no error), and a time that
 * cannot be (the last run started after now: the clock is wrong now,
 * or was then, and the windows would be skipped until that date).
 */
#include <string.h>

#include "osu.h"
#include "timefmt.h"

/* scheduled: whether host is in scheduled-workers. */
static int
scheduled(const json_t *sec, const char *host)
{
	const json_t *w;
	size_t i;

	json_array_foreach(json_object_get(sec, "scheduled-workers"), i, w) {
		const char *h = json_string_value(json_object_get(w, "host"));

		if (h != NULL && strcmp(h, host) == 0)
			return 1;
	}
	return 0;
}

/* in_upgrade: the host is between its upgrade and its reply. */
static int
in_upgrade(enum hstatus st)
{
	return st == H_UPGRADING || st == H_REBOOT_REQUIRED ||
	    st == H_REBOOTING;
}

/* run_host_ok: one host of the run, its index i. */
static int
run_host_ok(struct access *a, const json_t *sec, const struct run *r,
    size_t i, const struct host **upgrading)
{
	const struct host *h = &r->hosts[i];
	int rc = 0;

	access_enter_index(a, i);
	if (!scheduled(sec, h->name))
		rc = access_fail_at(a, "hostname", "host \"%s\" is not in "
		    "scheduled-workers: a run takes only hosts where a worker "
		    "is scheduled", h->name);
	else if (h->st == H_FAILED && h->error == NULL)
		rc = access_fail_at(a, "status", "host \"%s\" failed with no "
		    "error", h->name);
	else if (in_upgrade(h->st) && *upgrading != NULL)
		rc = access_fail_at(a, "status", "hosts \"%s\" (%s) and "
		    "\"%s\" (%s) are upgrading at once: a run upgrades one "
		    "host at a time", (*upgrading)->name,
		    hstatus_names[(*upgrading)->st], h->name,
		    hstatus_names[h->st]);
	else if (in_upgrade(h->st))
		*upgrading = h;
	access_leave(a);
	return rc;
}

/* run_ok: the run's hosts, and a warning if the clock went back. */
static int
run_ok(struct access *a, const json_t *sec, const struct run *r,
    int64_t now)
{
	const struct host *upgrading = NULL;
	char then[32], at[32];
	size_t i;
	int rc = 0;

	access_enter_key(a, "run");
	access_enter_key(a, "hosts");
	for (i = 0; i < r->n && rc == 0; i++)
		rc = run_host_ok(a, sec, r, i, &upgrading);
	access_leave(a);
	if (rc == 0 && now < r->start) {
		time_format(r->start, then, sizeof then);
		time_format(now, at, sizeof at);
		access_enter_key(a, "start-time");
		access_warn(a, "the clock went backwards: the step's time %s "
		    "is before the run's start-time %s", at, then);
		access_leave(a);
	}
	access_leave(a);
	return rc;
}

/* start_ok: the last run's start-time, not after now. */
static int
start_ok(struct access *a, const char *start, int64_t now)
{
	char at[32];
	int64_t t;

	if (time_parse(start, &t) < 0)
		return access_fail_at(a, "start-time", "expected a timestamp "
		    "such as 2023-03-17T01:00:00Z, got \"%s\"", start);
	if (t <= now)
		return 0;
	time_format(now, at, sizeof at);
	return access_fail_at(a, "start-time", "%s is after the step's time "
	    "%s: the clock is behind now, or was ahead then, and no window "
	    "would open before that date; set the clock right, or remove "
	    "last-upgrade-info", start, at);
}

/* last_ok: last-upgrade-info, if any: its start, and a failure's host. */
static int
last_ok(struct access *a, const json_t *sec, int64_t now)
{
	json_t *info;
	const char *start, *result = "", *s;
	int rc;

	if ((rc = acc_get_object(a, sec, "last-upgrade-info", ACC_OPTIONAL,
	    &info)) != 0)
		return rc < 0 ? -1 : 0;
	access_enter_key(a, "last-upgrade-info");
	rc = acc_get_string(a, info, "start-time", ACC_REQUIRED, &start) < 0 ||
	    acc_get_string(a, info, "result", ACC_OPTIONAL, &result) < 0 ||
	    acc_get_string(a, info, "failed-host", ACC_OPTIONAL, &s) < 0 ||
	    acc_get_string(a, info, "error", ACC_OPTIONAL, &s) < 0 ||
	    start_ok(a, start, now) < 0;
	if (!rc && strcmp(result, "failed") == 0 &&
	    (json_object_get(info, "failed-host") == NULL ||
	    json_object_get(info, "error") == NULL))
		rc = access_fail(a, "a failed run with no failed-host or no "
		    "error: which host failed, and why, is unknown");
	access_leave(a);
	return rc ? -1 : 0;
}

int
state_consistent(struct access *a, const json_t *sec, const struct run *r,
    int64_t now)
{
	if (r->active && run_ok(a, sec, r, now) < 0)
		return -1;
	return last_ok(a, sec, now);
}
