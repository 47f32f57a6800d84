/*
 * summary.c: the measures of seed 000 section V, Tables II and III, for
 * one run of the loop or averaged over the runs of the rolling upgrade
 * baseline: total duration, SLA violations per tenant (min and max),
 * impacted VMs per violation (min and max), average total violation
 * time per tenant and the quadratic proportional penalty per tenant, in
 * units of the penalty rate q (q * sum over violations of d * n^2, d in
 * seconds, n the tenant's VMs out).  Also prints the loop's progress
 * (common/iaas/progress.h).
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "exitcodes.h"
#include "jtext.h"
#include "jwalk.h"
#include "load.h"
#include "output.h"
#include "progress.h"
#include "sim.h"
#include "state.h"
#include "summary_table.h"
#include "xalloc.h"

void
agg_add(struct agg *g, const struct tenant_totals *t, size_t n,
    ms_t duration, long iterations, long nvms)
{
	size_t i;

	for (i = 0; i < n; i++) {
		if (g->tenant_runs == 0 || t[i].violations < g->viol_min)
			g->viol_min = t[i].violations;
		if (t[i].violations > g->viol_max)
			g->viol_max = t[i].violations;
		if (t[i].violations > 0 && (g->vms_min == 0 ||
		    t[i].vms_min < g->vms_min))
			g->vms_min = t[i].vms_min;
		if (t[i].vms_max > g->vms_max)
			g->vms_max = t[i].vms_max;
		g->violation_ms += (double)t[i].violation_ms;
		g->penalty += (double)t[i].penalty;
		g->app_ms += (double)t[i].app_outage_ms;
		g->vm_outage_ms += (double)t[i].vm_outage_ms;
		g->tenant_runs++;
	}
	g->runs++;
	g->duration_ms += (double)duration;
	g->iterations += (double)iterations;
	g->vms += (double)nvms;
}

static json_int_t
mean(double sum, long n)
{
	return n > 0 ? (json_int_t)llround(sum / (double)n) : 0;
}

/* agg_json: means rounded to whole milliseconds, so JSON stays exact. */
json_t *
agg_json(const struct agg *g, const char *method)
{
	return json_pack("{s:s,s:I,s:I,s:I,s:{s:I,s:I},s:{s:I,s:I},s:I,s:I,"
	    "s:I,s:I}", "method", method, "runs", (json_int_t)g->runs,
	    "iterations", mean(g->iterations, g->runs), "duration_ms",
	    mean(g->duration_ms, g->runs), "violations_per_tenant", "min",
	    (json_int_t)g->viol_min, "max", (json_int_t)g->viol_max,
	    "vms_per_violation", "min", (json_int_t)g->vms_min, "max",
	    (json_int_t)g->vms_max, "violation_ms_per_tenant",
	    mean(g->violation_ms, g->tenant_runs), "penalty_ms_per_tenant",
	    mean(g->penalty, g->tenant_runs), "app_outage_ms_per_tenant",
	    mean(g->app_ms, g->tenant_runs), "outage_ms_per_vm",
	    mean(g->vm_outage_ms, (long)g->vms));
}

/* summary_write: sum (stolen) as JSON, or as a table with --table. */
int
summary_write(const struct options *o, json_t *sum)
{
	int status;
	FILE *fp;

	if (o->table) {
		fp = output_text_begin();
		summary_table(fp, sum, 1);
		status = output_text_commit(fp);
	} else {
		status = output_json(sum, &o->output);
	}
	json_decref(sum);
	return status;
}

int
progress_run(const struct options *o, json_t *doc)
{
	FILE *fp;

	(void)o;
	fp = output_text_begin();
	fprintf(fp, "%s\n", state_progress(doc));
	return output_text_commit(fp);
}

/* tenants_of: per-tenant totals of the last report, as C structures. */
static size_t
tenants_of(const json_t *tenants, struct tenant_totals *t)
{
	const char *id;
	json_t *v;
	size_t n = 0;

	json_object_foreach((json_t *)tenants, id, v) {
		t[n].violations = (long)json_integer_value(json_object_get(v,
		    "violations"));
		t[n].vms_min = (long)json_integer_value(json_object_get(v,
		    "vms_min"));
		t[n].vms_max = (long)json_integer_value(json_object_get(v,
		    "vms_max"));
		t[n].violation_ms = json_integer_value(json_object_get(v,
		    "violation_ms"));
		t[n].penalty = json_integer_value(json_object_get(v,
		    "penalty_ms"));
		t[n].app_outage_ms = json_integer_value(json_object_get(v,
		    "app_outage_ms"));
		t[n].vm_outage_ms = json_integer_value(json_object_get(v,
		    "vm_outage_ms"));
		n++;
	}
	return n;
}

static long
count_vms(const json_t *system)
{
	const json_t *t;
	size_t i;
	long n = 0;

	json_array_foreach(json_object_get(system, "tenants"), i, t)
		n += (long)json_array_size(json_object_get(t, "vms"));
	return n;
}

/*
 * summary_of: the summary of a loop run, from the totals the last
 * simulated report carries (sim_report_check() has checked them, or
 * upkit-sim has just made them).
 */
json_t *
summary_of(const json_t *doc)
{
	const json_t *rep = json_object_get(doc, "report");
	const json_t *sim = json_object_get(rep, "sim");
	const json_t *totals = json_object_get(sim, "totals");
	const json_t *tenants = json_object_get(totals, "tenants");
	struct tenant_totals *t = xcalloc(json_object_size(tenants),
	    sizeof *t);
	struct agg g = { 0 };
	json_t *sum;
	size_t n;

	n = tenants_of(tenants, t);
	agg_add(&g, t, n, json_integer_value(json_object_get(totals,
	    "elapsed_ms")), (long)json_integer_value(json_object_get(totals,
	    "iterations")), count_vms(json_object_get(rep, "system")));
	free(t);
	sum = agg_json(&g, "upkit");
	json_object_set_new(sum, "outcome", json_string(state_progress(doc)));
	json_object_set(sum, "tenants", (json_t *)tenants);
	return sum;
}

int
summary_run(const struct options *o, json_t *doc)
{
	return summary_write(o, summary_of(doc));
}
