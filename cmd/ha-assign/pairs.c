/*
 * pairs.c: the pairs the labels already describe, their roles, and the
 * failovers (seed 003, Algorithm 1, L7-L19; section 4.4).
 *
 * The controller is level-triggered: instead of a podFailure event it
 * sees a pair whose active is not Ready while its standby is, and
 * instead of a scale-in event a pod whose peer is gone.
 */
#include <stdlib.h>
#include <string.h>

#include "world.h"

#define SRC_FAILOVER "Algorithm 1, L9-L13"
#define SRC_RETURNED "Algorithm 1, L12-L13; section 4.4"
#define SRC_ASSIGN "Algorithm 1, L36-L37; section 4.1"
#define SRC_SPLIT "split brain (issue 13): keep one active"
#define SRC_DRAIN "section 4.4, L9-L13 as a planned switchover (--drain)"

static void
join(struct world *w, size_t a, size_t b)
{
	w->pods[a].partner = (long)b;
	w->pods[b].partner = (long)a;
	w->pods[a].want_peer = w->pods[b].name;
	w->pods[b].want_peer = w->pods[a].name;
}

/* pair_mutual: two live pods whose peer labels name each other. */
static void
pair_mutual(struct world *w)
{
	size_t k;

	for (k = 0; k < w->nlive; k++) {
		struct pod *p = &w->pods[w->order[k]];
		long q;

		if (p->partner >= 0 || p->peer == NULL)
			continue;
		q = live_pod(w, p->peer);
		if (q >= 0 && (size_t)q != w->order[k] &&
		    w->pods[q].partner < 0 && w->pods[q].peer != NULL &&
		    strcmp(w->pods[q].peer, p->name) == 0)
			join(w, w->order[k], (size_t)q);
	}
}

/*
 * may_return: a StatefulSet recreates a pod under the same name, so an
 * orphan of a StatefulSet waits for its peer unless the StatefulSet
 * (with -S) has been scaled below the peer's ordinal (4.3).  A
 * Deployment's pods never come back.
 */
static int
may_return(const struct world *w, const struct pod *p)
{
	size_t n;
	const char *ord;
	char *end;
	long i;
	const struct statefulset *s;

	if (p->owner_sts == NULL)
		return 0;
	n = strlen(p->owner_sts);
	if (strncmp(p->peer, p->owner_sts, n) != 0 || p->peer[n] != '-')
		return 0;
	ord = p->peer + n + 1;
	i = strtol(ord, &end, 10);
	if (end == ord || *end != '\0' || i < 0)
		return 0;
	if (!w->have_sts)
		return 1;
	s = find_sts(w, p->owner_sts);
	return s != NULL && i < s->replicas;
}

/*
 * pair_returned: a pod whose peer is back under its old name without
 * labels (a restarted StatefulSet pod): they pair again, the returned
 * pod as the standby (4.4: "assign the standby HA state to the failed
 * pod after it is repaired").  A pod whose peer is gone is an orphan.
 */
static void
pair_returned(struct world *w)
{
	size_t k;

	for (k = 0; k < w->nlive; k++) {
		size_t i = w->order[k];
		struct pod *p = &w->pods[i];
		long q;

		if (p->partner >= 0 || p->peer == NULL)
			continue;
		q = live_pod(w, p->peer);
		if (q >= 0 && (size_t)q != i && w->pods[q].partner < 0 &&
		    w->pods[q].peer == NULL) {
			join(w, i, (size_t)q);
			set_reason(&w->pods[q], PH_ASSIGN, SRC_RETURNED,
			    "%s is back: it pairs again with %s", p->peer,
			    p->name);
		} else if (q < 0) {
			p->orphan = 1;
			p->waiting = may_return(w, p);
		}
	}
}

static int
has_replication(const struct world *w, const struct pod *p)
{
	char *name;
	int found;

	if (!w->have_services)
		return 0;
	name = replicate_name(p->name);
	found = find_service(w, name) != NULL;
	free(name);
	return found;
}

static struct pod *
split_brain(struct world *w, struct pod *a, struct pod *b)
{
	struct pod *keep = has_replication(w, a) ? a :
	    has_replication(w, b) ? b : a;
	struct pod *lose = keep == a ? b : a;

	add_problem(w, "split-brain", json_pack("{s:[s,s],s:s,s:s,s:s}",
	    "pods", a->name, b->name, "kept", keep->name, "why",
	    keep == a && !has_replication(w, a) ? "the older pod" :
	    "its replication Service exists", "source", SRC_SPLIT));
	set_reason(lose, PH_FAILOVER, SRC_SPLIT,
	    "split brain: %s and %s are both active; %s stays active",
	    a->name, b->name, keep->name);
	return keep;
}

