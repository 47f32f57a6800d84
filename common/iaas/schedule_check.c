/*
 * schedule_check.c: check the schedule objects an actuator runs, one or
 * all of an iteration's, and walk their actions (see schedule.h and
 * upkit-state(5), "The schedule section").  A schedule kept as text is
 * read a stage at a time, one level deep, and each stage a group at a
 * time (acc_each_kept_element).
 */
#include <stdlib.h>
#include <string.h>

#include "idmap.h"
#include "schedule.h"
#include "state.h"
#include "xalloc.h"

struct check_ctx {
	struct idmap ids;	/* action ids seen, undo ids included */
	size_t first;		/* ids from this index on are this schedule's */
	unsigned char *is_action;	/* by index in ids: not an undo id */
	size_t is_action_cap;
	size_t stage_first;	/* ids from this index on are this stage's */
	sched_step_check_fn check;	/* the actuator's own, or NULL */
	void *ctx;
	sched_action_fn each;	/* schedule_check_each's, or NULL */
	void *each_ctx;
	size_t stage;		/* the stage being read */
};

/* as_text: a string without NUL inside, which C would read cut short. */
static int
as_text(struct access *a, const json_t *v, const char **out)
{
	if (acc_as_string(a, v, out) < 0)
		return -1;
	if (strlen(*out) != json_string_length(v))
		return access_fail(a, "string holds a NUL character");
	return 0;
}

/* get_text: acc_get_string() with as_text()'s check; 0, 1 or -1. */
static int
get_text(struct access *a, const json_t *obj, const char *key, int flags,
    const char **out)
{
	json_t *v;
	int r;

	if ((r = acc_get(a, obj, key, flags, &v)) != 0)
		return r;
	access_enter_key(a, key);
	r = as_text(a, v, out);
	access_leave(a);
	return r;
}

/*
 * unique_id: within the schedule, and across the iteration's, since a
 * report holds one result per id.  An action's id (is_action), unlike
 * an undo step's, may be required by a later stage's group.
 */
static int
unique_id(struct access *a, struct check_ctx *c, const json_t *obj,
    int is_action)
{
	const char *id;
	long x;

	if (get_text(a, obj, "id", ACC_REQUIRED, &id) < 0)
		return -1;
	if ((x = idmap_add(&c->ids, id)) >= 0) {
		c->is_action = xgrow(c->is_action, (size_t)x,
		    &c->is_action_cap, 1);
		c->is_action[x] = (unsigned char)is_action;
		return 0;
	}
	if ((size_t)(-x - 1) >= c->first)
		return access_fail_at(a, "id", "duplicate action id \"%s\"", id);
	return access_fail_at(a, "id", "action id \"%s\" is used by an earlier "
	    "schedule too", id);
}

/* own_check: the actuator's check of a step whose form is checked. */
static int
own_check(struct access *a, struct check_ctx *c, const json_t *step)
{
	return c->check != NULL ? c->check(a, step, c->ctx) : 0;
}

static int
check_arg(struct access *a, const json_t *v, size_t i, void *p)
{
	const char *s;

	(void)i;
	(void)p;
	return as_text(a, v, &s);
}

/* check_command: argv (non-empty strings) or manual, host, duration,
 * and where it runs (run_on: control, or on its host). */
static int
check_command(struct access *a, const json_t *obj)
{
	static const char *const places[] = { "control", NULL };
	const char *s;
	json_t *argv;
	json_int_t d;
	int r, place;

	if (get_text(a, obj, "host", ACC_REQUIRED, &s) < 0 ||
	    acc_get_enum(a, obj, "run_on", ACC_OPTIONAL, places, &place) < 0 ||
	    acc_get_int_range(a, obj, "duration", ACC_REQUIRED, 0, 100000000,
	    &d) < 0 ||
	    (r = acc_get_array(a, obj, "argv", ACC_OPTIONAL, &argv)) < 0)
		return -1;
	if (r == 1)
		return get_text(a, obj, "manual", ACC_REQUIRED, &s) < 0 ? -1 : 0;
	if (json_object_get(obj, "manual") != NULL)
		return access_fail_at(a, "manual", "an action has argv or "
		    "manual, not both");
	if (json_array_size(argv) == 0)
		return access_fail_at(a, "argv", "empty argument vector");
	return acc_each_element(a, obj, "argv", ACC_REQUIRED, check_arg,
	    NULL) < 0 ? -1 : 0;
}

