/*
 * sim_report.c: the upgrade iteration report (seed 000 III.B) that the
 * simulator writes as the report section: the part every actuator
 * writes (report.h, in the format rg-build reads, upkit-state(5)), the
 * refreshed system, and the simulation's own findings under "sim": the
 * simulated clock, every step run, the VM outages and SLA violations
 * of the iteration, and the totals since the first one.  Reads them
 * back from the previous report, to carry the clock and totals on.
 */
#include "sim.h"
#include "timefmt.h"
#include "xalloc.h"

/* Per-tenant totals as JSON (integers only: exact and portable). */
static json_t *
totals_json(const struct tenant_totals *t)
{
	return json_pack("{s:I,s:I,s:I,s:I,s:I,s:I,s:I,s:I}",
	    "violations", (json_int_t)t->violations,
	    "vms_min", (json_int_t)t->vms_min,
	    "vms_max", (json_int_t)t->vms_max,
	    "violation_ms", (json_int_t)t->violation_ms,
	    "penalty_ms", (json_int_t)t->penalty,
	    "app_outage_ms", (json_int_t)t->app_outage_ms,
	    "vm_outages", (json_int_t)t->outages,
	    "vm_outage_ms", (json_int_t)t->vm_outage_ms);
}

static const char *const totals_keys[] = { "violations", "vms_min",
	"vms_max", "violation_ms", "penalty_ms", "app_outage_ms",
	"vm_outages", "vm_outage_ms", NULL };

/* totals_read: a previous report's totals of one tenant. */
static int
totals_read(struct access *a, const json_t *obj, struct tenant_totals *t)
{
	json_int_t v[8];
	size_t i;

	if (acc_as_object(a, obj) < 0 || acc_check_keys(a, obj, totals_keys) < 0)
		return -1;
	for (i = 0; totals_keys[i] != NULL; i++)
		if (acc_get_int_range(a, obj, totals_keys[i], ACC_REQUIRED, 0,
		    INT64_MAX / 4, &v[i]) < 0)
			return -1;
	t->violations = (long)v[0];
	t->vms_min = (long)v[1];
	t->vms_max = (long)v[2];
	t->violation_ms = v[3];
	t->penalty = v[4];
	t->app_outage_ms = v[5];
	t->outages = (long)v[6];
	t->vm_outage_ms = v[7];
	return 0;
}

static void
merge_totals(struct tenant_totals *into, const struct tenant_totals *t)
{
	if (t->violations > 0 && (into->vms_min == 0 ||
	    t->vms_min < into->vms_min))
		into->vms_min = t->vms_min;
	if (t->vms_max > into->vms_max)
		into->vms_max = t->vms_max;
	into->violations += t->violations;
	into->violation_ms += t->violation_ms;
	into->penalty += t->penalty;
	into->app_outage_ms += t->app_outage_ms;
	into->outages += t->outages;
	into->vm_outage_ms += t->vm_outage_ms;
}

/*
 * tenant_block: this iteration's violations and the running totals,
 * from the tenant's n outages in mine.
 */
static void
tenant_block(struct sim *s, size_t t, const struct outage *const *mine,
    size_t n, json_t *viol, json_t *tot)
{
	const char *id = world_str(world_tenant(&s->world, t), "id");
	struct tenant_totals now = { 0 }, all = { 0 };
	json_t *list = json_array(), *prev;

	outages_violations(mine, n, &s->world, t, &now, list);
	now.outages = (long)n;
	prev = json_object_get(json_object_get(s->prev_totals, "tenants"), id);
	if (prev != NULL) {
		struct access a;

		/* Checked by sim_prev_report() already. */
		access_init(&a, "-");
		(void)totals_read(&a, prev, &all);
		access_free(&a);
	}
	merge_totals(&all, &now);
	if (json_array_size(list) > 0)
		json_object_set(viol, id, list);
	json_decref(list);
	json_object_set_new(tot, id, totals_json(&all));
}

static json_t *
outages_json(const struct sim *s)
{
	json_t *arr = json_array();
	size_t i;

	for (i = 0; i < s->outages.n; i++) {
		const struct outage *o = &s->outages.v[i];

		json_array_append_new(arr, json_pack("{s:s,s:s,s:s,s:I,s:I}",
		    "vm", o->vm, "tenant", world_str(world_tenant(&s->world,
		    o->tenant), "id"), "cause", o->cause, "start_ms",
		    (json_int_t)o->start, "end_ms", (json_int_t)o->end));
	}
	return arr;
}

