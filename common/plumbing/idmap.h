/*
 * idmap.h: string id -> dense index, the way every planner numbers its
 * vertices.  Open addressing with FNV-1a; keys are copied, into a pool
 * of the map's own (strpool.h): a million ids are not a million mallocs
 * and frees.  Lookups and insertions are O(1) expected, so numbering a
 * cloud is linear.
 */
#ifndef UPKIT_IDMAP_H
#define UPKIT_IDMAP_H

#include <stddef.h>
#include <stdint.h>

#include "strpool.h"

/*
 * A slot holds an id's index + 1 (0 is empty) and the high half of its
 * hash, so that a probe compares strings only when the hashes agree:
 * in a table of millions, each string compared is a cache miss.
 */
struct idmap_slot {
	uint32_t index1;
	uint32_t tag;
};

struct idmap {
	const char **keys;	/* by index, in insertion order */
	uint64_t *hashes;	/* beside keys: growing rehashes no string */
	size_t count;		/* number of ids */
	size_t keys_cap;
	struct idmap_slot *slots;
	size_t nslots;		/* a power of two */
	int borrows;		/* keys are the callers', not copies */
	struct strpool copies;	/* the copies, when not borrowed */
};

/* At most UINT32_MAX - 1 ids (idmap_add is fatal beyond). */
void idmap_init(struct idmap *m);
void idmap_free(struct idmap *m);
/*
 * idmap_borrow_keys: from now on ids are kept as given, not copied, and
 * idmap_free leaves them alone: each must outlive the map.  For a map
 * of ids that their owners keep anyway (20,000 offer names in
 * match-csp, where the copies were a twentieth of a run).
 */
void idmap_borrow_keys(struct idmap *m);
/*
 * idmap_reserve: room for n ids in all, so that adding up to n does not
 * grow the table (each growth hashes every id again).
 */
void idmap_reserve(struct idmap *m, size_t n);
/* idmap_find: the index of id, or -1 when absent. */
long idmap_find(const struct idmap *m, const char *id);
/*
 * idmap_add: give id the next index and return it; when id is already
 * present, return its index negated minus one (-(index) - 1), so that
 * "idmap_add(...) < 0" means "duplicate".
 */
long idmap_add(struct idmap *m, const char *id);
/*
 * idmap_hash: the 64-bit FNV-1a hash of s that the map uses; stable
 * across hosts and runs, so it may also name things in output.
 */
uint64_t idmap_hash(const char *s);
/*
 * idmap_truncate: forget the ids of index n and later, the latest
 * added, as if they had never been: for a reader that adds as it goes
 * and may have to start a part over another way.
 */
void idmap_truncate(struct idmap *m, size_t n);
/* idmap_key: the id of index i. */
const char *idmap_key(const struct idmap *m, size_t i);

#endif
