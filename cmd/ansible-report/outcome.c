/*
 * outcome.c: read the json stdout callback's document
 *
 *	{"plays": [{"play": {...}, "tasks": [{"task": {"name": ...,
 *	  "duration": {"start": ..., "end": ...}},
 *	  "hosts": {"h1": {"action": ..., "failed": true, ...}}}]}],
 *	 "stats": {"h1": {"unreachable": 0, ...}}}
 *
 * into one outcome per task name.  A task shows once per play under
 * the linear strategy and once per host under "free", so outcomes are
 * merged over every entry and every host: a task skipped on the hosts
 * it is not for and run on its anchor ran.  Only module runs count
 * (upkit_step, command and pause): ansible-plan's own helper tasks
 * never stand for an action, whatever their name.
 */
#include <stdlib.h>
#include <string.h>

#include "ar.h"
#include "timefmt.h"
#include "xalloc.h"

/*
 * counts: a module that runs a step: ansible-plan's upkit_step (or the
 * command module, as playbooks ran before it), its pause, or what
 * ansible-plan --replay puts in its place when an interrupted run had
 * finished it (debug: it succeeded, fail: it failed).  Results are
 * found by the step's task name, which no other task has.
 */
static int
counts(const char *action)
{
	static const char *const modules[] = { "upkit_step",
		"ansible.builtin.command", "command", "ansible.builtin.pause",
		"pause", "ansible.builtin.debug", "ansible.builtin.fail", NULL };
	size_t i;

	for (i = 0; action != NULL && modules[i] != NULL; i++)
		if (strcmp(action, modules[i]) == 0)
			return 1;
	return 0;
}

static void
merge(struct outcomes *o, const char *name, enum outcome v)
{
	long x = idmap_find(&o->names, name);

	if (x < 0) {
		x = idmap_add(&o->names, name);
		if ((size_t)x >= o->cap) {
			o->cap = o->cap ? 2 * o->cap : 64;
			o->out = xreallocarray(o->out, o->cap, sizeof *o->out);
		}
		o->out[x] = OUT_ABSENT;
	}
	if (v > o->out[x])
		o->out[x] = v;
}

struct task_ctx {
	struct outcomes *o;
	const char *name;
};

/* host_result: one host's result of the current task. */
static int
host_result(struct access *a, const char *host, const json_t *res, void *p)
{
	struct task_ctx *t = p;
	int failed = 0, skipped = 0, unreachable = 0;
	const char *action = NULL;

	(void)host;
	if (acc_as_object(a, res) < 0 ||
	    acc_get_bool(a, res, "failed", ACC_OPTIONAL, &failed) < 0 ||
	    acc_get_bool(a, res, "skipped", ACC_OPTIONAL, &skipped) < 0 ||
	    acc_get_bool(a, res, "unreachable", ACC_OPTIONAL,
	    &unreachable) < 0 ||
	    acc_get_string(a, res, "action", ACC_OPTIONAL, &action) < 0)
		return -1;
	if (counts(action) || unreachable)
		merge(t->o, t->name, unreachable ? OUT_UNREACHABLE :
		    failed ? OUT_FAILED : skipped ? OUT_SKIPPED : OUT_OK);
	return 0;
}

/* note_end: keep the latest "end" of a duration object. */
static int
note_end(struct access *a, struct outcomes *o, const json_t *obj)
{
	json_t *d;
	const char *end;
	int64_t t;
	int r;

	if ((r = acc_get_object(a, obj, "duration", ACC_OPTIONAL, &d)) != 0)
		return r < 0 ? -1 : 0;
	access_enter_key(a, "duration");
	if ((r = acc_get_string(a, d, "end", ACC_OPTIONAL, &end)) == 0 &&
	    time_parse(end, &t) < 0)
		return access_fail_at(a, "end", "\"%s\" is not an ISO 8601 "
		    "time", end);
	access_leave(a);
	if (r == 0 && (!o->have_end || t > o->end)) {
		o->end = t;
		o->have_end = 1;
	}
	return r < 0 ? -1 : 0;
}

static int
task_entry(struct access *a, const json_t *entry, size_t i, void *p)
{
	struct task_ctx t = { p, NULL };
	json_t *task;

	(void)i;
	if (acc_as_object(a, entry) < 0 ||
	    acc_get_object(a, entry, "task", ACC_REQUIRED, &task) < 0)
		return -1;
	access_enter_key(a, "task");
	if (acc_get_string(a, task, "name", ACC_REQUIRED, &t.name) < 0 ||
	    note_end(a, p, task) < 0)
		return -1;
	access_leave(a);
	return acc_each_member(a, entry, "hosts", ACC_REQUIRED, host_result,
	    &t) < 0 ? -1 : 0;
}

static int
play_entry(struct access *a, const json_t *play, size_t i, void *p)
{
	json_t *head;
	int r;

	(void)i;
	if (acc_as_object(a, play) < 0 ||
	    (r = acc_get_object(a, play, "play", ACC_OPTIONAL, &head)) < 0)
		return -1;
	if (r == 0) {
		access_enter_key(a, "play");
		if (note_end(a, p, head) < 0)
			return -1;
		access_leave(a);
	}
	return acc_each_element(a, play, "tasks", ACC_REQUIRED, task_entry,
	    p) < 0 ? -1 : 0;
}

static int
host_stats(struct access *a, const char *host, const json_t *s, void *p)
{
	struct outcomes *o = p;
	json_int_t n = 0;

	if (acc_as_object(a, s) < 0 ||
	    acc_get_int_range(a, s, "unreachable", ACC_OPTIONAL, 0,
	    1000000000, &n) < 0)
		return -1;
	if (n > 0)
		json_array_append_new(o->unreachable, json_string(host));
	return 0;
}

int
outcomes_load(struct access *a, const json_t *doc, struct outcomes *o)
{
	memset(o, 0, sizeof *o);
	idmap_init(&o->names);
	o->unreachable = json_array();
	if (acc_as_object(a, doc) < 0 ||
	    acc_each_element(a, doc, "plays", ACC_REQUIRED, play_entry, o) < 0 ||
	    acc_each_member(a, doc, "stats", ACC_OPTIONAL, host_stats, o) < 0)
		return -1;
	return 0;
}

enum outcome
outcome_of(const struct outcomes *o, const char *name)
{
	long x = idmap_find(&o->names, name);

	return x < 0 ? OUT_ABSENT : o->out[x];
}

void
outcomes_free(struct outcomes *o)
{
	idmap_free(&o->names);
	free(o->out);
	json_decref(o->unreachable);
}
