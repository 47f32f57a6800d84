/* report.c: build the upgrade iteration report (see report.h). */
#include <stdlib.h>
#include <string.h>

#include "report.h"
#include "schedule.h"
#include "xalloc.h"

const char *const report_result_names[] = { "succeeded", "failed", "undone",
	"undo-failed", "not-run", "blocked", NULL };

/* index_first_levels: the actions rg-build will look results up for. */
static void
index_first_levels(struct report *r)
{
	const struct rgraph *g = r->rg;
	size_t i, k, n = 0;

	for (i = 0; g != NULL && i < g->nv; i++)
		if (g->v[i].nlevels > 0)
			n += g->levels[g->v[i].first_level].count;
	r->rg_vertex = xcalloc(n, sizeof *r->rg_vertex);
	r->rg_action = xcalloc(n, sizeof *r->rg_action);
	for (i = 0; g != NULL && i < g->nv; i++) {
		const struct rg_level *lv;

		if (g->v[i].nlevels == 0)
			continue;
		lv = &g->levels[g->v[i].first_level];
		for (k = lv->first; k < lv->first + lv->count; k++) {
			long x = idmap_add(&r->rg_actions, g->act[k].id);

			if (x >= 0) {
				r->rg_vertex[x] = i;
				r->rg_action[x] = &g->act[k];
			}
		}
	}
}

void
report_init(struct report *r, const struct rgraph *rg, const json_t *requests)
{
	memset(r, 0, sizeof *r);
	r->schedules = json_array();
	r->results = json_object();
	r->other = json_object();
	r->skipped = json_object();
	r->failed = json_array();
	r->isolated = json_array();
	r->units = json_array();
	r->unreachable = json_array();
	r->activations = json_object();
	idmap_init(&r->failed_ids);
	idmap_init(&r->isolated_ids);
	idmap_init(&r->unit_ids);
	idmap_init(&r->host_ids);
	idmap_init(&r->rg_actions);
	r->rg = rg;
	r->requests = requests;
	index_first_levels(r);
}

void
report_schedule(struct report *r, const char *sched_id)
{
	json_array_append_new(r->schedules, json_string(sched_id));
}

/* add_once: append s to list unless seen has it. */
static void
add_once(json_t *list, struct idmap *seen, const char *s)
{
	if (idmap_add(seen, s) >= 0)
		json_array_append_new(list, json_string(s));
}

/* max_retry: of the change set whose undo unit is uu (default 0). */
static long
max_retry(const struct report *r, const char *uu)
{
	const json_t *req, *cs;
	size_t i, j;

	json_array_foreach(json_object_get(r->requests, "requests"), i, req)
		json_array_foreach(json_object_get(req, "change_sets"), j, cs)
			if (json_is_string(json_object_get(cs, "undo_unit")) &&
			    strcmp(json_string_value(json_object_get(cs,
			    "undo_unit")), uu) == 0)
				return (long)json_integer_value(json_object_get(cs,
				    "max_retry"));
	return 0;
}

/* attempts: the failed attempts vertex v already had for uu. */
static long
attempts(const struct rgraph *g, size_t v, const char *uu)
{
	size_t k;

	for (k = g->v[v].first_att; k < g->v[v].first_att + g->v[v].natt; k++)
		if (strcmp(g->att[k].undo_unit, uu) == 0)
			return g->att[k].count;
	return 0;
}

/*
 * retries_left: may the resource of resource graph action x be tried
 * again after one more failed attempt in undo unit uu?  Not when the
 * action is not one of the graph's (no count to go by).
 */
static int
retries_left(const struct report *r, long x, const char *uu)
{
	return x >= 0 && uu != NULL &&
	    attempts(r->rg, r->rg_vertex[x], uu) + 1 <= max_retry(r, uu);
}

/*
 * judge_failure: a failed action of the resource graph.  Each counts
 * one failed attempt of its resource in its undo unit (rg-build counts
 * them), and past max-retry a change's action leaves the resource
 * isolated-only, and an undo operation's action failed (III.A: an
 * isolated resource that cannot reach its undo version).  Until then,
 * the undo is tried again (issue 41: every kind of action retries).
 */
