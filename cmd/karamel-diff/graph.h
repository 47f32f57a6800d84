/*
 * graph.h: the plan's dependency graph over the union of both key-DAGs.
 *
 * Every key is a vertex; an edge u -> v means u's action comes first.
 * Keys of the new definition keep its edges: cookbook::install before
 * the cookbook's other recipes on a machine, local dependencies on the
 * same machine, global ones through a "collect(R)" vertex that every
 * machine running R points to and that points to every dependent: an
 * all-to-all dependency costs m + n edges, never m x n.  Purged keys
 * take the old definition's edges reversed, so dependents go first;
 * a "release(R)" vertex stands between R's old dependents and its
 * purged members.
 */
#ifndef KARAMEL_GRAPH_H
#define KARAMEL_GRAPH_H

#include <stddef.h>

#include "diff.h"
#include "digraph.h"
#include "keyspace.h"
#include "world.h"

enum set_kind {
	SET_COLLECT,		/* every new machine running the recipe */
	SET_RELEASE,		/* every old dependent of the recipe */
};

struct plan_graph {
	struct digraph g;	/* keys first, then sets */
	size_t nkeys, nsets;
	size_t *set_recipe;	/* by set */
	unsigned char *set_kind;	/* by set: enum set_kind */
	size_t *order;		/* every vertex, in topological order */
	size_t key_dependencies;	/* the new key-DAG's, m x n expanded */
};

/*
 * plan_graph_build: build and sort the graph; -1 (diagnosed, naming
 * the keys on it) when it has a cycle.
 */
int plan_graph_build(struct plan_graph *pg, const struct world *w,
    const struct keyspace *ks, const struct diff *d,
    const struct cluster *old, const struct cluster *new);
void plan_graph_free(struct plan_graph *pg);

/*
 * plan_vertex_name: a key's name, or "collect(R)"/"release(R)", into
 * *buf as keyspace_name() does.
 */
const char *plan_vertex_name(const struct plan_graph *pg,
    const struct world *w, const struct keyspace *ks, size_t v,
    char **buf, size_t *size);

#endif
