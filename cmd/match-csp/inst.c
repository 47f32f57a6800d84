/*
 * inst.c: from a compiled problem to an instance over candidate offers
 * (see solver.h).  An offer is a candidate when every filter in force
 * lets it through and its bound allows a node.  Offer d dominates
 * offer o when both lie in the same class of every partition, d costs
 * no more, d is no worse in every row (>= rows: at least o's
 * coefficient, <= rows: at most, = rows: equal), o holds no running
 * node and d can take o's nodes.  Moving o's nodes to d keeps every
 * solution feasible and no dearer, so o can go.  Among equals the
 * earlier offer in document order stays.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "solver.h"
#include "xalloc.h"

static const struct inst *sort_in;	/* qsort's context */

static int
by_class_cost(const void *pa, const void *pb)
{
	size_t a = *(const size_t *)pa, b = *(const size_t *)pb, k;

	for (k = 0; k < sort_in->nparts; k++)
		if (sort_in->cls[k][a] != sort_in->cls[k][b])
			return sort_in->cls[k][a] < sort_in->cls[k][b] ? -1 : 1;
	if (sort_in->cost[a] != sort_in->cost[b])
		return sort_in->cost[a] < sort_in->cost[b] ? -1 : 1;
	return (a > b) - (a < b);
}

static int
same_classes(const struct inst *in, size_t a, size_t b)
{
	size_t k;

	for (k = 0; k < in->nparts; k++)
		if (in->cls[k][a] != in->cls[k][b])
			return 0;
	return 1;
}

/* capacity: how many nodes var v's group can hold. */
static long
capacity(const struct inst *in, size_t v)
{
	size_t k;

	for (k = 0; k < in->nparts; k++)
		if (in->part[k]->kind == P_UNIQUE && in->cls[k][v] != MC_NONE)
			return 1;
	return in->N;
}

static int
dominates(const struct inst *in, size_t d, size_t o)
{
	size_t r;

	if (in->lo[o] > 0 || in->hi[d] < capacity(in, d) ||
	    in->cost[d] > in->cost[o])
		return 0;
	for (r = 0; r < in->nrows; r++) {
		double a = in->a[r][d], b = in->a[r][o];

		if ((in->s[r] == S_GE && a < b) || (in->s[r] == S_LE && a > b) ||
		    (in->s[r] == S_EQ && a != b))
			return 0;
	}
	return 1;
}

/* keep_vars: the variables listed in keep, in that order. */
static void
keep_vars(struct inst *in, const size_t *keep, size_t nkeep)
{
	size_t i, r, k;

	for (i = 0; i < nkeep; i++) {
		in->offer[i] = in->offer[keep[i]];
		in->cost[i] = in->cost[keep[i]];
		in->lo[i] = in->lo[keep[i]];
		in->hi[i] = in->hi[keep[i]];
		for (r = 0; r < in->nrows; r++)
			in->a[r][i] = in->a[r][keep[i]];
		for (k = 0; k < in->nparts; k++)
			in->cls[k][i] = in->cls[k][keep[i]];
	}
	in->n = nkeep;
}

static int
cmp_size(const void *a, const void *b)
{
	size_t x = *(const size_t *)a, y = *(const size_t *)b;

	return (x > y) - (x < y);
}

/* reduce: drop dominated variables; survivors keep document order. */
static void
reduce(struct inst *in)
{
	size_t *order = xcalloc(in->n, sizeof *order), *keep;
	size_t i, j, start = 0, nkeep = 0;

	keep = xcalloc(in->n, sizeof *keep);
	for (i = 0; i < in->n; i++)
		order[i] = i;
	sort_in = in;
	qsort(order, in->n, sizeof *order, by_class_cost);
	for (i = 0; i < in->n; i++) {
		if (i > 0 && !same_classes(in, order[i], order[i - 1]))
			start = nkeep;
		for (j = start; j < nkeep; j++)
			if (dominates(in, keep[j], order[i]))
				break;
		if (j == nkeep)
			keep[nkeep++] = order[i];
	}
	qsort(keep, nkeep, sizeof *keep, cmp_size);
	keep_vars(in, keep, nkeep);
	free(order);
	free(keep);
}

