/*
 * attrs.h: Chef attributes of a cluster definition.
 *
 * A group sees the global "attrs" with its own "attrs" merged over
 * them, member by member, as Karamel's scopes do.  A recipe of
 * cookbook C reads the namespace "C" of those attributes; namespaces
 * named after no known cookbook (such as "hdfs" set for hops) may be
 * read by any recipe, so every recipe sees them.
 */
#ifndef KARAMEL_ATTRS_H
#define KARAMEL_ATTRS_H

#include <stddef.h>
#include <jansson.h>

#include "names.h"

/* attrs_merge: over merged into base, recursively; a new object. */
json_t *attrs_merge(const json_t *base, const json_t *over);

/*
 * attrs_seen_change: compare what a recipe of cookbook sees in the old
 * and the new attributes (objects, never NULL): its cookbook's
 * namespace, every namespace named after no cookbook, and those of the
 * cookbooks marked in shared (by cookbook id).  Returns 0 when equal,
 * else 1 with the jq path of the first difference, in name order, in
 * *buf (of *size bytes, or NULL), grown as needed; the caller frees it.
 */
int attrs_seen_change(const struct names *n, const unsigned char *shared,
    size_t cookbook, const json_t *old, const json_t *new, char **buf,
    size_t *size);

#endif
