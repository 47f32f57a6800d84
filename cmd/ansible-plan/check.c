/*
 * check.c: gather the schedules a playbook runs (the schedule section,
 * then each sub-iteration of the migrations section; report_schedules()
 * checks their form) and check, before a byte is written, what Ansible
 * would otherwise misread:
 *
 * - hosts must be plain names: in a play's "hosts" Ansible reads
 *   "a,b", "a:b", "h1; rm -rf /" (split at blanks), "web*", "~re",
 *   "!a" and "all" as patterns, and has no way to escape them;
 * - action ids must be unique over the whole playbook, since a task's
 *   name is how ansible-report finds an action's result again;
 * - strings must not hold NUL characters, which would cut them short.
 */
#include <string.h>

#include "ap.h"
#include "diag.h"
#include "idmap.h"
#include "report.h"
#include "state.h"

struct walk {
	struct idmap ids;
};

int
host_name_ok(const char *s)
{
	static const char allowed[] = "abcdefghijklmnopqrstuvwxyz"
	    "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._-";

	return *s != '\0' && *s != '-' && s[strspn(s, allowed)] == '\0' &&
	    strcmp(s, "all") != 0 && strcmp(s, "ungrouped") != 0;
}

/* whole_string: the string at key has no NUL inside (YAML "\0"). */
static int
whole_string(struct access *a, const json_t *obj, const char *key)
{
	const json_t *v = json_object_get(obj, key);

	if (json_is_string(v) && strlen(json_string_value(v)) !=
	    json_string_length(v))
		return access_fail_at(a, key, "string holds a NUL character");
	return 0;
}

static int
check_argv(struct access *a, const json_t *step)
{
	const json_t *argv = json_object_get(step, "argv"), *v;
	size_t i;

	json_array_foreach(argv, i, v)
		if (strlen(json_string_value(v)) != json_string_length(v)) {
			access_enter_key(a, "argv");
			access_enter_index(a, i);
			return access_fail(a, "string holds a NUL character");
		}
	return 0;
}

/* check_step: an action, an undo step or a replacement. */
static int
check_step(struct access *a, const json_t *step, size_t i, void *p)
{
	struct walk *wk = p;
	const char *id = json_string_value(json_object_get(step, "id"));
	const char *host = json_string_value(json_object_get(step, "host"));

	(void)i;
	if (whole_string(a, step, "id") < 0 ||
	    whole_string(a, step, "host") < 0 ||
	    whole_string(a, step, "manual") < 0 || check_argv(a, step) < 0)
		return -1;
	if (!host_name_ok(host))
		return access_fail_at(a, "host", "\"%s\" is not a plain Ansible "
		    "host name (letters, digits, '.', '-', '_'): Ansible would "
		    "read it as a host pattern", host);
	if (idmap_add(&wk->ids, id) < 0)
		return access_fail_at(a, "id", "action id \"%s\" is used by an "
		    "earlier schedule too", id);
	return 0;
}

static int
check_action(struct access *a, const json_t *act, size_t i, void *p)
{
	const json_t *f = json_object_get(act, "on_failure");
	int r;

	if (check_step(a, act, i, p) < 0 ||
	    acc_each_element(a, act, "undo", ACC_REQUIRED, check_step, p) < 0)
		return -1;
	if (f == NULL)
		return 0;
	access_enter_key(a, "on_failure");
	r = check_step(a, f, 0, p);
	access_leave(a);
	return r;
}

static int
check_group(struct access *a, const json_t *g, size_t i, void *p)
{
	(void)i;
	if (whole_string(a, g, "id") < 0)
		return -1;
	return acc_each_element(a, g, "actions", ACC_REQUIRED, check_action, p);
}

static int
check_stage(struct access *a, const json_t *st, size_t i, void *p)
{
	(void)i;
	if (whole_string(a, st, "id") < 0)
		return -1;
	return acc_each_element(a, st, "groups", ACC_REQUIRED, check_group, p);
}

int
plan_collect(struct access *a, const json_t *doc, struct sched_list *p)
{
	struct walk wk;
	size_t i;
	int depth, r;

	if (state_check(a, doc) < 0 || report_schedules(a, doc, p) < 0)
		return -1;
	idmap_init(&wk.ids);
	for (i = 0, r = 0; i < p->n && r == 0; i++) {
		depth = sched_list_enter(a, p, i);
		r = whole_string(a, p->sched[i], "id") < 0 ||
		    acc_each_element(a, p->sched[i], "stages", ACC_REQUIRED,
		    check_stage, &wk) < 0 ? -1 : 0;
		while (r == 0 && depth-- > 0)
			access_leave(a);
	}
	idmap_free(&wk.ids);
	return r;
}