/* check_step: an undo step or a replacement. */
static int
check_step(struct access *a, const json_t *v, size_t i, void *p)
{
	static const char *const known[] = { "id", "host", "argv", "manual",
		"duration", "run_on", NULL };

	(void)i;
	if (acc_as_object(a, v) < 0 || acc_check_keys(a, v, known) < 0 ||
	    unique_id(a, p, v, 0) < 0 || check_command(a, v) < 0)
		return -1;
	return own_check(a, p, v);
}

/* check_migration: a VM move names the VM and both hosts. */
static int
check_migration(struct access *a, const json_t *v, int phase, const char *op)
{
	const char *s;
	int up;

	if (phase != 3 && (op == NULL || strcmp(op, "migrate") != 0))
		return 0;
	return get_text(a, v, "vm", ACC_REQUIRED, &s) < 0 ||
	    get_text(a, v, "source", ACC_REQUIRED, &s) < 0 ||
	    get_text(a, v, "destination", ACC_REQUIRED, &s) < 0 ||
	    acc_get_bool(a, v, "vm_upgrade", ACC_OPTIONAL, &up) < 0 ? -1 : 0;
}

static int
check_replacement(struct access *a, const json_t *v, void *p)
{
	json_t *f;
	int r;

	if ((r = acc_get_object(a, v, "on_failure", ACC_OPTIONAL, &f)) != 0)
		return r < 0 ? -1 : 0;
	access_enter_key(a, "on_failure");
	r = check_step(a, f, 0, p);
	access_leave(a);
	return r;
}

static int
check_action(struct access *a, const json_t *v, size_t i, void *p)
{
	static const char *const known[] = { "id", "phase", "op", "resource",
		"host", "argv", "manual", "duration", "undo_unit", "undo", "vm",
		"source", "destination", "vm_upgrade", "on_failure", "run_on",
		NULL };
	static const char *const phases[] = { "prerequisite", "upgrade",
		"wrap-up", "migration", NULL };
	const char *s, *op = NULL;
	int k;

	(void)i;
	if (acc_as_object(a, v) < 0 || acc_check_keys(a, v, known) < 0 ||
	    unique_id(a, p, v, 1) < 0 ||
	    acc_get_enum(a, v, "phase", ACC_REQUIRED, phases, &k) < 0 ||
	    get_text(a, v, "op", ACC_OPTIONAL, &op) < 0 ||
	    get_text(a, v, "resource", ACC_OPTIONAL, &s) < 0 ||
	    get_text(a, v, "undo_unit", ACC_OPTIONAL, &s) < 0 ||
	    check_command(a, v) < 0 || check_migration(a, v, k, op) < 0 ||
	    own_check(a, p, v) < 0 ||
	    acc_each_element(a, v, "undo", ACC_REQUIRED, check_step, p) < 0)
		return -1;
	return check_replacement(a, v, p);
}

/* check_required: an id a group requires is an earlier stage's action. */
static int
check_required(struct access *a, const json_t *v, size_t i, void *p)
{
	struct check_ctx *c = p;
	const char *id;
	long x;

	(void)i;
	if (as_text(a, v, &id) < 0)
		return -1;
	x = idmap_find(&c->ids, id);
	if (x < 0 || !c->is_action[x])
		return access_fail(a, "required action \"%s\" is not an action "
		    "of an earlier stage or schedule of the iteration", id);
	if ((size_t)x >= c->stage_first)
		return access_fail(a, "required action \"%s\" is in the same "
		    "stage, which runs in parallel", id);
	return 0;
}

/* check_part: a group's or a stage's id (and phase), its known keys. */
static int
check_part(struct access *a, const json_t *v, int phased)
{
	static const char *const group_keys[] = { "id", "requires", "actions",
		NULL };
	static const char *const stage_keys[] = { "id", "phase", "groups",
		NULL };
	const char *s;

	return acc_as_object(a, v) < 0 ||
	    acc_check_keys(a, v, phased ? stage_keys : group_keys) < 0 ||
	    get_text(a, v, "id", ACC_REQUIRED, &s) < 0 ||
	    (phased && get_text(a, v, "phase", ACC_REQUIRED, &s) < 0) ? -1 : 0;
}

/* each: schedule_check_each's fn on the actions of group v, checked. */
static int
each(const struct check_ctx *c, const json_t *v, size_t group)
{
	const json_t *act;
	size_t k;

	json_array_foreach(json_object_get(v, "actions"), k, act)
		if (c->each(act, c->stage, group, c->each_ctx) != 0)
			return -1;
	return 0;
}

