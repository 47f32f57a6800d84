/*
 * graph.c: unit tests of the graph primitives every planner builds on:
 * id numbering and the pool of its copied ids, CSR adjacency,
 * deterministic topological order with a cycle report, and union-find
 * with order-independent representatives.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "digraph.h"
#include "idmap.h"
#include "strpool.h"
#include "tap.h"
#include "unionfind.h"

static void
test_idmap(void)
{
	struct idmap m;
	char id[32];
	long i, bad = 0;

	idmap_init(&m);
	is_long(idmap_find(&m, "host1"), -1, "idmap: empty map finds nothing");
	is_long(idmap_add(&m, "host1"), 0, "idmap: first id gets index 0");
	is_long(idmap_add(&m, "hv1"), 1, "idmap: second id gets index 1");
	is_long(idmap_add(&m, "host1"), -1, "idmap: duplicate returns -(index)-1");
	/* Grow through several rehashes and check every id survives. */
	for (i = 0; i < 100000; i++) {
		snprintf(id, sizeof id, "vm-%ld", i);
		if (idmap_add(&m, id) != i + 2)
			bad++;
	}
	for (i = 0; i < 100000; i++) {
		snprintf(id, sizeof id, "vm-%ld", i);
		if (idmap_find(&m, id) != i + 2)
			bad++;
	}
	is_long(bad, 0, "idmap: 100000 ids keep their indices across rehashes");
	is_str(idmap_key(&m, 1), "hv1", "idmap: index 1 maps back to hv1");
	ok(idmap_key(&m, m.count) == NULL, "idmap: index past the end is NULL");
	idmap_free(&m);
}

/* idmap_truncate across a growth: the map is as if the ids never came. */
static void
test_idmap_truncate(void)
{
	struct idmap m;
	char id[32];
	long i, bad = 0;

	idmap_init(&m);
	for (i = 0; i < 1000; i++) {
		snprintf(id, sizeof id, "h%ld", i);
		idmap_add(&m, id);
	}
	for (i = 1000; i < 5000; i++) {
		snprintf(id, sizeof id, "h%ld", i);
		idmap_add(&m, id);
	}
	idmap_truncate(&m, 1000);
	is_long((long)m.count, 1000, "idmap_truncate: 1000 ids left");
	for (i = 0; i < 5000; i++) {
		snprintf(id, sizeof id, "h%ld", i);
		if (idmap_find(&m, id) != (i < 1000 ? i : -1))
			bad++;
	}
	is_long(bad, 0, "idmap_truncate: the first 1000 found, the rest gone");
	for (i = 4999; i >= 1000; i--) {
		snprintf(id, sizeof id, "h%ld", i);
		if (idmap_add(&m, id) != 1000 + (4999 - i))
			bad++;
	}
	is_long(bad, 0, "idmap_truncate: the ids forgotten can be added again");
	idmap_free(&m);
}

/*
 * strpool: copies made across chunks of growing size, and one longer
 * than any chunk, all stay as they were copied.
 */
static void
test_strpool(void)
{
	struct strpool p = { 0 };
	const char *copies[20000], *big_copy = NULL;
	char id[32], *big = malloc(3 << 20);
	long i, bad = 0;

	if (big == NULL)
		abort();
	memset(big, 'x', (3 << 20) - 1);
	big[(3 << 20) - 1] = '\0';
	for (i = 0; i < 20000; i++) {
		snprintf(id, sizeof id, "tenant-%ld-vm", i);
		copies[i] = strpool_copy(&p, id);
		if (i == 10000)
			big_copy = strpool_copy(&p, big);
	}
	for (i = 0; i < 20000; i++) {
		snprintf(id, sizeof id, "tenant-%ld-vm", i);
		if (strcmp(copies[i], id) != 0)
			bad++;
	}
	is_long(bad, 0, "strpool: 20000 copies over many chunks intact");
	ok(strcmp(big_copy, big) == 0, "strpool: a copy longer than a chunk");
	ok(big_copy != big, "strpool: a copy is not the original");
	strpool_free(&p);
	is_long((long)p.nchunks, 0, "strpool: freed, the pool is empty");
	free(big);
}

