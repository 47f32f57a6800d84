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
}

void
world_reindex(struct world *w)
{
	json_t *r;
	size_t i;

	idmap_free(&w->res_ids);
	idmap_init(&w->res_ids);
	json_array_foreach(json_object_get(w->system, "resources"), i, r)
		idmap_add(&w->res_ids, world_str(r, "id"));
	index_vms(w);
}

int
world_init(struct world *w, const json_t *system)
{
	json_t *k;

	memset(w, 0, sizeof *w);
	w->system = json_deep_copy(system);
	if (w->system == NULL)
		return -1;
	k = json_object_get(w->system, "host_capacity");
	w->host_capacity = k != NULL ? (long)json_integer_value(k) : 1;
	idmap_init(&w->res_ids);
	idmap_init(&w->vm_ids);
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
	long n = 0;
	size_t i;

	for (i = 0; i < w->nvms; i++)
		n += strcmp(world_str(w->vms[i], "host"), host) == 0;
	return n;
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
	size_t i;

	for (i = 0; i < w->nvms; i++) {
		const char *g = world_str(w->vms[i], "group");

		if (strcmp(world_str(w->vms[i], "host"), host) == 0 &&
		    strcmp(g != NULL ? g : world_str(w->vms[i], "id"), group) == 0)
			return 1;
	}
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
