/*
 * digraph.h: a directed graph over vertices 0..n-1 with numbered edges.
 *
 * Edges are added one by one, then digraph_build() lays out compressed
 * adjacency (CSR) for out- and in-edges in O(n + m).  Edge numbers are
 * the order of addition, so callers keep edge attributes in their own
 * arrays indexed by edge number.  Within a vertex, edges are listed in
 * the order they were added, which keeps traversals deterministic.
 */
#ifndef UPKIT_DIGRAPH_H
#define UPKIT_DIGRAPH_H

#include <stddef.h>

struct digraph {
	size_t n;		/* vertices */
	size_t m, m_cap;	/* edges */
	size_t *src, *dst;	/* by edge number */
	size_t *out_start;	/* n + 1 offsets into out_edge */
	size_t *out_edge;	/* edge numbers grouped by source */
	size_t *in_start;	/* n + 1 offsets into in_edge */
	size_t *in_edge;	/* edge numbers grouped by destination */
};

void digraph_init(struct digraph *g, size_t n);
void digraph_free(struct digraph *g);
/* digraph_add_edge: add u -> v before digraph_build; returns its number. */
size_t digraph_add_edge(struct digraph *g, size_t u, size_t v);
void digraph_build(struct digraph *g);

/* Out- and in-edges of u after digraph_build: a slice of edge numbers. */
const size_t *digraph_out(const struct digraph *g, size_t u, size_t *count);
const size_t *digraph_in(const struct digraph *g, size_t u, size_t *count);

/*
 * digraph_topo: a topological order of all vertices into order[n], in
 * which every edge u -> v puts u before v.  Among vertices that are
 * ready at the same time the smallest index goes first, so the order
 * is a pure function of the graph.  Returns 0, or, when the graph has
 * a cycle, the cycle's length with its vertices in cycle[] (caller
 * allocates n), in edge order, starting from its smallest vertex.
 */
size_t digraph_topo(const struct digraph *g, size_t *order, size_t *cycle);

#endif
