/*
 * report.c: take in the upgrade iteration report (seed 000 III.B, step 1
 * "update"): each executed action's result, by action id, against the
 * first execution level of the previous resource graph.  An operation
 * (the actions of one change on one resource) whose actions all
 * succeeded is done; one with a failed action, or one blocked because
 * what it required failed, counts a failed attempt for its undo unit
 * (the actuator has already undone it at resource level).  So does an
 * undo that failed, at resource level or as an undo operation, or that
 * was blocked: it is tried again while max-retry allows (issue 41:
 * every kind of action retries), and past it the resource cannot be
 * taken back and is isolated and failed (III.A).  A failed activation
 * counts a failed attempt too.  Isolation at max-retry is decided in
 * evaluate.c.
 */
#include <string.h>

#include "rgb.h"

enum result { R_SUCCEEDED, R_FAILED, R_UNDONE, R_UNDO_FAILED, R_NOT_RUN,
	R_BLOCKED };
static const char *const result_names[] = { "succeeded", "failed",
	"undone", "undo-failed", "not-run", "blocked", NULL };

/* An operation's outcome, gathered over its actions. */
struct outcome {
	const char *undo_unit;
	long change;		/* 0: an undo operation */
	int all_ok, failed, undo_failed, ran;
	int blocked;		/* not run: what it required failed */
};

struct change_set *
find_set(const struct rgb *b, const char *uid, uint32_t *q, uint32_t *s)
{
	for (*q = 0; *q < b->model.nreqs; (*q)++)
		for (*s = 0; *s < b->model.reqs[*q].nsets; (*s)++)
			if (strcmp(b->model.reqs[*q].sets[*s].uid, uid) == 0)
				return &b->model.reqs[*q].sets[*s];
	return NULL;
}

/*
 * carry_previous: isolation, failure and counters of the last RG.  A
 * resource the system said had failed (an outage, is_down) and now says
 * is back has been repaired: it is failed and isolated no longer, and
 * the upgrade may take it again; its failed attempts still count.  One
 * failed by the upgrade (fail_by_upgrade) stays failed, and is not down
 * even while the system says it failed.
 */
static void
carry_previous(struct rgb *b)
{
	size_t i, k;
	long r;

	for (i = 0; b->have_prev && i < b->prev.nv; i++) {
		const struct rg_vertex *v = &b->prev.v[i];

		if ((r = res_find(b, v->id)) < 0)
			continue;
		if (!(v->down && !b->res[r].down && b->res[r].sys >= 0)) {
			b->res[r].isolated |= v->isolated;
			b->res[r].failed |= v->failed;
		}
		if (v->failed && !v->down)
			b->res[r].down = 0;	/* failed by the upgrade */
		for (k = v->first_att; k < v->first_att + v->natt; k++)
			res_attempts(&b->res[r], b->prev.att[k].undo_unit)->count =
			    b->prev.att[k].count;
	}
}

/*
 * count_attempt: one failed attempt of r in undo unit uu, once per
 * iteration: an attempt is the iteration's try at the resource (seed
 * 000 III.A, the per undo unit counter of failed upgrade attempts), so
 * a failed action and the operations of the same unit it blocked, or
 * its undo that failed too, are one attempt, not three.
 */
static void
count_attempt(struct res *r, const char *uu)
{
	struct attempts *at = res_attempts(r, uu);

	if (!at->counted)
		at->count += 1;
	at->counted = 1;
}

static void
mark_ran(struct change_set *cs, long change)
{
	if (cs->status == CS_NEW)
		cs->status = CS_SCHEDULED;
	if (change > 0 && cs->changes[change - 1].status == CS_NEW)
		cs->changes[change - 1].status = CS_SCHEDULED;
}

/*
 * fail_by_upgrade: r is failed by the upgrade itself (III.A), not by an
 * outage: it is not down, whatever the system says of it, and a repair
 * does not release it.
 */
