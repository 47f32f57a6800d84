/*
 * derive.c: the system configuration that the reported results leave
 * (seed 000 III.B, step 1 "update"), for the report's "system".
 *
 * Ansible does not observe the cloud, but it knows what it ran.  Walking
 * the schedules in the order they ran, an action that succeeded has its
 * effect: a migration puts its VM on the destination, activate and
 * deactivate set the resource's status, and install, remove, create and
 * delete change products and resources as the resource graph's action
 * of the same id says.  An undone or failed action has none; one whose
 * undo failed keeps its effect and leaves its resource out of service
 * (deactivated: rg-build tries it again, or fails it past max-retry,
 * from the results); a failed
 * migration whose replacement (on_failure) succeeded has its VM on the
 * destination.  A resource created takes up the dependencies the
 * resource graph plans for it (presence "future"); one deleted leaves
 * with every dependency on it.  See ansible-report(1), "The refreshed
 * system".
 */
#include <string.h>

#include "ar.h"

struct derive {
	json_t *system;			/* the copy being changed */
	json_t *resources, *vms;	/* id -> its object in system */
	const json_t *results, *other;	/* the report's result maps */
	const json_t *rg_actions;	/* resource graph action id -> action */
	const json_t *rg_edges, *catalog;
};

static const char *
text(const json_t *obj, const char *key)
{
	return json_string_value(json_object_get(obj, key));
}

static int
same(const char *a, const char *b)
{
	return a != NULL && b != NULL && strcmp(a, b) == 0;
}

/* result_of: what the report says of step id, or "" when nothing. */
static const char *
result_of(const struct derive *d, const char *id)
{
	const char *s = text(d->results, id);

	if (s == NULL)
		s = text(d->other, id);
	return s != NULL ? s : "";
}

static json_t *
resource(const struct derive *d, const char *id)
{
	return id != NULL ? json_object_get(d->resources, id) : NULL;
}

/* index_ids: resources and VMs by id, so that each action is O(1). */
static void
index_ids(struct derive *d)
{
	json_t *r, *t, *v;
	size_t i, k;

	d->resources = json_object();
	d->vms = json_object();
	json_array_foreach(json_object_get(d->system, "resources"), i, r)
		if (text(r, "id") != NULL)
			json_object_set(d->resources, text(r, "id"), r);
	json_array_foreach(json_object_get(d->system, "tenants"), i, t)
		json_array_foreach(json_object_get(t, "vms"), k, v)
			if (text(v, "id") != NULL)
				json_object_set(d->vms, text(v, "id"), v);
}

static json_t *
dependencies(struct derive *d)
{
	json_t *deps = json_object_get(d->system, "dependencies");

	if (deps == NULL) {
		deps = json_array();
		json_object_set_new(d->system, "dependencies", deps);
	}
	return deps;
}

static void
place_vm(struct derive *d, const char *vm, const char *host)
{
	json_t *v = vm != NULL ? json_object_get(d->vms, vm) : NULL;

	if (v != NULL && host != NULL)
		json_object_set_new(v, "host", json_string(host));
}

/* drop: resource id leaves the system, with every dependency on it. */
static void
drop(struct derive *d, const char *id)
{
	json_t *deps = dependencies(d), *res;
	size_t i;

	for (i = json_array_size(deps); i-- > 0;)
		if (same(text(json_array_get(deps, i), "dependent"), id) ||
		    same(text(json_array_get(deps, i), "sponsor"), id))
			json_array_remove(deps, i);
	res = json_object_get(d->system, "resources");
	for (i = json_array_size(res); i-- > 0;)
		if (same(text(json_array_get(res, i), "id"), id))
			json_array_remove(res, i);
	json_object_del(d->resources, id);
}

static int
has_edge(struct derive *d, const json_t *e)
{
	const json_t *x;
	size_t i;

	json_array_foreach(dependencies(d), i, x)
		if (same(text(x, "type"), text(e, "type")) &&
		    same(text(x, "dependent"), text(e, "dependent")) &&
		    same(text(x, "sponsor"), text(e, "sponsor")))
			return 1;
	return 0;
}

/*
 * new_resource: what a create brings: a storage its product makes, or
 * the resource an add change lists (a host, a hypervisor, the action's
 * new_resource), running the product the create installs.
 */