static void
judge_failure(struct report *r, const json_t *action, int blocked)
{
	const char *id = json_string_value(json_object_get(action, "id"));
	const char *res = json_string_value(json_object_get(action, "resource"));
	const char *uu = json_string_value(json_object_get(action, "undo_unit"));
	long x = idmap_find(&r->rg_actions, id);

	if (x < 0 || res == NULL || retries_left(r, x, uu))
		return;
	if (r->rg_action[x]->change < 0) {
		if (!blocked)	/* an undo that never ran failed nothing */
			report_failed(r, res);
	}
	else
		add_once(r->isolated, &r->isolated_ids, res);
}

/*
 * undo_failed: an action whose resource-level undo failed leaves its
 * resource failed once max-retry is reached; before, the resource stays
 * out of service and its operation is tried again from the start.
 * Without the resource graph, rg-build decides from the results.
 */
static void
undo_failed(struct report *r, const json_t *action, const char *resource)
{
	const char *id = json_string_value(json_object_get(action, "id"));
	const char *uu = json_string_value(json_object_get(action, "undo_unit"));

	if (resource != NULL && r->rg != NULL &&
	    !retries_left(r, idmap_find(&r->rg_actions, id), uu))
		report_failed(r, resource);
}

/* failed_resource: what an undo-failed action leaves failed, or NULL. */
static const char *
failed_resource(const json_t *action)
{
	const char *op = json_string_value(json_object_get(action, "op"));

	if (op != NULL && strcmp(op, "migrate") == 0)
		return NULL;
	return json_string_value(json_object_get(action, "resource"));
}

/*
 * count_activation: a failed wrap-up action (an activation: no undo
 * unit, not a migration) counts against its resource.
 */
static void
count_activation(struct report *r, const json_t *action)
{
	const char *phase = json_string_value(json_object_get(action, "phase"));
	const char *resource = failed_resource(action);
	json_t *n;

	if (resource == NULL || phase == NULL || strcmp(phase, "wrap-up") != 0)
		return;
	n = json_object_get(r->activations, resource);
	json_object_set_new(r->activations, resource,
	    json_integer(json_integer_value(n) + 1));
}

void
report_action(struct report *r, const json_t *action, enum action_result res)
{
	const char *id = json_string_value(json_object_get(action, "id"));
	const char *uu = json_string_value(json_object_get(action, "undo_unit"));
	const char *rid = json_string_value(json_object_get(json_object_get(
	    action, "on_failure"), "id"));
	const char *was = json_string_value(json_object_get(r->other, id));

	if (uu == NULL && res == RESULT_FAILED &&
	    (was == NULL || strcmp(was, "failed") != 0))
		count_activation(r, action);
	json_object_set_new(uu != NULL ? r->results : r->other, id,
	    json_string(report_result_names[res]));
	/* A replacement runs only when its migration failed. */
	if (rid != NULL && json_object_get(r->other, rid) == NULL)
		report_step(r, rid, RESULT_NOT_RUN);
	if (res == RESULT_UNDO_FAILED)
		undo_failed(r, action, failed_resource(action));
	if (uu != NULL && (res == RESULT_FAILED || res == RESULT_UNDO_FAILED ||
	    res == RESULT_BLOCKED))
		add_once(r->units, &r->unit_ids, uu);
	if (uu != NULL && (res == RESULT_FAILED || res == RESULT_BLOCKED))
		judge_failure(r, action, res == RESULT_BLOCKED);
}

/* result_of: an action's result reported so far, or NULL. */
static const char *
result_of(const struct report *r, const char *id)
{
	const json_t *v = json_object_get(r->results, id);

	return json_string_value(v != NULL ? v : json_object_get(r->other, id));
}

