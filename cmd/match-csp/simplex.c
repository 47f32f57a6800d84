/*
 * simplex.c: a dense bounded-variable primal simplex for the LP
 * relaxations of branch and bound (see milp.h).
 *
 * Every row gets a slack with bounds that encode its sense (<=: [0,inf),
 * >=: (-inf,0], =: [0,0]) and, when the starting point violates it, an
 * artificial.  Phase 1 minimises the artificials, phase 2 the costs.
 * Nonbasic columns sit at a finite bound; the ratio test lets the
 * entering column flip to its other bound.  Dantzig pricing, with
 * Bland's rule after a run of degenerate pivots so that it terminates.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "milp.h"
#include "xalloc.h"

#define TOL 1e-9
#define FEAS 1e-7
#define DEGENERATE_RUN 30

enum { BASIC, AT_LB, AT_UB };

struct spx {
	size_t m, n, ns;	/* rows, columns, structural columns */
	double *T, *beta, *lb, *ub, *x, *d, *cost;
	size_t *basis;
	char *state;
	unsigned long iters, limit;
	int bland;
	unsigned degenerate;
};

static void
spx_alloc(struct spx *s, const struct milp *mp)
{
	memset(s, 0, sizeof *s);
	s->m = mp->m;
	s->ns = mp->n;
	s->n = mp->n + 2 * mp->m;
	s->T = xcalloc(s->m * s->n, sizeof *s->T);
	s->beta = xcalloc(s->m, sizeof *s->beta);
	s->basis = xcalloc(s->m, sizeof *s->basis);
	s->lb = xcalloc(s->n, sizeof *s->lb);
	s->ub = xcalloc(s->n, sizeof *s->ub);
	s->x = xcalloc(s->n, sizeof *s->x);
	s->d = xcalloc(s->n, sizeof *s->d);
	s->cost = xcalloc(s->n, sizeof *s->cost);
	s->state = xcalloc(s->n, 1);
	s->limit = 50 * (unsigned long)(s->m + s->n) + 1000;
}

static void
spx_free(struct spx *s)
{
	free(s->T);
	free(s->beta);
	free(s->basis);
	free(s->lb);
	free(s->ub);
	free(s->x);
	free(s->d);
	free(s->cost);
	free(s->state);
}

static void
slack_bounds(struct spx *s, size_t i, char sense)
{
	size_t j = s->ns + i;

	s->lb[j] = sense == 'G' ? -INFINITY : 0;
	s->ub[j] = sense == 'L' ? INFINITY : 0;
}

/* start_row: the slack if it can absorb the row, else an artificial. */
static void
start_row(struct spx *s, const struct milp *mp, size_t i)
{
	double r = mp->b[i], sign = 1, *t = &s->T[i * s->n];
	size_t j, sl = s->ns + i, art = s->ns + s->m + i;

	for (j = 0; j < s->ns; j++)
		r -= mp->A[i * mp->n + j] * s->x[j];
	slack_bounds(s, i, mp->sense[i]);
	s->ub[art] = INFINITY;
	if (r >= s->lb[sl] - TOL && r <= s->ub[sl] + TOL) {
		s->basis[i] = sl;
		s->state[sl] = BASIC;
		s->beta[i] = r;
		s->state[art] = AT_LB;
		s->ub[art] = 0;
	} else {
		sign = r > 0 ? 1 : -1;
		s->basis[i] = art;
		s->state[art] = BASIC;
		s->beta[i] = fabs(r);
		s->state[sl] = s->lb[sl] == 0 ? AT_LB : AT_UB;
		s->cost[art] = 1;
	}
	for (j = 0; j < s->ns; j++)
		t[j] = sign * mp->A[i * mp->n + j];
	t[sl] = sign;
	t[art] = 1;
}

static void
reduced_costs(struct spx *s)
{
	size_t i, j;

	for (j = 0; j < s->n; j++)
		s->d[j] = s->cost[j];
	for (i = 0; i < s->m; i++) {
		double cb = s->cost[s->basis[i]];

		if (cb != 0)
			for (j = 0; j < s->n; j++)
				s->d[j] -= cb * s->T[i * s->n + j];
	}
}

/* entering: an improving nonbasic column, or n when optimal. */
static size_t
entering(const struct spx *s)
{
	size_t j, best = s->n;
	double score = TOL, v;

	for (j = 0; j < s->n; j++) {
		if (s->state[j] == BASIC || s->ub[j] - s->lb[j] <= TOL)
			continue;
		v = s->state[j] == AT_LB ? -s->d[j] : s->d[j];
		if (v > score) {
			best = j;
			if (s->bland)
				return j;
			score = v;
		}
	}
	return best;
}

