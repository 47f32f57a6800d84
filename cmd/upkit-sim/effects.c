/*
 * effects.c: what a schedule action does to the system configuration,
 * and how its undo puts it back (resource-level undo, seed 000 III.A).
 *
 * Schedule actions name their resource and catalog op; the product and
 * version an install, remove, create or delete works on come from the
 * action of the same id in the resource graph.  Every change keeps a
 * copy of what it replaced, so that an undo restores exactly that.
 */
#include <string.h>

#include "sim.h"
#include "xalloc.h"

static json_t *
resources(struct sim *s)
{
	return json_object_get(s->world.system, "resources");
}

static json_t *
dependencies(struct sim *s)
{
	json_t *d = json_object_get(s->world.system, "dependencies");

	if (d == NULL) {
		d = json_array();
		json_object_set_new(s->world.system, "dependencies", d);
	}
	return d;
}

/* catalog_kind: the kind the catalog gives product@version, or NULL. */
static const char *
catalog_kind(struct sim *s, const char *product, const char *version)
{
	json_t *p;
	size_t i;

	json_array_foreach(json_object_get(s->catalog, "products"), i, p)
		if (strcmp(world_str(p, "name"), product) == 0 &&
		    strcmp(world_str(p, "version"), version) == 0)
			return world_str(p, "kind");
	return NULL;
}

/* same_edge: whether dependency d is type's edge dep -> spo (a peer
 * edge either way). */
static int
same_edge(const json_t *d, const char *type, const char *dep,
    const char *spo)
{
	return strcmp(world_str(d, "type"), type) == 0 &&
	    ((strcmp(world_str(d, "dependent"), dep) == 0 &&
	    strcmp(world_str(d, "sponsor"), spo) == 0) ||
	    (strcmp(type, "peer") == 0 &&
	    strcmp(world_str(d, "dependent"), spo) == 0 &&
	    strcmp(world_str(d, "sponsor"), dep) == 0));
}

/* touches: whether dependency d has id at one end. */
static int
touches(const json_t *d, const char *id)
{
	return strcmp(world_str(d, "dependent"), id) == 0 ||
	    strcmp(world_str(d, "sponsor"), id) == 0;
}

/* has_edge: whether one of deps is type's edge dep -> spo. */
static int
has_edge(const json_t *deps, const char *type, const char *dep,
    const char *spo)
{
	const json_t *d;
	size_t i;

	json_array_foreach(deps, i, d)
		if (same_edge(d, type, dep, spo))
			return 1;
	return 0;
}

/*
 * add_future_edges: a resource just created takes up the dependencies
 * the resource graph plans for it (presence "future"), where both ends
 * exist; they are added to e's, for an undo.  An edge the system has
 * already has id at one end: only those are compared (all of them, for
 * each of a hundred creates, was most of a 10,000-host iteration).
 */
static void
add_future_edges(struct sim *s, const char *id, struct effect *e)
{
	json_t *mine = json_array(), *d, *edge;
	size_t i;

	json_array_foreach(dependencies(s), i, d)
		if (touches(d, id))
			json_array_append(mine, d);
	json_array_foreach(s->rg_edges, i, edge) {
		const char *dep = world_str(edge, "dependent");
		const char *spo = world_str(edge, "sponsor");
		const char *type = world_str(edge, "type");

		if (strcmp(world_str(edge, "presence"), "future") != 0 ||
		    !touches(edge, id) ||
		    world_resource(&s->world, dep) == NULL ||
		    world_resource(&s->world, spo) == NULL ||
		    has_edge(mine, type, dep, spo))
			continue;
		d = json_pack("{s:s,s:s,s:s}", "type", type, "dependent", dep,
		    "sponsor", spo);
		json_array_append(dependencies(s), d);
		json_array_append(mine, d);
		if (e->added_deps == NULL)
			e->added_deps = json_array();
		json_array_append_new(e->added_deps, d);
	}
	json_decref(mine);
}

/*
 * drop_resource: a resource leaves, with every dependency on it; those
 * are kept in e with their places, for an undo.
 */
static void
drop_resource(struct sim *s, const char *id, struct effect *e)
{
	json_t *deps = dependencies(s), *d;
	size_t i;

	for (i = json_array_size(deps); i-- > 0;) {
		d = json_array_get(deps, i);
		if (!touches(d, id))
			continue;
		if (e->removed_deps == NULL)
			e->removed_deps = json_array();
		json_array_insert_new(e->removed_deps, 0, json_pack("[I,O]",
		    (json_int_t)i, d));
		json_array_remove(deps, i);
	}
	for (i = json_array_size(resources(s)); i-- > 0;)
		if (strcmp(world_str(json_array_get(resources(s), i), "id"),
		    id) == 0)
			json_array_remove(resources(s), i);
	world_reindex_resources(&s->world);
}

/* remember_resource: what an action on id may change, to revert it:
 * the resource (the dependencies a create or a delete changes are kept
 * as they change: a copy of them all for each was quadratic). */
static void
remember_resource(struct sim *s, const char *id, struct effect *e)
{
	json_t *r = world_resource(&s->world, id);

	e->res = xstrdup(id);
	e->old_res = r != NULL ? json_deep_copy(r) : NULL;
	e->res_index = r != NULL ? (size_t)idmap_find(&s->world.res_ids, id) :
	    0;
}