static void
fail_by_upgrade(struct res *r)
{
	r->failed = r->isolated = 1;
	r->down = 0;
}

/* settle: apply one operation's outcome to resource r. */
static void
settle(struct rgb *b, struct res *r, const struct outcome *o)
{
	uint32_t q, s;
	struct change_set *cs = find_set(b, o->undo_unit, &q, &s);
	size_t i;

	if (cs == NULL)
		return;
	if (o->ran)
		mark_ran(cs, o->change);
	if (o->failed || o->undo_failed || o->blocked)
		count_attempt(r, cs->uid);
	/* an undo that failed or that its prerequisites keep from running,
	 * past max-retry, cannot take the resource back: failed (III.A) */
	if ((o->undo_failed || (o->change == 0 && (o->failed ||
	    o->blocked))) && res_attempts(r, cs->uid)->count > cs->max_retry)
		fail_by_upgrade(r);
	if (!o->all_ok)
		return;
	for (i = 0; i < r->ntr; i++) {
		struct transition *t = tref_tr(b, r->tr[i]);

		if (r->tr[i].req != q || r->tr[i].set != s)
			continue;
		if (o->change > 0 && r->tr[i].change == (uint32_t)o->change - 1 &&
		    t->status == TR_PENDING)
			t->status = TR_DONE;
		if (o->change == 0 && (t->status == TR_DONE ||
		    t->status == TR_CANCELLED))
			t->status = TR_UNDONE;
	}
}

static int
action_result(struct access *a, const json_t *results, const json_t *act,
    int *out)
{
	json_t *v = json_object_get(results,
	    json_string_value(json_object_get(act, "id")));

	if (v == NULL) {
		*out = -1;
		return 0;
	}
	access_enter_key(a, json_string_value(json_object_get(act, "id")));
	if (!json_is_string(v))
		return access_fail(a, "expected a result string");
	for (*out = 0; result_names[*out] != NULL; (*out)++)
		if (strcmp(result_names[*out], json_string_value(v)) == 0)
			break;
	if (result_names[*out] == NULL)
		return access_fail(a, "unknown result \"%s\" (expected succeeded, "
		    "failed, undone, undo-failed, not-run or blocked)",
		    json_string_value(v));
	access_leave(a);
	return 0;
}

static void
outcome_add(struct outcome *o, int res)
{
	o->all_ok &= res == R_SUCCEEDED;
	o->failed |= res == R_FAILED;
	o->undo_failed |= res == R_UNDO_FAILED;
	o->blocked |= res == R_BLOCKED;
	o->ran |= res >= 0 && res != R_NOT_RUN && res != R_BLOCKED;
}

/* vertex_results: the first level of one previous vertex; matched count. */
static long
vertex_results(struct rgb *b, struct access *a, const json_t *results,
    const struct rg_vertex *v)
{
	const struct rg_level *lv = &b->prev.levels[v->first_level];
	struct outcome o = { NULL, 0, 1, 0, 0, 0, 0 };
	long r = res_find(b, v->id), matched = 0;
	size_t k;
	int res = -1;

	for (k = lv->first; k < lv->first + lv->count; k++) {
		const json_t *act = b->prev.actions[k];
		const char *uu = json_string_value(json_object_get(act,
		    "undo_unit"));
		long change = (long)json_integer_value(json_object_get(act,
		    "change"));

		if (o.undo_unit != NULL && (strcmp(o.undo_unit, uu) != 0 ||
		    o.change != change)) {
			if (r >= 0)
				settle(b, &b->res[r], &o);
			o = (struct outcome){ NULL, 0, 1, 0, 0, 0, 0 };
		}
		o.undo_unit = uu;
		o.change = change;
		if (action_result(a, results, act, &res) < 0)
			return -1;
		matched += res >= 0;
		outcome_add(&o, res);
	}
	if (o.undo_unit != NULL && r >= 0)
		settle(b, &b->res[r], &o);
	return matched;
}

