/*
 * truths.c: what a per-node expression's value depends on, so that it
 * is evaluated once per hardware, image or location when that is all
 * it reads, instead of once per offer.
 *
 * Why: a seeded heterogeneous discovery (set H) has 20,115 offers over
 * 3,015 hardware types, and a requirement such as "hardware.cores >= 4"
 * was evaluated, tree walk and all, once per offer and per requirement:
 * a fifth of a run.
 */
#include <stdlib.h>
#include <string.h>

#include "expr.h"
#include "xalloc.h"

static enum owner
joined(enum owner a, enum owner b)
{
	if (a == OWN_NONE)
		return b;
	return b == OWN_NONE || a == b ? a : OWN_OFFER;
}

enum owner
expr_owner(const struct expr *e)
{
	enum owner w;
	size_t i;

	if (e == NULL)
		return OWN_NONE;
	if (e->kind == EX_ATTR)
		return attr_owner(e->attr);
	w = joined(expr_owner(e->l), expr_owner(e->r));
	w = joined(w, joined(expr_owner(e->sel), expr_owner(e->arg)));
	for (i = 0; i < e->nitems; i++)
		w = joined(w, expr_owner(e->items[i]));
	return w;
}

void
owner_keys(struct owner_keys *k, const struct mc_model *m, size_t noffers,
    const struct expr *sel, const struct expr *arg)
{
	k->m = m;
	k->w = joined(expr_owner(sel), expr_owner(arg));
	switch (k->w) {
	case OWN_NONE: k->n = 1; break;
	case OWN_HW: k->n = m->nhws; break;
	case OWN_IMG: k->n = m->nimgs; break;
	case OWN_LOC: k->n = m->nlocs; break;
	default: k->n = noffers; break;
	}
}

size_t
owner_key(const struct owner_keys *k, size_t o)
{
	switch (k->w) {
	case OWN_NONE: return 0;
	case OWN_HW: return k->m->offers[o].hw;
	case OWN_IMG: return k->m->offers[o].img;
	case OWN_LOC: return k->m->offers[o].loc;
	default: return o;
	}
}

#define UNKNOWN 2

unsigned char *
offer_truths(const struct mc_model *m, size_t noffers,
    const struct expr *sel, const struct expr *arg, int neg)
{
	unsigned char *mk = xmalloc(noffers + 1), *memo;
	struct owner_keys keys;
	size_t o, k;

	owner_keys(&keys, m, noffers, sel, arg);
	memo = xmalloc(keys.n + 1);
	memset(memo, UNKNOWN, keys.n);
	for (o = 0; o < noffers; o++) {
		k = owner_key(&keys, o);
		if (memo[k] == UNKNOWN)
			memo[k] = eval_true(sel, m, o) &&
			    eval_true(arg, m, o) != neg;
		mk[o] = memo[k];
	}
	free(memo);
	return mk;
}

struct offer_val *
offer_values(const struct mc_model *m, size_t noffers,
    const struct expr *sel, const struct expr *arg)
{
	struct offer_val *v = xreallocarray(NULL, noffers + 1, sizeof *v), *memo;
	struct owner_keys keys;
	size_t o, k;

	owner_keys(&keys, m, noffers, sel, arg);
	memo = xcalloc(keys.n + 1, sizeof *memo);
	for (o = 0; o < noffers; o++) {
		k = owner_key(&keys, o);
		if (!memo[k].known) {
			memo[k].known = 1;
			memo[k].selected = eval_true(sel, m, o);
			if (memo[k].selected && arg != NULL)
				memo[k].v = eval(arg, m, o);
		}
		v[o] = memo[k];
	}
	free(memo);
	return v;
}
