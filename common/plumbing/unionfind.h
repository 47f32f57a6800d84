/*
 * unionfind.h: disjoint sets over 0..n-1 with path halving, each set
 * knowing its size.  Used to contract edges and vertices into groups.
 */
#ifndef UPKIT_UNIONFIND_H
#define UPKIT_UNIONFIND_H

#include <stddef.h>

struct unionfind {
	size_t *parent;
	size_t *size;		/* set size, valid at roots */
	size_t n;
};

void uf_init(struct unionfind *u, size_t n);
void uf_free(struct unionfind *u);
size_t uf_find(struct unionfind *u, size_t x);
/*
 * uf_union: merge the sets of x and y; returns the new root.  The root
 * is the smaller of the two old roots' indices, so representatives are
 * deterministic whatever the order of the unions.
 */
size_t uf_union(struct unionfind *u, size_t x, size_t y);

#endif
