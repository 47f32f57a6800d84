/*
 * run.c: run one iteration's schedules in simulated time (seed 000
 * III.B: the upgrade engine).  The upgrade schedule of step 3 runs
 * first, then each sub-iteration of step 4 in order.  In a schedule,
 * stages run one after the other; the groups of a stage run in
 * parallel on at most "concurrency" slots, each group taking the slot
 * that frees first; the actions of a group run in order, each for its
 * catalog duration.  When an action fails, the group's later actions
 * are not run and the completed actions of the group in this stage are
 * undone in reverse order (resource-level undo, III.A); the group's
 * actions in later stages of the schedule are not run either, since
 * they would bring back into service what was not upgraded.
 */
#include <stdlib.h>
#include <string.h>

#include "sim.h"
#include "xalloc.h"

/* A completed action of the running group, undone if a later one fails. */
struct done {
	const json_t *action;
	json_t *step;			/* its entry in sim.steps */
	struct effect effect;
};

struct group_run {
	struct sim *s;
	struct done *done;
	size_t ndone;
	ms_t t;
	int failed;
	const char *failed_at;		/* the action that failed, this run */
};

int
sim_draw_failure(struct sim *s, const char *id)
{
	int drawn = 0;

	if (s->opt->fail_rate > 0)
		drawn = prng_unit(&s->prng) < s->opt->fail_rate;
	return drawn || (id != NULL && idmap_find(&s->opt->fail_ids, id) >= 0);
}

static ms_t
duration_of(const json_t *step)
{
	return (ms_t)json_integer_value(json_object_get(step, "duration")) *
	    1000;
}

/* record: one action or step run, in sim.steps; the entry is returned. */
static json_t *
record(struct sim *s, const json_t *step, enum action_result res, ms_t start,
    ms_t end)
{
	json_t *e = json_pack("{s:s,s:s,s:I,s:I}", "id", world_str(step, "id"),
	    "result", report_result_names[res], "start_ms", (json_int_t)start,
	    "end_ms", (json_int_t)end);

	json_array_append_new(s->steps, e);
	if (world_str(step, "manual") != NULL)
		json_array_append_new(s->manual, json_pack("{s:s,s:s}", "id",
		    world_str(step, "id"), "manual", world_str(step, "manual")));
	return e;
}

/* set_result: an action's result, in its step entry and the report. */
static void
set_result(struct sim *s, const json_t *action, json_t *step,
    enum action_result res)
{
	if (step != NULL)
		json_object_set_new(step, "result",
		    json_string(report_result_names[res]));
	report_action(&s->report, action, res);
}

/*
 * leave_deactivated: an undo failed, so its resource is left out of
 * service in whatever state the undo left; rg-build tries it again, or
 * fails it past max-retry (III.A), from the results.  "failed" is kept
 * for what the system itself loses (a timeline's host failure).
 */
static void
leave_deactivated(struct sim *s, const char *resource)
{
	if (resource != NULL && world_resource(&s->world, resource) != NULL)
		world_set_status(&s->world, resource, "deactivated");
}

/* migration_outage: the switch-over of a live migration (section V). */
static void
migration_outage(struct sim *s, const char *vm, const char *cause, ms_t end)
{
	size_t t;
	json_t *v = world_vm(&s->world, vm, &t);

	if (v != NULL && s->opt->outage_ms > 0)
		outages_add(&s->outages, t, vm, world_str(v, "group"), cause,
		    end - s->opt->outage_ms, end);
}

/*
 * host_outage: taking a compute host out of service while VMs still
 * run on it stops them for the action (the schedule evacuates hosts
 * first, so this only happens with hand-made schedules).
 */
static void
host_outage(struct sim *s, const json_t *a, ms_t start, ms_t end)
{
	const char *phase = world_str(a, "phase"), *host = world_str(a, "host");
	size_t i;

	if (phase == NULL || host == NULL || world_is(a, "op", "migrate") ||
	    (strcmp(phase, "upgrade") != 0 &&
	    strcmp(phase, "prerequisite") != 0) ||
	    !world_is_compute(&s->world, host) ||
	    world_host_vms(&s->world, host) == 0)
		return;
	for (i = 0; i < s->world.nvms; i++)
		if (strcmp(world_str(s->world.vms[i], "host"), host) == 0)
			outages_add(&s->outages, s->world.vm_tenant[i],
			    world_str(s->world.vms[i], "id"),
			    world_str(s->world.vms[i], "group"),
			    world_str(a, "id"), start, end);
}

