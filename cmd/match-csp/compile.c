/*
 * compile.c: requirements -> filters, rows, partitions and objective
 * (see problem.h).  Tables III and IV of seed 004, written per offer
 * instead of per node slot:
 *
 *   forAll(c)              filter: offers satisfying c
 *   exists(c)              row: sum_{o: c(o)} x[o] >= 1
 *   count(c) op k          row: sum_{o: c(o)} x[o] op k
 *   sum(a) op k            row: sum_o a(o) x[o] op k
 *   avg(a) op k            row: sum_o a(o) x[o] / N op k
 *   min(a) >= k            filter a >= k;  min(a) <= k: exists(a <= k)
 *   unique(a), allEqual(a) partitions by the value of a
 *   minimise(e)            objective: the linear form of e
 * Negations are pushed inwards (not forAll = exists not).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "problem.h"
#include "xalloc.h"

/* The compiler's context for one requirement. */
struct cc {
	struct mc_problem *p;
	const struct mc_model *m;
	const struct src *src;
	size_t req;
};

struct lin {
	double c0;
	double *coef;			/* per offer */
};

static int
unsupported(struct cc *c, const struct expr *e, const char *what)
{
	src_error(c->src, e->col, "%s", what);
	return -1;
}

static int
constant(const struct expr *e)
{
	return !e->nodes && !e->per_node;
}

static double
const_value(const struct cc *c, const struct expr *e)
{
	struct val v = eval(e, c->m, 0);

	return v.kind == V_NUM || v.kind == V_BOOL ? v.num : NAN;
}

/* mask: offers o with sel(o) and (arg(o) xor neg). */
static unsigned char *
mask(const struct cc *c, const struct expr *sel, const struct expr *arg,
    int neg)
{
	return offer_truths(c->m, c->p->noffers, sel, arg, neg);
}

static void
add_filter(struct cc *c, unsigned char *violators)
{
	struct mc_problem *p = c->p;
	size_t o;

	for (o = 0; o < p->noffers; o++)
		violators[o] = !violators[o];
	p->filters = xreallocarray(p->filters, p->nfilters + 1,
	    sizeof *p->filters);
	p->filters[p->nfilters].req = c->req;
	p->filters[p->nfilters++].ok = violators;
}

static void
add_row(struct cc *c, double *coef, enum sense s, double rhs)
{
	struct mc_problem *p = c->p;

	p->rows = xreallocarray(p->rows, p->nrows + 1, sizeof *p->rows);
	p->rows[p->nrows].req = c->req;
	p->rows[p->nrows].coef = coef;
	p->rows[p->nrows].sense = s;
	p->rows[p->nrows++].rhs = rhs;
}

static void
add_exists(struct cc *c, unsigned char *mk)
{
	double *coef = xcalloc(c->p->noffers, sizeof *coef);
	size_t o;

	for (o = 0; o < c->p->noffers; o++)
		coef[o] = mk[o];
	free(mk);
	add_row(c, coef, S_GE, 1);
}

/* forall: every node satisfies arg (xor neg) when it satisfies sel. */
static void
forall(struct cc *c, const struct expr *sel, const struct expr *arg, int neg)
{
	add_filter(c, mask(c, sel, arg, !neg));
}

static void
exists(struct cc *c, const struct expr *sel, const struct expr *arg, int neg)
{
	add_exists(c, mask(c, sel, arg, neg));
}

#define UNSEEN (MC_NONE - 1)

/* value_class: the class of a value in a partition, MC_NONE when out. */
static size_t
value_class(struct idmap *classes, const struct offer_val *v)
{
	char buf[512];
	long i;

	if (!v->selected)
		return MC_NONE;
	val_key(v->v, buf, sizeof buf);
	if ((i = idmap_add(classes, buf)) < 0)
		i = -i - 1;
	return (size_t)i;
}

static void
partition(struct cc *c, const struct expr *e, enum part_kind k,
    enum sense s, double rhs)
{
	struct mc_problem *p = c->p;
	struct mc_part *pt;
	struct offer_val *v;
	struct owner_keys keys;
	struct idmap ids;
	size_t o, key, *memo;

