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
#include <stdlib.h>
#include <string.h>

#include "world.h"
#include "xalloc.h"

#define SRC_PAIR "Algorithm 1, L31-L38 (scale-out L20-L22)"
#define SRC_UNPAIR "section 4.3: a pod without a pair has no peer"
#define SRC_KEEP "Algorithm 1, L9-L11: a standby orphan takes over (issue 44)"

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

/*
 * holds_state: a free pod that will be active holds a state of its own:
 * an active's, or the state of the peer a standby orphan took over.
 * Pairing two of them would make one a standby and overwrite its state
 * with the other's replication (issue 44, finding 12).
 */
static int
holds_state(const struct pod *p)
{
	return p->want == ROLE_ACTIVE;
}

/* kept_apart: the pods that hold a state and found no pod without one. */
static void
kept_apart(struct world *w, const size_t *left, size_t nleft)
{
	json_t *pods = json_array();
	size_t k;

	for (k = 0; k < nleft; k++) {
		const struct pod *p = &w->pods[left[k]];

		json_array_append_new(pods, json_string(p->name));
	}
	add_problem(w, "active-without-standby", json_pack("{s:o,s:s,s:s}",
	    "pods", pods, "why", "each is active and holds a state of its "
	    "own (a standby orphan holds its lost peer's); pairing two would "
	    "overwrite one state with the other's, so each waits unpaired for "
	    "a Ready pod without state", "source", SRC_KEEP));
}

/*
 * assign_free: the free Ready pods in age order, each paired with the
 * oldest waiting one it may pair with.  Without two pods that hold a
 * state, that is the next pod in age order; pods that hold one wait for
 * one that does not, and are left unpaired if none comes.
 */
void
assign_free(struct world *w)
{
	size_t *waiting = xreallocarray(NULL, w->nlive + 1, sizeof *waiting);
	size_t nwaiting = 0, nstate = 0, k;

	for (k = 0; k < w->nlive; k++) {
		size_t i = w->order[k];
		struct pod *p = &w->pods[i];

		if (p->partner >= 0 || (p->orphan && p->waiting))
			continue;
		if (!p->ready) {
			unpaired(p);
			continue;
		}
		/* The waiting pods all hold a state, or there is one without. */
		if (nwaiting > 0 && !(holds_state(p) &&
		    holds_state(&w->pods[waiting[0]]))) {
			pair_new(w, waiting[0], i);
			memmove(waiting, waiting + 1,
			    --nwaiting * sizeof *waiting);
			continue;
		}
		waiting[nwaiting++] = i;
		nstate += holds_state(p);
	}
	for (k = 0; k < nwaiting; k++)
		unpaired(&w->pods[waiting[k]]);
	if (nstate > 1 && nwaiting > 1)
		kept_apart(w, waiting, nwaiting);
	free(waiting);
}
