/*
 * bnb.c: depth-first branch and bound on the LP relaxation (milp.h).
 *
 * Branch on the most fractional column (lowest index among equals);
 * the child nearer the LP value is explored first.  A node whose bound
 * cannot beat the incumbent is pruned; a new incumbent must be better
 * by more than a relative 1e-9, so the first optimal solution found is
 * the one reported.  The proven bound is the smallest bound of the open
 * nodes; the search stops at the time limit or when the incumbent is
 * within the requested gap of it.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "diag.h"
#include "milp.h"
#include "monotonic.h"
#include "xalloc.h"

struct bnode {
	double *lo, *up;
	double bound;		/* the parent's LP value */
};

struct search {
	const struct milp *mp;
	const struct mc_limits *lim;
	struct bnode *stack;
	size_t depth, cap;
	double *x, *best;
	double incumbent;
	int found;
	double started, reported;
	struct mc_stats *st;
};

static void
push(struct search *s, const double *lo, const double *up, double bound)
{
	size_t n = s->mp->n;
	struct bnode *b;

	if (s->depth == s->cap) {
		s->cap = s->cap ? 2 * s->cap : 64;
		s->stack = xreallocarray(s->stack, s->cap, sizeof *s->stack);
	}
	b = &s->stack[s->depth++];
	b->lo = xmalloc(n * sizeof *b->lo);
	b->up = xmalloc(n * sizeof *b->up);
	memcpy(b->lo, lo, n * sizeof *lo);
	memcpy(b->up, up, n * sizeof *up);
	b->bound = bound;
}

static double
tolerance(double v)
{
	return 1e-9 * (1 + fabs(v));
}

/* open_bound: the smallest bound among nodes still to explore. */
static double
open_bound(const struct search *s, double current)
{
	double lb = current;
	size_t i;

	for (i = 0; i < s->depth; i++)
		if (s->stack[i].bound < lb)
			lb = s->stack[i].bound;
	return lb;
}

/* branch_column: the most fractional column, or n if integral. */
static size_t
branch_column(const struct milp *mp, const double *x)
{
	size_t j, best = mp->n;
	double f, score = 1e-6;

	for (j = 0; j < mp->n; j++) {
		f = x[j] - floor(x[j]);
		f = f < 1 - f ? f : 1 - f;
		if (f > score) {
			score = f;
			best = j;
		}
	}
	return best;
}

static void
accept(struct search *s)
{
	double v = 0;
	size_t j;

	for (j = 0; j < s->mp->n; j++) {
		s->best[j] = floor(s->x[j] + 0.5);
		v += s->mp->c[j] * s->best[j];
	}
	s->incumbent = v;
	s->found = 1;
}

static void
branch(struct search *s, struct bnode *nd, size_t j, double obj)
{
	double v = s->x[j], keep_lo = nd->lo[j], keep_up = nd->up[j];
	int up_first = v - floor(v) >= 0.5;

	/* Push the later child first: the stack is last in, first out. */
	if (up_first)
		nd->up[j] = floor(v);
	else
		nd->lo[j] = ceil(v);
	push(s, nd->lo, nd->up, obj);
	nd->lo[j] = keep_lo;
	nd->up[j] = keep_up;
	if (up_first)
		nd->lo[j] = ceil(v);
	else
		nd->up[j] = floor(v);
	push(s, nd->lo, nd->up, obj);
}

static void
progress(struct search *s)
{
	double t;

	/*
	 * Progress is for a person watching: on a terminal only, so that a
	 * slow machine cannot change what a script sees on stderr.
	 */
	if (!isatty(STDERR_FILENO))
		return;
	t = monotonic_seconds();
	if (t - s->started < 1 || t - s->reported < 1)
		return;
	s->reported = t;
	if (s->found)
		diag_error(s->lim->label, "searching: %lu nodes, best %.6g, "
		    "bound %.6g", s->st->nodes, s->incumbent,
		    open_bound(s, s->incumbent));
	else
		diag_error(s->lim->label, "searching: %lu nodes, no solution "
		    "yet", s->st->nodes);
}

/* explore: one node; returns 1 to stop the search. */
static int
explore(struct search *s, struct bnode *nd)
{
	double obj;
	size_t j;

	s->st->nodes++;
	if (s->found && nd->bound >= s->incumbent - tolerance(s->incumbent))
		return 0;
	if (lp_solve(s->mp, nd->lo, nd->up, s->x, &obj, &s->st->iterations) !=
	    LP_OPTIMAL)
		return 0;
	if (s->found && obj >= s->incumbent - tolerance(s->incumbent))
		return 0;
	if ((j = branch_column(s->mp, s->x)) == s->mp->n) {
		accept(s);
		return s->lim->first;
	}
	branch(s, nd, j, obj);
	return 0;
}

static int
stop_early(struct search *s)
{
	double lb;

	progress(s);
	if (s->lim->deadline > 0 && monotonic_seconds() > s->lim->deadline)
		return 1;
	if (!s->found || s->lim->gap <= 0)
		return 0;
	lb = open_bound(s, s->incumbent);
	return s->incumbent - lb <= s->lim->gap * fmax(fabs(s->incumbent),
	    1e-9);
}

static enum mc_status
verdict(struct search *s, double *bound, int stopped)
{
	*bound = s->found ? open_bound(s, s->incumbent) :
	    open_bound(s, INFINITY);
	if (!stopped)
		return s->found ? ST_OPTIMAL : ST_INFEASIBLE;
	if (!s->found)
		return ST_TIMEOUT;
	if (s->depth == 0 || s->incumbent - *bound <= tolerance(s->incumbent))
		return ST_OPTIMAL;
	return s->lim->deadline > 0 && monotonic_seconds() > s->lim->deadline ?
	    ST_TIMEOUT : ST_FEASIBLE;
}

static enum mc_status
search(struct search *s, double *bound)
{
	struct bnode nd;
	int stopped = 0;

	push(s, s->mp->lo, s->mp->up, -INFINITY);
	while (s->depth > 0 && !(stopped = stop_early(s))) {
		nd = s->stack[--s->depth];
		stopped = explore(s, &nd);
		free(nd.lo);
		free(nd.up);
		if (stopped)
			break;
	}
	return verdict(s, bound, stopped);
}

enum mc_status
bnb_solve(const struct inst *in, const struct mc_limits *lim, long *x,
    double *bound, int *found, struct mc_stats *st)
{
	struct milp mp;
	struct search s;
	enum mc_status status;
	size_t v;

	milp_build(&mp, in);
	memset(&s, 0, sizeof s);
	s.mp = &mp;
	s.lim = lim;
	s.st = st;
	s.x = xcalloc(mp.n, sizeof *s.x);
	s.best = xcalloc(mp.n, sizeof *s.best);
	s.started = s.reported = monotonic_seconds();
	st->method = "branch-and-bound";
	status = search(&s, bound);
	*found = s.found;
	for (v = 0; s.found && v < in->n; v++)
		x[v] = (long)s.best[v];
	while (s.depth > 0) {
		s.depth--;
		free(s.stack[s.depth].lo);
		free(s.stack[s.depth].up);
	}
	free(s.stack);
	free(s.x);
	free(s.best);
	milp_free(&mp);
	return status;
}
