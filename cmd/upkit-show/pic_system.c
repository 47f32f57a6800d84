/*
 * pic_system.c: what an iteration's system section says of the
 * picture: a lane for every resource not contained in another (hosts,
 * switches, routers, storage, in the system's order), the lane each
 * resource is drawn in (a hypervisor in its host's), and per tenant its
 * VMs' anti-affinity groups and what its SLA allows out at once.
 */
#include <string.h>

#include "picture.h"
#include "state.h"
#include "xalloc.h"

/* Containment deeper than this is not followed (rg-build refuses cycles). */
#define CONTAINMENT_DEPTH 16

static int
add_containment(struct access *a, const json_t *dep, size_t i, void *ctx)
{
	json_t *container = ctx;
	const char *type, *dependent, *sponsor;

	(void)i;
	if (acc_as_object(a, dep) < 0 ||
	    acc_get_string(a, dep, "type", ACC_REQUIRED, &type) < 0 ||
	    acc_get_string(a, dep, "dependent", ACC_REQUIRED, &dependent) < 0 ||
	    acc_get_string(a, dep, "sponsor", ACC_REQUIRED, &sponsor) < 0)
		return -1;
	if (strcmp(type, "contained") == 0)
		json_object_set_new(container, dependent, json_string(sponsor));
	return 0;
}

/* The walk over the resources, with the containment read first. */
struct resource_walk {
	struct picture *pic;
	const json_t *container;	/* dependent -> sponsor */
};

static int
add_resource(struct access *a, const json_t *res, size_t i, void *ctx)
{
	struct resource_walk *w = ctx;
	const char *id, *lane, *up;
	int depth;

	(void)i;
	if (acc_as_object(a, res) < 0 ||
	    acc_get_string(a, res, "id", ACC_REQUIRED, &id) < 0)
		return -1;
	lane = id;
	for (depth = 0; depth < CONTAINMENT_DEPTH; depth++) {
		up = json_string_value(json_object_get(w->container, lane));
		if (up == NULL)
			break;
		lane = up;
	}
	if (lane == id)
		pic_lane(w->pic, id);
	json_object_set_new(w->pic->lane_of, id, json_string(lane));
	return 0;
}

/* The walk over one tenant's VMs. */
struct tenant_walk {
	json_t *size;		/* group -> VMs in it */
	json_t *group_of;	/* vm -> group */
};

static int
add_vm(struct access *a, const json_t *vm, size_t i, void *ctx)
{
	struct tenant_walk *w = ctx;
	const char *id, *group;

	(void)i;
	if (acc_as_object(a, vm) < 0 ||
	    acc_get_string(a, vm, "id", ACC_REQUIRED, &id) < 0)
		return -1;
	group = id;	/* a VM without a group is a group of its own */
	if (acc_get_string(a, vm, "group", ACC_OPTIONAL, &group) < 0)
		return -1;
	json_object_set_new(w->group_of, id, json_string(group));
	json_object_set_new(w->size, group, json_integer(1 +
	    json_integer_value(json_object_get(w->size, group))));
	return 0;
}

static void
add_allowance(struct picture *pic, size_t tenant, const json_t *size,
    long vms)
{
	struct allowance *al;
	const char *group;
	const json_t *n;

	pic->allowances = xgrow(pic->allowances, pic->nallowances,
	    &pic->allowances_cap, sizeof *pic->allowances);
	al = &pic->allowances[pic->nallowances++];
	al->tenant = tenant;
	al->vms = vms;
	json_object_foreach((json_t *)size, group, n)
		al->allowed += json_integer_value(n) >= 2;
}

static int
add_tenant(struct access *a, const json_t *tenant, size_t i, void *ctx)
{
	struct reading *r = ctx;
	struct tenant_walk w = { json_object(), json_object() };
	const char *id, *vm;
	const json_t *group;
	long t;
	int rc = -1;

	(void)i;
	if (acc_as_object(a, tenant) < 0 ||
	    acc_get_string(a, tenant, "id", ACC_REQUIRED, &id) < 0 ||
	    acc_each_element(a, tenant, "vms", ACC_OPTIONAL, add_vm, &w) < 0)
		goto out;
	if ((t = idmap_find(&r->pic->tenants, id)) < 0)
		t = idmap_add(&r->pic->tenants, id);
	json_object_foreach(w.group_of, vm, group)
		json_object_set_new(r->vm_group, vm, json_pack("[I,O,O]",
		    (json_int_t)t, group, json_object_get(w.size,
		    json_string_value(group))));
	add_allowance(r->pic, (size_t)t, w.size,
	    (long)json_object_size(w.group_of));
	rc = 0;
out:
	json_decref(w.size);
	json_decref(w.group_of);
	return rc;
}

/* pic_read_system: lanes and tenants of the document's system. */
int
pic_read_system(struct reading *r)
{
	json_t *system, *container = json_object();
	struct resource_walk w = { r->pic, container };
	int rc = -1;

	r->first_allowance = r->pic->nallowances;
	if (state_require(r->a, r->doc, SECTION_SYSTEM, &system) < 0)
		goto out;
	access_enter_key(r->a, "system");
	if (acc_each_element(r->a, system, "dependencies", ACC_OPTIONAL,
	    add_containment, container) < 0 ||
	    acc_each_element(r->a, system, "resources", ACC_REQUIRED,
	    add_resource, &w) < 0 ||
	    acc_each_element(r->a, system, "tenants", ACC_OPTIONAL,
	    add_tenant, r) < 0)
		goto out;
	access_leave(r->a);
	rc = 0;
out:
	json_decref(container);
	return rc;
}
