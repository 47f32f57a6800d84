/* world.c: names, dependencies and machines shared by both definitions. */
#include <stdlib.h>
#include <string.h>

#include "world.h"

void
world_init(struct world *w)
{
	memset(w, 0, sizeof *w);
	names_init(&w->names);
	idmap_init(&w->machines);
}

static void
dep_list_free(struct dep_list *l)
{
	size_t i;

	for (i = 0; i < l->n; i++)
		free(l->where[i]);
	free(l->where);
	free(l->recipe);
}

void
world_free(struct world *w)
{
	size_t i;

	for (i = 0; i < w->ndeps; i++) {
		dep_list_free(&w->deps[i].local);
		dep_list_free(&w->deps[i].global);
	}
	free(w->deps);
	for (i = 0; i < w->nfiles; i++)
		free(w->files[i]);
	free(w->files);
	names_free(&w->names);
	idmap_free(&w->machines);
	memset(w, 0, sizeof *w);
}

const struct recipe_deps *
world_deps(const struct world *w, size_t recipe)
{
	static const struct recipe_deps none;

	return recipe < w->ndeps ? &w->deps[recipe] : &none;
}

int
world_depends_locally(const struct world *w, size_t recipe, size_t dep)
{
	const struct dep_list *l = &world_deps(w, recipe)->local;
	size_t i;

	for (i = 0; i < l->n; i++)
		if (l->recipe[i] == dep)
			return 1;
	return 0;
}

long
world_recipe_at(struct world *w, struct access *a, const json_t *v)
{
	const char *text;
	long id;

	if (acc_as_string(a, v, &text) < 0)
		return -1;
	if ((id = names_recipe(&w->names, text)) < 0)
		access_fail(a, "'%s' is not a recipe (cookbook::recipe or "
		    "cookbook)", text);
	return id;
}
