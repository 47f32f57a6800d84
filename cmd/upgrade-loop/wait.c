/*
 * wait.c: waiting for failed hosts to come back.  When an iteration
 * would suspend while the system says some resources are down (an
 * outage: is_down in the resource graph), the loop may wait for their
 * repair instead (upgrade-loop(1), -w): it runs the actuator on the
 * plan that holds no action, after WAIT_STEP seconds, and plans again
 * from the system it then reports.  It waits at most -w seconds in all,
 * and never past the deadline of a change set still open (its request's
 * time plus its max_completion_period), where rg-build would undo it.
 * Each waiting iteration keeps its seconds in iter-N/5-wait, so that a
 * resumed loop knows what it already waited.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "loop.h"
#include "timefmt.h"
#include "xalloc.h"

/* waited: the seconds the iterations before n waited (their 5-wait). */
static long
waited(const struct loop *l, long n)
{
	long k, total = 0;

	for (k = 1; k < n; k++)
		total += wait_marked(l, k);
	return total;
}

/* down_ids: the resources iteration n's graph has down, "a, b", or "". */
static char *
down_ids(const json_t *rg)
{
	char *text = xstrdup(""), *more;
	const json_t *v;
	size_t i;

	json_array_foreach(json_object_get(rg, "vertices"), i, v) {
		if (!json_is_true(json_object_get(v, "is_down")))
			continue;
		more = xasprintf("%s%s%s", text, *text ? ", " : "",
		    json_string_value(json_object_get(v, "id")));
		free(text);
		text = more;
	}
	return text;
}

/* open_set: a change set that is neither completed nor failed. */
static int
open_set(const json_t *cs)
{
	const char *st = json_string_value(json_object_get(cs, "status"));

	return st == NULL || (strcmp(st, "completed") != 0 &&
	    strcmp(st, "failed") != 0);
}

/*
 * room_before_deadline: the graph's time (its last report's, else the
 * earliest request's) plus secs is before every open change set's
 * deadline.
 */
static int
room_before_deadline(const json_t *doc, long secs)
{
	const json_t *reqs = json_object_get(json_object_get(doc, "requests"),
	    "requests"), *r, *cs, *period;
	const char *now_text = json_string_value(json_object_get(
	    json_object_get(doc, "resource_graph"), "time"));
	int64_t now = INT64_MAX, t;
	size_t i, j;
	int room = 1;

	json_array_foreach(reqs, i, r)
		if (time_parse(json_string_value(json_object_get(r, "time")),
		    &t) == 0 && t < now)
			now = t;
	if (now_text != NULL && time_parse(now_text, &t) == 0)
		now = t;
	json_array_foreach(reqs, i, r) {
		if (time_parse(json_string_value(json_object_get(r, "time")),
		    &t) < 0)
			continue;
		json_array_foreach(json_object_get(r, "change_sets"), j, cs) {
			period = json_object_get(cs, "max_completion_period");
			if (open_set(cs) && json_is_integer(period) &&
			    now + secs > t + json_integer_value(period))
				room = 0;
		}
	}
	return room;
}

long
wait_for_repair(struct loop *l, long n)
{
	static const char *const reads[] = { "requests", "resource_graph",
		NULL };
	char *file, *down;
	json_t *doc;
	long before, secs = WAIT_STEP;

	if (l->o->wait <= 0 || (!l->sim && l->o->refresh == NULL))
		return 0;
	before = waited(l, n);
	if (before + secs > l->o->wait)
		secs = l->o->wait - before;
	if (secs <= 0)
		return 0;
	file = iter_path(l, n, "1-rg.json");
	doc = read_sections(file, reads);
	free(file);
	if (doc == NULL)
		return 0;
	down = down_ids(json_object_get(doc, "resource_graph"));
	if (*down == '\0' || !room_before_deadline(doc, secs))
		secs = 0;
	else
		say(l, "iteration %ld: nothing can go while %s %s down: "
		    "waiting %ld s for a repair (%ld s of %ld waited)", n, down,
		    strchr(down, ',') ? "are" : "is", secs, before, l->o->wait);
	free(down);
	done_reading(doc);
	return secs;
}

void
wait_mark(struct loop *l, long n, long secs)
{
	char *file = iter_path(l, n, "5-wait"), *text;

	text = xasprintf("%ld\n", secs);
	write_text_atomically(file, text);
	free(text);
	free(file);
}

long
wait_marked(const struct loop *l, long n)
{
	char *file = iter_path(l, n, "5-wait"), *text = read_text(file, NULL);
	long secs = text != NULL ? strtol(text, NULL, 10) : 0;

	free(text);
	free(file);
	return secs;
}
