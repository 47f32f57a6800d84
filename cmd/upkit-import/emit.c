/*
 * emit.c: the system section (upkit-state(5)) from what was read: a
 * host and a hypervisor per compute host, the storage back ends and
 * their hosts, the switches and routers, the dependencies between them,
 * then the tenants (tenants.c).  Ids are sorted, so the listing order
 * of the cloud does not matter.
 */
#include <stdlib.h>
#include <string.h>

#include "import.h"
#include "xalloc.h"

const char *
site_host(struct build *b, const char *name)
{
	return host_id(b->im, name);
}

static void
add_dep(struct build *b, const char *type, const char *dependent,
    const char *sponsor)
{
	json_array_append_new(b->deps, json_pack("{s:s,s:s,s:s}", "type", type,
	    "dependent", dependent, "sponsor", sponsor));
}

static json_t *
host_products(const struct build *b)
{
	json_t *p = json_object_get(b->im->site, "host_products");

	return p != NULL ? json_deep_copy(p) : json_object();
}

/* mark_host: host id takes the role (compute or storage). */
static void
mark_host(struct build *b, const char *id, const char *role)
{
	json_t *h = json_object_get(b->all_hosts, id);

	if (h == NULL) {
		h = json_pack("{s:b,s:b}", "compute", 0, "storage", 0);
		json_object_set_new(b->all_hosts, id, h);
	}
	json_object_set_new(h, role, json_true());
}

/* A host name of a site host list, handed to a site_host_fn. */
typedef int (*site_host_fn)(struct build *b, const char *name, void *ctx);

/*
 * each_site_host: fn on every host entry v of a site host list stands
 * for: itself, or each host of the aggregate or availability zone it
 * names ("aggregate:NAME", "zone:NAME"); -1 once diagnosed.
 */
static int
each_site_host(struct build *b, const json_t *v, site_host_fn fn, void *ctx)
{
	const json_t *set, *h;
	size_t k;
	int r;

	if (!json_is_string(v))
		return access_fail(b->a, "expected a host name");
	if ((r = set_hosts(b->im, b->a, json_string_value(v), &set)) <= 0)
		return r < 0 ? -1 : fn(b, json_string_value(v), ctx);
	json_array_foreach(set, k, h)
		if (fn(b, json_string_value(h), ctx) < 0)
			return -1;
	return 0;
}

/* The function each_site_list calls on a list's hosts, and its context. */
struct site_list {
	struct build *b;
	site_host_fn fn;
	void *ctx;
};

static int
site_list_entry(struct access *a, const json_t *v, size_t i, void *ctx)
{
	struct site_list *l = ctx;

	(void)a;
	(void)i;
	return each_site_host(l->b, v, l->fn, l->ctx);
}

/* each_site_list: each_site_host() on every entry of list key of obj. */
static int
each_site_list(struct build *b, const json_t *obj, const char *key,
    site_host_fn fn, void *ctx)
{
	struct site_list l = { b, fn, ctx };

	return acc_each_element(b->a, obj, key, ACC_REQUIRED, site_list_entry,
	    &l) < 0 ? -1 : 0;
}

/* storage_host: a host of a storage; a name no hypervisor has is a
 * storage-only host of its own (short) name. */
static int
storage_host(struct build *b, const char *name, void *ids)
{
	char *s;

	if (site_host(b, name) == NULL) {
		s = short_name(name);
		import_access_warn(b->im, b->a, "storage-only hosts", "\"%s\" "
		    "is no hypervisor: taken as a storage-only host \"%s\"",
		    name, s);
		json_object_set_new(b->im->names, name, json_string(s));
		json_object_set_new(b->im->names, s, json_string(s));
		free(s);
	}
	json_array_append_new(ids, json_string(site_host(b, name)));
	mark_host(b, site_host(b, name), "storage");
	return 0;
}

/* mark_storage: the hosts of each storage back end. */
static int
mark_storage(struct build *b, const json_t *st)
{
	const char *sid = json_string_value(json_object_get(st, "id"));
	json_t *ids = json_array();

	json_object_set_new(b->storage_of, sid, ids);
	return each_site_list(b, st, "hosts", storage_host, ids);
}

/* The function each_site_entry calls on the entries of a site list. */
struct site_entry {
	struct build *b;
	int (*fn)(struct build *, const json_t *);
};

static int
site_entry_at(struct access *a, const json_t *e, size_t i, void *ctx)
{
	struct site_entry *s = ctx;

	(void)a;
	(void)i;
	return s->fn(s->b, e);
}

/* each_site_entry: fn on every entry of the site's optional list key. */
static int
each_site_entry(struct build *b, const char *key,
    int (*fn)(struct build *, const json_t *))
{
	struct site_entry s = { b, fn };

	return acc_each_element(b->a, b->im->site, key, ACC_OPTIONAL,
	    site_entry_at, &s) < 0 ? -1 : 0;
}

