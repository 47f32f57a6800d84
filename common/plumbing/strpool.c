/* strpool.c: strings copied into large chunks (strpool.h). */
#include <stdlib.h>
#include <string.h>

#include "strpool.h"
#include "xalloc.h"

#define CHUNK_SIZE ((size_t)1 << 20)

/* room: a new chunk of at least n bytes. */
static void
room(struct strpool *p, size_t n)
{
	size_t size = n > CHUNK_SIZE ? n : CHUNK_SIZE;

	p->chunks = xreallocarray(p->chunks, p->nchunks + 1,
	    sizeof *p->chunks);
	p->next = p->chunks[p->nchunks++] = xmalloc(size);
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
