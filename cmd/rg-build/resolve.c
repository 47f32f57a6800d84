/*
 * resolve.c: turn each change of a newly received request into
 * transitions, one per target resource (seed 000 II.D: "for each change
 * ... the target resources, as well as the source, target and
 * undo-versions of each resource"), then complete each change set from
 * the catalog (complement.c).
 */
#include <stdlib.h>
#include <string.h>

#include "rgb.h"

/* installs_on: may a component of p go on resource r? */
static int
installs_on(const struct rgb *b, struct access *a, struct pv p,
    const struct res *r)
{
	const struct cat_product *d = rgb_product(b, p.product,
	    p.version);

	if (d->installs_on == 0 || (d->installs_on & (1u << r->kind)) ||
	    d->kind == r->kind)
		return 0;
	return access_fail(a, "%s does not install on \"%s\", a %s",
	    p.product, r->id, resource_kind_names[r->kind]);
}

static struct transition *
add_tr(struct rgb *b, uint32_t q, uint32_t s, uint32_t ch, size_t r)
{
	struct change *c = &b->model.reqs[q].sets[s].changes[ch];

	return change_add_transition(c, b->res[r].id);
}

/* link_last: file the transition just filled in under its resource. */
static void
link_last(struct rgb *b, uint32_t q, uint32_t s, uint32_t ch)
{
	struct change *c = &b->model.reqs[q].sets[s].changes[ch];
	struct tref ref = { q, s, ch, (uint32_t)(c->ntr - 1) };

	res_link(b, ref);
}

static struct pv
undo_of(const json_t *spec, struct pv from)
{
	const char *v = json_string_value(json_object_get(spec, "undo_version"));
	struct pv undo = from;

	if (v != NULL && from.product != NULL)
		undo.version = v;
	return undo;
}

static struct pv
spec_to(const json_t *spec)
{
	json_t *to = json_object_get(spec, "to");
	struct pv p;

	p.product = json_string_value(json_object_get(to, "product"));
	if (p.product == NULL)
		p.product = json_string_value(json_object_get(spec, "product"));
	p.version = json_string_value(json_object_get(to, "version"));
	return p;
}

static int
upgrade_one(struct rgb *b, struct access *a, uint32_t q, uint32_t s,
    uint32_t ch, size_t r, struct pv to)
{
	const json_t *spec = b->model.reqs[q].sets[s].changes[ch].spec;
	const char *product = json_string_value(json_object_get(spec, "product"));
	struct transition *t;
	struct pstate st;
	struct pv from;

	pstate_projected(b, &b->res[r], &st);
	from = pstate_get(&st, product);
	pstate_free(&st);
	if (pv_equal(from, to))
		return 0;
	if (check_described(b, a, from, b->res[r].id) < 0)
		return -1;
	if (vm_supporting(b, r) && !catalog_declares(&b->cat, to.product,
	    to.version, from.product, from.version, DEP_VM_STORAGE) &&
	    !catalog_declares(&b->cat, to.product, to.version, from.product,
	    from.version, DEP_VM_CONTROLLER))
		return resolve_ppu(b, a, q, s, ch, r, from, to);
	if (installs_on(b, a, to, &b->res[r]) < 0)
		return -1;
	t = add_tr(b, q, s, ch, r);
	t->from = from;
	t->to = to;
	t->undo = undo_of(spec, from);
	link_last(b, q, s, ch);
	return check_described(b, a, t->undo, b->res[r].id);
}

static int
resolve_upgrade(struct rgb *b, struct access *a, uint32_t q, uint32_t s,
    uint32_t ch)
{
	const json_t *spec = b->model.reqs[q].sets[s].changes[ch].spec;
	struct pv to = spec_to(spec);
	struct idlist targets = { 0 };
	size_t i;
	int r = 0;

	access_enter_key(a, "to");
	if (check_described(b, a, to, NULL) < 0)
		return -1;
	access_leave(a);
	if (select_targets(b, a, spec, "targets",
	    json_string_value(json_object_get(spec, "product")), &targets) < 0)
		r = -1;
	for (i = 0; r == 0 && i < targets.n; i++)
		r = upgrade_one(b, a, q, s, ch, targets.v[i], to);
	free(targets.v);
	return r;
}

static int
resolve_add(struct rgb *b, struct access *a, uint32_t q, uint32_t s,
    uint32_t ch)
{
	const json_t *spec = b->model.reqs[q].sets[s].changes[ch].spec;
	struct pv to = { json_string_value(json_object_get(spec, "product")),
		json_string_value(json_object_get(spec, "version")) };
	struct idlist targets = { 0 };
	struct transition *t;
	struct pstate st;
	size_t i;
	int r = check_described(b, a, to, NULL);

	if (r == 0)
		r = select_targets(b, a, spec, "targets", NULL, &targets);
	for (i = 0; r == 0 && i < targets.n; i++) {
		if ((r = installs_on(b, a, to, &b->res[targets.v[i]])) < 0)
			break;
		pstate_projected(b, &b->res[targets.v[i]], &st);
		t = add_tr(b, q, s, ch, targets.v[i]);
		t->to = to;
		t->from = pstate_from(b, &st, t);
		t->undo = undo_of(spec, t->from);
		pstate_free(&st);
		if (pv_equal(t->from, to))
			b->model.reqs[q].sets[s].changes[ch].ntr--;
		else
			link_last(b, q, s, ch);
	}
	free(targets.v);
	return r;
}

