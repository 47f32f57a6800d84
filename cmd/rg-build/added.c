/*
 * added.c: resolve an add change that brings new resources (seed 000
 * II.D; request_add.c reads it).  Each new resource gets one transition
 * per product to install: the first creates the resource, installing
 * that product (the resource graph's modification type Add, IV step 1),
 * the others install the rest.  The change's dependencies become future
 * edges (edges.c), and a new request's levels come after those of
 * earlier arrivals (units.c), as the mid-upgrade path of IV.1 wants.
 *
 * A new resource arrives at the target of the upgrade under way
 * (arrivals.c checks it).
 */
#include <string.h>

#include "rgb.h"

/* check_product: name@version is in the catalog.  Whether it is on its
 * way out is known only once the sets are evaluated (arrivals.c). */
static int
check_product(struct rgb *b, struct access *a, const char *name,
    const char *version)
{
	if (rgb_product(b, name, version) == NULL)
		return access_fail_at(a, name, "%s %s is not in the catalog",
		    name, version);
	return 0;
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

		if (check_product(b, a, name, json_string_value(version)) < 0)
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
		r = dep_ends_known(b, a, &c->deps[i]);
		access_leave(a);
	}
	access_leave(a);
	access_leave(a);
	return r;
}