static void
test_topo_order(void)
{
	struct digraph g;
	size_t order[5], cycle[5];

	/* 4 -> 0 -> 2, 3 -> 2, 1 alone: ties go to the smallest index. */
	digraph_init(&g, 5);
	digraph_add_edge(&g, 4, 0);
	digraph_add_edge(&g, 0, 2);
	digraph_add_edge(&g, 3, 2);
	digraph_build(&g);
	is_long((long)digraph_topo(&g, order, cycle), 0, "topo: a DAG has no cycle");
	ok(order[0] == 1 && order[1] == 3 && order[2] == 4 && order[3] == 0 &&
	    order[4] == 2, "topo: order is 1 3 4 0 2 (smallest ready first)");
	digraph_free(&g);
}

static void
test_topo_cycle(void)
{
	struct digraph g;
	size_t order[6], cycle[6], len;

	/* 0 -> 1 -> 5 -> 3 -> 1 (a cycle 1 5 3), 2 -> 0, 4 alone. */
	digraph_init(&g, 6);
	digraph_add_edge(&g, 0, 1);
	digraph_add_edge(&g, 1, 5);
	digraph_add_edge(&g, 5, 3);
	digraph_add_edge(&g, 3, 1);
	digraph_add_edge(&g, 2, 0);
	digraph_build(&g);
	len = digraph_topo(&g, order, cycle);
	is_long((long)len, 3, "topo: the cycle has three vertices");
	ok(len == 3 && cycle[0] == 1 && cycle[1] == 5 && cycle[2] == 3,
	    "topo: cycle reported as 1 -> 5 -> 3, in edge order");
	digraph_free(&g);

	digraph_init(&g, 2);
	digraph_add_edge(&g, 1, 1);
	digraph_build(&g);
	len = digraph_topo(&g, order, cycle);
	ok(len == 1 && cycle[0] == 1, "topo: a self-loop is a cycle of one");
	digraph_free(&g);
}

static void
test_adjacency(void)
{
	struct digraph g;
	const size_t *e;
	size_t n;

	digraph_init(&g, 3);
	digraph_add_edge(&g, 0, 2);
	digraph_add_edge(&g, 1, 2);
	digraph_add_edge(&g, 0, 1);
	digraph_build(&g);
	e = digraph_out(&g, 0, &n);
	ok(n == 2 && e[0] == 0 && e[1] == 2, "csr: out-edges of 0 in added order");
	e = digraph_in(&g, 2, &n);
	ok(n == 2 && g.src[e[0]] == 0 && g.src[e[1]] == 1,
	    "csr: in-edges of 2 come from 0 and 1");
	digraph_free(&g);
}

static void
test_unionfind(void)
{
	struct unionfind u;

	uf_init(&u, 6);
	uf_union(&u, 5, 3);
	uf_union(&u, 3, 4);
	uf_union(&u, 1, 0);
	is_long((long)uf_find(&u, 5), 3, "uf: root is the smallest member (3)");
	is_long((long)u.size[uf_find(&u, 4)], 3, "uf: set {3,4,5} has size 3");
	ok(uf_find(&u, 0) == uf_find(&u, 1) && uf_find(&u, 0) != uf_find(&u, 2),
	    "uf: 0 and 1 joined, 2 alone");
	uf_union(&u, 4, 1);
	is_long((long)uf_find(&u, 5), 0, "uf: after joining the sets, root is 0");
	uf_free(&u);
}

int
main(void)
{
	test_idmap();
	test_idmap_truncate();
	test_strpool();
	test_topo_order();
	test_topo_cycle();
	test_adjacency();
	test_unionfind();
	return done_testing();
}
