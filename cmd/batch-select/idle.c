/*
 * idle.c: consolidation serves the final batch alone (seed 000 IV step
 * 3: VMs are consolidated to free hosts for the upgrade).  When no
 * group is chosen, its moves would free hosts for nothing, and would be
 * planned again in the next iteration, failing the same way; so none
 * is kept.  The cloud is then the one before consolidation, and the
 * final batch is selected again from it, so that the numbers the batch
 * gives (not in use, F, the reservations, Z_i) and its eliminations
 * are those of the cloud as it stays, not of the hosts the dropped
 * moves would have freed.  The advice alone is taken before: it says
 * what would let a group go, and once one goes, the consolidation does
 * too.
 */
#include "bs.h"

void
drop_idle_consolidation(struct bs *b)
{
	if (b->nfinal > 0 || b->nmoves == 0)
		return;
	b->advice = advice(b);
	consolidation_undo(b);
	final_batch_again(b);
}
