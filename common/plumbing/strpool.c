/* strpool.c: strings copied into large chunks (strpool.h). */
#include <stdlib.h>
#include <string.h>

#include "prefault.h"
#include "strpool.h"
#include "xalloc.h"

/*
 * Chunks grow from 4 KiB to 1 MiB: a map of three ids (there are many)
 * takes a page, not a megabyte, and one of a million takes a chunk per
 * 1 MiB of ids.
 */
#define FIRST_CHUNK ((size_t)1 << 12)
#define CHUNK_MAX ((size_t)1 << 20)

/* room: a new chunk of at least n bytes. */
static void
room(struct strpool *p, size_t n)
{
	size_t size = p->nchunks < 8 ? FIRST_CHUNK << p->nchunks : CHUNK_MAX;

	if (size < n)
		size = n;
	p->chunks = xreallocarray(p->chunks, p->nchunks + 1,
	    sizeof *p->chunks);
	p->next = p->chunks[p->nchunks++] = xmalloc(size);
	prefault(p->next, size);
	p->end = p->next + size;
}

const char *
strpool_copy(struct strpool *p, const char *s)
{
	size_t n = strlen(s) + 1;
	char *copy;

	if ((size_t)(p->end - p->next) < n)
		room(p, n);
	copy = p->next;
	memcpy(copy, s, n);
	p->next += n;
	return copy;
}

void
strpool_free(struct strpool *p)
{
	while (p->nchunks > 0)
		free(p->chunks[--p->nchunks]);
	free(p->chunks);
	memset(p, 0, sizeof *p);
}
