/*
 * world.c: the system configuration as the simulation changes it.
 *
 * The system section is kept as JSON, because the report must carry it
 * back whole (operator "x-" keys included) for the next rg-build.  The
 * input was checked with sysconf_load() before, so lookups here trust
 * its shape; indexes are rebuilt whenever VMs or resources come or go.
 */
#include <string.h>

#include "sim.h"
#include "xalloc.h"

const char *
world_str(const json_t *obj, const char *key)
{
	return json_string_value(json_object_get(obj, key));
}

/* world_is: obj's member key is the string value (NULL-safe). */
int
world_is(const json_t *obj, const char *key, const char *value)
{
	const char *s = world_str(obj, key);

	return s != NULL && strcmp(s, value) == 0;
}

size_t
world_ntenants(const struct world *w)
{
	return json_array_size(json_object_get(w->system, "tenants"));
}

json_t *
world_tenant(const struct world *w, size_t t)
{
	return json_array_get(json_object_get(w->system, "tenants"), t);
}

/* host_slot: the index of host in host_vms, added when new. */
static size_t
host_slot(struct world *w, const char *host)
{
	long i = idmap_add(&w->host_ids, host);

	if (i < 0)
		return (size_t)(-i - 1);
	if ((size_t)i >= w->host_cap) {
		w->host_cap = w->host_cap ? 2 * w->host_cap : 64;
		w->host_vms = xreallocarray(w->host_vms, w->host_cap,
		    sizeof *w->host_vms);
	}
	w->host_vms[i] = 0;
	return (size_t)i;
}

static const char *
group_of(const json_t *vm)
{
	const char *g = world_str(vm, "group");

	return g != NULL ? g : world_str(vm, "id");
}

/* index_placement: the VMs on each host, and each group's VMs. */
static void
index_placement(struct world *w)
{
	size_t i, g, *fill;

	idmap_free(&w->host_ids);
	idmap_init(&w->host_ids);
	idmap_free(&w->group_ids);
	idmap_init(&w->group_ids);
	for (i = 0; i < w->nvms; i++) {
		g = host_slot(w, world_str(w->vms[i], "host"));
		w->host_vms[g]++;	/* after host_slot may have moved it */
		idmap_add(&w->group_ids, group_of(w->vms[i]));
	}
	free(w->group_first);
	free(w->group_vms);
	w->group_first = xcalloc(w->group_ids.count + 1,
	    sizeof *w->group_first);
	w->group_vms = xcalloc(w->nvms, sizeof *w->group_vms);
	for (i = 0; i < w->nvms; i++)
		w->group_first[idmap_find(&w->group_ids,
		    group_of(w->vms[i])) + 1]++;
	for (g = 0; g < w->group_ids.count; g++)
		w->group_first[g + 1] += w->group_first[g];
	fill = xcalloc(w->group_ids.count, sizeof *fill);
	for (i = 0; i < w->nvms; i++) {
		g = (size_t)idmap_find(&w->group_ids, group_of(w->vms[i]));
		w->group_vms[w->group_first[g] + fill[g]++] = i;
	}
	free(fill);
}

void
world_move(struct world *w, json_t *vm, const char *host)
{
	const char *from = world_str(vm, "host");
	size_t h;

	if (from != NULL) {
		h = host_slot(w, from);
		w->host_vms[h]--;
	}
	h = host_slot(w, host);
	w->host_vms[h]++;
	json_object_set_new(vm, "host", json_string(host));
}

static void
index_vms(struct world *w)
{
	size_t t, i, n = 0;
	json_t *vm;

	for (t = 0; t < world_ntenants(w); t++)
		n += json_array_size(json_object_get(world_tenant(w, t), "vms"));
	free(w->vms);
	free(w->vm_tenant);
	w->vms = xcalloc(n, sizeof *w->vms);
	w->vm_tenant = xcalloc(n, sizeof *w->vm_tenant);
	w->nvms = 0;
	idmap_free(&w->vm_ids);
	idmap_init(&w->vm_ids);
	for (t = 0; t < world_ntenants(w); t++)
		json_array_foreach(json_object_get(world_tenant(w, t), "vms"),
		    i, vm) {
			idmap_add(&w->vm_ids, world_str(vm, "id"));
			w->vm_tenant[w->nvms] = t;
			w->vms[w->nvms++] = vm;
		}
	index_placement(w);
}

void
world_reindex_resources(struct world *w)
{
	json_t *r;
	size_t i;

	idmap_free(&w->res_ids);
	idmap_init(&w->res_ids);
	json_array_foreach(json_object_get(w->system, "resources"), i, r)
		idmap_add(&w->res_ids, world_str(r, "id"));
}

