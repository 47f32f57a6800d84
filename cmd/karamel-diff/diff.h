/*
 * diff.h: the diff of two key-DAGs in the key space (seed 001, IV).
 *
 * A key only in the new definition is built, one only in the old is
 * purged.  A key in both is reconciled when one of its inputs changed:
 * an attribute its cookbook sees, its cookbook's source, its machine's
 * provider settings, or the members of a recipe it collects (a global
 * dependency gained or lost machines).  Every other key is checked.
 * Each action carries its reason as text.
 */
#ifndef KARAMEL_DIFF_H
#define KARAMEL_DIFF_H

#include <stddef.h>

#include "cluster.h"
#include "idmap.h"
#include "keyspace.h"
#include "world.h"

enum action {
	ACTION_BUILD, ACTION_RECONCILE, ACTION_PURGE, ACTION_CHECK,
	ACTION_COUNT
};

extern const char *const action_names[];	/* by enum action */

struct diff {
	unsigned char *action;	/* by key: enum action */
	size_t *reason;		/* by key: index into reasons */
	struct idmap reasons;	/* the texts, each once */
	size_t count[ACTION_COUNT];
	size_t *joined, *left;	/* by recipe: keys built, keys purged */
};

void diff_compute(struct diff *d, const struct world *w,
    const struct keyspace *ks, const struct cluster *old,
    const struct cluster *new);
void diff_free(struct diff *d);

const char *diff_reason(const struct diff *d, size_t key);

#endif
