/* unionfind.c: disjoint sets (see unionfind.h). */
#include <stdlib.h>

#include "unionfind.h"
#include "xalloc.h"

void
uf_init(struct unionfind *u, size_t n)
{
	size_t i;

	u->n = n;
	u->parent = xcalloc(n, sizeof *u->parent);
	u->size = xcalloc(n, sizeof *u->size);
	for (i = 0; i < n; i++) {
		u->parent[i] = i;
		u->size[i] = 1;
	}
}

void
uf_free(struct unionfind *u)
{
	free(u->parent);
	free(u->size);
	u->parent = u->size = NULL;
	u->n = 0;
}

size_t
uf_find(struct unionfind *u, size_t x)
{
	while (u->parent[x] != x) {
		u->parent[x] = u->parent[u->parent[x]];
		x = u->parent[x];
	}
	return x;
}

size_t
uf_union(struct unionfind *u, size_t x, size_t y)
{
	size_t rx = uf_find(u, x), ry = uf_find(u, y), keep, gone;

	if (rx == ry)
		return rx;
	/*
	 * The smaller index stays the root, so representatives do not
	 * depend on the order of the unions; path halving in uf_find keeps
	 * the amortised cost logarithmic without union by rank.
	 */
	keep = rx < ry ? rx : ry;
	gone = rx < ry ? ry : rx;
	u->parent[gone] = keep;
	u->size[keep] += u->size[gone];
	return keep;
}