static json_t *
new_resource(struct derive *d, const char *id, const json_t *rga,
    const char *product, const char *version)
{
	const json_t *spec = json_object_get(rga, "new_resource"), *p;
	const char *kind = "virtual-storage";
	json_t *r;
	size_t i;

	if (spec != NULL) {
		r = json_deep_copy(spec);
		json_object_set_new(r, "products", json_pack("{s:s}", product,
		    version));
		json_object_del(r, "status");
		return r;
	}
	json_array_foreach(json_object_get(d->catalog, "products"), i, p)
		if (same(text(p, "name"), product) &&
		    same(text(p, "version"), version) && text(p, "kind"))
			kind = text(p, "kind");
	return json_pack("{s:s, s:s, s:{s:s}}", "id", id, "kind", kind,
	    "products", product, version);
}

/* create: a new resource of product@version, with its future edges. */
static void
create(struct derive *d, const char *id, const json_t *rga,
    const char *product, const char *version)
{
	const json_t *e;
	json_t *r = new_resource(d, id, rga, product, version);
	size_t i;

	json_array_append_new(json_object_get(d->system, "resources"), r);
	json_object_set(d->resources, id, r);
	json_array_foreach(d->rg_edges, i, e)
		if (same(text(e, "presence"), "future") &&
		    (same(text(e, "dependent"), id) ||
		    same(text(e, "sponsor"), id)) &&
		    resource(d, text(e, "dependent")) != NULL &&
		    resource(d, text(e, "sponsor")) != NULL && !has_edge(d, e))
			json_array_append_new(dependencies(d), json_pack(
			    "{s:s, s:s, s:s}", "type", text(e, "type"),
			    "dependent", text(e, "dependent"), "sponsor",
			    text(e, "sponsor")));
}

/* change_product: install, remove, create or delete on resource id. */
static void
change_product(struct derive *d, const char *op, const char *id,
    const json_t *rga)
{
	const char *product = text(rga, "product"), *version = text(rga,
	    "version");
	json_t *r = resource(d, id), *prods;

	if (product == NULL)
		return;
	if (same(op, "delete")) {
		drop(d, id);
	} else if (r == NULL) {
		if (same(op, "create") && version != NULL)
			create(d, id, rga, product, version);
	} else {
		if ((prods = json_object_get(r, "products")) == NULL) {
			prods = json_object();
			json_object_set_new(r, "products", prods);
		}
		if (same(op, "remove"))
			json_object_del(prods, product);
		else if (version != NULL)
			json_object_set_new(prods, product, json_string(version));
	}
}

static void
set_status(struct derive *d, const char *id, const char *status)
{
	json_t *r = resource(d, id);

	if (r != NULL)
		json_object_set_new(r, "status", json_string(status));
}

/* effect: what a completed action did to the system. */
static void
effect(struct derive *d, const json_t *action)
{
	const char *op = text(action, "op"), *id = text(action, "resource");

	if (op == NULL || id == NULL)
		return;
	if (same(op, "migrate"))
		place_vm(d, text(action, "vm"), text(action, "destination"));
	else if (same(op, "activate") || same(op, "deactivate"))
		set_status(d, id, op[0] == 'a' ? "active" : "deactivated");
	else
		change_product(d, op, id, json_object_get(d->rg_actions,
		    text(action, "id")));
}

static void
derive_action(struct derive *d, const json_t *action)
{
	const char *res = result_of(d, text(action, "id"));
	const json_t *repl = json_object_get(action, "on_failure");

	if (same(res, "succeeded") || same(res, "undo-failed"))
		effect(d, action);
	if (same(res, "undo-failed") && !same(text(action, "op"), "migrate"))
		set_status(d, text(action, "resource"), "deactivated");
	if (repl != NULL && same(result_of(d, text(repl, "id")), "succeeded"))
		place_vm(d, text(action, "vm"), text(action, "destination"));
}

static void
derive_schedule(struct derive *d, const json_t *sched)
{
	const json_t *stage, *group, *action;
	size_t i, j, k;

	json_array_foreach(json_object_get(sched, "stages"), i, stage)
		json_array_foreach(json_object_get(stage, "groups"), j, group)
			json_array_foreach(json_object_get(group, "actions"),
			    k, action)
				derive_action(d, action);
}

json_t *
derive_system(const json_t *doc, const struct sched_list *l,
    const json_t *rg_actions, const json_t *report)
{
	const json_t *rgsec = json_object_get(doc, "resource_graph");
	struct derive d = {
		.system = json_deep_copy(json_object_get(doc, "system")),
		.results = json_object_get(report, "results"),
		.other = json_object_get(report, "other_results"),
		.rg_actions = rg_actions,
		.rg_edges = json_object_get(rgsec, "edges"),
		.catalog = json_object_get(doc, "catalog"),
	};
	size_t k;

	if (d.system == NULL)
		return NULL;
	index_ids(&d);
	for (k = 0; k < l->n; k++)
		derive_schedule(&d, l->sched[k]);
	json_decref(d.resources);
	json_decref(d.vms);
	return d.system;
}