static int
apply_results(struct rgb *b, struct access *a)
{
	json_t *results;
	long matched = 0, n;
	size_t i;
	int r;

	if ((r = acc_get_object(a, b->report, "results", ACC_OPTIONAL,
	    &results)) != 0)
		return r < 0 ? -1 : 0;
	access_enter_key(a, "results");
	for (i = 0; i < b->prev.nv; i++) {
		if (b->prev.v[i].nlevels == 0)
			continue;
		if ((n = vertex_results(b, a, results, &b->prev.v[i])) < 0)
			return -1;
		matched += n;
	}
	if ((size_t)matched != json_object_size(results))
		return access_fail(a, "%zu result(s) name no action of a first "
		    "execution level of iteration %ld",
		    json_object_size(results) - (size_t)matched, b->prev.iteration);
	access_leave(a);
	return 0;
}

/* The flag a report list sets (1: failed, 0: isolated). */
struct list_flag {
	struct rgb *b;
	int failed;
};

static int
flag_listed(struct access *a, const json_t *v, size_t i, void *ctx)
{
	struct list_flag *f = ctx;
	long r;

	(void)i;
	if (!json_is_string(v))
		return access_fail(a, "expected a resource id");
	r = res_find(f->b, json_string_value(v));
	if (r < 0 && idmap_find(&f->b->prev.ids, json_string_value(v)) < 0)
		return access_fail(a, "no resource has id \"%s\"",
		    json_string_value(v));
	if (r >= 0) {
		f->b->res[r].isolated = 1;
		f->b->res[r].failed |= f->failed;
	}
	return 0;
}

/* apply_list: ids of a report list get flag (1: failed, 0: isolated). */
static int
apply_list(struct rgb *b, struct access *a, const char *key, int failed)
{
	struct list_flag f = { b, failed };

	return acc_each_element(a, b->report, key, ACC_OPTIONAL, flag_listed,
	    &f) < 0 ? -1 : 0;
}

/*
 * count_activations: a resource whose activation failed (the report's
 * failed_activations, however many times) has one more failed attempt
 * in each undo unit it is still being changed by, unless the report
 * counted one already, so that max-retry isolates it
 * (evaluate.c) as it would for a failed upgrade (seed 000 III.A).  One
 * changed by no open set has no retry left: it is isolated and failed.
 */
static int
count_activations(struct access *a, const char *id, const json_t *v,
    void *ctx)
{
	struct rgb *b = ctx;
	long x = res_find(b, id);
	json_int_t n;
	size_t i;
	int counted = 0;

	if (!json_is_integer(v) || (n = json_integer_value(v)) < 1 ||
	    n > 1000000)
		return access_fail(a, "expected a count of failed activations "
		    "from 1 to 1000000");
	if (x < 0)
		return 0;	/* gone since: nothing left to count */
	for (i = 0; i < b->res[x].ntr; i++) {
		const struct change_set *cs = tref_set(b, b->res[x].tr[i]);

		if (cs->status == CS_COMPLETED || (cs->status == CS_FAILED &&
		    cs->undo_done))
			continue;
		count_attempt(&b->res[x], cs->uid);
		counted = 1;
	}
	if (!counted)
		fail_by_upgrade(&b->res[x]);
	return 0;
}

int
apply_report(struct rgb *b)
{
	struct access a;
	int r;

	carry_previous(b);
	if (b->report == NULL)
		return 0;
	access_init(&a, b->state_name);
	access_enter_key(&a, "report");
	r = apply_results(b, &a) < 0 || apply_list(b, &a, "failed_resources", 1) < 0 ||
	    apply_list(b, &a, "isolated_resources", 0) < 0 ||
	    acc_each_member(&a, b->report, "failed_activations", ACC_OPTIONAL,
	    count_activations, b) < 0 ? -1 : 0;
	access_free(&a);
	return r;
}