/* kind_product: the product that makes r what it is, or none. */
static struct pv
kind_product(const struct rgb *b, const struct res *r)
{
	struct pv none = { NULL, NULL };
	struct pstate st;
	size_t i;

	pstate_projected(b, r, &st);
	for (i = 0; i < st.n; i++)
		if (product_kind(&b->cat, st.p[i].product) == r->kind) {
			none = st.p[i];
			break;
		}
	pstate_free(&st);
	return none;
}

/* retired_by_delete: r is what a product makes, and goes with its
 * delete action (a storage, a controller); else it is decommissioned. */
static int
retired_by_delete(const struct rgb *b, const struct res *r)
{
	struct pv p = kind_product(b, r);
	const struct cat_product *d;

	return p.product != NULL &&
	    (d = rgb_product(b, p.product, p.version)) != NULL &&
	    d->actions[CAT_DELETE].argv != NULL;
}

static int
resolve_remove(struct rgb *b, struct access *a, uint32_t q, uint32_t s,
    uint32_t ch)
{
	const json_t *spec = b->model.reqs[q].sets[s].changes[ch].spec;
	const char *product = json_string_value(json_object_get(spec, "product"));
	struct idlist targets = { 0 };
	struct transition *t;
	struct pstate st;
	size_t i;
	int r = select_targets(b, a, spec, "targets", product, &targets);

	for (i = 0; r == 0 && i < targets.n; i++) {
		struct res *res = &b->res[targets.v[i]];
		struct tref ref = { q, s, ch, 0 };

		if (product == NULL && !retired_by_delete(b, res)) {
			r = decommission(b, a, ref, targets.v[i]);
			continue;
		}
		pstate_projected(b, res, &st);
		t = add_tr(b, q, s, ch, targets.v[i]);
		t->from = product ? pstate_get(&st, product) : kind_product(b, res);
		t->undo = undo_of(spec, t->from);
		t->destroy = product == NULL;
		pstate_free(&st);
		link_last(b, q, s, ch);
		r = check_described(b, a, t->undo, res->id);
	}
	free(targets.v);
	return r;
}

static int
resolve_dependency(struct rgb *b, struct access *a, const struct change *c)
{
	const struct dep_change *d = &c->deps[0];
	int r = 0;

	access_enter_key(a, "dependency");
	if (res_find(b, d->dependent) < 0)
		r = access_fail_at(a, "dependent", "no resource has id \"%s\"",
		    d->dependent);
	else if (res_find(b, d->sponsor) < 0)
		r = access_fail_at(a, "sponsor", "no resource has id \"%s\"",
		    d->sponsor);
	else if (strcmp(d->dependent, d->sponsor) == 0)
		r = access_fail(a, "\"%s\" cannot depend on itself", d->sponsor);
	access_leave(a);
	return r;
}

static int
resolve_change(struct rgb *b, struct access *a, uint32_t q, uint32_t s,
    uint32_t ch)
{
	const struct change *c = &b->model.reqs[q].sets[s].changes[ch];

	if (json_object_get(c->spec, "system") != NULL)
		return resolve_new_resources(b, a, q, s, ch);
	if (c->ndeps > 0)
		return resolve_dependency(b, a, c);
	switch (c->op) {
	case OP_UPGRADE:
		return resolve_upgrade(b, a, q, s, ch);
	case OP_ADD:
		return resolve_add(b, a, q, s, ch);
	default:
		return resolve_remove(b, a, q, s, ch);
	}
}

static int
resolve_set(struct rgb *b, struct access *a, uint32_t q, uint32_t s)
{
	uint32_t ch, n = (uint32_t)b->model.reqs[q].sets[s].nchanges;

	access_enter_key(a, "changes");
	for (ch = 0; ch < n; ch++) {
		access_enter_index(a, ch);
		if (resolve_change(b, a, q, s, ch) < 0)
			return -1;
		access_leave(a);
	}
	access_leave(a);
	return complement_set(b, a, q, s, 0);
}

int
resolve_request(struct rgb *b, const char *file, uint32_t q)
{
	struct access a;
	uint32_t s;
	int r = 0;

	access_init(&a, file);
	access_enter_key(&a, "change_sets");
	for (s = 0; r == 0 && s < b->model.reqs[q].nsets; s++) {
		access_enter_index(&a, s);
		r = resolve_set(b, &a, q, s);
		access_leave(&a);
	}
	access_free(&a);
	return r;
}
