/*
 * strpool.h: copies of strings that live as long as their pool, made in
 * large chunks: a loader that keeps a million ids of an input it lets
 * go of needs neither a million mallocs nor a table lookup for each.
 * A zeroed struct strpool is an empty pool.
 */
#ifndef UPKIT_STRPOOL_H
#define UPKIT_STRPOOL_H

#include <stddef.h>

struct strpool {
	char **chunks;
	size_t nchunks;
	char *next, *end;	/* room left in the last chunk */
};

/* strpool_copy: a copy of s, valid until strpool_free. */
const char *strpool_copy(struct strpool *p, const char *s);
void strpool_free(struct strpool *p);

#endif
