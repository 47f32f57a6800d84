/* solve.c: from a compiled problem to a result (see solver.h). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "solver.h"
#include "xalloc.h"

/* value: the objective of the counts, in the stated direction. */
static double
value(const struct mc_problem *p, const long *count)
{
	double v = p->obj_const;
	size_t o;

	for (o = 0; o < p->noffers; o++)
		v += p->obj[o] * (double)count[o];
	return v;
}

/* dp_then_bnb: the dynamic program where it applies, else branch and
 * bound. */
static enum mc_status
dp_then_bnb(const struct inst *in, const struct mc_limits *lim, long *x,
    double *bound, int *found, struct mc_stats *st)
{
	enum mc_status status = ST_UNSUITED;

	if (lim->method != 2 && dp_applies(in))
		status = dp_solve(in, lim, x, st);
	if (status != ST_UNSUITED) {
		*found = status == ST_OPTIMAL;
		return status;
	}
	return bnb_solve(in, lim, x, bound, found, st);
}

void
solve(const struct mc_problem *p, const unsigned char *active,
    const long *lo, const long *hi, const struct mc_limits *lim,
    struct mc_result *r)
{
	struct inst in;
	long *x;
	double bound = 0;
	size_t v;

	memset(r, 0, sizeof *r);
	r->count = xcalloc(p->noffers, sizeof *r->count);
	inst_build(&in, p, active, lo, hi, lim->reduce, &r->st);
	x = xcalloc(in.n, sizeof *x);
	r->status = in.infeasible ? ST_INFEASIBLE :
	    dp_then_bnb(&in, lim, x, &bound, &r->found, &r->st);
	for (v = 0; r->found && v < in.n; v++)
		r->count[in.offer[v]] = x[v];
	if (r->found)
		r->objective = value(p, r->count);
	if (r->found && r->status == ST_OPTIMAL)
		r->bound = r->objective;
	else
		r->bound = (p->maximise ? -bound : bound) + p->obj_const;
	free(x);
	inst_free(&in);
}

void
result_free(struct mc_result *r)
{
	free(r->count);
	memset(r, 0, sizeof *r);
}
