/*
 * collapse.c: no VM moves twice in one schedule (batch-select(1)).
 * Consolidation packs hosts before the final batch is known, and a
 * later group of the batch may take out a host that consolidation, or
 * an earlier evacuation, filled: the VM would then move on again.  Its
 * moves are collapsed into one, from where it is to where it ends,
 * of the kind of the last (an evacuation runs after every
 * consolidation, so the room consolidation freed is there); a VM that
 * ends where it started does not move at all.  The model's placement,
 * which the capacity rules were checked on, is the same.
 *
 * Consolidation serves the final batch alone: when no group is chosen,
 * its moves would free hosts for nothing (and be planned again in the
 * next iteration, failing the same way), so none is kept.
 */
#include <stdlib.h>

#include "bs.h"
#include "xalloc.h"

void
collapse_moves(struct bs *b)
{
	size_t *last = xmalloc((b->in.sc.nvms + 1) * sizeof *last);
	unsigned char *gone = xcalloc(b->nmoves + 1, 1);
	size_t i, k, n = 0;

	if (b->nfinal == 0) {
		b->nmoves = 0;
		json_array_clear(b->freed);
	}
	for (i = 0; i < b->in.sc.nvms; i++)
		last[i] = NONE;
	for (i = 0; i < b->nmoves; i++) {
		struct move *m = &b->moves[i];

		if ((k = last[m->vm]) != NONE && b->moves[k].to == m->from) {
			m->from = b->moves[k].from;
			gone[k] = 1;
		}
		last[m->vm] = i;
	}
	for (i = 0; i < b->nmoves; i++)
		if (!gone[i] && b->moves[i].from != b->moves[i].to)
			b->moves[n++] = b->moves[i];
	b->nmoves = n;
	free(gone);
	free(last);
}
