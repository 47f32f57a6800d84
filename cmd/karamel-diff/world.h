/*
 * world.h: what the old and the new cluster definition share.
 *
 * Recipes, Karamelfile dependencies and machine ids are numbered once
 * for both definitions, so that a key of the old key-DAG and the same
 * key of the new one are the same pair (recipe id, machine id) and the
 * diff never compares strings.
 */
#ifndef KARAMEL_WORLD_H
#define KARAMEL_WORLD_H

#include <stddef.h>

#include <jansson.h>

#include "access.h"
#include "idmap.h"
#include "names.h"

/* One list of a Karamelfile entry: "local" or "global". */
struct dep_list {
	size_t *recipe;		/* recipe ids, duplicates removed */
	char **where;		/* by entry: its jq path, for messages */
	size_t n, cap;
};

struct recipe_deps {
	struct dep_list local;	/* one-to-one: same machine */
	struct dep_list global;	/* all-to-all: every machine running it */
	const char *file;	/* the Karamelfile declaring it, or NULL */
};

struct world {
	struct names names;
	struct recipe_deps *deps;	/* by recipe id, ndeps of them */
	size_t ndeps;
	char **files;			/* Karamelfile names, owned */
	size_t nfiles;
	struct idmap machines;		/* machine id text -> machine id */
};

void world_init(struct world *w);
void world_free(struct world *w);

/* world_deps: the dependencies of a recipe (empty when undeclared). */
const struct recipe_deps *world_deps(const struct world *w, size_t recipe);

/*
 * world_recipe_at: the recipe named by v (a string) at the current path
 * of a; -1 (diagnosed) when it is not a string or not a recipe name.
 */
long world_recipe_at(struct world *w, struct access *a, const json_t *v);

/* world_depends_locally: is dep in the "local" list of recipe? */
int world_depends_locally(const struct world *w, size_t recipe, size_t dep);

#endif