/* undo_one: run the undo steps of a completed action, in order. */
static void
undo_one(struct group_run *g, struct done *d)
{
	struct sim *s = g->s;
	json_t *u;
	size_t i;

	json_array_foreach(json_object_get(d->action, "undo"), i, u) {
		ms_t start = g->t;

		g->t += duration_of(u);
		if (sim_draw_failure(s, world_str(u, "id"))) {
			record(s, u, RESULT_FAILED, start, g->t);
			set_result(s, d->action, d->step, RESULT_UNDO_FAILED);
			leave_deactivated(s, world_str(d->action, "resource"));
			return;
		}
		record(s, u, RESULT_SUCCEEDED, start, g->t);
	}
	effect_revert(s, &d->effect);
	if (d->effect.vm != NULL)
		migration_outage(s, d->effect.vm, world_str(d->action, "id"), g->t);
	set_result(s, d->action, d->step, RESULT_UNDONE);
}

/*
 * destination_refuses: the cloud will not put migration a's VM on its
 * destination: no slot is free there (a tenant scaled out onto it since
 * the schedule was planned), or a VM of its anti-affinity group now
 * runs there (failed over from a failed host, say), which nova's
 * anti-affinity filter refuses for a live migration and an evacuation
 * alike.
 */
static int
destination_refuses(struct sim *s, const json_t *a)
{
	const char *dst = world_str(a, "destination");
	const json_t *vm = world_vm(&s->world, world_str(a, "vm"), NULL);
	const char *group;

	if (!world_is(a, "op", "migrate") || dst == NULL || vm == NULL)
		return 0;
	group = world_str(vm, "group") != NULL ? world_str(vm, "group") :
	    world_str(vm, "id");
	return world_host_vms(&s->world, dst) >= world_capacity(&s->world,
	    dst) || world_group_on(&s->world, group, dst);
}

/* replace_vm: step 4's answer to a failed migration (IV, step 4). */
static void
replace_vm(struct group_run *g, const json_t *a)
{
	const json_t *r = json_object_get(a, "on_failure");
	ms_t start = g->t;
	size_t t;
	json_t *vm = world_vm(&g->s->world, world_str(a, "vm"), &t);

	if (r == NULL || vm == NULL)
		return;
	g->t += duration_of(r);
	if (sim_draw_failure(g->s, world_str(r, "id")) ||
	    destination_refuses(g->s, a)) {
		record(g->s, r, RESULT_FAILED, start, g->t);
		report_step(&g->s->report, world_str(r, "id"), RESULT_FAILED);
		return;
	}
	record(g->s, r, RESULT_SUCCEEDED, start, g->t);
	report_step(&g->s->report, world_str(r, "id"), RESULT_SUCCEEDED);
	world_move(&g->s->world, vm, world_str(a, "destination"));
	outages_add(&g->s->outages, t, world_str(a, "vm"), world_str(vm,
	    "group"), world_str(r, "id"), start, g->t);
}

static void
fail_action(struct group_run *g, const json_t *a, ms_t start)
{
	size_t i;

	g->failed = 1;
	g->failed_at = world_str(a, "id");
	set_result(g->s, a, record(g->s, a, RESULT_FAILED, start, g->t),
	    RESULT_FAILED);
	for (i = g->ndone; i-- > 0;)
		undo_one(g, &g->done[i]);
	if (world_is(a, "op", "migrate"))
		replace_vm(g, a);
}

/*
 * refused: the cloud itself refuses the action: its host has failed, or
 * it puts a VM where the cloud will not (destination_refuses()).
 */
static int
refused(struct sim *s, const json_t *a)
{
	const char *host = world_str(a, "host");

	if (host != NULL && world_resource(&s->world, host) != NULL &&
	    world_status_is(&s->world, host, "failed")) {
		report_unreachable(&s->report, host);
		return 1;
	}
	return destination_refuses(s, a);
}

static void
run_action(struct group_run *g, const json_t *a)
{
	struct sim *s = g->s;
	ms_t start = g->t;
	struct done *d;

	if (g->failed) {
		set_result(s, a, record(s, a, RESULT_NOT_RUN, start, start),
		    RESULT_NOT_RUN);
		return;
	}
	if (world_is(a, "op", "migrate")) {
		start = g->t = live_queue_start(&s->live, world_str(a, "source"),
		    g->t);
		live_queue_end(&s->live, world_str(a, "source"),
		    g->t + duration_of(a));
	}
	g->t += duration_of(a);
	host_outage(s, a, start, g->t);
	if (sim_draw_failure(s, world_str(a, "id")) || refused(s, a)) {
		fail_action(g, a, start);
		return;
	}
	d = &g->done[g->ndone++];
	d->action = a;
	effect_apply(s, a, &d->effect);
	d->step = record(s, a, RESULT_SUCCEEDED, start, g->t);
	set_result(s, a, d->step, RESULT_SUCCEEDED);
	if (world_is(a, "op", "migrate"))
		migration_outage(s, world_str(a, "vm"), world_str(a, "id"), g->t);
}

