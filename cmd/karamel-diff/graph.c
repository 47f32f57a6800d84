/* graph.c: the plan's dependency graph (see graph.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "diag.h"
#include "graph.h"
#include "xalloc.h"

/* The longest stretch of a cycle a message names. */
#define CYCLE_SHOWN 12

struct builder {
	struct plan_graph *pg;
	const struct world *w;
	const struct keyspace *ks;
	const struct diff *d;
	size_t *install_of;	/* by cookbook: its install recipe id */
	long *collect_of;	/* by recipe: vertex of collect(R), or -1 */
	long *release_of;	/* by recipe: vertex of release(R), or -1 */
	size_t *in_new, *in_old;	/* by recipe: keys running it */
	size_t *order;		/* recipe ids in name order */
};

static size_t *
find_installs(const struct names *n)
{
	size_t i, count = n->cookbooks.count;
	size_t *install = xcalloc(count, sizeof *install);
	char *name;
	long id;

	for (i = 0; i < count; i++) {
		name = xasprintf("%s::install", idmap_key(&n->cookbooks, i));
		id = idmap_find(&n->recipes, name);
		free(name);
		install[i] = id < 0 ? (size_t)-1 : (size_t)id;
	}
	return install;
}

static void
count_running(struct builder *b)
{
	const struct keyspace *ks = b->ks;
	size_t k;

	for (k = 0; k < ks->nkeys; k++) {
		if (ks->in[k] & IN_NEW)
			b->in_new[ks->recipe[k]]++;
		if (ks->in[k] & IN_OLD)
			b->in_old[ks->recipe[k]]++;
	}
}

static void
add_set(struct builder *b, long *slot, size_t recipe, enum set_kind kind)
{
	struct plan_graph *pg = b->pg;

	if (*slot >= 0)
		return;
	pg->set_recipe = xreallocarray(pg->set_recipe, pg->nsets + 1,
	    sizeof *pg->set_recipe);
	pg->set_kind = xreallocarray(pg->set_kind, pg->nsets + 1,
	    sizeof *pg->set_kind);
	pg->set_recipe[pg->nsets] = recipe;
	pg->set_kind[pg->nsets] = (unsigned char)kind;
	*slot = (long)(pg->nkeys + pg->nsets++);
}

/*
 * make_sets: collect(X) when X runs in the new definition and a recipe
 * running there collects it; release(X) when some of X's machines are
 * purged and an old recipe collected it.  Numbered in recipe name order.
 */
static void
make_sets(struct builder *b)
{
	size_t nrecipes = b->w->names.recipes.count, i, j, x;
	unsigned char *need = xcalloc(nrecipes, 1);
	const struct dep_list *g;

	for (i = 0; i < nrecipes; i++) {
		g = &world_deps(b->w, i)->global;
		for (j = 0; j < g->n; j++) {
			x = g->recipe[j];
			if (b->in_new[i] > 0 && b->in_new[x] > 0)
				need[x] |= 1 << SET_COLLECT;
			if (b->in_old[i] > 0 && b->d->left[x] > 0)
				need[x] |= 1 << SET_RELEASE;
		}
	}
	for (i = 0; i < nrecipes; i++) {
		x = b->order[i];
		if (need[x] & 1 << SET_COLLECT)
			add_set(b, &b->collect_of[x], x, SET_COLLECT);
		if (need[x] & 1 << SET_RELEASE)
			add_set(b, &b->release_of[x], x, SET_RELEASE);
	}
	free(need);
}

static void
edge(struct builder *b, size_t u, size_t v)
{
	digraph_add_edge(&b->pg->g, u, v);
}

/* new_edges: a key of the new definition and what it waits for. */
static void
new_edges(struct builder *b, size_t k)
{
	const struct keyspace *ks = b->ks;
	size_t r = ks->recipe[k], m = ks->machine[k], i;
	size_t install = b->install_of[b->w->names.cookbook_of[r]];
	const struct recipe_deps *d = world_deps(b->w, r);

	if (r != install)
		edge(b, (size_t)keyspace_find(ks, m, install), k);
	for (i = 0; i < d->local.n; i++)
		if (d->local.recipe[i] != install)
			edge(b, (size_t)keyspace_find(ks, m, d->local.recipe[i]), k);
	for (i = 0; i < d->global.n; i++)
		if (b->collect_of[d->global.recipe[i]] >= 0)
			edge(b, (size_t)b->collect_of[d->global.recipe[i]], k);
	if (b->collect_of[r] >= 0)
		edge(b, k, (size_t)b->collect_of[r]);
}

/* depended_on_locally: did old key v need key k on their machine? */
static int
depended_on_locally(const struct builder *b, size_t k, size_t v)
{
	size_t r = b->ks->recipe[k], rv = b->ks->recipe[v];

	return v != k && (b->ks->in[v] & IN_OLD) &&
	    (r == b->install_of[b->w->names.cookbook_of[rv]] ||
	    world_depends_locally(b->w, rv, r));
}

