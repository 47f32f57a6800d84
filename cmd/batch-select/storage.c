/*
 * storage.c: who a VM-supporting storage still serves, and which of its
 * sponsors still carry it (seed 000 III.A, the Partial Parallel
 * Universe, in both directions).
 *
 * A compute host with a vm-storage (or vm-controller) edge to a storage
 * relies on it only while its hypervisor is the one the storage's
 * product requires: once the undo of a VSAN -> Ceph change has put ESXi
 * back on a host, that host no longer runs VMs on Ceph, though the edge
 * to Ceph is still recorded.  And where the system records an
 * aggregate's product on its sponsors (Ceph on its storage hosts), a
 * sponsor that no longer carries it no longer serves the aggregate,
 * although it is back in service: so the undo cannot take Ceph off its
 * storage hosts while VMs still run on it.
 */
#include <string.h>

#include "bs.h"

const struct cat_product *
product_of_kind(const struct bs *b, size_t r)
{
	const struct resource *res = &b->in.sc.resources[r];
	const char *key;
	json_t *val;

	json_object_foreach(res->products, key, val) {
		const struct cat_product *p = catalog_find(&b->in.cat, key,
		    json_string_value(val));

		if (p != NULL && p->kind == (int)res->kind)
			return p;
	}
	return NULL;
}

/* required_hypervisor: the hypervisor product p requires, or NULL. */
static const char *
required_hypervisor(const struct cat_product *p)
{
	size_t i;

	for (i = 0; p != NULL && i < p->nrequires; i++)
		if (p->requires[i].on == KIND_HYPERVISOR)
			return p->requires[i].product;
	return NULL;
}

int
host_uses_storage(const struct bs *b, size_t h, size_t x)
{
	const char *need, *name, *version;

	if (b->res_of[x] == NONE)
		return 1;
	need = required_hypervisor(product_of_kind(b, b->res_of[x]));
	if (need == NULL ||
	    cloud_hv_product(&b->cl, &b->in.cat, h, &name, &version) < 0)
		return 1;
	return strcmp(name, need) == 0;
}

/* carries: does RG vertex v's resource list product name? */
static int
carries(const struct bs *b, size_t v, const char *name)
{
	return b->res_of[v] != NONE && json_object_get(
	    b->in.sc.resources[b->res_of[v]].products, name) != NULL;
}

const char *
product_on_sponsors(const struct bs *b, size_t x)
{
	const struct cat_product *p;
	const size_t *out;
	size_t n, i;

	if (b->res_of[x] == NONE ||
	    (p = product_of_kind(b, b->res_of[x])) == NULL)
		return NULL;
	out = digraph_out(&b->rgd, x, &n);
	for (i = 0; i < n; i++) {
		const struct rg_edge *e = &b->in.rg.e[out[i]];

		if (e->type == DEP_AGGREGATION && carries(b, e->sponsor, p->name))
			return p->name;
	}
	return NULL;
}

int
sponsor_serves(const struct bs *b, size_t s, const char *name)
{
	return name == NULL || carries(b, s, name);
}