char *
report_unmet(const struct report *r, const json_t *group, int *blocked)
{
	const json_t *v;
	const char *res;
	size_t i;

	*blocked = 0;
	json_array_foreach(json_object_get(group, "requires"), i, v) {
		res = result_of(r, json_string_value(v));
		if (res != NULL && strcmp(res, "succeeded") == 0)
			continue;
		*blocked = res != NULL && strcmp(res, "not-run") != 0;
		return sched_format("requires %s, which %s",
		    json_string_value(v), res == NULL ? "did not run" :
		    strcmp(res, "not-run") == 0 ? "was not run" :
		    strcmp(res, "undone") == 0 ? "was undone" :
		    strcmp(res, "undo-failed") == 0 ? "failed to undo" :
		    strcmp(res, "blocked") == 0 ? "was blocked" : "failed");
	}
	return NULL;
}

void
report_skip(struct report *r, const json_t *group, const char *reason,
    int blocked)
{
	const json_t *a;
	size_t i;

	json_array_foreach(json_object_get(group, "actions"), i, a) {
		report_action(r, a, blocked ? RESULT_BLOCKED : RESULT_NOT_RUN);
		json_object_set_new(r->skipped, json_string_value(
		    json_object_get(a, "id")), json_string(reason));
	}
}

void
report_step(struct report *r, const char *id, enum action_result res)
{
	json_object_set_new(r->other, id, json_string(report_result_names[res]));
}

void
report_unreachable(struct report *r, const char *host)
{
	add_once(r->unreachable, &r->host_ids, host);
}

void
report_failed(struct report *r, const char *resource)
{
	if (resource != NULL)
		add_once(r->failed, &r->failed_ids, resource);
}

/* isolated_only: drop from the isolated the resources that failed. */
static json_t *
isolated_only(const struct report *r)
{
	json_t *out = json_array(), *v;
	size_t i;

	json_array_foreach(r->isolated, i, v)
		if (idmap_find(&r->failed_ids, json_string_value(v)) < 0)
			json_array_append(out, v);
	return out;
}

static int
by_string(const void *a, const void *b)
{
	return strcmp(json_string_value(*(json_t *const *)a),
	    json_string_value(*(json_t *const *)b));
}

static json_t *
sorted(const json_t *list)
{
	size_t n = json_array_size(list), i;
	json_t **v = xcalloc(n, sizeof *v), *out = json_array();

	for (i = 0; i < n; i++)
		v[i] = json_array_get(list, i);
	qsort(v, n, sizeof *v, by_string);
	for (i = 0; i < n; i++)
		json_array_append(out, v[i]);
	free(v);
	return out;
}

json_t *
report_finish(struct report *r, long iteration, const char *time,
    const char *actuator)
{
	json_t *sec = json_object();

	json_object_set_new(sec, "iteration", json_integer(iteration));
	json_object_set_new(sec, "time", json_string(time));
	json_object_set_new(sec, "actuator", json_string(actuator));
	json_object_set(sec, "schedules", r->schedules);
	json_object_set(sec, "results", r->results);
	json_object_set(sec, "other_results", r->other);
	json_object_set(sec, "skipped", r->skipped);
	json_object_set(sec, "failed_resources", r->failed);
	json_object_set_new(sec, "isolated_resources", isolated_only(r));
	json_object_set(sec, "failed_undo_units", r->units);
	json_object_set_new(sec, "unreachable_hosts", sorted(r->unreachable));
	json_object_set(sec, "failed_activations", r->activations);
	return sec;
}

void
report_free(struct report *r)
{
	json_decref(r->schedules);
	json_decref(r->results);
	json_decref(r->other);
	json_decref(r->skipped);
	json_decref(r->failed);
	json_decref(r->isolated);
	json_decref(r->units);
	json_decref(r->unreachable);
	json_decref(r->activations);
	idmap_free(&r->failed_ids);
	idmap_free(&r->isolated_ids);
	idmap_free(&r->unit_ids);
	idmap_free(&r->host_ids);
	idmap_free(&r->rg_actions);
	free(r->rg_vertex);
	free(r->rg_action);
}
