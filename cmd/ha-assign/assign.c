/*
 * assign.c: pair the free pods, oldest first (seed 003, Algorithm 1,
 * L29-L39; scale-out L20-L22 and start-up L2 are the same step here).
 *
 * A free pod is one in no pair and not waiting for a peer to return.
 * Only Ready pods are paired: pairing a pod that cannot serve yet would
 * start the pair with a failover.  Within a new pair a pod already
 * active stays active, otherwise the older one is (4.3), unless it is
 * on a node being drained and the other is not.  A pod left
 * over (an odd number, or not Ready) is unpaired and loses its peer
 * label; its state label is left as it is.
 */
#include <stddef.h>

#include "world.h"

#define SRC_PAIR "Algorithm 1, L31-L38 (scale-out L20-L22)"
#define SRC_UNPAIR "section 4.3: a pod without a pair has no peer"

static void
pair_new(struct world *w, size_t a, size_t b)
{
	struct pod *pa = &w->pods[a], *pb = &w->pods[b];
	struct pod *act = pb->want == ROLE_ACTIVE && pa->want != ROLE_ACTIVE ?
	    pb : pa;
	struct pod *sb = act == pa ? pb : pa;

	/* Never make an active of a pod on a node being drained. */
	if (drained(w, act) && !drained(w, sb)) {
		sb = act;
		act = act == pa ? pb : pa;
	}

	pa->partner = (long)b;
	pb->partner = (long)a;
	act->want = ROLE_ACTIVE;
	sb->want = ROLE_STANDBY;
	act->want_peer = sb->name;
	sb->want_peer = act->name;
	set_reason(act, PH_ASSIGN, SRC_PAIR, "pair %s (active) with %s "
	    "(standby)", act->name, sb->name);
	set_reason(sb, PH_ASSIGN, SRC_PAIR, "pair %s (active) with %s "
	    "(standby)", act->name, sb->name);
}

static void
unpaired(struct pod *p)
{
	p->want_peer = NULL;
	if (p->peer != NULL)
		set_reason(p, PH_CLEANUP, SRC_UNPAIR, "%s has no partner",
		    p->name);
}

void
assign_free(struct world *w)
{
	size_t k;
	long held = -1;

	for (k = 0; k < w->nlive; k++) {
		size_t i = w->order[k];
		struct pod *p = &w->pods[i];

		if (p->partner >= 0 || (p->orphan && p->waiting))
			continue;
		if (!p->ready) {
			unpaired(p);
			continue;
		}
		if (held < 0) {
			held = (long)i;
			continue;
		}
		pair_new(w, (size_t)held, i);
		held = -1;
	}
	if (held >= 0)
		unpaired(&w->pods[held]);
}
