/*
 * check.c: what a cluster definition's key-DAG needs from the
 * Karamelfiles: local dependencies that run on the same machine, and
 * global ones that run somewhere.
 */
#include <stdlib.h>
#include <string.h>

#include "cluster.h"
#include "xalloc.h"

struct slot {
	size_t rank, recipe, listed_at;
};

static int
by_rank(const void *a, const void *b)
{
	const struct slot *x = a, *y = b;

	return (x->rank > y->rank) - (x->rank < y->rank);
}

/* sort_recipes: a group's recipes in name order, positions kept. */
static void
sort_recipes(const struct names *n, struct group *g)
{
	struct slot *s = xcalloc(g->nrecipes, sizeof *s);
	size_t i;

	for (i = 0; i < g->nrecipes; i++) {
		s[i].rank = n->rank[g->recipes[i]];
		s[i].recipe = g->recipes[i];
		s[i].listed_at = g->listed_at[i];
	}
	qsort(s, g->nrecipes, sizeof *s, by_rank);
	for (i = 0; i < g->nrecipes; i++) {
		g->recipes[i] = s[i].recipe;
		g->listed_at[i] = s[i].listed_at;
	}
	free(s);
}

static int
local_missing(const struct world *w, const struct cluster *c,
    const struct group *g, size_t slot, size_t dep)
{
	struct access a;

	access_init(&a, c->file);
	access_enter_key(&a, "groups");
	access_enter_key(&a, g->name);
	access_enter_key(&a, "recipes");
	access_enter_index(&a, g->listed_at[slot]);
	access_fail(&a, "'%s' needs '%s' on the same machine (local "
	    "dependency), but group '%s' does not run it",
	    names_recipe_name(&w->names, g->recipes[slot]),
	    names_recipe_name(&w->names, dep), g->name);
	access_free(&a);
	return -1;
}

static int
check_locals(const struct world *w, const struct cluster *c,
    const struct group *g)
{
	const struct dep_list *l;
	size_t i, j;

	for (i = 0; i < g->nrecipes; i++) {
		l = &world_deps(w, g->recipes[i])->local;
		for (j = 0; j < l->n; j++)
			if (group_find_recipe(g, l->recipe[j]) < 0)
				return local_missing(w, c, g, i, l->recipe[j]);
	}
	return 0;
}

/* machines_running: by recipe id, how many machines run it. */
static size_t *
machines_running(const struct world *w, const struct cluster *c)
{
	size_t *count = xcalloc(w->names.recipes.count, sizeof *count);
	size_t i, j;

	for (i = 0; i < c->ngroups; i++)
		for (j = 0; j < c->groups[i].nrecipes; j++)
			count[c->groups[i].recipes[j]] += c->groups[i].nmachines;
	return count;
}

static void
warn_globals(const struct world *w, const struct cluster *c,
    const size_t *running, const size_t *by_rank_order)
{
	const struct recipe_deps *d;
	size_t i, j, r, n = w->names.recipes.count;

	for (i = 0; i < n; i++) {
		r = by_rank_order[i];
		d = world_deps(w, r);
		if (running[r] == 0)
			continue;
		for (j = 0; j < d->global.n; j++)
			if (running[d->global.recipe[j]] == 0)
				diag_warn(d->file, d->global.where[j], "'%s' runs "
				    "on no machine of %s: Karamel drops this "
				    "dependency of '%s'",
				    names_recipe_name(&w->names, d->global.recipe[j]),
				    c->file, names_recipe_name(&w->names, r));
	}
}

static void
warn_limits(const struct world *w, const struct cluster *c,
    const size_t *running)
{
	struct access a;
	size_t i;

	access_init(&a, c->file);
	access_enter_key(&a, "runtimeConfiguration");
	access_enter_key(&a, "recipesParallelism");
	for (i = 0; i < c->nlimits; i++) {
		if (running[c->limits[i].recipe] > 0)
			continue;
		access_enter_key(&a, c->limits[i].written);
		access_warn(&a, "'%s' runs on no machine",
		    names_recipe_name(&w->names, c->limits[i].recipe));
		access_leave(&a);
	}
	access_free(&a);
}

int
cluster_check(struct world *w, struct cluster *c, int warn)
{
	size_t i, n = w->names.recipes.count, *running, *order;

	for (i = 0; i < c->ngroups; i++)
		sort_recipes(&w->names, &c->groups[i]);
	for (i = 0; i < c->ngroups; i++)
		if (check_locals(w, c, &c->groups[i]) < 0)
			return -1;
	if (!warn)
		return 0;
	running = machines_running(w, c);
	order = xcalloc(n, sizeof *order);
	for (i = 0; i < n; i++)
		order[w->names.rank[i]] = i;
	warn_globals(w, c, running, order);
	warn_limits(w, c, running);
	free(order);
	free(running);
	return 0;
}
