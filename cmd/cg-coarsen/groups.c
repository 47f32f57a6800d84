/*
 * groups.c: build the control graph from the contracted RG.  Groups
 * come in the order of their first member in the RG, members in RG
 * order; a group is named after its smallest member id (bytewise), which
 * does not depend on the order the system lists resources in, so group
 * ids stay stable across iterations.  Group edges are the RG edges
 * between different groups, without repeats; edges inside a group are
 * the contracted ones.
 */
#include <stdlib.h>
#include <string.h>

#include "coarsen.h"
#include "xalloc.h"

/* merge_mod: one modification-type for the group: mixed is "upgrade". */
static enum modification
merge_mod(enum modification a, enum modification b)
{
	if (a == MOD_NO_CHANGE)
		return b;
	if (b == MOD_NO_CHANGE || a == b)
		return a;
	return MOD_UPGRADE;
}

static void
add_member(const struct rgraph *rg, struct cg_group *g, size_t v)
{
	const struct rg_vertex *x = &rg->v[v];

	g->members[g->nmembers++] = v;
	if (g->id == NULL || strcmp(x->id, g->id) < 0)
		g->id = x->id;
	g->mod = merge_mod(g->mod, x->mod);
	g->deactivated |= x->deactivated;
	g->isolated |= x->isolated;
	g->failed |= x->failed;
}

static void
make_groups(const struct rgraph *rg, struct unionfind *uf, struct cgraph *cg)
{
	size_t *of_root = xmalloc((rg->nv + 1) * sizeof *of_root), v, r;

	memset(of_root, 0xff, (rg->nv + 1) * sizeof *of_root);
	cg->groups = xcalloc(rg->nv, sizeof *cg->groups);
	cg->group_of = xcalloc(rg->nv, sizeof *cg->group_of);
	for (v = 0; v < rg->nv; v++) {
		struct cg_group *g;

		r = uf_find(uf, v);
		if (of_root[r] == (size_t)-1) {
			of_root[r] = cg->ngroups++;
			g = &cg->groups[of_root[r]];
			g->members = xcalloc(uf->size[r], sizeof *g->members);
		}
		cg->group_of[v] = of_root[r];
		add_member(rg, &cg->groups[of_root[r]], v);
	}
	free(of_root);
}

static int
edge_cmp(const void *x, const void *y)
{
	const struct cg_edge *a = x, *b = y;

	if (a->from != b->from)
		return a->from < b->from ? -1 : 1;
	if (a->to != b->to)
		return a->to < b->to ? -1 : 1;
	if (a->type != b->type)
		return a->type < b->type ? -1 : 1;
	if (a->presence != b->presence)
		return a->presence < b->presence ? -1 : 1;
	return a->incompatible - b->incompatible;
}

static void
make_edges(const struct rgraph *rg, struct cgraph *cg)
{
	size_t i, n = 0;

	cg->edges = xcalloc(rg->ne, sizeof *cg->edges);
	for (i = 0; i < rg->ne; i++) {
		struct cg_edge e = { cg->group_of[rg->e[i].dependent],
			cg->group_of[rg->e[i].sponsor], rg->e[i].type,
			rg->e[i].presence, rg->e[i].incompatible };

		if (e.from != e.to)
			cg->edges[n++] = e;
	}
	qsort(cg->edges, n, sizeof *cg->edges, edge_cmp);
	for (i = 0; i < n; i++)
		if (cg->nedges == 0 ||
		    edge_cmp(&cg->edges[cg->nedges - 1], &cg->edges[i]) != 0)
			cg->edges[cg->nedges++] = cg->edges[i];
}

void
build_groups(const struct rgraph *rg, struct unionfind *uf, struct cgraph *cg)
{
	memset(cg, 0, sizeof *cg);
	cg->rg = rg;
	make_groups(rg, uf, cg);
	make_edges(rg, cg);
}
