/*
 * slots.c: the concurrency slots of a stage, as a binary min-heap on
 * (the time a slot frees, its index).
 *
 * A stage runs its groups in order, each on the slot that frees first,
 * the lowest index on ties (seed 000 III.B: at most "concurrency" groups
 * at once).  Scanning every slot for each group made a stage of 10,000
 * groups at concurrency 10,000 cost 10^8 comparisons; the heap gives the
 * same slot in log time, because (time, index) orders slots exactly as
 * the scan chose them.
 */
#include <stdlib.h>

#include "sim.h"
#include "xalloc.h"

static int
before(const struct slot *a, const struct slot *b)
{
	return a->free_at < b->free_at ||
	    (a->free_at == b->free_at && a->index < b->index);
}

static void
swap(struct slot *a, struct slot *b)
{
	struct slot t = *a;

	*a = *b;
	*b = t;
}

void
slots_init(struct slots *s, size_t n, ms_t now)
{
	size_t i;

	s->n = n;
	s->heap = xreallocarray(NULL, n + 1, sizeof *s->heap);
	for (i = 0; i < n; i++)	/* equal times by index: already a heap */
		s->heap[i] = (struct slot){ now, i };
}

void
slots_free(struct slots *s)
{
	free(s->heap);
	s->heap = NULL;
}

ms_t
slots_first_free(const struct slots *s)
{
	return s->heap[0].free_at;
}

/* slots_reuse: the first slot to free now frees at free_at; sift down. */
void
slots_reuse(struct slots *s, ms_t free_at)
{
	size_t i = 0, c;

	s->heap[0].free_at = free_at;
	while ((c = 2 * i + 1) < s->n) {
		if (c + 1 < s->n && before(&s->heap[c + 1], &s->heap[c]))
			c++;
		if (!before(&s->heap[c], &s->heap[i]))
			break;
		swap(&s->heap[c], &s->heap[i]);
		i = c;
	}
}
