/*
 * added.c: resolve an add change that brings new resources (seed 000
 * II.D; request_add.c reads it).  Each new resource gets one transition
 * per product to install: the first creates the resource, installing
 * that product (the resource graph's modification type Add, IV step 1),
 * the others install the rest.  The change's dependencies become future
 * edges (edges.c), and a new request's levels come after those of
 * earlier arrivals (units.c), as the mid-upgrade path of IV.1 wants.
 *
 * A new resource arrives at the target of the upgrade under way: a
 * product that a live change set is changing on other resources is
 * refused, naming the version to add instead, so that nothing added
 * needs upgrading after its install.
 */
#include <string.h>

#include "rgb.h"

static int
live(const struct change_set *cs)
{
	return cs->status == CS_NEW || cs->status == CS_SCHEDULED;
}

/* changing: the transition of a live set other than skip that takes
 * some resource away from p, or NULL. */
static const struct transition *
changing(const struct rgb *b, const struct change_set *skip, struct pv p,
    const char **set)
{
	size_t q, s, k, i;

	for (q = 0; q < b->model.nreqs; q++)
		for (s = 0; s < b->model.reqs[q].nsets; s++) {
			const struct change_set *cs = &b->model.reqs[q].sets[s];

			for (k = 0; cs != skip && live(cs) && k < cs->nchanges;
			    k++)
				for (i = 0; i < cs->changes[k].ntr; i++) {
					const struct transition *t =
					    &cs->changes[k].tr[i];

					if (t->from.product != NULL &&
					    pv_equal(t->from, p) &&
					    !pv_equal(t->from, t->to)) {
						*set = cs->uid;
						return t;
					}
				}
		}
	return NULL;
}

/* check_product: name@version is known and is no version on its way out. */
static int
check_product(struct rgb *b, struct access *a, const struct change_set *cs,
    const char *name, const char *version)
{
	const struct transition *t;
	const char *set;

	if (rgb_product(b, name, version) == NULL)
		return access_fail_at(a, name, "%s %s is not in the catalog",
		    name, version);
	if ((t = changing(b, cs, (struct pv){ name, version }, &set)) == NULL)
		return 0;
	if (t->to.product == NULL)
		return access_fail_at(a, name, "%s is being removed by %s: add "
		    "the resource without it", name, set);
	return access_fail_at(a, name, "%s %s is being changed to %s %s by "
	    "%s: add the resource with what that change leads to, so that it "
	    "needs no upgrade after its install", name, t->from.version,
	    t->to.product, t->to.version, set);
}

/* new_resource: the transitions of one new resource, obj. */
static int
new_resource(struct rgb *b, struct access *a, struct tref ref,
    const json_t *obj)
{
	struct change *c = tref_change(b, ref);
	const char *id = json_string_value(json_object_get(obj, "id"));
	const char *name;
	json_t *version;
	int kind, first = 1;

	if (acc_get_enum(a, obj, "kind", ACC_REQUIRED, resource_kind_names,
	    &kind) < 0)
		return -1;
	if (res_find(b, id) >= 0)
		return access_fail_at(a, "id", "\"%s\" is already a resource id",
		    id);
	access_enter_key(a, "products");
	json_object_foreach(json_object_get(obj, "products"), name, version) {
		struct transition *t;

		if (check_product(b, a, tref_set(b, ref), name,
		    json_string_value(version)) < 0)
			return -1;
		t = change_add_transition(c, id);
		t->to = (struct pv){ name, json_string_value(version) };
		t->undo = t->from;
		if (first)
			t->create = kind;
		first = 0;
		ref.tr = (uint32_t)(c->ntr - 1);
		res_link(b, ref);
	}
	access_leave(a);
	return 0;
}

/* dep_known: both ends of the new dependency d are resources. */
static int
dep_known(struct rgb *b, struct access *a, const struct dep_change *d)
{
	if (res_find(b, d->dependent) < 0)
		return access_fail_at(a, "dependent", "no resource has id \"%s\"",
		    d->dependent);
	if (res_find(b, d->sponsor) < 0)
		return access_fail_at(a, "sponsor", "no resource has id \"%s\"",
		    d->sponsor);
	return 0;
}

int
resolve_new_resources(struct rgb *b, struct access *a, uint32_t q,
    uint32_t s, uint32_t ch)
{
	const struct change *c = &b->model.reqs[q].sets[s].changes[ch];
	const json_t *list = json_object_get(json_object_get(c->spec, "system"),
	    "resources");
	struct tref ref = { q, s, ch, 0 };
	size_t i;
	int r = 0;

	access_enter_key(a, "system");
	access_enter_key(a, "resources");
	for (i = 0; r == 0 && i < json_array_size(list); i++) {
		access_enter_index(a, i);
		r = new_resource(b, a, ref, json_array_get(list, i));
		access_leave(a);
	}
	access_leave(a);
	access_enter_key(a, "dependencies");
	for (i = 0; r == 0 && i < c->ndeps; i++) {
		access_enter_index(a, i);
		r = dep_known(b, a, &c->deps[i]);
		access_leave(a);
	}
	access_leave(a);
	access_leave(a);
	return r;
}
