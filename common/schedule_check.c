/*
 * schedule_check.c: check a schedule object and walk its actions, for
 * the actuators that run what batch-select and vm-migrate-plan plan
 * (see schedule.h and upkit-state(5)).
 */
#include <string.h>

#include "idmap.h"
#include "schedule.h"

struct check_ctx {
	struct idmap ids;	/* action ids seen, undo ids included */
};

static int
unique_id(struct access *a, struct check_ctx *c, const json_t *obj)
{
	const char *id;

	if (acc_get_string(a, obj, "id", ACC_REQUIRED, &id) < 0)
		return -1;
	if (idmap_add(&c->ids, id) < 0)
		return access_fail_at(a, "id", "duplicate action id \"%s\"", id);
	return 0;
}

/* check_command: argv (non-empty strings) or manual, host, duration. */
static int
check_command(struct access *a, const json_t *obj)
{
	const char *s;
	json_t *argv, *v;
	json_int_t d;
	size_t i;
	int r;

	if (acc_get_string(a, obj, "host", ACC_REQUIRED, &s) < 0 ||
	    acc_get_int_range(a, obj, "duration", ACC_REQUIRED, 0, 100000000,
	    &d) < 0 ||
	    (r = acc_get_array(a, obj, "argv", ACC_OPTIONAL, &argv)) < 0)
		return -1;
	if (r == 1)
		return acc_get_string(a, obj, "manual", ACC_REQUIRED, &s) < 0 ?
		    -1 : 0;
	if (json_object_get(obj, "manual") != NULL)
		return access_fail_at(a, "manual", "an action has argv or "
		    "manual, not both");
	if (json_array_size(argv) == 0)
		return access_fail_at(a, "argv", "empty argument vector");
	access_enter_key(a, "argv");
	json_array_foreach(argv, i, v) {
		access_enter_index(a, i);
		if (acc_as_string(a, v, &s) < 0)
			return -1;
		access_leave(a);
	}
	access_leave(a);
	return 0;
}

static int
check_step(struct access *a, const json_t *v, size_t i, void *p)
{
	static const char *const known[] = { "id", "host", "argv", "manual",
		"duration", NULL };

	(void)i;
	if (acc_as_object(a, v) < 0 || acc_check_keys(a, v, known) < 0 ||
	    unique_id(a, p, v) < 0)
		return -1;
	return check_command(a, v);
}

static int
check_action(struct access *a, const json_t *v, size_t i, void *p)
{
	static const char *const known[] = { "id", "phase", "op", "resource",
		"host", "argv", "manual", "duration", "undo_unit", "undo", "vm",
		"source", "destination", "vm_upgrade", "on_failure", NULL };
	static const char *const phases[] = { "prerequisite", "upgrade",
		"wrap-up", "migration", NULL };
	const char *s;
	json_t *f;
	int k, r;

	(void)i;
	if (acc_as_object(a, v) < 0 || acc_check_keys(a, v, known) < 0 ||
	    unique_id(a, p, v) < 0 ||
	    acc_get_enum(a, v, "phase", ACC_REQUIRED, phases, &k) < 0 ||
	    acc_get_string(a, v, "op", ACC_REQUIRED, &s) < 0 ||
	    acc_get_string(a, v, "resource", ACC_REQUIRED, &s) < 0 ||
	    check_command(a, v) < 0 ||
	    acc_each_element(a, v, "undo", ACC_REQUIRED, check_step, p) < 0 ||
	    (r = acc_get_object(a, v, "on_failure", ACC_OPTIONAL, &f)) < 0)
		return -1;
	if (r == 0) {
		access_enter_key(a, "on_failure");
		r = check_step(a, f, 0, p);
		access_leave(a);
		if (r < 0)
			return -1;
	}
	if (k == 3 && (acc_get_string(a, v, "vm", ACC_REQUIRED, &s) < 0 ||
	    acc_get_string(a, v, "source", ACC_REQUIRED, &s) < 0 ||
	    acc_get_string(a, v, "destination", ACC_REQUIRED, &s) < 0))
		return -1;
	return 0;
}

static int
check_group(struct access *a, const json_t *v, size_t i, void *p)
{
	static const char *const known[] = { "id", "actions", NULL };
	const char *s;

	(void)i;
	if (acc_as_object(a, v) < 0 || acc_check_keys(a, v, known) < 0 ||
	    acc_get_string(a, v, "id", ACC_REQUIRED, &s) < 0)
		return -1;
	return acc_each_element(a, v, "actions", ACC_REQUIRED, check_action, p);
}

static int
check_stage(struct access *a, const json_t *v, size_t i, void *p)
{
	static const char *const known[] = { "id", "phase", "groups", NULL };
	const char *s;

	(void)i;
	if (acc_as_object(a, v) < 0 || acc_check_keys(a, v, known) < 0 ||
	    acc_get_string(a, v, "id", ACC_REQUIRED, &s) < 0 ||
	    acc_get_string(a, v, "phase", ACC_REQUIRED, &s) < 0)
		return -1;
	return acc_each_element(a, v, "groups", ACC_REQUIRED, check_group, p);
}

int
schedule_check(struct access *a, const json_t *sched)
{
	static const char *const known[] = { "version", "id", "concurrency",
		"stages", NULL };
	struct check_ctx c;
	json_int_t n;
	const char *s;
	int r = -1;

	idmap_init(&c.ids);
	if (acc_as_object(a, sched) == 0 &&
	    acc_check_keys(a, sched, known) == 0 &&
	    acc_get_string(a, sched, "id", ACC_REQUIRED, &s) == 0 &&
	    acc_get_int_range(a, sched, "concurrency", ACC_REQUIRED, 1,
	    1000000000, &n) == 0)
		r = acc_each_element(a, sched, "stages", ACC_REQUIRED,
		    check_stage, &c);
	idmap_free(&c.ids);
	return r;
}

int
schedule_each_action(const json_t *sched, sched_action_fn fn, void *ctx)
{
	json_t *st, *g, *act;
	size_t i, j, k;
	int r;

	json_array_foreach(json_object_get(sched, "stages"), i, st)
		json_array_foreach(json_object_get(st, "groups"), j, g)
			json_array_foreach(json_object_get(g, "actions"), k, act)
				if ((r = fn(act, i, j, ctx)) != 0)
					return r;
	return 0;
}