	p->parts = xreallocarray(p->parts, p->nparts + 1, sizeof *p->parts);
	pt = &p->parts[p->nparts++];
	memset(pt, 0, sizeof *pt);
	pt->req = c->req;
	pt->kind = k;
	pt->sense = s;
	pt->rhs = rhs;
	pt->cls = xcalloc(p->noffers + 1, sizeof *pt->cls);
	v = offer_values(c->m, p->noffers, e->sel, e->arg);
	owner_keys(&keys, c->m, p->noffers, e->sel, e->arg);
	memo = xreallocarray(NULL, keys.n + 1, sizeof *memo);
	for (key = 0; key < keys.n; key++)
		memo[key] = UNSEEN;
	idmap_init(&ids);
	for (o = 0; o < p->noffers; o++) {
		key = owner_key(&keys, o);
		if (memo[key] == UNSEEN)
			memo[key] = value_class(&ids, &v[o]);
		pt->cls[o] = memo[key];
	}
	pt->ncls = ids.count;
	idmap_free(&ids);
	free(memo);
	free(v);
}

static int lin_of(struct cc *c, const struct expr *e, double scale,
    struct lin *out);

static int
lin_agg(struct cc *c, const struct expr *e, double scale, struct lin *out)
{
	struct offer_val *v;
	size_t o;

	if (e->agg == AGG_AVG && e->sel != NULL)
		return unsupported(c, e, "avg over selected nodes is not "
		    "linear; compare the sum instead");
	if (e->agg == AGG_AVG)
		scale = c->p->nodes > 0 ? scale / (double)c->p->nodes : 0;
	if (e->agg != AGG_COUNT && e->agg != AGG_SUM && e->agg != AGG_AVG)
		return unsupported(c, e, "min, max and ->asSet()->size() "
		    "can only be compared with a constant");
	if (out->coef == NULL)
		out->coef = xcalloc(c->p->noffers, sizeof *out->coef);
	v = offer_values(c->m, c->p->noffers, e->sel, e->arg);
	for (o = 0; o < c->p->noffers; o++) {
		if (!v[o].selected)
			continue;
		if (e->agg == AGG_COUNT)
			out->coef[o] += e->arg == NULL ||
			    (v[o].v.kind == V_BOOL && v[o].v.num != 0) ? scale : 0;
		else
			out->coef[o] += v[o].v.kind == V_NUM ?
			    scale * v[o].v.num : 0;
	}
	free(v);
	return 0;
}

/* lin_of: add scale * e to out; e must be linear in the counts. */
static int
lin_of(struct cc *c, const struct expr *e, double scale, struct lin *out)
{
	if (constant(e)) {
		out->c0 += scale * const_value(c, e);
		return 0;
	}
	switch (e->kind) {
	case EX_NEG:
		return lin_of(c, e->l, -scale, out);
	case EX_ADD: case EX_SUB:
		return lin_of(c, e->l, scale, out) < 0 ? -1 :
		    lin_of(c, e->r, e->kind == EX_ADD ? scale : -scale, out);
	case EX_MUL:
		if (constant(e->l))
			return lin_of(c, e->r, scale * const_value(c, e->l), out);
		if (constant(e->r))
			return lin_of(c, e->l, scale * const_value(c, e->r), out);
		return unsupported(c, e, "a product of two aggregates is not "
		    "linear");
	case EX_DIV:
		if (constant(e->r) && const_value(c, e->r) != 0)
			return lin_of(c, e->l, scale / const_value(c, e->r), out);
		return unsupported(c, e, "division by an aggregate is not "
		    "linear");
	case EX_AGG:
		return lin_agg(c, e, scale, out);
	default:
		return unsupported(c, e, "a node's attribute outside "
		    "nodes.forAll(...) or an aggregate");
	}
}

static int
integral(const double *coef, size_t n)
{
	size_t o;

	for (o = 0; o < n; o++)
		if (coef[o] != floor(coef[o]))
			return 0;
	return 1;
}

/* row: lin (kind) 0, strict comparisons made non-strict. */
static int
row(struct cc *c, const struct expr *e, enum ex_kind kind, struct lin *l)
{
	double rhs = -l->c0, step = 1e-9 * fmax(1, fabs(rhs));
	int ints;

	if (l->coef == NULL)
		l->coef = xcalloc(c->p->noffers, sizeof *l->coef);
	ints = integral(l->coef, c->p->noffers);
	switch (kind) {
	case EX_EQ: add_row(c, l->coef, S_EQ, rhs); return 0;
	case EX_LE: add_row(c, l->coef, S_LE, rhs); return 0;
	case EX_GE: add_row(c, l->coef, S_GE, rhs); return 0;
	case EX_LT:
		add_row(c, l->coef, S_LE, ints ? ceil(rhs) - 1 : rhs - step);
		return 0;
	case EX_GT:
		add_row(c, l->coef, S_GE, ints ? floor(rhs) + 1 : rhs + step);
		return 0;
	default:
		free(l->coef);
		return unsupported(c, e, "'<>' between aggregates is not "
		    "supported; use < or >");
	}
}