/* ratio: how far column j can move (dir +1 up, -1 down); row in *r. */
static double
ratio(const struct spx *s, size_t j, int dir, size_t *r)
{
	double theta = s->ub[j] - s->lb[j], lim, a, best_a = 0;
	size_t i, b;

	*r = s->m;
	for (i = 0; i < s->m; i++) {
		a = -dir * s->T[i * s->n + j];
		b = s->basis[i];
		if (a < -TOL && s->lb[b] > -INFINITY)
			lim = (s->beta[i] - s->lb[b]) / -a;
		else if (a > TOL && s->ub[b] < INFINITY)
			lim = (s->ub[b] - s->beta[i]) / a;
		else
			continue;
		if (lim < 0)
			lim = 0;
		if (lim < theta - 1e-12 || (lim <= theta + 1e-12 && *r < s->m &&
		    (s->bland ? b < s->basis[*r] : fabs(a) > best_a))) {
			theta = lim;
			*r = i;
			best_a = fabs(a);
		}
	}
	return theta;
}

static void
pivot(struct spx *s, size_t r, size_t j)
{
	double *tr = &s->T[r * s->n], p = tr[j], f;
	size_t i, k;

	for (k = 0; k < s->n; k++)
		tr[k] /= p;
	for (i = 0; i < s->m; i++) {
		double *ti = &s->T[i * s->n];

		if (i == r || (f = ti[j]) == 0)
			continue;
		for (k = 0; k < s->n; k++)
			ti[k] -= f * tr[k];
	}
	f = s->d[j];
	for (k = 0; k < s->n; k++)
		s->d[k] -= f * tr[k];
}

/* iterate: one step; 0 optimal, 1 moved, -1 unbounded. */
static int
iterate(struct spx *s)
{
	size_t j = entering(s), r, i, leave;
	int dir;
	double theta;

	if (j == s->n)
		return 0;
	dir = s->state[j] == AT_LB ? 1 : -1;
	theta = ratio(s, j, dir, &r);
	if (theta == INFINITY)
		return -1;
	s->degenerate = theta < 1e-12 ? s->degenerate + 1 : 0;
	s->bland |= s->degenerate > DEGENERATE_RUN;
	for (i = 0; i < s->m; i++)
		s->beta[i] += -dir * s->T[i * s->n + j] * theta;
	if (r == s->m) {
		s->state[j] = dir > 0 ? AT_UB : AT_LB;
		s->x[j] = dir > 0 ? s->ub[j] : s->lb[j];
		return 1;
	}
	leave = s->basis[r];
	s->state[leave] = -dir * s->T[r * s->n + j] < 0 ? AT_LB : AT_UB;
	s->x[leave] = s->state[leave] == AT_LB ? s->lb[leave] : s->ub[leave];
	s->beta[r] = s->x[j] + dir * theta;
	s->basis[r] = j;
	s->state[j] = BASIC;
	pivot(s, r, j);
	return 1;
}

static enum lp_status
phase(struct spx *s)
{
	int k;

	reduced_costs(s);
	s->bland = 0;
	s->degenerate = 0;
	while ((k = iterate(s)) > 0)
		if (++s->iters > s->limit)
			return LP_LIMIT;
	return k < 0 ? LP_UNBOUNDED : LP_OPTIMAL;
}

static int
artificials_left(const struct spx *s)
{
	double sum = 0;
	size_t i;

	for (i = 0; i < s->m; i++)
		if (s->basis[i] >= s->ns + s->m)
			sum += s->beta[i];
	return sum > FEAS;
}

static void
to_phase2(struct spx *s, const struct milp *mp)
{
	size_t j;

	memset(s->cost, 0, s->n * sizeof *s->cost);
	memcpy(s->cost, mp->c, mp->n * sizeof *s->cost);
	for (j = s->ns + s->m; j < s->n; j++)
		s->ub[j] = 0;
}

static void
values(const struct spx *s, const struct milp *mp, double *x, double *obj)
{
	size_t i, j;

	for (j = 0; j < s->ns; j++)
		x[j] = s->x[j];
	for (i = 0; i < s->m; i++)
		if (s->basis[i] < s->ns)
			x[s->basis[i]] = s->beta[i];
	*obj = 0;
	for (j = 0; j < s->ns; j++)
		*obj += mp->c[j] * x[j];
}

enum lp_status
lp_solve(const struct milp *mp, const double *lo, const double *up,
    double *x, double *obj, unsigned long *iters)
{
	struct spx s;
	enum lp_status st = LP_OPTIMAL;
	size_t j;

	spx_alloc(&s, mp);
	for (j = 0; j < s.ns; j++) {
		s.lb[j] = lo[j];
		s.ub[j] = up[j];
		s.x[j] = lo[j];
		s.state[j] = AT_LB;
		if (lo[j] > up[j] + TOL)
			st = LP_INFEASIBLE;
	}
	for (j = 0; st == LP_OPTIMAL && j < s.m; j++)
		start_row(&s, mp, j);
	if (st == LP_OPTIMAL)
		st = phase(&s);
	if (st == LP_OPTIMAL && artificials_left(&s))
		st = LP_INFEASIBLE;
	if (st == LP_OPTIMAL) {
		to_phase2(&s, mp);
		st = phase(&s);
	}
	if (st == LP_OPTIMAL)
		values(&s, mp, x, obj);
	*iters += s.iters;
	spx_free(&s);
	return st;
}
