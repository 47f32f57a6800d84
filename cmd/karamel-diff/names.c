/* names.c: interning of cookbook and recipe names (see names.h). */
#include <stdlib.h>
#include <string.h>

#include "names.h"
#include "xalloc.h"

#define SEPARATOR "::"

void
names_init(struct names *n)
{
	memset(n, 0, sizeof *n);
	idmap_init(&n->recipes);
	idmap_init(&n->cookbooks);
}

void
names_free(struct names *n)
{
	idmap_free(&n->recipes);
	idmap_free(&n->cookbooks);
	free(n->cookbook_of);
	free(n->rank);
	memset(n, 0, sizeof *n);
}

int
names_valid_word(const char *s, size_t len)
{
	size_t i;

	if (len == 0)
		return 0;
	for (i = 0; i < len; i++) {
		char c = s[i];

		if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
		    (c >= '0' && c <= '9') || c == '_' || c == '-' || c == '.'))
			return 0;
	}
	return 1;
}

/* intern: add "cookbook::recipe" (cookbook is its first clen bytes). */
static size_t
intern(struct names *n, const char *full, size_t clen)
{
	char *cookbook;
	long id = idmap_find(&n->recipes, full), cb;

	if (id >= 0)
		return (size_t)id;
	cookbook = xmalloc(clen + 1);
	memcpy(cookbook, full, clen);
	cookbook[clen] = '\0';
	if ((cb = idmap_add(&n->cookbooks, cookbook)) < 0)
		cb = -cb - 1;
	free(cookbook);
	id = idmap_add(&n->recipes, full);
	if ((size_t)id == n->cap) {
		n->cap = n->cap ? 2 * n->cap : 64;
		n->cookbook_of = xreallocarray(n->cookbook_of, n->cap,
		    sizeof *n->cookbook_of);
	}
	n->cookbook_of[id] = (size_t)cb;
	return (size_t)id;
}

long
names_recipe(struct names *n, const char *text)
{
	const char *sep = strstr(text, SEPARATOR);
	size_t len = strlen(text), clen = sep ? (size_t)(sep - text) : len;
	const char *recipe = sep ? sep + 2 : "default";
	char *full;
	size_t id;

	if (!names_valid_word(text, clen) ||
	    !names_valid_word(recipe, strlen(recipe)) ||
	    strstr(recipe, SEPARATOR) != NULL)
		return -1;
	if (sep != NULL)
		return (long)intern(n, text, clen);
	full = xmalloc(len + sizeof SEPARATOR "default");
	memcpy(full, text, len);
	memcpy(full + len, SEPARATOR "default", sizeof SEPARATOR "default");
	id = intern(n, full, clen);
	free(full);
	return (long)id;
}

size_t
names_install(struct names *n, size_t cookbook)
{
	const char *name = idmap_key(&n->cookbooks, cookbook);
	size_t len = strlen(name), id;
	char *full = xmalloc(len + sizeof SEPARATOR "install");

	memcpy(full, name, len);
	memcpy(full + len, SEPARATOR "install", sizeof SEPARATOR "install");
	id = intern(n, full, len);
	free(full);
	return id;
}

const char *
names_recipe_name(const struct names *n, size_t recipe)
{
	return idmap_key(&n->recipes, recipe);
}

static const struct names *sorting;

static int
by_name(const void *a, const void *b)
{
	return strcmp(idmap_key(&sorting->recipes, *(const size_t *)a),
	    idmap_key(&sorting->recipes, *(const size_t *)b));
}

void
names_freeze(struct names *n)
{
	size_t count = n->recipes.count, i;
	size_t *order = xcalloc(count, sizeof *order);

	for (i = 0; i < count; i++)
		order[i] = i;
	sorting = n;
	qsort(order, count, sizeof *order, by_name);
	free(n->rank);
	n->rank = xcalloc(count, sizeof *n->rank);
	for (i = 0; i < count; i++)
		n->rank[order[i]] = i;
	free(order);
}
