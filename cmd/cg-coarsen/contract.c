/*
 * contract.c: which resources of the RG become one group of the CG
 * (seed 000 step 2).
 *
 * Edge contraction: a container and what it contains (a host and its
 * hypervisor), and a composite and its constituents, are upgraded in
 * one go, since upgrading one takes the other out of service anyway
 * (Fig. 5).  Vertex contraction: resources whose first execution level
 * belongs to a split-mode unit are upgraded together per partition of
 * that unit, so each partition becomes one group.  Other methods (ppu,
 * rolling) keep their resources in groups of their own.
 */
#include <stdlib.h>
#include <string.h>

#include "coarsen.h"
#include "xalloc.h"

static void
contract_edges(const struct rgraph *rg, struct unionfind *uf)
{
	size_t i;

	for (i = 0; i < rg->ne; i++)
		if (rg->e[i].type == DEP_CONTAINED ||
		    rg->e[i].type == DEP_COMPOSITION)
			uf_union(uf, rg->e[i].dependent, rg->e[i].sponsor);
}

/* first_unit: the unit of v's first execution level, or -1. */
static long
first_unit(const struct rgraph *rg, size_t v)
{
	if (rg->v[v].nlevels == 0)
		return -1;
	return (long)rg->levels[rg->v[v].first_level].unit;
}

/* partition: one side of split unit u; members joined in uf. */
static int
partition(struct access *a, const struct rgraph *rg, size_t u,
    const json_t *side, struct unionfind *uf)
{
	long rep = -1, v;
	json_t *x;
	size_t k;

	if (acc_as_array(a, side) < 0)
		return -1;
	json_array_foreach(side, k, x) {
		access_enter_index(a, k);
		if (!json_is_string(x))
			return access_fail(a, "expected a vertex id");
		if ((v = idmap_find(&rg->ids, json_string_value(x))) < 0)
			return access_fail(a, "no vertex has id \"%s\"",
			    json_string_value(x));
		access_leave(a);
		if (first_unit(rg, (size_t)v) != (long)u)
			continue;	/* another level: not upgraded now */
		if (rep < 0)
			rep = v;
		else
			uf_union(uf, (size_t)rep, (size_t)v);
	}
	return 0;
}

static int
contract_splits(struct access *a, const struct rgraph *rg,
    struct unionfind *uf)
{
	size_t u, p;

	access_enter_key(a, "upgrade_units");
	for (u = 0; u < rg->nunits; u++) {
		const json_t *parts = rg->units[u].partitions;

		if (rg->units[u].method != METHOD_SPLIT || parts == NULL)
			continue;
		access_enter_index(a, u);
		access_enter_key(a, "partitions");
		for (p = 0; p < json_array_size(parts); p++) {
			access_enter_index(a, p);
			if (partition(a, rg, u, json_array_get(parts, p), uf) < 0)
				return -1;
			access_leave(a);
		}
		access_leave(a);
		access_leave(a);
	}
	access_leave(a);
	return 0;
}

int
contract(struct access *a, const struct rgraph *rg, struct unionfind *uf)
{
	contract_edges(rg, uf);
	return contract_splits(a, rg, uf);
}
