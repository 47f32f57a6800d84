/*
 * dp.c: exact dynamic programming for instances whose rows have integer
 * coefficients and which have at most one partition, a "unique" one.
 *
 * Offers are processed group by group: a class of the unique partition
 * (at most one node, on one of its offers) or a single offer outside
 * every class (any count within its bounds).  The state is the number
 * of nodes placed and, per row, the row's value so far, scaled by the
 * gcd of its coefficients and capped where the row cannot change its
 * verdict any more (a ">= 15 cores" row stops counting at 15).  A state
 * keeps the cheapest way to reach it; the first way found wins ties, so
 * groups earlier in document order are preferred.
 */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "monotonic.h"
#include "solver.h"
#include "xalloc.h"

#define DP_MAX_STATES (1L << 20)
#define DP_MAX_CELLS (1L << 22)
#define DP_MAX_WORK 20000000.0

/* A row in DP form: integer coefficients, a value range and a verdict. */
struct drow {
	long *a;		/* per variable */
	long min, max;		/* the range of tracked values */
	long target;		/* the bound on the final value */
	enum sense s;
	int cap;		/* >= row with nonnegative a: cap at target */
};

struct dp {
	const struct inst *in;
	struct drow *rows;
	size_t nrows;
	long radix[64];		/* state = u + (N+1) * (row digits...) */
	long nstates;
	size_t *groups;		/* variables, grouped */
	size_t *gstart;		/* group g is groups[gstart[g]..gstart[g+1]) */
	int *unique;		/* group holds at most one node */
	size_t ngroups;
};

static long
gcd(long a, long b)
{
	while (b != 0) {
		long t = a % b;

		a = b;
		b = t;
	}
	return a < 0 ? -a : a;
}

static int
integral_rows(const struct inst *in)
{
	size_t r, v;

	for (r = 0; r < in->nrows; r++)
		for (v = 0; v < in->n; v++)
			if (in->a[r][v] != floor(in->a[r][v]) ||
			    fabs(in->a[r][v]) > 1e6)
				return 0;
	return 1;
}

int
dp_applies(const struct inst *in)
{
	size_t k, uniques = 0;

	for (k = 0; k < in->nparts; k++) {
		if (in->part[k]->kind != P_UNIQUE)
			return 0;
		uniques++;
	}
	return uniques <= 1 && in->nrows < 60 && integral_rows(in);
}

/*
 * make_row: scale row r into DP form.  Returns 0, 1 when the row always
 * holds (dropped) or -1 when it can never hold.
 */
static int
make_row(const struct inst *in, size_t r, struct drow *d)
{
	double b = in->b[r], sign = 1;
	long g = 0, lo = 0, hi = 0;
	size_t v;
	int pos = 1, neg = 1;

	for (v = 0; v < in->n; v++) {
		pos &= in->a[r][v] >= 0;
		neg &= in->a[r][v] <= 0;
	}
	d->s = in->s[r];
	if (neg && !pos) {
		sign = -1;
		b = -b;
		d->s = d->s == S_LE ? S_GE : d->s == S_GE ? S_LE : S_EQ;
	}
	d->a = xcalloc(in->n, sizeof *d->a);
	for (v = 0; v < in->n; v++) {
		d->a[v] = (long)(sign * in->a[r][v]);
		g = gcd(g, d->a[v]);
		lo = d->a[v] < lo ? d->a[v] : lo;
		hi = d->a[v] > hi ? d->a[v] : hi;
	}
	if (g == 0)
		return (d->s == S_LE ? 0 <= b + 1e-9 : d->s == S_GE ?
		    0 >= b - 1e-9 : fabs(b) < 1e-9) ? 1 : -1;
	for (v = 0; v < in->n; v++)
		d->a[v] /= g;
	b /= g;
	if (d->s == S_EQ && fabs(b - floor(b + 0.5)) > 1e-9)
		return -1;
	d->target = d->s == S_GE ? (long)ceil(b - 1e-9) : d->s == S_LE ?
	    (long)floor(b + 1e-9) : (long)floor(b + 0.5);
	d->min = lo / g * in->N;
	d->max = hi / g * in->N;
	if (lo < 0)
		return 0;
	d->cap = d->s == S_GE;
	if ((d->s == S_GE && d->target <= 0) ||
	    (d->s == S_LE && d->target >= d->max))
		return 1;
	if (d->target < 0 || (d->s != S_LE && d->target > d->max))
		return -1;
	d->max = d->target;
	return 0;
}

