/* cloud.c: compute hosts, VM placement and moves (see cloud.h). */
#include <stdlib.h>
#include <string.h>

#include "cloud.h"
#include "xalloc.h"

static int
is_compute_host(const struct resource *r)
{
	return r->kind == KIND_HOST && (r->roles & ROLE_COMPUTE);
}

/* index_zones: each compute host's availability zone, as an index. */
static void
index_zones(struct cloud *cl)
{
	const struct resource *r;
	size_t h;
	long z;

	cl->zone = xcalloc(cl->nhosts + 1, sizeof *cl->zone);
	idmap_init(&cl->zone_ids);
	if (cl->sc->across_zones)
		return;
	for (h = 0; h < cl->nhosts; h++) {
		r = &cl->sc->resources[cl->res[h]];
		z = idmap_add(&cl->zone_ids, r->zone != NULL ? r->zone : "");
		cl->zone[h] = (size_t)(z < 0 ? -z - 1 : z);
	}
}

static void
index_hosts(struct cloud *cl)
{
	const struct sysconf *sc = cl->sc;
	size_t r, h;

	cl->host_of = xmalloc((sc->nresources + 1) * sizeof *cl->host_of);
	for (r = 0; r < sc->nresources; r++)
		cl->host_of[r] = is_compute_host(&sc->resources[r]) ?
		    cl->nhosts++ : CLOUD_NONE;
	cl->res = xmalloc((cl->nhosts + 1) * sizeof *cl->res);
	cl->cap = xmalloc((cl->nhosts + 1) * sizeof *cl->cap);
	cl->load = xcalloc(cl->nhosts + 1, sizeof *cl->load);
	cl->usable = xmalloc(cl->nhosts + 1);
	cl->part = xmalloc(cl->nhosts + 1);
	cl->domain = xcalloc(cl->nhosts + 1, sizeof *cl->domain);
	cl->hv = xmalloc((cl->nhosts + 1) * sizeof *cl->hv);
	cl->host_first = xmalloc((cl->nhosts + 1) * sizeof *cl->host_first);
	for (r = 0; r < sc->nresources; r++) {
		if ((h = cl->host_of[r]) == CLOUD_NONE)
			continue;
		cl->res[h] = r;
		cl->cap[h] = sc->resources[r].capacity > 0 ?
		    sc->resources[r].capacity : sc->host_capacity;
		cl->usable[h] = sc->resources[r].status == STATUS_ACTIVE;
		cl->part[h] = PART_OLD;
		cl->hv[h] = CLOUD_NONE;
		cl->host_first[h] = CLOUD_NONE;
	}
	for (r = 0; r < sc->ndeps; r++) {
		const struct dependency *d = &sc->deps[r];

		h = cl->host_of[d->sponsor];
		if (d->type == DEP_CONTAINED && h != CLOUD_NONE &&
		    cl->hv[h] == CLOUD_NONE &&
		    sc->resources[d->dependent].kind == KIND_HYPERVISOR)
			cl->hv[h] = d->dependent;
	}
	index_zones(cl);
	/* in service: the host and its hypervisor active (seed 000 III.A) */
	for (h = 0; h < cl->nhosts; h++)
		if (cl->hv[h] != CLOUD_NONE &&
		    sc->resources[cl->hv[h]].status != STATUS_ACTIVE)
			cl->usable[h] = 0;
}

static void
place_vms(struct cloud *cl)
{
	const struct sysconf *sc = cl->sc;
	size_t v, h;
	long g;

	cl->vm_host = xmalloc((sc->nvms + 1) * sizeof *cl->vm_host);
	cl->vm_next = xmalloc((sc->nvms + 1) * sizeof *cl->vm_next);
	cl->vm_group = xmalloc((sc->nvms + 1) * sizeof *cl->vm_group);
	idmap_init(&cl->group_ids);
	/* backwards, so that each host lists its VMs in system order */
	for (v = sc->nvms; v-- > 0;) {
		h = cl->host_of[sc->vms[v].host];
		cl->vm_host[v] = h;
		cl->vm_next[v] = CLOUD_NONE;
		if (h == CLOUD_NONE)
			continue;	/* on a host that is not a compute host */
		cl->vm_next[v] = cl->host_first[h];
		cl->host_first[h] = v;
		cl->load[h]++;
	}
	for (v = 0; v < sc->nvms; v++) {
		g = idmap_add(&cl->group_ids, sc->vms[v].group);
		cl->vm_group[v] = (size_t)(g < 0 ? -g - 1 : g);
	}
	cl->ngroups = cl->group_ids.count;
}

void
cloud_init(struct cloud *cl, const struct sysconf *sc)
{
	memset(cl, 0, sizeof *cl);
	cl->sc = sc;
	index_hosts(cl);
	place_vms(cl);
}

void
cloud_free(struct cloud *cl)
{
	free(cl->res);
	free(cl->host_of);
	free(cl->hv);
	free(cl->cap);
	free(cl->load);
	free(cl->usable);
	free(cl->part);
	free(cl->domain);
	free(cl->vm_host);
	free(cl->vm_next);
	free(cl->host_first);
	free(cl->vm_group);
	free(cl->zone);
	idmap_free(&cl->zone_ids);
	free(cl->causes);
	idmap_free(&cl->group_ids);
	memset(cl, 0, sizeof *cl);
}

int
cloud_has_group(const struct cloud *cl, size_t h, size_t g)
{
	size_t v;

	for (v = cl->host_first[h]; v != CLOUD_NONE; v = cl->vm_next[v])
		if (cl->vm_group[v] == g)
			return 1;
	return 0;
}

int
cloud_runs_tenant(const struct cloud *cl, size_t h, size_t n)
{
	size_t v;

	for (v = cl->host_first[h]; v != CLOUD_NONE; v = cl->vm_next[v])
		if (cl->sc->vms[v].tenant == n)
			return 1;
	return 0;
}

int
cloud_live(const struct cloud *cl, size_t vm)
{
	return cl->sc->vms[vm].live;
}

int
cloud_fits(const struct cloud *cl, size_t vm, size_t h, long cap)
{
	return cl->load[h] < cap && cloud_live(cl, vm) &&
	    cl->zone[h] == cl->zone[cl->vm_host[vm]] &&
	    !cloud_has_group(cl, h, cl->vm_group[vm]);
}

const char *
cloud_service_host(const struct cloud *cl, size_t h)
{
	return cl->sc->resources[cl->res[h]].service_host;
}

void
cloud_move(struct cloud *cl, size_t vm, size_t h)
{
	size_t from = cl->vm_host[vm], *p;

	for (p = &cl->host_first[from]; *p != vm; p = &cl->vm_next[*p])
		;
	*p = cl->vm_next[vm];
	cl->load[from]--;
	cl->vm_next[vm] = cl->host_first[h];
	cl->host_first[h] = vm;
	cl->vm_host[vm] = h;
	cl->load[h]++;
}

const char *
cloud_host_id(const struct cloud *cl, size_t h)
{
	return cl->sc->resources[cl->res[h]].id;
}

int
cloud_hv_product(const struct cloud *cl, const struct catalog *cat, size_t h,
    const char **name, const char **version)
{
	const char *key;
	json_t *val;
	size_t r = cl->hv[h];

	if (r == CLOUD_NONE)
		return -1;
	json_object_foreach(cl->sc->resources[r].products, key, val) {
		const struct cat_product *p = catalog_find(cat, key,
		    json_string_value(val));

		if (p != NULL && p->kind == KIND_HYPERVISOR) {
			*name = key;
			*version = json_string_value(val);
			return 0;
		}
	}
	return -1;
}