/*
 * skip_group: a group whose required actions did not all succeed does
 * not start (its safety conditions, upkit-state(5)); how it ended when
 * skipped ("blocked" or "not run"), else NULL.
 */
static const char *
skip_group(struct sim *s, const json_t *group, ms_t start)
{
	int blocked;
	char *why = report_unmet(&s->report, group, &blocked);
	const json_t *a;
	size_t i;

	if (why == NULL)
		return NULL;
	json_array_foreach(json_object_get(group, "actions"), i, a)
		record(s, a, blocked ? RESULT_BLOCKED : RESULT_NOT_RUN, start,
		    start);
	report_skip(&s->report, group, why, blocked);
	free(why);
	return blocked ? "blocked" : "not run";
}

/* group_ended: -v's line of the group of stage that ended at end. */
static void
group_ended(struct sim *s, const char *stage, const json_t *group, ms_t end,
    const char *how, const char *failed_at)
{
	if (!s->ended.on)
		return;
	ended_add(&s->ended, end, failed_at != NULL ?
	    xasprintf("%s %s: failed at %s", stage, world_str(group, "id"),
	    failed_at) : xasprintf("%s %s: %s", stage, world_str(group, "id"),
	    how));
}

/*
 * run_group: a group of stage (its schedule and stage ids) from start;
 * returns when it ends.
 */
static ms_t
run_group(struct sim *s, const char *stage, const json_t *group, ms_t start,
    json_t *failed)
{
	const json_t *actions = json_object_get(group, "actions"), *a;
	struct group_run g = { s, NULL, 0, start, 0, NULL };
	const char *skipped = skip_group(s, group, start);
	size_t i;

	if (skipped != NULL) {
		json_object_set_new(failed, world_str(group, "id"), json_true());
		group_ended(s, stage, group, start, skipped, NULL);
		return start;
	}
	g.failed = json_object_get(failed, world_str(group, "id")) != NULL;
	skipped = g.failed ? "not run" : "done";
	g.done = xcalloc(json_array_size(actions), sizeof *g.done);
	json_array_foreach(actions, i, a)
		run_action(&g, a);
	for (i = 0; i < g.ndone; i++)
		effect_free(&g.done[i].effect);
	free(g.done);
	if (g.failed)
		json_object_set_new(failed, world_str(group, "id"), json_true());
	group_ended(s, stage, group, g.t, skipped, g.failed_at);
	return g.t;
}

/* run_stage: groups on the slot that frees first (lowest index on ties). */
static void
run_stage(struct sim *s, const json_t *sched, const json_t *stage,
    long concurrency, json_t *failed)
{
	const json_t *groups = json_object_get(stage, "groups"), *g;
	char *where = xasprintf("%s %s", world_str(sched, "id"),
	    world_str(stage, "id"));
	struct slots slots;
	ms_t end = s->now, done;
	size_t i;

	/* More slots than groups change nothing; do not allocate them. */
	if ((size_t)concurrency > json_array_size(groups))
		concurrency = (long)json_array_size(groups) + 1;
	slots_init(&slots, (size_t)concurrency, s->now);
	json_array_foreach(groups, i, g) {
		done = run_group(s, where, g, slots_first_free(&slots), failed);
		slots_reuse(&slots, done);
		if (done > end)
			end = done;
	}
	slots_free(&slots);
	free(where);
	ended_tell(&s->ended, s->iter_start);
	s->now = end;
}

static void
run_schedule(struct sim *s, const json_t *sched)
{
	json_t *failed = json_object(), *stage;
	long c = (long)json_integer_value(json_object_get(sched, "concurrency"));
	size_t i;

	report_schedule(&s->report, world_str(sched, "id"));
	json_array_foreach(json_object_get(sched, "stages"), i, stage) {
		ms_t start = s->now;
		size_t mark = s->outages.n;

		timeline_apply(s, s->now);
		run_stage(s, sched, stage, c, failed);
		stranded_outages(s, mark, start, s->now);
	}
	json_decref(failed);
}

void
run_iteration(struct sim *s)
{
	size_t i;

	s->now = s->iter_start + s->opt->calc_ms;
	stranded_outages(s, s->outages.n, s->iter_start, s->now);
	for (i = 0; i < s->scheds.n; i++)
		run_schedule(s, s->scheds.sched[i]);
	timeline_apply(s, s->now);
}