/* choose_active: the pair's active; a is the older pod. */
static struct pod *
choose_active(struct world *w, struct pod *a, struct pod *b)
{
	if (a->role == ROLE_ACTIVE && b->role == ROLE_ACTIVE)
		return split_brain(w, a, b);
	if (a->role == ROLE_ACTIVE)
		return a;
	if (b->role == ROLE_ACTIVE)
		return b;
	return a->ready || !b->ready ? a : b;
}

int
drained(const struct world *w, const struct pod *p)
{
	size_t i;

	for (i = 0; p->node != NULL && i < w->opt->ndrain; i++)
		if (strcmp(p->node, w->opt->drain[i]) == 0)
			return 1;
	return 0;
}

/*
 * fenced: fence-first promotes only when the failed active cannot be
 * running: its phase is Failed, it has no node, its node is gone from
 * -n, or the node has been NotReady for --fence-after seconds at -t.
 */
static int
fenced(const struct world *w, const struct pod *p)
{
	const struct node *n;

	if (w->opt->node_failure == NF_PROMOTE || p->failed || p->node == NULL)
		return 1;
	if (!w->have_nodes)
		return 0;
	n = find_node(w, p->node);
	if (n == NULL)
		return 1;
	return !n->ready && n->has_since &&
	    n->since + w->opt->fence_after <= w->opt->now;
}

/* swap: the standby takes over; why (owned) says so on both pods. */
static void
swap(struct pod *act, struct pod *sb, const char *source, json_t *why)
{
	const char *text = why ? json_string_value(why) : "";

	act->want = ROLE_STANDBY;
	sb->want = ROLE_ACTIVE;
	set_reason(act, PH_FAILOVER, source, "%s", text);
	set_reason(sb, PH_FAILOVER, source, "%s", text);
	json_decref(why);
}

/* stuck: a pair that should change roles and cannot, for an operator. */
static void
stuck(struct world *w, const char *kind, const struct pod *act,
    const struct pod *sb, const char *why, const char *source)
{
	add_problem(w, kind, json_pack("{s:s,s:s,s:s,s:s}", "active",
	    act->name, "standby", sb->name, "why", why, "source", source));
}

static void
failover(struct world *w, struct pod *act, struct pod *sb)
{
	if (!act->ready && sb->ready) {
		if (!fenced(w, act))
			stuck(w, "awaiting-fence", act, sb, "the active is not "
			    "Ready but may still run: its node is not known "
			    "NotReady for long enough",
			    "--node-failure=fence-first (issue 13)");
		else
			swap(act, sb, SRC_FAILOVER, json_sprintf("failover: "
			    "active %s is not Ready, %s takes over", act->name,
			    sb->name));
	} else if (act->drained = drained(w, act), act->drained) {
		if (!sb->ready || drained(w, sb))
			stuck(w, "cannot-switch-over", act, sb, sb->ready ?
			    "the standby is on a drained node too" :
			    "the standby is not Ready", SRC_DRAIN);
		else
			swap(act, sb, SRC_DRAIN, json_sprintf("switchover: node "
			    "%s is drained, %s takes over", act->node,
			    sb->name));
	}
}

static void
decide(struct world *w, struct pod *a, struct pod *b)
{
	struct pod *act = choose_active(w, a, b);
	struct pod *sb = act == a ? b : a;

	act->want = ROLE_ACTIVE;
	sb->want = ROLE_STANDBY;
	if (act->role != ROLE_ACTIVE || sb->role != ROLE_STANDBY) {
		set_reason(act, PH_ASSIGN, SRC_ASSIGN, "pair %s (active) with "
		    "%s (standby)", act->name, sb->name);
		set_reason(sb, PH_ASSIGN, SRC_ASSIGN, "pair %s (active) with "
		    "%s (standby)", act->name, sb->name);
	}
	failover(w, act, sb);
}

/* orphan: a pod whose peer is gone; a standby takes over (L9-L11). */
static void
orphan(struct world *w, struct pod *p)
{
	if (p->role == ROLE_STANDBY && p->ready) {
		p->want = ROLE_ACTIVE;
		(void)idmap_add(&w->taken_over, p->peer);
		set_reason(p, PH_FAILOVER, SRC_FAILOVER, "failover: active %s "
		    "is gone, %s takes over", p->peer, p->name);
	}
	if (!p->waiting)
		p->want_peer = NULL;
}

void
form_pairs(struct world *w)
{
	size_t k;

	idmap_init(&w->taken_over);
	for (k = 0; k < w->npods; k++) {
		w->pods[k].want = w->pods[k].role;
		w->pods[k].want_peer = w->pods[k].peer;
	}
	pair_mutual(w);
	pair_returned(w);
	/* In age order, so a pair is met first through its older pod. */
	for (k = 0; k < w->nlive; k++) {
		struct pod *p = &w->pods[w->order[k]];

		if (p->partner >= 0 && !p->decided) {
			p->decided = w->pods[p->partner].decided = 1;
			decide(w, p, &w->pods[p->partner]);
		} else if (p->orphan)
			orphan(w, p);
	}
}