/*
 * new_resource: what a create brings: a storage its product makes, or
 * a resource an add change lists (a host, a hypervisor), running the
 * product the create installs; later installs add the others.
 */
static json_t *
new_resource(struct sim *s, const char *id, const json_t *rga,
    const char *product, const char *version)
{
	const json_t *spec = json_object_get(rga, "new_resource");
	const char *kind;
	json_t *r;

	if (spec == NULL) {
		kind = catalog_kind(s, product, version);
		return json_pack("{s:s,s:s,s:{s:s}}", "id", id, "kind",
		    kind != NULL ? kind : "virtual-storage", "products",
		    product, version);
	}
	r = json_deep_copy(spec);
	json_object_set_new(r, "products", json_pack("{s:s}", product,
	    version));
	json_object_del(r, "status");
	return r;
}

/* product_change: install, remove, create or delete of an RG action. */
static void
product_change(struct sim *s, const char *op, const char *id,
    const json_t *rga, struct effect *e)
{
	const char *product = world_str(rga, "product");
	const char *version = world_str(rga, "version");
	json_t *r = world_resource(&s->world, id), *prods;

	if (product == NULL)
		return;
	if (strcmp(op, "delete") == 0) {
		drop_resource(s, id, e);
		return;
	}
	if (r == NULL && strcmp(op, "create") == 0 && version != NULL) {
		world_add_resource(&s->world, new_resource(s, id, rga,
		    product, version));
		add_future_edges(s, id, e);
		return;
	}
	if (r == NULL)
		return;
	if ((prods = json_object_get(r, "products")) == NULL) {
		prods = json_object();
		json_object_set_new(r, "products", prods);
	}
	if (strcmp(op, "remove") == 0)
		json_object_del(prods, product);
	else if (version != NULL)
		json_object_set_new(prods, product, json_string(version));
}

int
effect_apply(struct sim *s, const json_t *action, struct effect *e)
{
	const char *op = world_str(action, "op");
	const char *id = world_str(action, "resource");
	json_t *vm;

	memset(e, 0, sizeof *e);
	if (op == NULL || id == NULL)
		return 0;
	if (strcmp(op, "migrate") == 0) {
		if ((vm = world_vm(&s->world, world_str(action, "vm"), NULL)) ==
		    NULL)
			return 0;
		e->vm = xstrdup(world_str(action, "vm"));
		e->old_host = xstrdup(world_str(vm, "host"));
		world_move(&s->world, vm, world_str(action, "destination"));
		return 0;
	}
	remember_resource(s, id, e);
	if (strcmp(op, "activate") == 0 || strcmp(op, "deactivate") == 0)
		world_set_status(&s->world, id, op[0] == 'a' ? "active" :
		    "deactivated");
	else
		product_change(s, op, id, json_object_get(s->rg_actions,
		    world_str(action, "id")), e);
	return 0;
}

/*
 * restore_dependencies: those a create added go, those a delete removed
 * come back at their places (in the order of their indexes, so that
 * each lands where it was).
 */
static void
restore_dependencies(struct sim *s, const struct effect *e)
{
	json_t *deps = dependencies(s), *d, *gone;
	size_t i, k;

	json_array_foreach(e->added_deps, k, d)
		for (i = json_array_size(deps); i-- > 0;)
			if (json_array_get(deps, i) == d) {
				json_array_remove(deps, i);
				break;
			}
	json_array_foreach(e->removed_deps, k, gone) {
		i = (size_t)json_integer_value(json_array_get(gone, 0));
		if (i > json_array_size(deps))
			i = json_array_size(deps);
		json_array_insert(deps, i, json_array_get(gone, 1));
	}
}

/* restore_resource: put the remembered copy back where it was. */
static void
restore_resource(struct sim *s, struct effect *e)
{
	json_t *arr = resources(s);
	size_t i;

	for (i = 0; i < json_array_size(arr); i++)
		if (strcmp(world_str(json_array_get(arr, i), "id"), e->res) == 0)
			break;
	if (e->old_res == NULL) {
		if (i < json_array_size(arr))
			json_array_remove(arr, i);
	} else if (i < json_array_size(arr)) {
		json_array_set(arr, i, e->old_res);
	} else {
		json_array_insert(arr, e->res_index < json_array_size(arr) ?
		    e->res_index : json_array_size(arr), e->old_res);
	}
	restore_dependencies(s, e);
	world_reindex_resources(&s->world);
}

void
effect_revert(struct sim *s, struct effect *e)
{
	json_t *vm;

	if (e->vm != NULL &&
	    (vm = world_vm(&s->world, e->vm, NULL)) != NULL)
		world_move(&s->world, vm, e->old_host);
	if (e->res != NULL)
		restore_resource(s, e);
}

void
effect_free(struct effect *e)
{
	free(e->vm);
	free(e->old_host);
	free(e->res);
	json_decref(e->old_res);
	json_decref(e->added_deps);
	json_decref(e->removed_deps);
	memset(e, 0, sizeof *e);
}