/* make_rows: all rows; -1 infeasible, 0 fine, 1 too many states. */
static int
make_rows(struct dp *dp)
{
	const struct inst *in = dp->in;
	size_t r;
	int k;

	dp->rows = xcalloc(in->nrows, sizeof *dp->rows);
	dp->radix[0] = in->N + 1;
	dp->nstates = in->N + 1;
	for (r = 0; r < in->nrows; r++) {
		struct drow *d = &dp->rows[dp->nrows];

		if ((k = make_row(in, r, d)) != 0) {
			free(d->a);
			memset(d, 0, sizeof *d);
			if (k < 0)
				return -1;
			continue;
		}
		dp->radix[++dp->nrows] = d->max - d->min + 1;
		if (dp->radix[dp->nrows] > DP_MAX_STATES ||
		    (dp->nstates *= dp->radix[dp->nrows]) > DP_MAX_STATES)
			return 1;
	}
	return 0;
}

static size_t unique_part(const struct inst *in)
{
	return in->nparts == 1 ? 0 : MC_NONE;
}

/* make_groups: classes of the unique partition first, then the rest. */
static void
make_groups(struct dp *dp)
{
	const struct inst *in = dp->in;
	size_t up = unique_part(in), ncls = up == MC_NONE ? 0 :
	    in->part[up]->ncls, c, v, k = 0;

	dp->groups = xcalloc(in->n, sizeof *dp->groups);
	dp->gstart = xcalloc(ncls + in->n + 2, sizeof *dp->gstart);
	dp->unique = xcalloc(ncls + in->n + 2, sizeof *dp->unique);
	for (c = 0; c < ncls; c++) {
		size_t first = k;

		for (v = 0; v < in->n; v++)
			if (in->cls[up][v] == c)
				dp->groups[k++] = v;
		if (k == first)
			continue;
		dp->gstart[dp->ngroups] = first;
		dp->unique[dp->ngroups++] = 1;
	}
	for (v = 0; v < in->n; v++)
		if (up == MC_NONE || in->cls[up][v] == MC_NONE) {
			dp->gstart[dp->ngroups++] = k;
			dp->groups[k++] = v;
		}
	dp->gstart[dp->ngroups] = k;
}

static void
dp_free(struct dp *dp)
{
	size_t r;

	for (r = 0; r < dp->nrows; r++)
		free(dp->rows[r].a);
	free(dp->rows);
	free(dp->groups);
	free(dp->gstart);
	free(dp->unique);
}

/*
 * step: the state after adding k nodes of variable v to state s, or -1
 * when a row leaves its range.
 */
static long
step(const struct dp *dp, long s, size_t v, long k)
{
	long u = s % dp->radix[0], rest = s / dp->radix[0], out, mul;
	size_t r;

	if (u + k > dp->in->N)
		return -1;
	out = u + k;
	mul = dp->radix[0];
	for (r = 0; r < dp->nrows; r++) {
		const struct drow *d = &dp->rows[r];
		long val = rest % dp->radix[r + 1] + d->min + k * d->a[v];

		rest /= dp->radix[r + 1];
		if (d->cap && val > d->max)
			val = d->max;
		if (val < d->min || val > d->max)
			return -1;
		out += (val - d->min) * mul;
		mul *= dp->radix[r + 1];
	}
	return out;
}

static int
final_ok(const struct dp *dp, long s)
{
	long rest = s / dp->radix[0];
	size_t r;

	if (s % dp->radix[0] != dp->in->N)
		return 0;
	for (r = 0; r < dp->nrows; r++) {
		const struct drow *d = &dp->rows[r];
		long val = rest % dp->radix[r + 1] + d->min;

		rest /= dp->radix[r + 1];
		if ((d->s == S_GE && val < d->target) ||
		    (d->s == S_LE && val > d->target) ||
		    (d->s == S_EQ && val != d->target))
			return 0;
	}
	return 1;
}

/* The tables: cost per state, and per group the way each state came. */
struct tables {
	double *cur, *next;
	int32_t *from;		/* [group][state]: previous state */
	int32_t *how;		/* [group][state]: variable index or count */
};

/* initial: nothing placed, every row at 0. */
static long
initial(const struct dp *dp)
{
	long s = 0, mul = dp->radix[0];
	size_t r;

	for (r = 0; r < dp->nrows; r++) {
		s += -dp->rows[r].min * mul;
		mul *= dp->radix[r + 1];
	}
	return s;
}

static void
relax(const struct dp *dp, struct tables *t, size_t g, long s, long to,
    double cost, int32_t how)
{
	size_t cell = g * (size_t)dp->nstates + (size_t)to;

	if (to < 0 || !(cost < t->next[to]))
		return;
	t->next[to] = cost;
	t->from[cell] = (int32_t)s;
	t->how[cell] = how;
}

