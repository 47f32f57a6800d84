/* digraph.c: CSR digraph and deterministic topological sort. */
#include <stdlib.h>
#include <string.h>

#include "digraph.h"
#include "xalloc.h"

void
digraph_init(struct digraph *g, size_t n)
{
	memset(g, 0, sizeof *g);
	g->n = n;
}

void
digraph_free(struct digraph *g)
{
	free(g->src);
	free(g->dst);
	free(g->out_start);
	free(g->out_edge);
	free(g->in_start);
	free(g->in_edge);
	memset(g, 0, sizeof *g);
}

size_t
digraph_add_edge(struct digraph *g, size_t u, size_t v)
{
	if (g->m == g->m_cap) {
		g->m_cap = g->m_cap ? 2 * g->m_cap : 64;
		g->src = xreallocarray(g->src, g->m_cap, sizeof *g->src);
		g->dst = xreallocarray(g->dst, g->m_cap, sizeof *g->dst);
	}
	g->src[g->m] = u;
	g->dst[g->m] = v;
	return g->m++;
}

/* bucket: counting sort of edge numbers by key[e] into start/edge. */
static void
bucket(size_t n, size_t m, const size_t *key, size_t **startp, size_t **edgep)
{
	size_t *start = xcalloc(n + 1, sizeof *start);
	size_t *edge = xcalloc(m, sizeof *edge);
	size_t *fill = xcalloc(n + 1, sizeof *fill);
	size_t e, u;

	for (e = 0; e < m; e++)
		start[key[e] + 1]++;
	for (u = 0; u < n; u++)
		start[u + 1] += start[u];
	memcpy(fill, start, (n + 1) * sizeof *fill);
	for (e = 0; e < m; e++)
		edge[fill[key[e]]++] = e;
	free(fill);
	free(*startp);
	free(*edgep);
	*startp = start;
	*edgep = edge;
}

void
digraph_build(struct digraph *g)
{
	bucket(g->n, g->m, g->src, &g->out_start, &g->out_edge);
	bucket(g->n, g->m, g->dst, &g->in_start, &g->in_edge);
}

const size_t *
digraph_out(const struct digraph *g, size_t u, size_t *count)
{
	*count = g->out_start[u + 1] - g->out_start[u];
	return g->out_edge + g->out_start[u];
}

const size_t *
digraph_in(const struct digraph *g, size_t u, size_t *count)
{
	*count = g->in_start[u + 1] - g->in_start[u];
	return g->in_edge + g->in_start[u];
}

/* A binary min-heap of vertex indices: the ready set of the sort. */
struct heap {
	size_t *v;
	size_t len;
};

static void
heap_push(struct heap *h, size_t x)
{
	size_t i = h->len++;

	while (i > 0 && h->v[(i - 1) / 2] > x) {
		h->v[i] = h->v[(i - 1) / 2];
		i = (i - 1) / 2;
	}
	h->v[i] = x;
}

static size_t
heap_pop(struct heap *h)
{
	size_t top = h->v[0], x = h->v[--h->len], i = 0, c;

	while ((c = 2 * i + 1) < h->len) {
		if (c + 1 < h->len && h->v[c + 1] < h->v[c])
			c++;
		if (h->v[c] >= x)
			break;
		h->v[i] = h->v[c];
		i = c;
	}
	h->v[i] = x;
	return top;
}

/*
 * find_cycle: every vertex with indeg[] > 0 after Kahn's algorithm has
 * a predecessor that is also left over, so walking backwards along
 * in-edges from any of them must revisit a vertex: that loop is a
 * cycle.  Returned in forward (edge) order from its smallest vertex.
 */
static size_t
find_cycle(const struct digraph *g, const size_t *indeg, size_t *cycle)
{
	size_t *seen = xcalloc(g->n, sizeof *seen);	/* step + 1 */
	size_t u = 0, step = 0, len, i, min, cnt, k;
	const size_t *in;

	while (indeg[u] == 0)
		u++;
	while (seen[u] == 0) {
		seen[u] = ++step;
		cycle[step - 1] = u;
		in = digraph_in(g, u, &cnt);
		for (k = 0; indeg[g->src[in[k]]] == 0; k++)
			;
		u = g->src[in[k]];
	}
	/* cycle[seen[u]-1 .. step-1] walks the loop against the edges. */
	len = step - (seen[u] - 1);
	memmove(cycle, cycle + seen[u] - 1, len * sizeof *cycle);
	for (i = 0; i < len / 2; i++) {
		size_t t = cycle[i];

		cycle[i] = cycle[len - 1 - i];
		cycle[len - 1 - i] = t;
	}
	for (min = 0, i = 1; i < len; i++)
		if (cycle[i] < cycle[min])
			min = i;
	memcpy(seen, cycle, len * sizeof *cycle);
	for (i = 0; i < len; i++)
		cycle[i] = seen[(min + i) % len];
	free(seen);
	return len;
}

size_t
digraph_topo(const struct digraph *g, size_t *order, size_t *cycle)
{
	size_t *indeg = xcalloc(g->n, sizeof *indeg);
	struct heap ready = { xcalloc(g->n, sizeof(size_t)), 0 };
	size_t e, u, k, cnt, done = 0, len = 0;
	const size_t *out;

	for (e = 0; e < g->m; e++)
		indeg[g->dst[e]]++;
	for (u = 0; u < g->n; u++)
		if (indeg[u] == 0)
			heap_push(&ready, u);
	while (ready.len > 0) {
		u = heap_pop(&ready);
		order[done++] = u;
		out = digraph_out(g, u, &cnt);
		for (k = 0; k < cnt; k++)
			if (--indeg[g->dst[out[k]]] == 0)
				heap_push(&ready, g->dst[out[k]]);
	}
	if (done < g->n)
		len = find_cycle(g, indeg, cycle);
	free(ready.v);
	free(indeg);
	return len;
}