static int
passes(const struct mc_problem *p, const unsigned char *active, size_t o)
{
	size_t f;

	for (f = 0; f < p->nfilters; f++)
		if (active[p->filters[f].req] && !p->filters[f].ok[o])
			return 0;
	return 1;
}

static void
alloc_inst(struct inst *in, const struct mc_problem *p,
    const unsigned char *active)
{
	size_t r, k, n = p->noffers;

	in->offer = xcalloc(n, sizeof *in->offer);
	in->cost = xcalloc(n, sizeof *in->cost);
	in->lo = xcalloc(n, sizeof *in->lo);
	in->hi = xcalloc(n, sizeof *in->hi);
	in->a = xcalloc(p->nrows, sizeof *in->a);
	in->b = xcalloc(p->nrows, sizeof *in->b);
	in->s = xcalloc(p->nrows, sizeof *in->s);
	in->rowreq = xcalloc(p->nrows, sizeof *in->rowreq);
	for (r = 0; r < p->nrows; r++)
		if (active[p->rows[r].req]) {
			in->rowreq[in->nrows] = p->rows[r].req;
			in->a[in->nrows] = xcalloc(n, sizeof **in->a);
			in->b[in->nrows] = p->rows[r].rhs;
			in->s[in->nrows++] = p->rows[r].sense;
		}
	in->part = xcalloc(p->nparts, sizeof *in->part);
	in->cls = xcalloc(p->nparts, sizeof *in->cls);
	for (k = 0; k < p->nparts; k++)
		if (active[p->parts[k].req]) {
			in->cls[in->nparts] = xcalloc(n, sizeof **in->cls);
			in->part[in->nparts++] = &p->parts[k];
		}
}

/* add_var: offer o as the next variable. */
static void
add_var(struct inst *in, const struct mc_problem *p,
    const unsigned char *active, size_t o, long lo, long hi)
{
	size_t r, k, v = in->n++;

	in->offer[v] = o;
	in->cost[v] = p->maximise ? -p->obj[o] : p->obj[o];
	in->lo[v] = lo;
	in->hi[v] = hi < in->N ? hi : in->N;
	for (r = k = 0; r < p->nrows; r++)
		if (active[p->rows[r].req])
			in->a[k++][v] = p->rows[r].coef[o];
	for (r = k = 0; r < p->nparts; r++)
		if (active[p->parts[r].req]) {
			in->cls[k][v] = p->parts[r].cls[o];
			if (p->parts[r].kind == P_UNIQUE &&
			    in->cls[k][v] != MC_NONE && in->hi[v] > 1)
				in->hi[v] = 1;
			k++;
		}
	if (in->lo[v] > in->hi[v])
		in->infeasible = 1;
}

void
inst_build(struct inst *in, const struct mc_problem *p,
    const unsigned char *active, const long *lo, const long *hi, int red,
    struct mc_stats *st)
{
	size_t o;

	memset(in, 0, sizeof *in);
	in->N = p->nodes;
	alloc_inst(in, p, active);
	for (o = 0; o < p->noffers; o++) {
		if (!passes(p, active, o)) {
			in->infeasible |= lo[o] > 0;
			continue;
		}
		if (hi[o] > 0)
			add_var(in, p, active, o, lo[o], hi[o]);
	}
	st->candidates = in->n;
	if (red && !in->infeasible)
		reduce(in);
	st->vars = in->n;
}

void
inst_free(struct inst *in)
{
	size_t k;

	for (k = 0; k < in->nrows; k++)
		free(in->a[k]);
	for (k = 0; k < in->nparts; k++)
		free(in->cls[k]);
	free(in->a);
	free(in->b);
	free(in->s);
	free(in->rowreq);
	free(in->cls);
	free(in->part);
	free(in->offer);
	free(in->cost);
	free(in->lo);
	free(in->hi);
	memset(in, 0, sizeof *in);
}