/* expand: every way through group g from state s. */
static void
expand(const struct dp *dp, struct tables *t, size_t g, long s)
{
	const struct inst *in = dp->in;
	size_t i, v, first = dp->gstart[g], last = dp->gstart[g + 1];
	long k, forced = -1, nforced = 0;

	if (dp->unique[g]) {
		for (i = first; i < last; i++)
			if (in->lo[dp->groups[i]] > 0)
				forced = (long)i, nforced++;
		if (nforced > 1)
			return;
		if (forced < 0)
			relax(dp, t, g, s, s, t->cur[s], -1);
		for (i = first; i < last; i++) {
			v = dp->groups[i];
			if (forced < 0 || (long)i == forced)
				relax(dp, t, g, s, step(dp, s, v, 1),
				    t->cur[s] + in->cost[v], (int32_t)v);
		}
		return;
	}
	v = dp->groups[first];
	for (k = in->lo[v]; k <= in->hi[v]; k++)
		relax(dp, t, g, s, step(dp, s, v, k), t->cur[s] + (double)k *
		    in->cost[v], (int32_t)k);
}

static void
trace(const struct dp *dp, const struct tables *t, long s, long *x)
{
	size_t g = dp->ngroups;
	size_t cell;

	while (g-- > 0) {
		cell = g * (size_t)dp->nstates + (size_t)s;
		if (dp->unique[g] && t->how[cell] >= 0)
			x[t->how[cell]] = 1;
		else if (!dp->unique[g])
			x[dp->groups[dp->gstart[g]]] = t->how[cell];
		s = t->from[cell];
	}
}

/* run_tables: fill the tables within lim, then read the optimum into x. */
static enum mc_status
run_tables(const struct dp *dp, const struct mc_limits *lim, long *x,
    struct mc_stats *st)
{
	struct tables t;
	size_t g, cells = dp->ngroups * (size_t)dp->nstates;
	long s, best = -1;
	double *swap;

	t.cur = xcalloc((size_t)dp->nstates, sizeof *t.cur);
	t.next = xcalloc((size_t)dp->nstates, sizeof *t.next);
	t.from = xcalloc(cells, sizeof *t.from);
	t.how = xcalloc(cells, sizeof *t.how);
	for (s = 0; s < dp->nstates; s++)
		t.cur[s] = INFINITY;
	t.cur[initial(dp)] = 0;
	for (g = 0; g < dp->ngroups; g++) {
		if (lim->deadline > 0 && monotonic_seconds() > lim->deadline)
			break;
		for (s = 0; s < dp->nstates; s++)
			t.next[s] = INFINITY;
		for (s = 0; s < dp->nstates; s++)
			if (t.cur[s] < INFINITY) {
				st->nodes++;
				expand(dp, &t, g, s);
			}
		swap = t.cur, t.cur = t.next, t.next = swap;
	}
	for (s = 0; g == dp->ngroups && s < dp->nstates; s++)
		if (t.cur[s] < INFINITY && final_ok(dp, s) &&
		    (best < 0 || t.cur[s] < t.cur[best]))
			best = s;
	if (best >= 0)
		trace(dp, &t, best, x);
	free(t.cur);
	free(t.next);
	free(t.from);
	free(t.how);
	return g < dp->ngroups ? ST_TIMEOUT : best >= 0 ? ST_OPTIMAL :
	    ST_INFEASIBLE;
}

/* work: transitions the DP would try, to leave huge ones to bnb. */
static double
work(const struct dp *dp)
{
	double w = 0;
	size_t g, v;

	for (g = 0; g < dp->ngroups; g++) {
		v = dp->groups[dp->gstart[g]];
		w += dp->unique[g] ? (double)(dp->gstart[g + 1] - dp->gstart[g] +
		    1) : (double)(dp->in->hi[v] - dp->in->lo[v] + 1);
	}
	return w * (double)dp->nstates;
}

enum mc_status
dp_solve(const struct inst *in, const struct mc_limits *lim, long *x,
    struct mc_stats *st)
{
	struct dp dp;
	enum mc_status status;
	int k;

	memset(&dp, 0, sizeof dp);
	dp.in = in;
	st->method = "dp";
	if ((k = make_rows(&dp)) != 0) {
		dp_free(&dp);
		return k < 0 ? ST_INFEASIBLE : ST_UNSUITED;
	}
	make_groups(&dp);
	if ((long)dp.ngroups * dp.nstates > DP_MAX_CELLS ||
	    work(&dp) > DP_MAX_WORK) {
		dp_free(&dp);
		return ST_UNSUITED;
	}
	status = run_tables(&dp, lim, x, st);
	dp_free(&dp);
	return status;
}
