/* arena.c: one allocation pool per set of parsed requirements. */
#include <stdlib.h>
#include <string.h>

#include "expr.h"
#include "xalloc.h"

struct chunk {
	struct chunk *next;
	size_t used, size;
	max_align_t data[];
};

struct arena {
	struct chunk *head;
};

struct arena *
arena_new(void)
{
	return xcalloc(1, sizeof(struct arena));
}

void *
arena_alloc(struct arena *ar, size_t size)
{
	struct chunk *c = ar->head;
	size_t units = (size + sizeof(max_align_t) - 1) / sizeof(max_align_t);
	void *p;

	if (units == 0)
		units = 1;
	if (c == NULL || c->size - c->used < units) {
		size_t n = units > 1024 ? units : 1024;

		c = xmalloc(sizeof *c + n * sizeof(max_align_t));
		c->next = ar->head;
		c->used = 0;
		c->size = n;
		ar->head = c;
	}
	p = c->data + c->used;
	c->used += units;
	memset(p, 0, units * sizeof(max_align_t));
	return p;
}

char *
arena_strndup(struct arena *ar, const char *s, size_t n)
{
	char *p = arena_alloc(ar, n + 1);

	memcpy(p, s, n);
	p[n] = '\0';
	return p;
}

void
arena_free(struct arena *ar)
{
	struct chunk *c, *next;

	if (ar == NULL)
		return;
	for (c = ar->head; c != NULL; c = next) {
		next = c->next;
		free(c);
	}
	free(ar);
}
