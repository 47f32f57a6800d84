/* cluster.c: the top level of a cluster definition (see cluster.h). */
#include <stdlib.h>
#include <string.h>

#include "cluster.h"
#include "exitcodes.h"
#include "load.h"
#include "xalloc.h"

static const char *const cluster_keys[] = {
	"name", "cookbooks", "attrs", "groups", "runtimeConfiguration",
	"ec2", "gce", "nova", "occi", "baremetal", "vagrant", NULL
};

/* Largest recipesParallelism worth saying: more than any group holds. */
#define LIMIT_MAX 1000000000

static int
load_cookbook(struct access *a, const char *alias, const json_t *source,
    void *ctx)
{
	static const char *const keys[] = { "github", "branch", "version",
	    "cookbook", 0 };
	const char *s;

	(void)ctx;
	if (!names_valid_word(alias, strlen(alias)))
		return access_fail(a, "'%s' is not a cookbook name", alias);
	if (acc_as_object(a, source) < 0 || acc_check_keys(a, source, keys) < 0 ||
	    acc_get_string(a, source, "github", ACC_REQUIRED, &s) < 0 ||
	    acc_get_string(a, source, "branch", ACC_OPTIONAL, &s) < 0 ||
	    acc_get_string(a, source, "version", ACC_OPTIONAL, &s) < 0 ||
	    acc_get_string(a, source, "cookbook", ACC_OPTIONAL, &s) < 0)
		return -1;
	return 0;
}

struct limits_ctx {
	struct world *w;
	struct cluster *c;
};

/* load_limit: one recipesParallelism entry, at its path. */
static int
load_limit(struct access *a, const char *recipe, const json_t *v, void *ctx)
{
	struct limits_ctx *x = ctx;
	struct cluster *c = x->c;
	json_int_t max;
	size_t i;
	long id = names_recipe(&x->w->names, recipe);

	if (id < 0)
		return access_fail(a, "'%s' is not a recipe (cookbook::recipe "
		    "or cookbook)", recipe);
	for (i = 0; i < c->nlimits; i++)
		if (c->limits[i].recipe == (size_t)id)
			return access_fail(a, "'%s' is limited twice (also as "
			    "'%s')", recipe, c->limits[i].written);
	if (acc_as_int(a, v, &max) < 0)
		return -1;
	if (max < 1 || max > LIMIT_MAX)
		return access_fail(a, "%" JSON_INTEGER_FORMAT " is out of range "
		    "[1, %d]", max, LIMIT_MAX);
	c->limits = xreallocarray(c->limits, c->nlimits + 1, sizeof *c->limits);
	c->limits[c->nlimits].recipe = (size_t)id;
	c->limits[c->nlimits].written = recipe;
	c->limits[c->nlimits++].max = max;
	return 0;
}

static int
load_runtime(struct world *w, struct access *a, struct cluster *c)
{
	static const char *const keys[] = { "recipesParallelism", 0 };
	struct limits_ctx x = { w, c };
	json_t *runtime = NULL;
	int r;

	if (acc_get_object(a, c->doc, "runtimeConfiguration", ACC_OPTIONAL,
	    &runtime) < 0)
		return -1;
	if (runtime == NULL)
		return 0;
	access_enter_key(a, "runtimeConfiguration");
	r = acc_check_keys(a, runtime, keys);
	if (r == 0)
		r = acc_each_member(a, runtime, "recipesParallelism",
		    ACC_OPTIONAL, load_limit, &x);
	access_leave(a);
	return r < 0 ? -1 : 0;
}

static int
by_name(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* load_groups: every group, in name order. */
static int
load_groups(struct world *w, struct access *a, struct cluster *c)
{
	json_t *groups, *def;
	const char **names, *name;
	size_t i = 0;
	int r = 0;

	if (acc_get_object(a, c->doc, "groups", ACC_REQUIRED, &groups) < 0)
		return -1;
	names = xcalloc(json_object_size(groups), sizeof *names);
	json_object_foreach(groups, name, def)
		names[i++] = name;
	qsort(names, i, sizeof *names, by_name);
	c->ngroups = i;
	c->groups = xcalloc(i, sizeof *c->groups);
	for (i = 0; i < c->ngroups; i++) {
		c->groups[i].name = names[i];
		c->groups[i].index = i;
	}
	access_enter_key(a, "groups");
	for (i = 0; i < c->ngroups && r == 0; i++) {
		access_enter_key(a, names[i]);
		r = group_load(w, c, a, &c->groups[i],
		    json_object_get(groups, names[i]));
		access_leave(a);
	}
	access_leave(a);
	free(names);
	return r;
}

static int
load_cluster(struct world *w, struct access *a, struct cluster *c)
{
	if (acc_as_object(a, c->doc) < 0 ||
	    acc_check_keys(a, c->doc, cluster_keys) < 0 ||
	    acc_get_string(a, c->doc, "name", ACC_REQUIRED, &c->name) < 0 ||
	    acc_get_object(a, c->doc, "attrs", ACC_OPTIONAL, &c->attrs) < 0 ||
	    acc_get_object(a, c->doc, "cookbooks", ACC_OPTIONAL,
	    &c->cookbooks) < 0 ||
	    acc_each_member(a, c->doc, "cookbooks", ACC_OPTIONAL, load_cookbook,
	    NULL) < 0 || provider_find(a, c->doc, &c->provider) < 0 ||
	    load_groups(w, a, c) < 0 || load_runtime(w, a, c) < 0)
		return -1;
	return 0;
}

int
cluster_load(struct world *w, const char *file, struct cluster *c)
{
	struct access a;
	int status;

	memset(c, 0, sizeof *c);
	c->file = load_name(file);
	c->provider.kind = -1;
	if ((status = load_document(file, &c->doc)) != EXIT_OK)
		return status;
	access_init(&a, c->file);
	if (load_cluster(w, &a, c) < 0)
		status = EXIT_DATAERR;
	access_free(&a);
	return status;
}

void
cluster_free(struct cluster *c)
{
	size_t i;

	for (i = 0; i < c->ngroups; i++) {
		json_decref(c->groups[i].attrs);
		json_decref(c->groups[i].provider);
		free(c->groups[i].machines);
		free(c->groups[i].recipes);
		free(c->groups[i].listed_at);
	}
	free(c->groups);
	free(c->limits);
	free(c->group_of);
	json_decref(c->doc);
	memset(c, 0, sizeof *c);
}

long
cluster_group_of(const struct cluster *c, size_t machine)
{
	return machine < c->group_of_len ? c->group_of[machine] : -1;
}
