/*
 * plan.c: the vertices of the resource graph and their actions-to-
 * execute (seed 000 step 1).
 *
 * A resource's execution levels are, in order: an undo level when a
 * change set it belongs to is being undone (III.A: undo actions go to
 * the first level, to run as soon as possible); then, per arrival of
 * requests, the levels of that arrival's pending transitions.  Within
 * one arrival, transitions of different change sets share a level
 * unless they touch the same product, which orders them; a change set's
 * transitions on one resource stay in one level (one operation).  A
 * later arrival's levels come after every earlier one (the New Request
 * Graph's appended levels), so new requests never overtake ongoing ones.
 * Every action is derived again each iteration from what the resource
 * runs, so levels after an undo are re-evaluated against the new
 * source versions for free.
 */
#include <stdlib.h>
#include <string.h>

#include "rgb.h"
#include "xalloc.h"

static size_t
add_level(struct rgb *b, long arrival, int sub, const char *uu)
{
	size_t l = rgraph_add_level(&b->out, 0);

	if (l >= b->lv_cap) {
		b->lv_cap = b->lv_cap ? 2 * b->lv_cap : 64;
		b->lv = xreallocarray(b->lv, b->lv_cap, sizeof *b->lv);
	}
	b->lv[l].arrival = arrival;
	b->lv[l].sub = sub;
	b->lv[l].undo_unit = uu;
	b->lv[l].ppu_unit = -1;
	return l;
}

/* drop_empty_level: a level that got no action is no level. */
static void
drop_empty_level(struct rgb *b)
{
	if (b->out.levels[b->out.nlevels - 1].count > 0)
		return;
	b->out.nlevels--;
	b->out.v[b->out.nv - 1].nlevels--;
}

/* current: what r runs now: the system, plus what is done. */
static void
current(const struct rgb *b, const struct res *r, struct pstate *s)
{
	size_t i;

	pstate_from_system(b, r, s);
	for (i = 0; i < r->ntr; i++) {
		const struct transition *t = tref_tr(b, r->tr[i]);

		if (t->status == TR_DONE)
			pstate_apply(b, s, t);
	}
}

/* undo_level: take r back to the undo versions of sets being undone. */
static void
undo_level(struct rgb *b, struct res *r, struct pstate *s)
{
	size_t i, l = (size_t)-1;

	for (i = r->ntr; !r->failed && i-- > 0;) {
		struct transition *t = tref_tr(b, r->tr[i]);
		struct change_set *cs = tref_set(b, r->tr[i]);
		struct opctx o = { cs->uid, 0, r->id, 0, NULL };
		struct pv now, none = { NULL, NULL };
		struct transition back;

		if (!set_undoing(cs) || !needs_undo(t))
			continue;
		if (l == (size_t)-1)
			l = add_level(b, 0, 0, cs->uid);
		now = t->create >= 0 ? t->to : pstate_from(b, s, t);
		if (t->destroy)
			now = t->from;
		o.count = 0;
		if (undo_actions(b, &o, now, t) == 0)
			t->status = TR_UNDONE;
		back = *t;
		back.from = now;
		back.to = t->create >= 0 ? none : t->undo;
		back.create = -1;
		pstate_apply(b, s, &back);
	}
	if (l != (size_t)-1)
		drop_empty_level(b);
}

static int
touches(const struct transition *t, const char *product)
{
	return (t->from.product && strcmp(t->from.product, product) == 0) ||
	    (t->to.product && strcmp(t->to.product, product) == 0);
}

static int
overlap(const struct transition *a, const struct transition *b)
{
	if (a->create >= 0 || a->destroy || b->create >= 0 || b->destroy)
		return 1;
	return (a->from.product && touches(b, a->from.product)) ||
	    (a->to.product && touches(b, a->to.product));
}

/* sublevels: for each pending transition of r, its order in its arrival. */
static void
sublevels(const struct rgb *b, const struct res *r, const char *live,
    int *sub)
{
	size_t i, j;

	for (i = 0; i < r->ntr; i++) {
		sub[i] = 0;
		for (j = 0; live[i] && j < i; j++) {
			if (!live[j] || tref_req(b, r->tr[j])->arrival !=
			    tref_req(b, r->tr[i])->arrival)
				continue;
			if (r->tr[j].req == r->tr[i].req &&
			    r->tr[j].set == r->tr[i].set) {
				if (sub[j] > sub[i])
					sub[i] = sub[j];
			} else if (overlap(tref_tr(b, r->tr[j]),
			    tref_tr(b, r->tr[i])) && sub[j] + 1 > sub[i])
				sub[i] = sub[j] + 1;
		}
	}
}

/* next_key: the smallest (arrival, sub) above (*arr, *sub); 0 if none. */
static int
next_key(const struct rgb *b, const struct res *r, const char *live,
    const int *sub, long *arr, int *s)
{
	long best_a = -1;
	int best_s = 0;
	size_t i;

	for (i = 0; i < r->ntr; i++) {
		long a = tref_req(b, r->tr[i])->arrival;

		if (!live[i] || a < *arr || (a == *arr && sub[i] <= *s))
			continue;
		if (best_a < 0 || a < best_a || (a == best_a && sub[i] < best_s))
			best_a = a, best_s = sub[i];
	}
	if (best_a < 0)
		return 0;
	*arr = best_a;
	*s = best_s;
	return 1;
}

