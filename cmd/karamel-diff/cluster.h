/*
 * cluster.h: a Karamel cluster definition, read and checked.
 *
 *	name: hops
 *	ec2: {type: m3.large, region: eu-west-1}
 *	cookbooks: {hops: {github: hopshadoop/hops-hadoop-chef, branch: master}}
 *	attrs: {hops: {use_hopsworks: true}}
 *	groups:
 *	  datanodes: {size: 2, recipes: [hops::dn, hops::nm], attrs: {...}}
 *	runtimeConfiguration: {recipesParallelism: {hops::dn: 1}}
 *
 * Groups are kept sorted by name: their order in the file means
 * nothing.  Machines are "<group>/<index>" from 0, or their address
 * on baremetal, and are numbered in the world both definitions share.
 */
#ifndef KARAMEL_CLUSTER_H
#define KARAMEL_CLUSTER_H

#include <stddef.h>
#include <jansson.h>

#include "access.h"
#include "world.h"

/*
 * Limits that keep a hostile definition from running out of memory:
 * no group holds more machines than this (size or addresses), and no
 * definition expands into more keys.  Ten times the largest benchmark.
 */
#define GROUP_MAX_MACHINES 1000000
#define CLUSTER_MAX_KEYS 10000000

enum provider_kind {
	PROVIDER_EC2, PROVIDER_GCE, PROVIDER_NOVA, PROVIDER_OCCI,
	PROVIDER_BAREMETAL, PROVIDER_VAGRANT, PROVIDER_COUNT
};

extern const char *const provider_names[];	/* by enum provider_kind */

/* A scope's provider: the one block among ec2, gce, ... it holds. */
struct provider {
	int kind;		/* enum provider_kind, or -1: none given */
	const json_t *block;	/* its settings (an object), or NULL */
};

struct group {
	const char *name;	/* borrowed from the document */
	size_t index;		/* in cluster.groups */
	json_t *attrs;		/* global attrs with the group's merged over */
	json_t *provider;	/* {"kind": settings}, without addresses */
	size_t *machines;	/* machine ids */
	size_t nmachines;
	size_t *recipes;	/* recipe ids with implicit installs */
	size_t *listed_at;	/* by slot of recipes: index in .recipes */
	size_t nrecipes;
};

struct limit {
	size_t recipe;
	const char *written;	/* the key as the file writes it */
	json_int_t max;		/* machines running it at once */
};

struct cluster {
	const char *file;	/* name for diagnostics */
	json_t *doc;
	const char *name;
	struct provider provider;	/* the global one */
	json_t *attrs;		/* the global attrs, borrowed, or NULL */
	json_t *cookbooks;	/* alias -> source, borrowed, or NULL */
	struct group *groups;	/* sorted by name */
	size_t ngroups;
	struct limit *limits;
	size_t nlimits;
	size_t nkeys;		/* keys of its key-DAG */
	long *group_of;		/* by machine id: group index, or -1 */
	size_t group_of_len;
};

/* cluster_load: read and check file into c; returns an exit status. */
int cluster_load(struct world *w, const char *file, struct cluster *c);
void cluster_free(struct cluster *c);

/* cluster_group_of: the group index of a machine id, or -1. */
long cluster_group_of(const struct cluster *c, size_t machine);

/*
 * cluster_check: after names_freeze, sort group recipes by name and
 * check dependencies: a local one must run in the same group (error),
 * and, when warn is set, a global one should run somewhere (warning:
 * Karamel drops it).  Returns 0 or -1 (diagnosed).
 */
int cluster_check(struct world *w, struct cluster *c, int warn);

/* group_find_recipe: the slot of recipe in g->recipes, or -1. */
long group_find_recipe(const struct group *g, size_t recipe);

/* Parsing helpers of cluster.c, group.c and provider.c. */
int provider_find(struct access *a, const json_t *scope, struct provider *p);
json_t *provider_effective(const struct provider *top,
    const struct provider *own);
int provider_addresses(struct world *w, struct cluster *c, struct group *g,
    const struct provider *top, const struct provider *own,
    struct access *a);
int group_load(struct world *w, struct cluster *c, struct access *a,
    struct group *g, const json_t *def);
/* cluster_add_machine: -1 when it is in group *other already. */
int cluster_add_machine(struct world *w, struct cluster *c, struct group *g,
    const char *id, long *other);

#endif
