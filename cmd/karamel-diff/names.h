/*
 * names.h: the cookbooks and recipes karamel-diff reasons about.
 *
 * Every recipe named anywhere (cluster definitions, Karamelfiles,
 * recipesParallelism) is interned once as "cookbook::recipe"; a bare
 * "cookbook" means "cookbook::default", as in Karamel.  Ids are dense
 * and given in the order names are first seen, which depends on the
 * input's layout; names_freeze() adds a rank in name order so that
 * everything printed is sorted by name instead.
 */
#ifndef KARAMEL_NAMES_H
#define KARAMEL_NAMES_H

#include <stddef.h>

#include "idmap.h"

struct names {
	struct idmap recipes;		/* "cookbook::recipe" -> recipe id */
	struct idmap cookbooks;		/* cookbook name -> cookbook id */
	size_t *cookbook_of;		/* by recipe id */
	size_t *rank;			/* by recipe id, after names_freeze */
	size_t cap;
};

void names_init(struct names *n);
void names_free(struct names *n);

/*
 * names_recipe: the id of a recipe written as "cookbook::recipe" or as
 * a bare "cookbook"; -1 when text is not such a name.
 */
long names_recipe(struct names *n, const char *text);

/* names_install: the id of "cookbook::install" for a cookbook id. */
size_t names_install(struct names *n, size_t cookbook);

const char *names_recipe_name(const struct names *n, size_t recipe);

/* names_freeze: rank recipes by name; no names may be added after. */
void names_freeze(struct names *n);

/* names_valid_word: letters, digits, '_', '-' and '.', at least one. */
int names_valid_word(const char *s, size_t len);

#endif
