/* plan.c: keep, re-plan, grow and explain (see plan.h). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "monotonic.h"
#include "plan.h"
#include "xalloc.h"

void
plan_bounds(const struct plan *p, int keep, long *lo, long *hi)
{
	size_t o;
	int scale_in = keep && p->nkept > p->N;

	for (o = 0; o < p->m->noffers; o++) {
		lo[o] = keep && !scale_in ? p->kept[o] : 0;
		hi[o] = scale_in ? p->kept[o] : p->banned[o] ? lo[o] : p->N;
	}
}

static void
limits(const struct plan *p, struct mc_limits *lim, int first)
{
	memset(lim, 0, sizeof *lim);
	lim->deadline = p->deadline;
	lim->gap = p->o.gap;
	lim->first = first;
	lim->reduce = 1;
	lim->method = p->o.method;
	lim->label = p->o.label;
}

static int
compile(struct plan *p, long n)
{
	problem_free(&p->prob);
	return problem_compile(&p->prob, p->m, p->reqs, p->srcs, p->j->nreqs,
	    n);
}

static void
solve_with(struct plan *p, const unsigned char *active, int keep, int first,
    struct mc_result *r)
{
	struct mc_limits lim;
	long *lo = xcalloc(p->m->noffers, sizeof *lo);
	long *hi = xcalloc(p->m->noffers, sizeof *hi);
	double t = monotonic_seconds();

	plan_bounds(p, keep, lo, hi);
	limits(p, &lim, first);
	solve(&p->prob, active, lo, hi, &lim, r);
	p->solve_seconds += monotonic_seconds() - t;
	free(lo);
	free(hi);
}

/* feasible: with these requirements; unknown (time) counts as yes. */
static int
feasible(struct plan *p, const unsigned char *active, int keep)
{
	struct mc_result r;
	int yes;

	solve_with(p, active, keep, 1, &r);
	yes = r.status != ST_INFEASIBLE;
	if (r.status == ST_TIMEOUT && !r.found)
		p->conflict_minimal = 0;
	result_free(&r);
	return yes;
}

/*
 * explain: the deletion filter.  Drop each requirement in turn (then
 * the running nodes); if the rest stays infeasible it is not needed.
 * What remains cannot hold together, and every part of it is needed.
 */
static void
explain(struct plan *p)
{
	size_t i, n = p->j->nreqs;

	p->conflict = xcalloc(n, 1);
	memset(p->conflict, 1, n);
	p->conflict_minimal = 1;
	p->conflict_running = p->keep;
	for (i = 0; i < n; i++) {
		if (i == p->prob.obj_req) {
			p->conflict[i] = 0;
			continue;
		}
		p->conflict[i] = 0;
		if (feasible(p, p->conflict, p->conflict_running))
			p->conflict[i] = 1;
	}
	if (p->conflict_running && !feasible(p, p->conflict, 0))
		p->conflict_running = 0;
}

static unsigned char *
all_active(const struct plan *p)
{
	unsigned char *a = xcalloc(p->j->nreqs, 1);

	memset(a, 1, p->j->nreqs);
	return a;
}

static void
add_step(struct plan *p, long n, const struct mc_result *r)
{
	struct grow_step *s;

	p->steps = xreallocarray(p->steps, p->nsteps + 1, sizeof *p->steps);
	s = &p->steps[p->nsteps++];
	s->nodes = n;
	s->status = r->status;
	s->found = r->found;
	s->objective = r->objective;
}

/*
 * grow: Listing 2.  Until a node count is feasible, solve it from
 * scratch (keeping running nodes); afterwards keep what was found and
 * add one node.  Ends at N with the result in p->res.
 */
static int
grow(struct plan *p, const unsigned char *active)
{
	long n, target = p->N, start = p->keep && p->nkept > 0 ? p->nkept : 1;
	long *kept0 = p->kept, nkept0 = p->nkept;
	struct mc_result r;
	int found = 0;

	for (n = start < target ? start : target; n <= target; n++) {
		p->N = n;
		if (compile(p, n) < 0)
			return -1;
		solve_with(p, active, p->keep || found, 0, &r);
		add_step(p, n, &r);
		if (r.found && n < target) {
			if (p->kept != kept0)
				free(p->kept);
			p->kept = r.count;
			p->nkept = n;
			r.count = NULL;
			found = 1;
		}
		if (n < target)
			result_free(&r);
	}
	if (p->kept != kept0)
		free(p->kept);
	p->kept = kept0;
	p->nkept = nkept0;
	p->res = r;
	return 0;
}

int
plan_run(struct plan *p)
{
	unsigned char *active = all_active(p);
	int r = 0;

	p->keep = p->nkept > 0 && !p->o.replan;
	if (p->o.grow)
		r = grow(p, active);
	else if ((r = compile(p, p->N)) == 0)
		solve_with(p, active, p->keep, 0, &p->res);
	if (r == 0 && (p->keep || p->o.grow))
		solve_with(p, active, 0, 0, &p->full);
	if (r == 0 && p->res.status == ST_INFEASIBLE)
		explain(p);
	free(active);
	return r;
}

void
plan_free(struct plan *p)
{
	problem_free(&p->prob);
	result_free(&p->res);
	result_free(&p->full);
	free(p->banned);
	free(p->mits);
	free(p->kept);
	free(p->steps);
	free(p->conflict);
}
