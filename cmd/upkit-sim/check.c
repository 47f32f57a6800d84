/*
 * check.c: the parts of the schedule and migrations sections that the
 * simulator reads, checked before anything runs, so that bad input is
 * reported at its place and never half-simulated (upkit-state(5), "The
 * schedule section", "The migrations section").
 */
#include <string.h>

#include "sim.h"

static int
check_step(struct access *a, const json_t *step, size_t i, void *ctx)
{
	const char *s;
	json_int_t d;

	(void)i;
	(void)ctx;
	return acc_as_object(a, step) < 0 ||
	    acc_get_string(a, step, "id", ACC_REQUIRED, &s) < 0 ||
	    acc_get_int_range(a, step, "duration", ACC_OPTIONAL, 0, 100000000,
	    &d) < 0 || acc_get_string(a, step, "host", ACC_OPTIONAL, &s) < 0 ||
	    acc_get_string(a, step, "manual", ACC_OPTIONAL, &s) < 0 ? -1 : 0;
}

/* check_migration: the VM and hosts a migration names must exist. */
static int
check_migration(struct access *a, const json_t *act, const struct world *w)
{
	const char *vm, *src, *dst;

	if (acc_get_string(a, act, "vm", ACC_REQUIRED, &vm) < 0 ||
	    acc_get_string(a, act, "source", ACC_REQUIRED, &src) < 0 ||
	    acc_get_string(a, act, "destination", ACC_REQUIRED, &dst) < 0)
		return -1;
	if (world_vm(w, vm, NULL) == NULL)
		return access_fail_at(a, "vm", "no VM has id \"%s\"", vm);
	if (!world_is_compute(w, dst))
		return access_fail_at(a, "destination", "no compute host has id "
		    "\"%s\"", dst);
	return 0;
}

static int
check_action(struct access *a, const json_t *act, size_t i, void *ctx)
{
	const char *s, *op = NULL;
	json_t *f;
	int r;

	if (check_step(a, act, i, ctx) < 0 ||
	    acc_get_string(a, act, "op", ACC_OPTIONAL, &op) < 0 ||
	    acc_get_string(a, act, "phase", ACC_OPTIONAL, &s) < 0 ||
	    acc_get_string(a, act, "resource", ACC_OPTIONAL, &s) < 0 ||
	    acc_get_string(a, act, "undo_unit", ACC_OPTIONAL, &s) < 0 ||
	    acc_each_element(a, act, "undo", ACC_OPTIONAL, check_step,
	    NULL) < 0 ||
	    (r = acc_get_object(a, act, "on_failure", ACC_OPTIONAL, &f)) < 0)
		return -1;
	if (r == 0) {
		access_enter_key(a, "on_failure");
		if (check_step(a, f, 0, NULL) < 0)
			return -1;
		access_leave(a);
	}
	if (op != NULL && strcmp(op, "migrate") == 0)
		return check_migration(a, act, ctx);
	return 0;
}

static int
check_group(struct access *a, const json_t *g, size_t i, void *ctx)
{
	const char *id;

	(void)i;
	return acc_as_object(a, g) < 0 ||
	    acc_get_string(a, g, "id", ACC_REQUIRED, &id) < 0 ||
	    acc_each_element(a, g, "actions", ACC_REQUIRED, check_action,
	    ctx) < 0 ? -1 : 0;
}

static int
check_stage(struct access *a, const json_t *st, size_t i, void *ctx)
{
	(void)i;
	return acc_as_object(a, st) < 0 || acc_each_element(a, st, "groups",
	    ACC_REQUIRED, check_group, ctx) < 0 ? -1 : 0;
}

int
check_schedule(struct access *a, const json_t *sched, const struct world *w)
{
	json_int_t c;
	const char *id;

	return acc_as_object(a, sched) < 0 ||
	    acc_get_string(a, sched, "id", ACC_REQUIRED, &id) < 0 ||
	    acc_get_int_range(a, sched, "concurrency", ACC_OPTIONAL, 1,
	    INT32_MAX, &c) < 0 || acc_each_element(a, sched, "stages",
	    ACC_REQUIRED, check_stage, (void *)w) < 0 ? -1 : 0;
}

static int
check_sub(struct access *a, const json_t *sub, size_t i, void *ctx)
{
	json_t *sched;

	(void)i;
	if (acc_as_object(a, sub) < 0 ||
	    acc_get_object(a, sub, "schedule", ACC_REQUIRED, &sched) < 0)
		return -1;
	access_enter_key(a, "schedule");
	if (check_schedule(a, sched, ctx) < 0)
		return -1;
	access_leave(a);
	return 0;
}

int
check_migrations(struct access *a, const json_t *mig, const struct world *w)
{
	const char *status;

	if (acc_get_string(a, mig, "status", ACC_REQUIRED, &status) < 0)
		return -1;
	return acc_each_element(a, mig, "sub_iterations", ACC_OPTIONAL,
	    check_sub, (void *)w) < 0 ? -1 : 0;
}
