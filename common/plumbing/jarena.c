/* jarena.c: one arena for jansson's values (see jarena.h). */
#include <stdint.h>
#include <stdlib.h>

#include "jarena.h"
#include "prefault.h"
#include "sanitized.h"

#define CHUNK_SIZE ((size_t)4 << 20)
/* Larger blocks get a chunk of their own, so chunks stay well used. */
#define BIG_BLOCK (CHUNK_SIZE / 8)
/* The room a scope starts with at least (jarena_enter). */
#define SCOPE_ROOM (CHUNK_SIZE / 8)

struct chunk {
	struct chunk *next;
	size_t pad;		/* keeps the data 16-byte aligned */
};

static struct chunk *chunks;
static char *next_free, *chunk_end;
static int active;
static int scopes;		/* open scopes */

#if !UPKIT_SANITIZED
static struct chunk *
new_chunk(size_t size)
{
	struct chunk *c = malloc(sizeof *c + size);

	if (c == NULL)
		return NULL;
	/*
	 * A chunk after the first is filled before the next is made; the
	 * first may hold a small document's few kilobytes, and faulting
	 * in 4 MiB would cost a small run more than it reads.
	 */
	if (chunks != NULL)
		prefault(c + 1, size);
	c->next = chunks;
	chunks = c;
	return c;
}

/* start_chunk: small blocks come from a new chunk from now on. */
static int
start_chunk(void)
{
	struct chunk *c = new_chunk(CHUNK_SIZE);

	if (c == NULL)
		return -1;
	next_free = (char *)(c + 1);
	chunk_end = next_free + CHUNK_SIZE;
	return 0;
}

/* arena_malloc: 8-byte aligned, as jansson's structures need. */
static void *
arena_malloc(size_t size)
{
	struct chunk *c;
	void *p;

	if (size > SIZE_MAX - 16)
		return NULL;
	size = (size + 7) & ~(size_t)7;
	if (size > BIG_BLOCK)
		return (c = new_chunk(size)) ? (void *)(c + 1) : NULL;
	if (size > (size_t)(chunk_end - next_free) && start_chunk() < 0)
		return NULL;
	p = next_free;
	next_free += size;
	return p;
}

static void
arena_free(void *p)
{
	(void)p;	/* everything goes at jarena_end */
}
#endif

void
jarena_start(void)
{
#if !UPKIT_SANITIZED
	json_set_alloc_funcs(arena_malloc, arena_free);
	active = 1;
#endif
}

void
jarena_drop(json_t *v)
{
	if (!active)
		json_decref(v);
}

void
jarena_enter(struct jarena_scope *s)
{
#if !UPKIT_SANITIZED
	/*
	 * A scope that starts near the end of a chunk would have each
	 * element of a walk make a chunk of its own, fault it in and let
	 * go of it: the scope starts a chunk (kept) instead.  A failure
	 * shows at the first allocation.
	 */
	if (active && (size_t)(chunk_end - next_free) < SCOPE_ROOM)
		(void)start_chunk();
#endif
	s->chunks = chunks;
	s->next_free = next_free;
	s->chunk_end = chunk_end;
	scopes++;
}

int
jarena_scoped(void)
{
	return scopes > 0;
}

void
jarena_leave(struct jarena_scope *s, json_t *v)
{
	struct chunk *c;

	scopes--;
	if (!active) {
		json_decref(v);
		return;
	}
	while ((c = chunks) != s->chunks) {
		chunks = c->next;
		free(c);
	}
	next_free = s->next_free;
	chunk_end = s->chunk_end;
}

void
jarena_end(void)
{
	struct chunk *c;

	while ((c = chunks) != NULL) {
		chunks = c->next;
		free(c);
	}
	next_free = chunk_end = NULL;
	if (active)
		json_set_alloc_funcs(malloc, free);
	active = 0;
}
