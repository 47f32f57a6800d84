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
 *
 * Whatever fails in the iteration, a storage keeps its minimum (issue
 * 41, case 5).  The VMs that rely on it are counted where they are
 * before this iteration's moves: a move that fails leaves its VM where
 * it was, so a storage that loses its last VMs by this iteration's
 * consolidation or evacuation still needs its minimum in it, and its
 * sponsors go in the next one.  A storage being removed that no VM runs
 * on needs none; then no move may put a VM on a host relying on it
 * (keep_empty), so that none runs on it whatever succeeds.  The
 * sponsors that count are those that stay in service and carry the
 * product: every group of the batch counts as lost (rules.c), as a
 * failed action leaves its resource deactivated and an undo takes the
 * product off it.
 */
#include <string.h>

#include "bs.h"
#include "xalloc.h"

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

/* relying_host: the compute host that runs its VMs on edge e's sponsor
 * through e, or NONE. */
static size_t
relying_host(const struct bs *b, const struct rg_edge *e)
{
	size_t r, h;

	if ((e->type != DEP_VM_STORAGE && e->type != DEP_VM_CONTROLLER) ||
	    e->presence == PRES_FUTURE ||
	    (r = b->res_of[e->dependent]) == NONE ||
	    (h = b->cl.host_of[r]) == CLOUD_NONE ||
	    (e->presence == PRES_CURRENT && b->cl.part[h] == PART_NEW) ||
	    !host_uses_storage(b, h, e->sponsor))
		return NONE;
	return h;
}

/*
 * count_relying_vms: the VMs on compute hosts relying on each vertex for
 * VM operations (vm-storage, vm-controller), before any move of this
 * iteration.  A host already in the new partition relies on the new
 * configuration, not on the old one its current-only edge still names
 * (III.A, PPU); nor does a host whose hypervisor the storage's product
 * does not run on (the hosts an undo has put back).  Then the hosts that
 * rely on a vertex being removed that no VM runs on are kept empty.
 */
void
count_relying_vms(struct bs *b)
{
	size_t e, h;

	b->relying_vms = xcalloc(b->in.rg.nv, sizeof *b->relying_vms);
	b->keep_empty = xcalloc(b->cl.nhosts + 1, 1);
	for (e = 0; e < b->in.rg.ne; e++)
		if ((h = relying_host(b, &b->in.rg.e[e])) != NONE)
			b->relying_vms[b->in.rg.e[e].sponsor] += b->cl.load[h];
	for (e = 0; e < b->in.rg.ne; e++) {
		const struct rg_edge *d = &b->in.rg.e[e];

		if (b->in.rg.v[d->sponsor].mod == MOD_REMOVE &&
		    b->relying_vms[d->sponsor] == 0 &&
		    (h = relying_host(b, d)) != NONE)
			b->keep_empty[h] = 1;
	}
}
