/*
 * collapse.c: consolidation serves the final batch alone (seed 000 IV
 * step 3: VMs are consolidated to free hosts for the upgrade).  When no
 * group is chosen, its moves would free hosts for nothing, and would be
 * planned again in the next iteration, failing the same way; so none
 * is kept.
 */
#include "bs.h"

void
drop_idle_consolidation(struct bs *b)
{
	if (b->nfinal > 0)
		return;
	b->nmoves = 0;
	json_array_clear(b->freed);
}
