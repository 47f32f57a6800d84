/*
 * complement.c: complete a change set from the catalog (seed 000 II.D):
 * whatever a product being installed requires of other resources (Ceph
 * on a host requires QEMU on that host's hypervisor) becomes a
 * complementary change of the same set, so the same undo unit covers it.
 * Complementary changes are themselves completed, until nothing is
 * missing.
 */
#include <stdlib.h>
#include <string.h>

#include "rgb.h"

/* related: the resources of kind a requirement is "on", seen from r. */
static void
related(const struct rgb *b, size_t r, enum resource_kind kind,
    struct idlist *out)
{
	struct idlist l = { 0 };
	size_t i;

	if ((enum resource_kind)b->res[r].kind == kind) {
		idlist_push(out, r);
		return;
	}
	neighbours(b, r, DEP_CONTAINED, 0, &l);		/* what r contains */
	neighbours(b, r, DEP_CONTAINED, 1, &l);		/* r's container */
	for (i = 0; i < l.n; i++)
		if ((enum resource_kind)b->res[l.v[i]].kind == kind)
			idlist_push(out, l.v[i]);
	free(l.v);
}

/* A complementary change per requested change and required product. */
struct slot {
	uint32_t root, change;
	const char *product;
	enum change_op op;
};

struct slots {
	struct slot v[64];
	size_t n;
};

static uint32_t
slot_change(struct rgb *b, struct slots *sl, uint32_t q, uint32_t s,
    uint32_t root, enum change_op op, struct pv from, struct pv to)
{
	size_t i;

	for (i = 0; i < sl->n; i++)
		if (sl->v[i].root == root && sl->v[i].op == op &&
		    strcmp(sl->v[i].product, to.product) == 0 &&
		    (op != OP_UPGRADE || strcmp(json_string_value(json_object_get(
		    b->model.reqs[q].sets[s].changes[sl->v[i].change].spec,
		    "product")), from.product) == 0))
			return sl->v[i].change;
	i = sl->n < 64 ? sl->n++ : 63;
	sl->v[i].root = root;
	sl->v[i].op = op;
	sl->v[i].product = to.product;
	sl->v[i].change = new_change(b, q, s, root, op, from, to);
	return sl->v[i].change;
}

/* require_on: make resource x satisfy need; 0 or -1. */
static int
require_on(struct rgb *b, struct access *a, struct slots *sl, uint32_t q,
    uint32_t s, uint32_t root, size_t x, const struct cat_require *need)
{
	const struct cat_product *d = need->version ?
	    rgb_product(b, need->product, need->version) :
	    catalog_newest(&b->cat, need->product);
	struct pv to = { d->name, d->version }, have;
	struct pstate st;
	struct transition *t;
	struct change *c;
	struct tref ref = { q, s, 0, 0 };

	pstate_projected(b, &b->res[x], &st);
	have = pstate_get(&st, need->product);
	if (have.product != NULL && (need->version == NULL ||
	    strcmp(have.version, need->version) == 0)) {
		pstate_free(&st);
		return 0;
	}
	have = pstate_slot(b, &st, need->product);
	pstate_free(&st);
	ref.change = slot_change(b, sl, q, s, root,
	    have.product ? OP_UPGRADE : OP_ADD, have, to);
	c = &b->model.reqs[q].sets[s].changes[ref.change];
	t = change_add_transition(c, b->res[x].id);
	t->from = have;
	t->to = to;
	t->undo = have;
	ref.tr = (uint32_t)(c->ntr - 1);
	res_link(b, ref);
	return check_described(b, a, have, b->res[x].id);
}

static int
complement_transition(struct rgb *b, struct access *a, struct slots *sl,
    struct tref ref)
{
	const struct transition *t = tref_tr(b, ref);
	const struct cat_product *d;
	struct idlist on = { 0 };
	uint32_t root;
	size_t k, i;
	long r;
	int rc = 0;

	if (t->to.product == NULL ||
	    (d = rgb_product(b, t->to.product, t->to.version)) == NULL)
		return 0;
	root = tref_change(b, ref)->of ? (uint32_t)tref_change(b, ref)->of - 1 :
	    ref.change;
	r = res_find(b, t->resource);
	for (k = 0; rc == 0 && k < d->nrequires; k++) {
		const struct cat_require need = d->requires[k];

		on.n = 0;
		related(b, (size_t)r, need.on, &on);
		for (i = 0; rc == 0 && i < on.n; i++)
			rc = require_on(b, a, sl, ref.req, ref.set, root,
			    on.v[i], &need);
	}
	free(on.v);
	return rc;
}

int
complement_set(struct rgb *b, struct access *a, uint32_t q, uint32_t s,
    uint32_t first)
{
	struct slots sl;
	struct tref ref = { q, s, 0, 0 };

	sl.n = 0;
	for (ref.change = first;
	    ref.change < b->model.reqs[q].sets[s].nchanges; ref.change++)
		for (ref.tr = 0; ref.tr < tref_change(b, ref)->ntr; ref.tr++)
			if (complement_transition(b, a, &sl, ref) < 0)
				return -1;
	return 0;
}
