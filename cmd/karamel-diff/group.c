/* group.c: one group of a cluster definition: recipes, machines, scope. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "attrs.h"
#include "cluster.h"
#include "xalloc.h"

static const char *const group_keys[] = {
	"size", "recipes", "attrs", "autoscale",
	"ec2", "gce", "nova", "occi", "baremetal", "vagrant", NULL
};

long
group_find_recipe(const struct group *g, size_t recipe)
{
	size_t i;

	for (i = 0; i < g->nrecipes; i++)
		if (g->recipes[i] == recipe)
			return (long)i;
	return -1;
}

static void
add_recipe(struct group *g, size_t recipe, size_t listed_at)
{
	g->recipes = xreallocarray(g->recipes, g->nrecipes + 1,
	    sizeof *g->recipes);
	g->listed_at = xreallocarray(g->listed_at, g->nrecipes + 1,
	    sizeof *g->listed_at);
	g->recipes[g->nrecipes] = recipe;
	g->listed_at[g->nrecipes++] = listed_at;
}

/* add_installs: every cookbook used runs its install recipe first. */
static void
add_installs(struct world *w, struct group *g)
{
	size_t i, n = g->nrecipes, install;

	for (i = 0; i < n; i++) {
		install = names_install(&w->names,
		    w->names.cookbook_of[g->recipes[i]]);
		if (group_find_recipe(g, install) < 0)
			add_recipe(g, install, g->listed_at[i]);
	}
}

struct recipes_ctx {
	struct world *w;
	struct group *g;
};

static int
load_recipe(struct access *a, const json_t *v, size_t i, void *ctx)
{
	struct recipes_ctx *c = ctx;
	long id = world_recipe_at(c->w, a, v);

	if (id < 0)
		return -1;
	if (group_find_recipe(c->g, (size_t)id) >= 0)
		return access_fail(a, "'%s' is listed twice",
		    names_recipe_name(&c->w->names, (size_t)id));
	add_recipe(c->g, (size_t)id, i);
	return 0;
}

static int
load_recipes(struct world *w, struct access *a, struct group *g,
    const json_t *def)
{
	struct recipes_ctx c = { w, g };

	if (json_is_null(json_object_get(def, "recipes")))
		return 0;
	if (acc_each_element(a, def, "recipes", ACC_OPTIONAL, load_recipe,
	    &c) < 0)
		return -1;
	add_installs(w, g);
	return 0;
}

/* format_index: i in decimal; snprintf per machine is too slow. */
static void
format_index(char *buf, size_t i)
{
	char digits[24];
	size_t n = 0;

	do
		digits[n++] = (char)('0' + i % 10);
	while ((i /= 10) > 0);
	while (n > 0)
		*buf++ = digits[--n];
	*buf = '\0';
}

/* load_machines: "<group>/<index>" in clouds, addresses on baremetal. */
static int
load_machines(struct world *w, struct cluster *c, struct access *a,
    struct group *g, const json_t *def, const struct provider *own)
{
	const struct provider *p = own->kind >= 0 ? own : &c->provider;
	json_int_t size = -1, i;
	size_t prefix = strlen(g->name) + 1;
	long other;
	char *id;

	if (acc_get_int_range(a, def, "size", p->kind == PROVIDER_BAREMETAL ?
	    ACC_OPTIONAL : ACC_REQUIRED, 0, GROUP_MAX_MACHINES, &size) < 0)
		return -1;
	if (p->kind == PROVIDER_BAREMETAL) {
		if (provider_addresses(w, c, g, &c->provider, own, a) < 0)
			return -1;
		if (size >= 0 && (size_t)size != g->nmachines)
			return access_fail_at(a, "size", "%" JSON_INTEGER_FORMAT
			    " machines, but baremetal gives %zu address%s",
			    size, g->nmachines, g->nmachines == 1 ? "" : "es");
		return 0;
	}
	id = xmalloc(prefix + 24);
	memcpy(id, g->name, prefix - 1);
	id[prefix - 1] = '/';
	/* Group names are unique and hold no '/': ids cannot clash. */
	for (i = 0; i < size; i++) {
		format_index(id + prefix, (size_t)i);
		cluster_add_machine(w, c, g, id, &other);
	}
	free(id);
	return 0;
}

static int
check_name(struct access *a, const char *name)
{
	if (names_valid_word(name, strlen(name)))
		return 0;
	return access_fail(a, "group name '%s' may hold only letters, digits, "
	    "'.', '_' and '-'", name);
}

int
group_load(struct world *w, struct cluster *c, struct access *a,
    struct group *g, const json_t *def)
{
	struct provider own;
	json_t *attrs = NULL;
	int autoscale;

	if (check_name(a, g->name) < 0 || acc_as_object(a, def) < 0 ||
	    acc_check_keys(a, def, group_keys) < 0 ||
	    acc_get_object(a, def, "attrs", ACC_OPTIONAL, &attrs) < 0 ||
	    acc_get_bool(a, def, "autoscale", ACC_OPTIONAL, &autoscale) < 0 ||
	    provider_find(a, def, &own) < 0)
		return -1;
	if (own.kind < 0 && c->provider.kind < 0)
		return access_fail(a, "no provider for this group: give one of "
		    "ec2, gce, nova, occi, baremetal or vagrant");
	g->attrs = attrs_merge(c->attrs, attrs);
	g->provider = provider_effective(&c->provider, &own);
	if (load_recipes(w, a, g, def) < 0 ||
	    load_machines(w, c, a, g, def, &own) < 0)
		return -1;
	c->nkeys += g->nmachines * g->nrecipes;
	if (c->nkeys > CLUSTER_MAX_KEYS)
		return access_fail(a, "the cluster has more than %d keys "
		    "(recipes on machines) by this group", CLUSTER_MAX_KEYS);
	return 0;
}
