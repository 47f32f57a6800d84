/*
 * outage.c: VM outages and the SLA violations they make.
 *
 * Section V: "whenever VMs experience outage we consider that SLA
 * violations occur", as the tenant has fewer VMs than it is owed.  A
 * violation of a tenant is a maximal stretch of time during which at
 * least one of its VMs is out; it impacts the most VMs out at once in
 * it.  Its quadratic proportional penalty is q times the integral of
 * n(t)^2, n(t) the tenant's VMs out at time t: for a violation of d
 * seconds with n VMs out throughout, q * d * n^2.  The application of
 * a tenant is out (Fig. 9, 10) while one of its anti-affinity groups
 * has two VMs out, or its only VM.
 */
#include <stdlib.h>
#include <string.h>

#include "sim.h"
#include "xalloc.h"

void
outages_add(struct outages *o, size_t tenant, const char *vm,
    const char *group, const char *cause, ms_t start, ms_t end)
{
	struct outage *x;

	if (end <= start)
		return;
	if (o->n == o->cap) {
		o->cap = o->cap ? 2 * o->cap : 16;
		o->v = xreallocarray(o->v, o->cap, sizeof *o->v);
	}
	x = &o->v[o->n++];
	x->tenant = tenant;
	x->vm = xstrdup(vm);
	x->group = xstrdup(group != NULL ? group : vm);
	x->cause = xstrdup(cause != NULL ? cause : "");
	x->start = start;
	x->end = end;
}

void
outages_free(struct outages *o)
{
	size_t i;

	for (i = 0; i < o->n; i++) {
		free(o->v[i].vm);
		free(o->v[i].group);
		free(o->v[i].cause);
	}
	free(o->v);
	memset(o, 0, sizeof *o);
}

static int
cmp_ms(const void *a, const void *b)
{
	ms_t x = *(const ms_t *)a, y = *(const ms_t *)b;

	return (x > y) - (x < y);
}

/* A tenant's state during one segment between two boundaries. */
struct segment {
	long out;		/* distinct VMs out */
	int app_out;		/* an anti-affinity group is down */
};

/* segment_at: who is out during [t0, t1), among the n outages of the
 * tenant in mine. */
static struct segment
segment_at(const struct outage *const *mine, size_t n, const struct world *w,
    size_t tenant, ms_t t0, ms_t t1)
{
	struct segment sg = { 0, 0 };
	size_t i, j;

	for (i = 0; i < n; i++) {
		const struct outage *x = mine[i];
		long in_group = 0;
		int dup = 0;

		if (x->start > t0 || x->end < t1)
			continue;
		for (j = 0; j < i && !dup; j++)
			dup = mine[j]->start <= t0 && mine[j]->end >= t1 &&
			    strcmp(mine[j]->vm, x->vm) == 0;
		if (dup)
			continue;
		sg.out++;
		for (j = 0; j < n; j++)
			in_group += mine[j]->start <= t0 && mine[j]->end >= t1 &&
			    strcmp(mine[j]->group, x->group) == 0;
		if (in_group >= 2 || world_group_size(w, tenant, x->group) <= 1)
			sg.app_out = 1;
	}
	return sg;
}

static void
close_violation(struct tenant_totals *tot, json_t *arr, ms_t start, ms_t end,
    long vms)
{
	tot->violations++;
	tot->violation_ms += end - start;
	if (tot->vms_min == 0 || vms < tot->vms_min)
		tot->vms_min = vms;
	if (vms > tot->vms_max)
		tot->vms_max = vms;
	if (arr != NULL)
		json_array_append_new(arr, json_pack("{s:I,s:I,s:I}", "start_ms",
		    (json_int_t)start, "end_ms", (json_int_t)end, "vms",
		    (json_int_t)vms));
}

void
outages_by_tenant(const struct outages *o, size_t ntenants, size_t **firstp,
    const struct outage ***listp)
{
	size_t *first = xcalloc(ntenants + 2, sizeof *first), i, *fill;
	const struct outage **list = xcalloc(o->n + 1, sizeof *list);

	for (i = 0; i < o->n; i++)
		first[o->v[i].tenant + 2]++;
	for (i = 2; i < ntenants + 2; i++)
		first[i] += first[i - 1];
	fill = first + 1;	/* fill[t] runs from first[t] up */
	for (i = 0; i < o->n; i++)
		list[fill[o->v[i].tenant]++] = &o->v[i];
	*firstp = first;
	*listp = list;
}

void
outages_violations(const struct outage *const *mine, size_t n,
    const struct world *w, size_t t, struct tenant_totals *tot, json_t *arr)
{
	ms_t *b = xcalloc(2 * n + 1, sizeof *b), vstart = 0;
	size_t nb = 0, i;
	long vms = 0;

	for (i = 0; i < n; i++) {
		b[nb++] = mine[i]->start;
		b[nb++] = mine[i]->end;
		tot->vm_outage_ms += mine[i]->end - mine[i]->start;
	}
	qsort(b, nb, sizeof *b, cmp_ms);
	for (i = 0; i + 1 < nb; i++) {
		struct segment sg;

		if (b[i] == b[i + 1])
			continue;
		sg = segment_at(mine, n, w, t, b[i], b[i + 1]);
		if (sg.out > 0 && vms == 0)
			vstart = b[i];
		if (sg.out == 0 && vms > 0) {
			close_violation(tot, arr, vstart, b[i], vms);
			vms = 0;
		}
		if (sg.out > vms)
			vms = sg.out;
		tot->penalty += (b[i + 1] - b[i]) * sg.out * sg.out;
		tot->app_outage_ms += sg.app_out ? b[i + 1] - b[i] : 0;
	}
	if (vms > 0)
		close_violation(tot, arr, vstart, b[nb - 1], vms);
	free(b);
}