static enum ex_kind
flip(enum ex_kind k)
{
	switch (k) {
	case EX_LT: return EX_GT;
	case EX_LE: return EX_GE;
	case EX_GT: return EX_LT;
	case EX_GE: return EX_LE;
	default: return k;
	}
}

static enum ex_kind
negation(enum ex_kind k)
{
	switch (k) {
	case EX_LT: return EX_GE;
	case EX_LE: return EX_GT;
	case EX_GT: return EX_LE;
	case EX_GE: return EX_LT;
	case EX_EQ: return EX_NE;
	default: return EX_EQ;
	}
}

/* cmp_mask: offers in sel whose value a satisfies "a (k) x". */
static unsigned char *
cmp_mask(const struct cc *c, const struct expr *agg, enum ex_kind k,
    double x)
{
	unsigned char *mk = xcalloc(c->p->noffers + 1, 1);
	struct offer_val *v = offer_values(c->m, c->p->noffers, agg->sel,
	    agg->arg);
	double y;
	size_t o;

	for (o = 0; o < c->p->noffers; o++) {
		y = v[o].v.num;
		mk[o] = v[o].selected && v[o].v.kind == V_NUM &&
		    (k == EX_LT ? y < x : k == EX_LE ? y <= x :
		    k == EX_GT ? y > x : k == EX_GE ? y >= x : y == x);
	}
	free(v);
	return mk;
}

/*
 * extreme: min(a) (k) x and max(a) (k) x.  "min >= x" and "max <= x"
 * hold for every node; "min <= x" and "max >= x" for one at least.
 */
static int
extreme(struct cc *c, const struct expr *agg, enum ex_kind k, double x)
{
	int lower = k == EX_GE || k == EX_GT, is_min = agg->agg == AGG_MIN;

	if (k == EX_NE)
		return unsupported(c, agg, "min and max cannot be compared "
		    "with '<>'");
	if (k == EX_EQ) {
		add_filter(c, cmp_mask(c, agg, is_min ? EX_LT : EX_GT, x));
		add_exists(c, cmp_mask(c, agg, EX_EQ, x));
		return 0;
	}
	if (lower == is_min)
		add_filter(c, cmp_mask(c, agg, negation(k), x));
	else
		add_exists(c, cmp_mask(c, agg, k, x));
	return 0;
}

static int
distinct(struct cc *c, const struct expr *agg, enum ex_kind k, double x)
{
	switch (k) {
	case EX_EQ: partition(c, agg, P_DISTINCT, S_EQ, x); return 0;
	case EX_LE: partition(c, agg, P_DISTINCT, S_LE, floor(x)); return 0;
	case EX_LT: partition(c, agg, P_DISTINCT, S_LE, ceil(x) - 1); return 0;
	case EX_GE: partition(c, agg, P_DISTINCT, S_GE, ceil(x)); return 0;
	case EX_GT: partition(c, agg, P_DISTINCT, S_GE, floor(x) + 1); return 0;
	default:
		return unsupported(c, agg, "->asSet()->size() cannot be "
		    "compared with '<>'");
	}
}

static int
is_agg(const struct expr *e, enum agg_kind a)
{
	return e->kind == EX_AGG && e->agg == a;
}

/* comparison: two sides of which at least one is over nodes. */
static int
comparison(struct cc *c, const struct expr *e, enum ex_kind k)
{
	struct lin l = { 0, NULL };
	const struct expr *a = e->l, *b = e->r;

	if (constant(a) && (is_agg(b, AGG_MIN) || is_agg(b, AGG_MAX) ||
	    is_agg(b, AGG_DISTINCT))) {
		a = e->r;
		b = e->l;
		k = flip(k);
	}
	if (constant(b) && (is_agg(a, AGG_MIN) || is_agg(a, AGG_MAX)))
		return extreme(c, a, k, const_value(c, b));
	if (constant(b) && is_agg(a, AGG_DISTINCT))
		return distinct(c, a, k, const_value(c, b));
	if (lin_of(c, e->l, 1, &l) < 0 || lin_of(c, e->r, -1, &l) < 0) {
		free(l.coef);
		return -1;
	}
	return row(c, e, k, &l);
}

