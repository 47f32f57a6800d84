/*
 * jarena.h: memory taken from large chunks and given back all at once.
 *
 * Loading a large state document makes tens of millions of small
 * jansson allocations; malloc's per-block header and rounding add a
 * third to the tree's size, and freeing the tree value by value at exit
 * costs a good part of what loading did.  A document session
 * (docsession.h) can instead take every jansson allocation from the
 * chunks of one struct jarena, where freeing a block does nothing, and
 * give every chunk back when it closes.
 *
 * A zeroed struct jarena is empty.  This file knows nothing of jansson:
 * docsession.c hands jarena_alloc to it.
 */
#ifndef UPKIT_JARENA_H
#define UPKIT_JARENA_H

#include <stddef.h>

struct jarena_chunk;

struct jarena {
	struct jarena_chunk *chunks;	/* the newest first */
	char *next_free, *chunk_end;	/* room left in the newest */
};

/* Larger blocks get a chunk of their own, so chunks stay well used. */
#define JARENA_BIG_BLOCK (((size_t)4 << 20) / 8)

/* jarena_alloc_slow: jarena_alloc when the newest chunk has no room. */
void *jarena_alloc_slow(struct jarena *a, size_t size);

/*
 * jarena_alloc: size bytes, 8-byte aligned; NULL when memory is out.
 * Inline: a large document makes tens of millions of these, and the
 * common case is two comparisons and an addition.
 */
static inline void *
jarena_alloc(struct jarena *a, size_t size)
{
	size_t rounded = (size + 7) & ~(size_t)7;
	void *p;

	if (size > JARENA_BIG_BLOCK ||
	    rounded > (size_t)(a->chunk_end - a->next_free))
		return jarena_alloc_slow(a, size);
	p = a->next_free;
	a->next_free += rounded;
	return p;
}

/*
 * A mark: what jarena_release gives back is everything allocated after
 * it.  jarena_mark starts a chunk when little room is left, so that a
 * walk that marks and releases once an element does not make, fault in
 * and free a chunk each time.
 */
struct jarena_mark {
	struct jarena_chunk *chunks;
	char *next_free, *chunk_end;
};
void jarena_mark(struct jarena *a, struct jarena_mark *m);
void jarena_release(struct jarena *a, const struct jarena_mark *m);

/* jarena_free: give back every chunk; a is empty again. */
void jarena_free(struct jarena *a);

#endif