static void
fill_level(struct rgb *b, struct res *r, const char *live, const int *sub,
    long arr, int s, struct pstate *st)
{
	size_t i, l = add_level(b, arr, s, NULL);
	struct opctx o = { NULL, 0, r->id, 0, NULL };

	for (i = 0; i < r->ntr; i++) {
		struct transition *t = tref_tr(b, r->tr[i]);
		const char *uid = tref_set(b, r->tr[i])->uid;
		long change = (long)r->tr[i].change + 1;

		if (!live[i] || tref_req(b, r->tr[i])->arrival != arr ||
		    sub[i] != s)
			continue;
		/* one change's transitions of r (a new resource's products)
		 * are one operation: its action numbers run on */
		if (o.undo_unit != uid || o.change != change)
			o.count = 0;
		o.undo_unit = uid;
		o.change = change;
		o.release = json_object_get(tref_change(b, r->tr[i])->spec,
		    "release");
		if (forward_actions(b, &o, pstate_from(b, st, t), t) == 0)
			t->status = TR_DONE;	/* nothing to run: in effect */
		else if (tref_change(b, r->tr[i])->ppu)
			b->lv[l].ppu_unit = (long)ppu_unit(b, r->tr[i]);
		pstate_apply(b, st, t);
	}
	drop_empty_level(b);
}

static void
forward_levels(struct rgb *b, struct res *r, struct pstate *st)
{
	char *live = xcalloc(r->ntr, 1);
	int *sub = xcalloc(r->ntr, sizeof *sub), s = -1;
	long arr = 0;
	size_t i;

	for (i = 0; i < r->ntr; i++)
		live[i] = tref_tr(b, r->tr[i])->status == TR_PENDING &&
		    !set_undoing(tref_set(b, r->tr[i]));
	sublevels(b, r, live, sub);
	while (next_key(b, r, live, sub, &arr, &s))
		fill_level(b, r, live, sub, arr, s, st);
	free(live);
	free(sub);
}

static int
retired(const struct rgb *b, const struct res *r)
{
	size_t i;

	for (i = 0; i < r->ntr; i++) {
		const struct transition *t = tref_tr(b, r->tr[i]);

		if (t->destroy && t->status == TR_DONE)
			return 1;
	}
	return 0;
}

/* belongs: r is in cs's undo unit while cs is under way or undoing. */
static void
undo_units(struct rgb *b, const struct res *r)
{
	size_t i, j;

	for (i = 0; i < r->ntr; i++) {
		const struct change_set *cs = tref_set(b, r->tr[i]);

		if (cs->status == CS_COMPLETED || (cs->status == CS_FAILED &&
		    cs->undo_done))
			continue;
		for (j = 0; j < i; j++)
			if (tref_set(b, r->tr[j]) == cs)
				break;
		if (j == i)
			rgraph_add_undo_unit(&b->out, cs->uid);
	}
}

/* modification: what the first level does to the resource (II.E):
 * its first action creates it, or its last deletes it. */
static enum modification
modification(const struct rgb *b, const struct rg_vertex *v)
{
	const struct rg_level *l;
	const char *op;

	if (v->nlevels == 0)
		return MOD_NO_CHANGE;
	l = &b->out.levels[v->first_level];
	op = b->out.made[l->first].op;
	if (strcmp(op, "create") == 0)
		return MOD_ADD;
	/* a resource given back has its last product removed first */
	op = b->out.made[l->first + l->count - 1].op;
	if (strcmp(op, "delete") == 0)
		return MOD_REMOVE;
	return MOD_UPGRADE;
}

static void
add_vertex(struct rgb *b, struct res *r)
{
	struct rg_vertex *v;
	struct pstate st;
	size_t k;

	r->in_graph = 1;
	r->vertex = rgraph_add_vertex(&b->out, r->id, r->kind);
	undo_units(b, r);
	current(b, r, &st);
	undo_level(b, r, &st);
	forward_levels(b, r, &st);
	pstate_free(&st);
	for (k = 0; k < r->natt; k++)
		if (r->att[k].count > 0)
			rgraph_add_attempts(&b->out, r->att[k].undo_unit,
			    r->att[k].count);
	v = &b->out.v[r->vertex];
	v->mod = modification(b, v);
	v->deactivated = r->deactivated || r->sys < 0;
	v->isolated = r->isolated;
	v->failed = r->failed;
	v->down = r->down;
}

int
plan_vertices(struct rgb *b)
{
	size_t i;

	for (i = 0; i < b->nres; i++)
		if (res_present(b, &b->res[i]) && !retired(b, &b->res[i]))
			add_vertex(b, &b->res[i]);
	return 0;
}