static int
check_group(struct access *a, const json_t *v, size_t i, const char *text,
    size_t len, void *p)
{
	struct check_ctx *c = p;

	(void)text, (void)len;
	if (check_part(a, v, 0) < 0 ||
	    acc_each_element(a, v, "actions", ACC_REQUIRED, check_action,
	    p) < 0 ||
	    acc_each_element(a, v, "requires", ACC_OPTIONAL, check_required,
	    p) < 0)
		return -1;
	return c->each != NULL ? each(c, v, i) : 0;
}

static int
check_stage(struct access *a, const json_t *v, size_t i, const char *text,
    size_t len, void *p)
{
	struct check_ctx *c = p;

	(void)text, (void)len;
	c->stage_first = c->ids.count;
	c->stage = i;
	if (check_part(a, v, 1) < 0)
		return -1;
	return acc_each_kept_element(a, v, "groups", ACC_REQUIRED,
	    check_group, p) < 0 ? -1 : 0;
}

/* check_one: a schedule, with the ids of the earlier ones in c. */
static int
check_one(struct access *a, const json_t *sched, struct check_ctx *c)
{
	static const char *const known[] = { "version", "id", "concurrency",
		"stages", NULL };
	json_int_t n;
	const char *s;

	c->first = c->ids.count;
	if (acc_as_object(a, sched) < 0 ||
	    acc_check_keys(a, sched, known) < 0 ||
	    get_text(a, sched, "id", ACC_REQUIRED, &s) < 0 ||
	    acc_get_int_range(a, sched, "concurrency", ACC_REQUIRED, 1,
	    1000000000, &n) < 0)
		return -1;
	return acc_each_kept_element(a, sched, "stages", ACC_REQUIRED |
	    ACC_SHALLOW_ELEMENTS, check_stage, c) < 0 ? -1 : 0;
}

int
schedule_check(struct access *a, const json_t *sched)
{
	return schedule_check_each(a, sched, NULL, NULL);
}

int
schedule_check_each(struct access *a, const json_t *sched,
    sched_action_fn fn, void *ctx)
{
	struct check_ctx c = { .check = NULL, .each = fn, .each_ctx = ctx };
	int r;

	idmap_init(&c.ids);
	r = check_one(a, sched, &c);
	idmap_free(&c.ids);
	free(c.is_action);
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

static void
list_add(struct sched_list *l, const json_t *sched, long sub)
{
	l->sched = xreallocarray(l->sched, l->n + 1, sizeof *l->sched);
	l->sub = xreallocarray(l->sub, l->n + 1, sizeof *l->sub);
	l->sched[l->n] = sched;
	l->sub[l->n++] = sub;
}

struct collect {
	struct check_ctx c;
	struct sched_list *out;
};

/* take: check the schedule at member "schedule" of obj, then keep it. */
static int
take(struct access *a, const json_t *obj, struct collect *k, long sub)
{
	json_t *sched;
	int r;

	if (acc_get_object(a, obj, "schedule", ACC_REQUIRED, &sched) < 0)
		return -1;
	access_enter_key(a, "schedule");
	if ((r = check_one(a, sched, &k->c)) == 0)
		list_add(k->out, sched, sub);
	access_leave(a);
	return r;
}

static int
take_sub(struct access *a, const json_t *sub, size_t i, void *p)
{
	return acc_as_object(a, sub) < 0 ? -1 : take(a, sub, p, (long)i);
}

/* take_subs: the sub-iterations of a planned migrations section. */
static int
take_subs(struct access *a, const json_t *mig, struct collect *k)
{
	const char *status;
	int r;

	access_enter_key(a, "migrations");
	r = get_text(a, mig, "status", ACC_REQUIRED, &status);
	if (r == 0 && strcmp(status, "planned") == 0)
		r = acc_each_element(a, mig, "sub_iterations", ACC_OPTIONAL,
		    take_sub, k) < 0 ? -1 : 0;
	access_leave(a);
	return r;
}

int
sched_list_collect(struct access *a, const json_t *doc,
    sched_step_check_fn check, void *ctx, struct sched_list *out)
{
	struct collect k = { { .check = check, .ctx = ctx }, out };
	json_t *sched, *mig;
	int r = -1;

	idmap_init(&k.c.ids);
	if (state_require(a, doc, SECTION_SCHEDULE, &sched) == 0 &&
	    take(a, doc, &k, -1) == 0)
		r = (mig = state_section(doc, SECTION_MIGRATIONS)) == NULL ? 0 :
		    take_subs(a, mig, &k);
	idmap_free(&k.c.ids);
	free(k.c.is_action);
	return r;
}

void
sched_list_free(struct sched_list *l)
{
	free(l->sub);
	free(l->sched);
	memset(l, 0, sizeof *l);
}
