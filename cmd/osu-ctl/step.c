/*
 * step.c: one step of the controller (seed 002's rules).
 *
 * Prepare all hosts at once; then upgrade one host at a time, sending
 * a reboot to a host that asked for one; a failed reply ends the run
 * (no further commands), and so does not-after with no reply.  Only
 * replies received before this step count, so a step never takes a
 * reply to a command it is sending only now.
 */
#include <string.h>

#include "osu.h"
#include "timefmt.h"

struct ctx {
	struct access *a;
	json_t *sec;
	json_t *cmds;		/* the commands to send next */
	int64_t now;
	struct windows ws;
	json_t *trigger;	/* the manual trigger, or NULL */
	int64_t timeout;	/* its timeout */
};

static json_t *
stamp(int64_t t)
{
	char buf[32];

	time_format(t, buf, sizeof buf);
	return json_string(buf);
}

static void
command(struct ctx *c, const char *action, const char *host)
{
	json_array_append_new(c->cmds, json_pack("{s:s, s:s}", "action",
	    action, "host", host));
}

static int
count(const struct run *r, enum hstatus st)
{
	size_t i;
	int n = 0;

	for (i = 0; i < r->n; i++)
		n += r->hosts[i].st == st;
	return n;
}

/* advance: send what the run needs next (nothing while it waits). */
static void
advance(struct ctx *c, struct run *r)
{
	size_t i;

	if (count(r, H_PENDING) > 0 || count(r, H_UPGRADING) > 0 ||
	    count(r, H_REBOOTING) > 0)
		return;
	for (i = 0; i < r->n; i++)
		if (r->hosts[i].st == H_REBOOT_REQUIRED) {
			r->hosts[i].st = H_REBOOTING;
			command(c, "reboot", r->hosts[i].name);
			return;
		}
	for (i = 0; i < r->n; i++)
		if (r->hosts[i].st == H_PREPARED) {
			r->hosts[i].st = H_UPGRADING;
			command(c, "upgrade", r->hosts[i].name);
			return;
		}
}

/* final_status: a host's status in last-upgrade-info. */
static enum hstatus
final_status(enum hstatus st, int timed_out)
{
	switch (st) {
	case H_UPGRADED:
	case H_FAILED:
		return st;
	case H_PENDING:
	case H_UPGRADING:
	case H_REBOOTING:
		return timed_out ? H_NO_REPLY : H_NOT_UPGRADED;
	default:
		return H_NOT_UPGRADED;
	}
}

/* finish: the run ends with result; it becomes last-upgrade-info. */
static void
finish(struct ctx *c, struct run *r, const char *result)
{
	const char *error = NULL, *host = NULL;
	json_t *info;
	size_t i;

	for (i = 0; i < r->n; i++) {
		if (r->hosts[i].st == H_FAILED && error == NULL) {
			error = r->hosts[i].error;
			host = r->hosts[i].name;
		}
		r->hosts[i].st = final_status(r->hosts[i].st,
		    strcmp(result, "timed-out") == 0);
	}
	info = json_pack("{s:o, s:o, s:s}", "start-time", stamp(r->start),
	    "end-time", stamp(c->now), "result", result);
	json_object_set_new(info, "trigger", json_string(r->trigger));
	if (c->now < r->start)
		json_object_set_new(info, "warning", json_string("the clock "
		    "went backwards during the run: its end-time is before "
		    "its start-time"));
	if (error != NULL) {
		json_object_set_new(info, "failed-host", json_string(host));
		json_object_set_new(info, "error", json_string(error));
	}
	json_object_set_new(info, "hosts", hosts_json(r));
	json_object_set_new(c->sec, "last-upgrade-info", info);
	json_object_del(c->sec, "run");
	r->active = 0;
}

/* decide: end the run if it is over, else advance it. */
static void
decide(struct ctx *c, struct run *r)
{
	if (count(r, H_FAILED) > 0)
		finish(c, r, "failed");
	else if ((size_t)count(r, H_UPGRADED) == r->n)
		finish(c, r, "completed");
	else if (c->now >= r->not_after)
		finish(c, r, "timed-out");
	else
		advance(c, r);
}

/* last_start: the start of the last run, or -1. */
static int64_t
last_start(const json_t *sec)
{
	const char *s = json_string_value(json_object_get(
	    json_object_get(sec, "last-upgrade-info"), "start-time"));
	int64_t t;

	return s != NULL && time_parse(s, &t) == 0 ? t : -1;
}

