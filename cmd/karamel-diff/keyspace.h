/*
 * keyspace.h: the union of the old and the new key-DAG's keys.
 *
 * A key is a recipe on a machine, "cookbook::recipe@machine".  Keys
 * are numbered machine by machine, machines in natural order ("db/2"
 * before "db/10", addresses by value) and a machine's recipes by name,
 * so numbers, and every order derived from them, depend on what the
 * definitions say and not on how they are laid out.
 */
#ifndef KARAMEL_KEYSPACE_H
#define KARAMEL_KEYSPACE_H

#include <stddef.h>

#include "cluster.h"
#include "world.h"

enum key_presence {
	IN_OLD = 1,
	IN_NEW = 2,
};

struct keyspace {
	size_t nmachines;
	size_t *machines;	/* machine ids in natural order */
	size_t *first;		/* by machine id: its first key */
	size_t *count;		/* by machine id: its number of keys */
	size_t nkeys;
	size_t *machine;	/* by key: machine id */
	size_t *recipe;		/* by key: recipe id */
	unsigned char *in;	/* by key: enum key_presence bits */
};

void keyspace_build(struct keyspace *ks, const struct world *w,
    const struct cluster *old, const struct cluster *new);
void keyspace_free(struct keyspace *ks);

/* keyspace_find: the key of recipe on machine, or -1. */
long keyspace_find(const struct keyspace *ks, size_t machine, size_t recipe);

/*
 * keyspace_name: "cookbook::recipe@machine" into *buf (of *size bytes,
 * or NULL), grown as needed; the caller frees *buf.
 */
const char *keyspace_name(const struct keyspace *ks, const struct world *w,
    size_t key, char **buf, size_t *size);

/* natural_compare: strcmp, but runs of digits compare by value. */
int natural_compare(const char *a, const char *b);

#endif
