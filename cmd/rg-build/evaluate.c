/*
 * evaluate.c: decide, after the report is in, where each change set
 * stands (seed 000 III.A "Handling of upgrade failures" and step 1):
 *
 * - a resource whose failed attempts for an undo unit exceed the set's
 *   max-retry is isolated (max-retry counts retries: with max-retry 1,
 *   the second failure isolates);
 * - a set is undone when the administrator asks, when its
 *   max-completion-period has passed since the request's time stamp, or
 *   when a change's resources that are still operational (neither
 *   isolated nor failed) fall below its undo-threshold (by default 90 %
 *   of them, rounded up: request.h);
 * - a set is completed when each of its transitions is done or sits on
 *   an isolated, failed or vanished resource, or one grouped with an
 *   isolated or failed one (mark_in_lost); its isolated-only resources
 *   are then marked failed;
 * - while a set is being undone, isolated-only resources already at
 *   their undo version are released from isolation.
 */
#include <stdlib.h>
#include <string.h>

#include "rgb.h"
#include "xalloc.h"

int
res_present(const struct rgb *b, const struct res *r)
{
	size_t i;

	if (r->sys >= 0)
		return 1;
	for (i = 0; i < r->ntr; i++)
		if (tref_tr(b, r->tr[i])->destroy &&
		    tref_tr(b, r->tr[i])->status == TR_DONE)
			return 0;	/* created, then taken out again */
	for (i = 0; i < r->ntr; i++) {
		const struct transition *t = tref_tr(b, r->tr[i]);

		if (t->create >= 0 && (t->status == TR_PENDING ||
		    t->status == TR_DONE))
			return 1;
	}
	return 0;
}

static void
mark_gone_and_isolate(struct rgb *b)
{
	uint32_t q, s;
	size_t i, k;

	for (i = 0; i < b->nres; i++) {
		struct res *r = &b->res[i];
		int present = res_present(b, r);

		for (k = 0; !present && k < r->ntr; k++)
			if (tref_tr(b, r->tr[k])->status == TR_PENDING)
				tref_tr(b, r->tr[k])->status = TR_GONE;
		for (k = 0; k < r->natt; k++) {
			const struct change_set *cs = find_set(b,
			    r->att[k].undo_unit, &q, &s);

			if (cs != NULL && r->att[k].count > cs->max_retry)
				r->isolated = 1;
		}
	}
}

/* lost: r is failed or isolated, or held with one (mark_in_lost). */
static int
lost(const struct res *r)
{
	return r->failed || r->isolated || r->in_lost;
}

/*
 * mark_in_lost: the resources held, through containment or composition
 * either way, with a failed or isolated one, such as the hypervisor of
 * a failed host or the host of a failed hypervisor: step 2 groups them
 * into one resource group, which is not upgradable while a member is
 * failed or isolated, so no automatic action reaches them either
 * (III.A).
 */
static void
mark_in_lost(struct rgb *b)
{
	const struct dependency *d;
	struct res *x, *y;
	size_t i;
	long dx, dy;
	int more = 1;

	while (more) {
		more = 0;
		for (i = 0; i < b->sc.ndeps; i++) {
			d = &b->sc.deps[i];
			if ((d->type != DEP_CONTAINED &&
			    d->type != DEP_COMPOSITION) ||
			    (dx = res_find(b, b->sc.resources[d->dependent].id)) < 0 ||
			    (dy = res_find(b, b->sc.resources[d->sponsor].id)) < 0)
				continue;
			x = &b->res[dx];
			y = &b->res[dy];
			if (lost(x) != lost(y)) {
				(lost(x) ? y : x)->in_lost = 1;
				more = 1;
			}
		}
	}
}

static long
attempts_of(const struct res *r, const char *uu)
{
	size_t i;

	for (i = 0; i < r->natt; i++)
		if (strcmp(r->att[i].undo_unit, uu) == 0)
			return r->att[i].count;
	return 0;
}

static struct res *
tr_res(const struct rgb *b, const struct transition *t)
{
	return &b->res[res_find(b, t->resource)];
}

/* least_operational: c's undo threshold, of the size resources it has. */
static json_int_t
least_operational(const struct change *c, size_t size)
{
	if (c->undo_threshold >= 0)
		return c->undo_threshold;
	return (json_int_t)((size * (size_t)c->undo_percent + 99) / 100);
}