/* old_edges: a purged key waits for its old dependents, reversed. */
static void
old_edges(struct builder *b, size_t k)
{
	const struct keyspace *ks = b->ks;
	size_t r = ks->recipe[k], m = ks->machine[k], v, i;
	const struct dep_list *g = &world_deps(b->w, r)->global;

	if (b->d->action[k] == ACTION_PURGE) {
		for (v = ks->first[m]; v < ks->first[m] + ks->count[m]; v++)
			if (depended_on_locally(b, k, v))
				edge(b, v, k);
		if (b->release_of[r] >= 0)
			edge(b, (size_t)b->release_of[r], k);
	}
	for (i = 0; i < g->n; i++)
		if (b->release_of[g->recipe[i]] >= 0)
			edge(b, k, (size_t)b->release_of[g->recipe[i]]);
}

/* expanded_dependencies: what the new key-DAG has without collect sets. */
static size_t
expanded_dependencies(const struct builder *b)
{
	size_t r, i, per_key, total = 0, n = b->w->names.recipes.count;
	const struct recipe_deps *d;
	size_t install;

	for (r = 0; r < n; r++) {
		if (b->in_new[r] == 0)
			continue;
		d = world_deps(b->w, r);
		install = b->install_of[b->w->names.cookbook_of[r]];
		per_key = r != install;
		for (i = 0; i < d->local.n; i++)
			per_key += d->local.recipe[i] != install;
		for (i = 0; i < d->global.n; i++)
			per_key += b->in_new[d->global.recipe[i]];
		total += per_key * b->in_new[r];
	}
	return total;
}

const char *
plan_vertex_name(const struct plan_graph *pg, const struct world *w,
    const struct keyspace *ks, size_t v, char **buf, size_t *size)
{
	size_t s = v - pg->nkeys;
	const char *kind, *recipe;

	if (v < pg->nkeys)
		return keyspace_name(ks, w, v, buf, size);
	kind = pg->set_kind[s] == SET_COLLECT ? "collect" : "release";
	recipe = names_recipe_name(&w->names, pg->set_recipe[s]);
	xreserve(buf, size, strlen(kind) + strlen(recipe) + 3);
	snprintf(*buf, *size, "%s(%s)", kind, recipe);
	return *buf;
}

static int
report_cycle(const struct plan_graph *pg, const struct world *w,
    const struct keyspace *ks, const struct diff *d, const size_t *cycle,
    size_t len, const char *old_file, const char *new_file)
{
	char *name = NULL, *text = xcalloc(1, 1);
	size_t size = 0, i, tlen = 0, n, shown = len < CYCLE_SHOWN ? len : CYCLE_SHOWN;
	int old = cycle[0] < pg->nkeys ? d->action[cycle[0]] == ACTION_PURGE :
	    pg->set_kind[cycle[0] - pg->nkeys] == SET_RELEASE;

	for (i = 0; i <= shown; i++) {
		plan_vertex_name(pg, w, ks, cycle[i % len], &name, &size);
		n = strlen(name);
		text = xreallocarray(text, tlen + n + 8, 1);
		tlen += (size_t)snprintf(text + tlen, n + 8, "%s%s",
		    i ? " -> " : "", i == shown && shown < len ? "..." : name);
	}
	diag_error(old ? old_file : new_file, "dependency cycle: %s", text);
	free(name);
	free(text);
	return -1;
}

int
plan_graph_build(struct plan_graph *pg, const struct world *w,
    const struct keyspace *ks, const struct diff *d,
    const struct cluster *old, const struct cluster *new)
{
	size_t nrecipes = w->names.recipes.count, k, len, *cycle;
	struct builder b = { pg, w, ks, d, find_installs(&w->names),
	    xcalloc(nrecipes, sizeof(long)), xcalloc(nrecipes, sizeof(long)),
	    xcalloc(nrecipes, sizeof(size_t)),
	    xcalloc(nrecipes, sizeof(size_t)),
	    xcalloc(nrecipes, sizeof(size_t)) };
	int r = 0;

	for (k = 0; k < nrecipes; k++)
		b.order[w->names.rank[k]] = k;

	memset(pg, 0, sizeof *pg);
	pg->nkeys = ks->nkeys;
	memset(b.collect_of, 0xff, nrecipes * sizeof(long));
	memset(b.release_of, 0xff, nrecipes * sizeof(long));
	count_running(&b);
	make_sets(&b);
	digraph_init(&pg->g, pg->nkeys + pg->nsets);
	for (k = 0; k < ks->nkeys; k++) {
		if (ks->in[k] & IN_NEW)
			new_edges(&b, k);
		if (ks->in[k] & IN_OLD)
			old_edges(&b, k);
	}
	digraph_build(&pg->g);
	pg->key_dependencies = expanded_dependencies(&b);
	pg->order = xcalloc(pg->g.n, sizeof *pg->order);
	cycle = xcalloc(pg->g.n, sizeof *cycle);
	if ((len = digraph_topo(&pg->g, pg->order, cycle)) > 0)
		r = report_cycle(pg, w, ks, d, cycle, len, old->file, new->file);
	free(cycle);
	free(b.install_of);
	free(b.collect_of);
	free(b.release_of);
	free(b.in_new);
	free(b.in_old);
	free(b.order);
	return r;
}

void
plan_graph_free(struct plan_graph *pg)
{
	digraph_free(&pg->g);
	free(pg->set_recipe);
	free(pg->set_kind);
	free(pg->order);
	memset(pg, 0, sizeof *pg);
}