/* start: a run, when triggered or in a window not yet used; 1 if so. */
static int
start(struct ctx *c, struct run *r)
{
	int64_t open_at, close_at, next;
	json_t *hosts;
	size_t i;

	windows_at(&c->ws, c->now, &open_at, &close_at, &next);
	if (c->trigger != NULL) {
		r->trigger = "manual";
		r->not_after = c->now + c->timeout;
		json_object_del(c->sec, "trigger");
	} else if (open_at >= 0 && last_start(c->sec) < open_at) {
		r->trigger = "window";
		r->not_after = close_at;
	} else {
		return 0;
	}
	if (run_start(c->a, c->sec, r) < 0)
		return -1;
	r->start = c->now;
	hosts = json_array();
	for (i = 0; i < r->n; i++)
		json_array_append_new(hosts, json_string(r->hosts[i].name));
	json_array_append_new(c->cmds, json_pack("{s:s, s:o, s:o}", "action",
	    "prepare", "hosts", hosts, "not-after", stamp(r->not_after)));
	return 1;
}

/* ignore_all: replies that came before the run began. */
static void
ignore_all(struct run *r, const struct replies *rs)
{
	size_t i;

	for (i = 0; i < rs->n; i++) {
		if (strcmp(rs->r[i].producer, OSU_PRODUCER) == 0)
			continue;
		if (rs->r[i].seq > r->last_seq)
			r->last_seq = rs->r[i].seq;
		access_enter_index(rs->a, i);
		access_warn(rs->a, "reply of \"%s\" ignored: no run is waiting "
		    "for it", rs->r[i].producer);
		access_leave(rs->a);
	}
}

/* publish: status, schedule and commands into the section. */
static void
publish(struct ctx *c, const struct run *r)
{
	int64_t open_at, close_at, next;
	char buf[64];

	json_object_set_new(c->sec, "status",
	    json_string(r->active ? "running" : "idle"));
	json_object_del(c->sec, "next-upgrade-in");
	json_object_del(c->sec, "wake-at");
	if (r->active) {
		json_object_set_new(c->sec, "run", run_json(r));
		json_object_set_new(c->sec, "wake-at", stamp(r->not_after));
	} else {
		windows_at(&c->ws, c->now, &open_at, &close_at, &next);
		if (next >= 0) {
			duration_format(next - c->now, buf, sizeof buf);
			json_object_set_new(c->sec, "next-upgrade-in",
			    json_string(buf));
			json_object_set_new(c->sec, "wake-at", stamp(next));
		}
	}
	json_object_set(c->sec, "commands", c->cmds);
}

/* load_config: the config member, its windows and the trigger. */
static int
load_config(struct ctx *c)
{
	static const char *const keys[] = { "worker-applications",
		"maintenance-windows", "site-timezone", NULL };
	const char *zone = NULL, *t = "4h";
	json_t *config;
	int rc;

	c->timeout = OSU_DEFAULT_TIMEOUT;
	if (acc_get_object(c->a, c->sec, "config", ACC_REQUIRED, &config) < 0)
		return -1;
	access_enter_key(c->a, "config");
	rc = acc_check_keys(c->a, config, keys) < 0 ||
	    run_check_apps(c->a, config) < 0 ||
	    acc_get_string(c->a, config, "site-timezone", ACC_OPTIONAL,
	    &zone) < 0 || windows_parse(c->a, config, zone, &c->ws) < 0;
	access_leave(c->a);
	if (rc || acc_get_object(c->a, c->sec, "trigger", ACC_OPTIONAL,
	    &c->trigger) < 0)
		return -1;
	if (c->trigger == NULL)
		return 0;
	access_enter_key(c->a, "trigger");
	rc = acc_get_string(c->a, c->trigger, "timeout", ACC_OPTIONAL, &t) < 0;
	if (!rc && (duration_parse(t, &c->timeout) < 0 || c->timeout == 0))
		rc = access_fail_at(c->a, "timeout", "expected a duration "
		    "such as 4h or 10m30s, got \"%s\"", t);
	access_leave(c->a);
	return rc ? -1 : 0;
}

int
step(struct access *a, json_t *sec, const struct replies *rs, int64_t now)
{
	struct ctx c = { a, sec, NULL, now, { NULL, 0 }, NULL, 0 };
	struct run r = { 0 };
	int rc = -1;

	if (load_config(&c) < 0 || run_load(a, sec, &r) < 0 ||
	    state_consistent(a, sec, &r, now) < 0)
		goto out;
	c.cmds = json_array();
	if (r.active) {
		replies_apply(&r, rs);
		decide(&c, &r);
	} else if ((rc = start(&c, &r)) < 0) {
		goto out;
	} else if (rc == 1) {
		ignore_all(&r, rs);
		if (r.n == 0)
			finish(&c, &r, "completed");
	} else {
		ignore_all(&r, rs);
	}
	publish(&c, &r);
	rc = 0;
out:
	json_decref(c.cmds);
	run_free(&r);
	windows_free(&c.ws);
	return rc;
}