/* zone_of: host id's availability zone: its nova-compute service's,
 * else the zone list's (-Z) that has it, else NULL. */
static const char *
zone_of(struct build *b, const char *id)
{
	const char *zone = json_string_value(json_object_get(json_object_get(
	    b->im->hosts, id), "zone")), *key;
	const json_t *set, *h;
	size_t i;

	if (zone != NULL)
		return zone;
	json_object_foreach(b->im->sets, key, set) {
		if (strncmp(key, "zone:", 5) != 0)
			continue;
		json_array_foreach(set, i, h)
			if (strcmp(json_string_value(h), id) == 0)
				return key + 5;
	}
	return NULL;
}

/* add_nova_names: the zone and service host nova knows host id by. */
static void
add_nova_names(struct build *b, const char *id, json_t *r)
{
	const json_t *h = json_object_get(b->im->hosts, id);
	const char *zone = zone_of(b, id);

	if (zone != NULL)
		json_object_set_new(r, "zone", json_string(zone));
	if (json_is_string(json_object_get(h, "service_host")))
		json_object_set(r, "service_host",
		    json_object_get(h, "service_host"));
}

static json_t *
host_resource(struct build *b, const char *id, const json_t *roles)
{
	json_t *r = json_pack("{s:s,s:s,s:O}", "id", id, "kind", "host",
	    "roles", roles);
	const char *status = json_is_true(json_object_get(json_object_get(
	    b->all_hosts, id), "compute")) ?
	    host_service_status(b->im, id) : NULL;

	const char *ip = json_string_value(json_object_get(json_object_get(
	    b->im->hosts, id), "address"));

	if (status != NULL)
		json_object_set_new(r, "status", json_string(status));
	if (status != NULL && host_disabled(b->im, id))
		json_object_set_new(r, "disabled", json_true());
	if (ip != NULL && *ip != '\0')
		json_object_set_new(r, "address", json_string(ip));
	if (json_object_get(b->im->hosts, id) != NULL)
		add_nova_names(b, id, r);
	if (json_object_get(b->capacity, id) != NULL)
		json_object_set(r, "capacity", json_object_get(b->capacity, id));
	json_object_set_new(r, "products", host_products(b));
	return r;
}

static void
add_hosts(struct build *b)
{
	json_t *ids = sorted_keys(b->all_hosts), *v, *roles;
	const json_t *h;
	size_t i;

	json_array_foreach(ids, i, v) {
		h = json_object_get(b->all_hosts, json_string_value(v));
		roles = json_array();
		if (json_is_true(json_object_get(h, "storage")))
			json_array_append_new(roles, json_string("storage"));
		if (json_is_true(json_object_get(h, "compute")))
			json_array_append_new(roles, json_string("compute"));
		json_array_append_new(b->resources, host_resource(b,
		    json_string_value(v), roles));
		json_decref(roles);
	}
	json_decref(ids);
}

/* add_hypervisor: the hypervisor of compute host id, by its type. */
static int
add_hypervisor(struct build *b, const char *id)
{
	const char *type = json_string_value(json_object_get(json_object_get(
	    b->im->hosts, id), "type"));
	json_t *types = json_object_get(b->im->site, "hypervisor_types");
	json_t *t = json_object_get(types, type);
	const char *product, *version;
	char hv[512];
	json_t *r;

	access_enter_key(b->a, "hypervisor_types");
	if (t == NULL)
		return access_fail(b->a, "no product for hypervisor type "
		    "\"%s\" of host %s", type, id);
	access_enter_key(b->a, type);
	if (acc_as_object(b->a, t) < 0 ||
	    acc_get_string(b->a, t, "product", ACC_REQUIRED, &product) < 0 ||
	    acc_get_string(b->a, t, "version", ACC_REQUIRED, &version) < 0)
		return -1;
	access_leave(b->a);
	access_leave(b->a);
	snprintf(hv, sizeof hv, "%s-hv", id);
	r = json_pack("{s:s,s:s,s:{s:s}}", "id", hv, "kind", "hypervisor",
	    "products", product, version);
	if (host_disabled(b->im, id)) {
		json_object_set_new(r, "status", json_string("deactivated"));
		json_object_set_new(r, "disabled", json_true());
	}
	json_array_append_new(b->resources, r);
	add_dep(b, "contained", hv, id);
	return 0;
}

static int
add_hypervisors(struct build *b)
{
	json_t *ids = sorted_keys(b->im->hosts), *v;
	size_t i;
	int r = 0;

	json_array_foreach(ids, i, v)
		if (r == 0)
			r = add_hypervisor(b, json_string_value(v));
	json_decref(ids);
	return r;
}

/* served_host: compute host name relies on storage sid. */
static int
served_host(struct build *b, const char *name, void *sid)
{
	const char *id = site_host(b, name);

	if (id == NULL || json_object_get(b->im->hosts, id) == NULL)
		return access_fail(b->a, "\"%s\" is not a compute host", name);
	add_dep(b, "vm-storage", id, sid);
	return 0;
}

