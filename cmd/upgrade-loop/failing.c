/*
 * failing.c: for each failed or isolated resource of a finished
 * upgrade, the action that failed it last (issue 41: the failed
 * resources are listed with "their failing action and attempts").
 * The reports are read back from the last iteration down, and only
 * until every resource is found: a failed action (failed or
 * undo-failed) of the resource, else one that was blocked by what it
 * required.  A resource out of play only because it is grouped with a
 * failed one (the hypervisor of a failed host) may have none.
 */
#include <stdlib.h>
#include <string.h>

#include "loop.h"

/* wanted: the ids of failed that have no failing_action yet, as an
 * object from id to its entry in failed. */
static json_t *
wanted(json_t *failed)
{
	json_t *want = json_object(), *f;
	size_t i;

	json_array_foreach(failed, i, f)
		if (json_object_get(f, "failing_action") == NULL &&
		    json_is_string(json_object_get(f, "id")))
			json_object_set(want, json_string_value(
			    json_object_get(f, "id")), f);
	return want;
}

/* map_schedule: action id -> resource, for the wanted resources. */
static void
map_schedule(const json_t *sched, const json_t *want, json_t *map)
{
	const json_t *stage, *group, *act;
	const char *res;
	size_t i, j, k;

	json_array_foreach(json_object_get(sched, "stages"), i, stage)
		json_array_foreach(json_object_get(stage, "groups"), j, group)
			json_array_foreach(json_object_get(group, "actions"), k,
			    act) {
				res = json_string_value(json_object_get(act,
				    "resource"));
				if (res != NULL && json_object_get(want, res))
					json_object_set(map, json_string_value(
					    json_object_get(act, "id")),
					    json_object_get(act, "resource"));
			}
}

static int
failing(const char *result, int pass)
{
	if (result == NULL)
		return 0;
	if (pass == 0)
		return strcmp(result, "failed") == 0 ||
		    strcmp(result, "undo-failed") == 0;
	return strcmp(result, "blocked") == 0;
}

/* note_failures: the results of one report, in two passes (failed
 * first, then blocked), into the entries of the wanted resources. */
static void
note_failures(const json_t *report, const json_t *map, json_t *want,
    long iteration)
{
	static const char *const maps[] = { "results", "other_results", NULL };
	const char *id, *res;
	json_t *result, *f;
	int pass, m;

	for (pass = 0; pass < 2; pass++)
		for (m = 0; maps[m] != NULL; m++)
			json_object_foreach(json_object_get(report, maps[m]), id,
			    result) {
				res = json_string_value(json_object_get(map, id));
				if (res == NULL || !failing(json_string_value(
				    result), pass) ||
				    (f = json_object_get(want, res)) == NULL)
					continue;
				json_object_set_new(f, "failing_action",
				    json_pack("{s:I, s:s, s:O}", "iteration",
				    (json_int_t)iteration, "action", id, "result",
				    result));
				json_object_del(want, res);
			}
}

/* one_report: iteration k's report, if it has one. */
static void
one_report(const struct loop *l, long k, json_t *want)
{
	static const char *const reads[] = { "schedule", "migrations",
		"report", NULL };
	char *file = iter_path(l, k, "5-report.json");
	json_t *doc = is_file(file) ? read_sections(file, reads) : NULL;
	json_t *map = json_object();
	const json_t *sub;
	size_t i;

	if (doc != NULL) {
		map_schedule(json_object_get(doc, "schedule"), want, map);
		json_array_foreach(json_object_get(json_object_get(doc,
		    "migrations"), "sub_iterations"), i, sub)
			map_schedule(json_object_get(sub, "schedule"), want, map);
		note_failures(json_object_get(doc, "report"), map, want, k);
		done_reading(doc);
	}
	json_decref(map);
	free(file);
}

void
add_failing_actions(const struct loop *l, long n, json_t *failed)
{
	json_t *want = wanted(failed);
	long k;

	for (k = n; k >= 1 && json_object_size(want) > 0; k--)
		one_report(l, k, want);
	json_decref(want);
}
