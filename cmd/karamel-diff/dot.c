/*
 * dot.c: the plan graph for Graphviz.  One box per machine, one node
 * per key labelled with its recipe; built, reconciled and purged keys
 * are filled in colour and name their action, checked ones stay
 * white.  Collect and release sets are ellipses.
 */
#include <stdio.h>

#include "plan.h"

static const char *const fill[] = {
	"palegreen", "gold", "lightcoral", "white"
};

static void
dot_machine(const struct plan *p, FILE *fp, size_t nth, size_t m)
{
	const struct keyspace *ks = &p->keys;
	size_t k, size = 0;
	char *name = NULL;
	int a;

	fprintf(fp, "\tsubgraph \"cluster_%zu\" {\n\t\tlabel=\"%s\";\n", nth,
	    idmap_key(&p->world.machines, m));
	for (k = ks->first[m]; k < ks->first[m] + ks->count[m]; k++) {
		a = p->diff.action[k];
		fprintf(fp, "\t\t\"%s\" [label=\"%s%s%s\", fillcolor=%s];\n",
		    keyspace_name(ks, &p->world, k, &name, &size),
		    names_recipe_name(&p->world.names, ks->recipe[k]),
		    a == ACTION_CHECK ? "" : "\\n", a == ACTION_CHECK ? "" :
		    action_names[a], fill[a]);
	}
	fputs("\t}\n", fp);
	free(name);
}

void
plan_dot(const struct plan *p, FILE *fp)
{
	const struct plan_graph *pg = &p->graph;
	char *from = NULL, *to = NULL;
	size_t i, e, from_size = 0, to_size = 0;

	fputs("digraph \"karamel-plan\" {\n\trankdir=LR;\n"
	    "\tnode [shape=box, style=\"rounded,filled\", fillcolor=white];\n",
	    fp);
	for (i = 0; i < p->keys.nmachines; i++)
		dot_machine(p, fp, i, p->keys.machines[i]);
	for (i = pg->nkeys; i < pg->g.n; i++)
		fprintf(fp, "\t\"%s\" [shape=ellipse, style=dashed];\n",
		    plan_vertex_name(pg, &p->world, &p->keys, i, &from,
		    &from_size));
	for (e = 0; e < pg->g.m; e++)
		fprintf(fp, "\t\"%s\" -> \"%s\";\n",
		    plan_vertex_name(pg, &p->world, &p->keys, pg->g.src[e], &from,
		    &from_size), plan_vertex_name(pg, &p->world, &p->keys,
		    pg->g.dst[e], &to, &to_size));
	fputs("}\n", fp);
	free(from);
	free(to);
}