/* served: the compute hosts that rely on a storage for VM operations. */
static int
add_vm_storage(struct build *b, const json_t *st, const char *sid)
{
	json_t *ids, *v;
	size_t i;

	if (json_object_get(st, "serves") == NULL) {
		ids = sorted_keys(b->im->hosts);
		json_array_foreach(ids, i, v)
			add_dep(b, "vm-storage", json_string_value(v), sid);
		json_decref(ids);
		return 0;
	}
	return each_site_list(b, st, "serves", served_host, (void *)sid);
}

static int
add_storage(struct build *b, const json_t *st)
{
	const char *sid = json_string_value(json_object_get(st, "id"));
	json_t *r = json_pack("{s:s,s:s}", "id", sid, "kind", "virtual-storage");
	const json_t *h;
	size_t i;

	if (json_object_get(st, "min_sponsors") != NULL)
		json_object_set(r, "min_sponsors",
		    json_object_get(st, "min_sponsors"));
	json_object_set(r, "products", json_object_get(st, "products"));
	json_array_append_new(b->resources, r);
	json_array_foreach(json_object_get(b->storage_of, sid), i, h)
		add_dep(b, "aggregation", sid, json_string_value(h));
	return add_vm_storage(b, st, sid);
}

/* behind_host: host name is behind network device nid. */
static int
behind_host(struct build *b, const char *name, void *nid)
{
	const char *id = site_host(b, name);

	if (id == NULL)
		return access_fail(b->a, "\"%s\" is not a known host", name);
	add_dep(b, "communication", id, nid);
	return 0;
}

static int
add_network_hosts(struct build *b, const json_t *n, const char *nid)
{
	json_t *ids, *v;
	size_t i;

	if (json_object_get(n, "hosts") == NULL) {
		if (strcmp(json_string_value(json_object_get(n, "kind")),
		    "switch") != 0)
			return 0;
		ids = sorted_keys(b->all_hosts);
		json_array_foreach(ids, i, v)
			add_dep(b, "communication", json_string_value(v), nid);
		json_decref(ids);
		return 0;
	}
	return each_site_list(b, n, "hosts", behind_host, (void *)nid);
}

static int
add_network(struct build *b, const json_t *n)
{
	const char *nid = json_string_value(json_object_get(n, "id"));
	const json_t *up, *peer = json_object_get(n, "peer");
	size_t i;

	json_array_append_new(b->resources, json_pack("{s:s,s:O,s:[s],s:O}",
	    "id", nid, "kind", json_object_get(n, "kind"), "roles", "network",
	    "products", json_object_get(n, "products")));
	if (add_network_hosts(b, n, nid) < 0)
		return -1;
	json_array_foreach(json_object_get(n, "uplinks"), i, up)
		if (json_is_string(up))
			add_dep(b, "communication", nid, json_string_value(up));
	if (json_is_string(peer) && strcmp(nid, json_string_value(peer)) < 0)
		add_dep(b, "peer", nid, json_string_value(peer));
	return 0;
}

static int
build_parts(struct build *b)
{
	json_t *ids = sorted_keys(b->im->hosts), *v;
	size_t i;

	json_array_foreach(ids, i, v)
		mark_host(b, json_string_value(v), "compute");
	json_decref(ids);
	if (read_capacity(b) < 0 ||
	    each_site_entry(b, "storage", mark_storage) < 0)
		return -1;
	add_hosts(b);
	if (add_hypervisors(b) < 0 ||
	    each_site_entry(b, "storage", add_storage) < 0 ||
	    each_site_entry(b, "network", add_network) < 0)
		return -1;
	return build_tenants(b);
}

int
build_system(struct import *im, struct access *a, json_t **out)
{
	struct build b = { im, a, json_array(), json_array(), json_array(),
		json_object(), json_object(), json_object(), json_object() };
	int r = build_parts(&b);
	json_t *live;

	if (r == 0) {
		*out = json_pack("{s:i,s:O,s:O,s:O,s:O}", "version", 1,
		    "host_capacity", json_object_get(im->site, "host_capacity"),
		    "resources", b.resources, "dependencies", b.deps,
		    "tenants", b.tenants);
		if (json_is_true(json_object_get(im->site,
		    "migrate_across_zones")))
			json_object_set_new(*out, "migrate_across_zones",
			    json_true());
		/* nova-compute's max_concurrent_live_migrations, default 1 */
		live = json_object_get(im->site,
		    "max_concurrent_live_migrations");
		json_object_set_new(*out, "max_concurrent_live_migrations",
		    live ? json_incref(live) : json_integer(1));
	}
	json_decref(b.resources);
	json_decref(b.deps);
	json_decref(b.tenants);
	json_decref(b.all_hosts);
	json_decref(b.storage_of);
	json_decref(b.vm_count);
	json_decref(b.capacity);
	return r;
}
