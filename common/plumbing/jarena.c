/* jarena.c: memory from large chunks (see jarena.h). */
#include <stdint.h>
#include <stdlib.h>

#include "jarena.h"
#include "prefault.h"

#define CHUNK_SIZE ((size_t)4 << 20)
#define BIG_BLOCK JARENA_BIG_BLOCK
/* The room a mark starts with at least (jarena_mark). */
#define MARK_ROOM (CHUNK_SIZE / 8)

struct jarena_chunk {
	struct jarena_chunk *next;
	size_t pad;		/* keeps the data 16-byte aligned */
};

static struct jarena_chunk *
new_chunk(struct jarena *a, size_t size)
{
	struct jarena_chunk *c = malloc(sizeof *c + size);

	if (c == NULL)
		return NULL;
	/*
	 * A chunk after the first is filled before the next is made; the
	 * first may hold a small document's few kilobytes, and faulting
	 * in 4 MiB would cost a small run more than it reads.
	 */
	if (a->chunks != NULL)
		prefault(c + 1, size);
	c->next = a->chunks;
	a->chunks = c;
	return c;
}

/* start_chunk: small blocks come from a new chunk from now on. */
static int
start_chunk(struct jarena *a)
{
	struct jarena_chunk *c = new_chunk(a, CHUNK_SIZE);

	if (c == NULL)
		return -1;
	a->next_free = (char *)(c + 1);
	a->chunk_end = a->next_free + CHUNK_SIZE;
	return 0;
}

void *
jarena_alloc_slow(struct jarena *a, size_t size)
{
	struct jarena_chunk *c;
	void *p;

	if (size > SIZE_MAX - 16)
		return NULL;
	size = (size + 7) & ~(size_t)7;
	if (size > BIG_BLOCK)
		return (c = new_chunk(a, size)) ? (void *)(c + 1) : NULL;
	if (size > (size_t)(a->chunk_end - a->next_free) &&
	    start_chunk(a) < 0)
		return NULL;
	p = a->next_free;
	a->next_free += size;
	return p;
}

void
jarena_mark(struct jarena *a, struct jarena_mark *m)
{
	/* A failure to start a chunk shows at the first allocation. */
	if ((size_t)(a->chunk_end - a->next_free) < MARK_ROOM)
		(void)start_chunk(a);
	m->chunks = a->chunks;
	m->next_free = a->next_free;
	m->chunk_end = a->chunk_end;
}

void
jarena_release(struct jarena *a, const struct jarena_mark *m)
{
	struct jarena_chunk *c;

	while ((c = a->chunks) != m->chunks) {
		a->chunks = c->next;
		free(c);
	}
	a->next_free = m->next_free;
	a->chunk_end = m->chunk_end;
}

void
jarena_free(struct jarena *a)
{
	static const struct jarena_mark empty;

	jarena_release(a, &empty);
}