static int compile(struct cc *c, const struct expr *e, int neg);

static int
aggregate(struct cc *c, const struct expr *e, int neg)
{
	switch (e->agg) {
	case AGG_FORALL:
		(neg ? exists : forall)(c, e->sel, e->arg, neg);
		return 0;
	case AGG_EXISTS:
		(neg ? forall : exists)(c, e->sel, e->arg, neg);
		return 0;
	default:
		if (neg)
			return unsupported(c, e, "unique and allEqual cannot "
			    "be negated");
		partition(c, e, e->agg == AGG_UNIQUE ? P_UNIQUE : P_ALLEQUAL,
		    S_LE, 0);
		return 0;
	}
}

/* either: exists(a) or exists(b) is exists(a or b); nothing else is. */
static int
either(struct cc *c, const struct expr *e, int neg)
{
	unsigned char *a, *b;
	size_t o;

	if (neg || !is_agg(e->l, AGG_EXISTS) || !is_agg(e->r, AGG_EXISTS))
		return unsupported(c, e, "'or' between constraints over nodes "
		    "is supported only as exists(...) or exists(...)");
	a = mask(c, e->l->sel, e->l->arg, 0);
	b = mask(c, e->r->sel, e->r->arg, 0);
	for (o = 0; o < c->p->noffers; o++)
		a[o] = a[o] || b[o];
	free(b);
	add_exists(c, a);
	return 0;
}

static int
objective(struct cc *c, const struct expr *e)
{
	struct mc_problem *p = c->p;
	struct lin l = { 0, NULL };

	if (p->obj_req != MC_NONE)
		return unsupported(c, e, "only one objective may be given");
	if (lin_of(c, e->l, 1, &l) < 0) {
		free(l.coef);
		return -1;
	}
	free(p->obj);
	p->obj = l.coef ? l.coef : xcalloc(p->noffers, sizeof *p->obj);
	p->obj_const = l.c0;
	p->maximise = e->maximise;
	p->obj_req = c->req;
	return 0;
}

static int
compile(struct cc *c, const struct expr *e, int neg)
{
	if (e->kind == EX_OBJECTIVE)
		return objective(c, e);
	if (!e->nodes) {
		add_filter(c, mask(c, NULL, e, !neg));
		return 0;
	}
	switch (e->kind) {
	case EX_NOT:
		return compile(c, e->l, !neg);
	case EX_AND:
		if (neg)
			return unsupported(c, e, "'not' over 'and' of "
			    "constraints over nodes is not supported");
		return compile(c, e->l, 0) < 0 ? -1 : compile(c, e->r, 0);
	case EX_OR:
		return either(c, e, neg);
	case EX_AGG:
		return aggregate(c, e, neg);
	case EX_EQ: case EX_NE: case EX_LT: case EX_LE: case EX_GT: case EX_GE:
		return comparison(c, e, neg ? negation(e->kind) : e->kind);
	default:
		return unsupported(c, e, "this combination of constraints "
		    "over nodes is not supported");
	}
}

int
problem_compile(struct mc_problem *p, const struct mc_model *m,
    struct expr *const *reqs, const struct src *srcs, size_t nreqs,
    long nodes)
{
	struct cc c;
	size_t i, o;

	memset(p, 0, sizeof *p);
	p->model = m;
	p->noffers = m->noffers;
	p->nreqs = nreqs;
	p->nodes = nodes;
	p->obj_req = MC_NONE;
	p->obj = xcalloc(p->noffers, sizeof *p->obj);
	for (o = 0; o < p->noffers; o++)
		p->obj[o] = m->offers[o].price;
	for (i = 0; i < nreqs; i++) {
		c.p = p;
		c.m = m;
		c.src = &srcs[i];
		c.req = i;
		if (compile(&c, reqs[i], 0) < 0)
			return -1;
	}
	return 0;
}

void
problem_free(struct mc_problem *p)
{
	size_t i;

	for (i = 0; i < p->nfilters; i++)
		free(p->filters[i].ok);
	for (i = 0; i < p->nrows; i++)
		free(p->rows[i].coef);
	for (i = 0; i < p->nparts; i++)
		free(p->parts[i].cls);
	free(p->filters);
	free(p->rows);
	free(p->parts);
	free(p->obj);
	memset(p, 0, sizeof *p);
}