void
world_add_resource(struct world *w, json_t *r)
{
	json_t *arr = json_object_get(w->system, "resources");

	idmap_add(&w->res_ids, world_str(r, "id"));
	json_array_append_new(arr, r);
}

void
world_reindex(struct world *w)
{
	world_reindex_resources(w);
	index_vms(w);
}

int
world_init(struct world *w, json_t *system)
{
	json_t *k;

	memset(w, 0, sizeof *w);
	w->system = system;
	if (w->system == NULL)
		return -1;
	k = json_object_get(w->system, "host_capacity");
	w->host_capacity = k != NULL ? (long)json_integer_value(k) : 1;
	idmap_init(&w->res_ids);
	idmap_init(&w->vm_ids);
	idmap_init(&w->host_ids);
	idmap_init(&w->group_ids);
	world_reindex(w);
	return 0;
}

void
world_free(struct world *w)
{
	json_decref(w->system);
	idmap_free(&w->res_ids);
	idmap_free(&w->vm_ids);
	free(w->vms);
	free(w->vm_tenant);
	idmap_free(&w->host_ids);
	idmap_free(&w->group_ids);
	free(w->host_vms);
	free(w->group_first);
	free(w->group_vms);
}

json_t *
world_resource(const struct world *w, const char *id)
{
	long i = id != NULL ? idmap_find(&w->res_ids, id) : -1;

	return i < 0 ? NULL :
	    json_array_get(json_object_get(w->system, "resources"), (size_t)i);
}

json_t *
world_vm(const struct world *w, const char *id, size_t *tenant)
{
	long i = id != NULL ? idmap_find(&w->vm_ids, id) : -1;

	if (i < 0)
		return NULL;
	if (tenant != NULL)
		*tenant = w->vm_tenant[i];
	return w->vms[i];
}

long
world_host_vms(const struct world *w, const char *host)
{
	long i = idmap_find(&w->host_ids, host);

	return i < 0 ? 0 : w->host_vms[i];
}

long
world_capacity(const struct world *w, const char *host)
{
	json_t *c = json_object_get(world_resource(w, host), "capacity");

	return c != NULL ? (long)json_integer_value(c) : w->host_capacity;
}

int
world_is_compute(const struct world *w, const char *host)
{
	json_t *roles = json_object_get(world_resource(w, host), "roles"), *r;
	size_t i;

	json_array_foreach(roles, i, r)
		if (strcmp(json_string_value(r), "compute") == 0)
			return 1;
	return 0;
}

/* world_status_is: a resource's activation status (default active). */
int
world_status_is(const struct world *w, const char *id, const char *st)
{
	const char *s = world_str(world_resource(w, id), "status");

	return strcmp(s != NULL ? s : "active", st) == 0;
}

void
world_set_status(struct world *w, const char *id, const char *st)
{
	json_t *r = world_resource(w, id);

	if (r != NULL)
		json_object_set_new(r, "status", json_string(st));
}

int
world_group_on(const struct world *w, const char *group, const char *host)
{
	long g = idmap_find(&w->group_ids, group);
	size_t i;

	if (g < 0)
		return 0;
	for (i = w->group_first[g]; i < w->group_first[g + 1]; i++)
		if (strcmp(world_str(w->vms[w->group_vms[i]], "host"),
		    host) == 0)
			return 1;
	return 0;
}

/* in_service: the host and everything it contains are active. */
static int
in_service(const struct world *w, const char *host)
{
	json_t *d;
	size_t i;

	if (!world_status_is(w, host, "active"))
		return 0;
	json_array_foreach(json_object_get(w->system, "dependencies"), i, d)
		if (world_is(d, "type", "contained") &&
		    world_is(d, "sponsor", host) &&
		    !world_status_is(w, world_str(d, "dependent"), "active"))
			return 0;
	return 1;
}

long
world_group_size(const struct world *w, size_t tenant, const char *group)
{
	long g = idmap_find(&w->group_ids, group), n = 0;
	size_t i;

	if (g < 0)
		return 0;
	for (i = w->group_first[g]; i < w->group_first[g + 1]; i++)
		n += w->vm_tenant[w->group_vms[i]] == tenant;
	return n;
}

/*
 * world_place: the first compute host in service, in system order,
 * other than avoid, with a free slot and no VM of the group (anti-
 * affinity, II.A); NULL when none is left.
 */
const char *
world_place(const struct world *w, const char *group, const char *avoid)
{
	json_t *r;
	size_t i;

	json_array_foreach(json_object_get(w->system, "resources"), i, r) {
		const char *id = world_str(r, "id");

		if (!world_is_compute(w, id) || !in_service(w, id) ||
		    (avoid != NULL && strcmp(id, avoid) == 0) ||
		    world_host_vms(w, id) >= world_capacity(w, id) ||
		    world_group_on(w, group, id))
			continue;
		return id;
	}
	return NULL;
}