/* below_threshold: a requested change of cs lost too many resources. */
static int
below_threshold(struct rgb *b, const struct change_set *cs, uint32_t *stamp,
    uint32_t *clock)
{
	size_t root, k, i, size, bad;

	for (root = 0; root < cs->nchanges; root++) {
		if (cs->changes[root].of != 0 || cs->changes[root].ntr == 0)
			continue;
		++*clock;
		size = bad = 0;
		for (k = 0; k < cs->nchanges; k++) {
			const struct change *c = &cs->changes[k];

			if (k != root && c->of != root + 1)
				continue;
			for (i = 0; i < c->ntr; i++) {
				long x = res_find(b, c->tr[i].resource);

				if (stamp[x] == *clock || c->tr[i].status == TR_GONE)
					continue;
				stamp[x] = *clock;
				size++;
				/* one that left as the change meant is no loss */
				bad += (b->res[x].isolated || b->res[x].failed) &&
				    !(c->tr[i].destroy && c->tr[i].status == TR_DONE);
			}
		}
		if ((json_int_t)(size - bad) < least_operational(
		    &cs->changes[root], size))
			return 1;
	}
	return 0;
}

static void
start_undo(struct change_set *cs, enum undo_reason why)
{
	size_t k, i;

	cs->status = CS_FAILED;
	cs->undo = why;
	cs->undo_done = 0;
	for (k = 0; k < cs->nchanges; k++) {
		cs->changes[k].status = CS_FAILED;
		for (i = 0; i < cs->changes[k].ntr; i++)
			if (cs->changes[k].tr[i].status == TR_PENDING)
				cs->changes[k].tr[i].status = TR_CANCELLED;
	}
}

static int
try_complete(struct rgb *b, struct change_set *cs)
{
	size_t k, i;

	for (k = 0; k < cs->nchanges; k++)
		for (i = 0; i < cs->changes[k].ntr; i++) {
			const struct transition *t = &cs->changes[k].tr[i];
			const struct res *r = tr_res(b, t);

			if (t->status == TR_PENDING && !r->isolated &&
			    !r->failed && !r->in_lost)
				return 0;
		}
	cs->status = CS_COMPLETED;
	for (k = 0; k < cs->nchanges; k++) {
		cs->changes[k].status = CS_COMPLETED;
		for (i = 0; i < cs->changes[k].ntr; i++) {
			struct transition *t = &cs->changes[k].tr[i];

			if (t->status == TR_PENDING) {
				t->status = TR_FAILED;
				tr_res(b, t)->failed = 1;
			}
		}
	}
	return 1;
}

/* set_undoing: cs failed and its undo is not over yet. */
int
set_undoing(const struct change_set *cs)
{
	return cs->status == CS_FAILED && !cs->undo_done;
}

/* needs_undo: t's resource must still be taken to its undo version. */
int
needs_undo(const struct transition *t)
{
	return t->status == TR_DONE || (t->status == TR_CANCELLED &&
	    !pv_equal(t->undo, t->from));
}

static void
follow_undo(struct rgb *b, struct change_set *cs)
{
	size_t k, i;
	int pending = 0;

	for (k = 0; k < cs->nchanges; k++)
		for (i = 0; i < cs->changes[k].ntr; i++) {
			const struct transition *t = &cs->changes[k].tr[i];
			struct res *r = tr_res(b, t);

			if (needs_undo(t) && !r->failed && res_present(b, r))
				pending = 1;
			else if (r->isolated && !r->failed &&
			    attempts_of(r, cs->uid) > cs->max_retry)
				r->isolated = 0;	/* at its undo version */
		}
	cs->undo_done = !pending;
}

static enum undo_reason
undo_reason(struct rgb *b, const struct request *q,
    const struct change_set *cs, uint32_t *stamp, uint32_t *clock)
{
	if (cs->undo == UNDO_REQUESTED)
		return UNDO_REQUESTED;
	if (b->have_now && cs->max_completion_period >= 0 &&
	    b->now - q->t > cs->max_completion_period)
		return UNDO_TIMEOUT;
	if (below_threshold(b, cs, stamp, clock))
		return UNDO_THRESHOLD;
	return UNDO_NONE;
}

void
evaluate_change_sets(struct rgb *b)
{
	uint32_t *stamp = xcalloc(b->nres, sizeof *stamp), clock = 0;
	enum undo_reason why;
	size_t q, s;

	mark_gone_and_isolate(b);
	mark_in_lost(b);
	for (q = 0; q < b->model.nreqs; q++)
		for (s = 0; s < b->model.reqs[q].nsets; s++) {
			struct change_set *cs = &b->model.reqs[q].sets[s];

			if (cs->status == CS_COMPLETED)
				continue;
			if (cs->status != CS_FAILED &&
			    (why = undo_reason(b, &b->model.reqs[q], cs, stamp,
			    &clock)) != UNDO_NONE)
				start_undo(cs, why);
			if (cs->status == CS_FAILED && !cs->undo_done)
				follow_undo(b, cs);
			else if (cs->status != CS_FAILED)
				try_complete(b, cs);
		}
	free(stamp);
}