static json_t *
sim_block(struct sim *s)
{
	json_t *viol = json_object(), *tot = json_object();
	json_int_t iterations = 1;
	const struct outage **mine;
	char start[32];
	size_t t, *first;

	/* by tenant once: scanning all outages per tenant was quadratic */
	outages_by_tenant(&s->outages, world_ntenants(&s->world), &first, &mine);
	for (t = 0; t < world_ntenants(&s->world); t++)
		tenant_block(s, t, mine + first[t], first[t + 1] - first[t],
		    viol, tot);
	free(first);
	free(mine);
	if (s->prev_totals != NULL)
		iterations += json_integer_value(json_object_get(s->prev_totals,
		    "iterations"));
	time_format(s->start_epoch, start, sizeof start);
	return json_pack("{s:s,s:I,s:I,s:O,s:O,s:O,s:o,s:o,s:{s:I,s:I,s:o}}",
	    "start", start, "iteration_start_ms", (json_int_t)s->iter_start,
	    "clock_ms", (json_int_t)s->now, "steps", s->steps, "manual",
	    s->manual, "events", s->events, "outages", outages_json(s),
	    "violations", viol, "totals", "iterations", iterations,
	    "elapsed_ms", (json_int_t)s->now, "tenants", tot);
}

json_t *
sim_report(struct sim *s)
{
	char when[32];
	json_t *sec;

	time_format(s->start_epoch + s->now / 1000, when, sizeof when);
	sec = report_finish(&s->report, s->iteration, when, "upkit-sim");
	json_object_set(sec, "system", s->world.system);
	json_object_set_new(sec, "sim", sim_block(s));
	return sec;
}

static int
check_totals(struct access *a, const char *name, const json_t *v, void *ctx)
{
	struct tenant_totals t = { 0 };

	(void)name;
	(void)ctx;
	return totals_read(a, v, &t);
}

/* prev_sim: the previous report's clock and totals, checked. */
static int
prev_sim(struct sim *s, struct access *a, const json_t *sim)
{
	static const char *const known[] = { "start", "iteration_start_ms",
		"clock_ms", "steps", "manual", "events", "outages",
		"violations", "totals", NULL };
	const char *start;
	json_int_t clock;
	json_t *totals;

	access_enter_key(a, "sim");
	if (acc_as_object(a, sim) < 0 || acc_check_keys(a, sim, known) < 0 ||
	    acc_get_string(a, sim, "start", ACC_REQUIRED, &start) < 0 ||
	    acc_get_int_range(a, sim, "clock_ms", ACC_REQUIRED, 0,
	    INT64_MAX / 4, &clock) < 0 ||
	    acc_get_object(a, sim, "totals", ACC_REQUIRED, &totals) < 0)
		return -1;
	if (time_parse(start, &s->start_epoch) < 0)
		return access_fail_at(a, "start", "\"%s\" is not an ISO 8601 "
		    "time", start);
	s->iter_start = clock;
	s->prev_totals = totals;
	access_enter_key(a, "totals");
	if (acc_get_int_range(a, totals, "iterations", ACC_REQUIRED, 0,
	    INT32_MAX, &clock) < 0 || acc_each_member(a, totals, "tenants",
	    ACC_REQUIRED, check_totals, NULL) < 0)
		return -1;
	access_leave(a);
	access_leave(a);
	return 0;
}

/*
 * sim_prev_report: where the clock stands.  A report left by an earlier
 * iteration carries it on; without one this is the first iteration.
 */
int
sim_prev_report(struct sim *s, struct access *a, const json_t *prev)
{
	json_int_t it;
	const char *time;
	json_t *sim;

	s->first = prev == NULL;
	if (prev == NULL)
		return 0;
	access_enter_key(a, "report");
	if (acc_get_int(a, prev, "iteration", ACC_REQUIRED, &it) < 0 ||
	    acc_get_string(a, prev, "time", ACC_REQUIRED, &time) < 0)
		return -1;
	if (it >= s->iteration)
		return access_fail_at(a, "iteration", "iteration %ld is reported "
		    "already: run rg-build to plan the next one", (long)it);
	if ((sim = json_object_get(prev, "sim")) != NULL) {
		if (prev_sim(s, a, sim) < 0)
			return -1;
	} else if (time_parse(time, &s->start_epoch) < 0) {
		return access_fail_at(a, "time", "\"%s\" is not an ISO 8601 time",
		    time);
	}
	access_leave(a);
	return 0;
}

/* sim_report_check: a report with simulation totals, for --summary. */
int
sim_report_check(struct access *a, const json_t *report)
{
	struct sim s = { 0 };
	const json_t *sim = json_object_get(report, "sim");

	access_enter_key(a, "report");
	if (sim == NULL)
		return access_fail(a, "no simulation totals (\"sim\"): the last "
		    "iteration was not simulated");
	if (prev_sim(&s, a, sim) < 0)
		return -1;
	access_leave(a);
	return 0;
}
