/*
 * tell.c: what a person watching the loop sees: the groups an
 * iteration takes out of service, and after each actuator run a line
 * of progress (unless -q).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "exitcodes.h"
#include "loop.h"
#include "xalloc.h"

/* groups_down: the text of the groups the batch of doc takes down. */
static char *
groups_down(const json_t *doc)
{
	const json_t *final = json_object_get(json_object_get(doc, "batch"),
	    "final"), *g;
	size_t i, n = json_array_size(final);
	char *text = NULL, *more;
	const char *id;

	if (n == 0)
		return xstrdup("nothing");
	for (i = 0; i < n && i < 6; i++) {
		g = json_object_get(json_array_get(final, i), "group");
		id = json_is_string(g) ? json_string_value(g) : "";
		more = text == NULL ? xstrdup(id) : xasprintf("%s %s", text, id);
		free(text);
		text = more;
	}
	if (n > 6) {
		more = xasprintf("%s and %zu more", text, n - 6);
		free(text);
		text = more;
	}
	return text;
}

/*
 * went_down: the groups iteration n takes out of service (read once an
 * iteration: at 10,000 hosts the plan is 140 MB).
 */
const char *
went_down(struct loop *l, long n)
{
	static const char *const reads[] = { "batch", NULL };
	char *file;
	json_t *doc;

	if (l->down_iter == n && l->down_text != NULL)
		return l->down_text;
	file = iter_path(l, n, "4-migrations.json");
	doc = read_sections(file, reads);
	free(l->down_text);
	l->down_text = doc != NULL ? groups_down(doc) : xstrdup("unknown");
	l->down_iter = n;
	if (doc != NULL)
		done_reading(doc);
	free(file);
	return l->down_text;
}

/* actions_counted: VMs moved and actions failed, of the report's results. */
static void
actions_counted(const json_t *report, long *moved, long *failed)
{
	const char *parts[] = { "results", "other_results" }, *key, *v;
	const json_t *val;
	size_t i;

	*moved = *failed = 0;
	for (i = 0; i < 2; i++)
		json_object_foreach((json_t *)json_object_get(report, parts[i]),
		    key, val) {
			v = json_is_string(val) ? json_string_value(val) : "";
			if ((strstr(key, "/migrate:") || strstr(key,
			    "/evacuate:")) && strcmp(v, "succeeded") == 0)
				(*moved)++;
			if (strstr(v, "failed") || strstr(v, "undone") ||
			    strstr(v, "blocked"))
				(*failed)++;
		}
}

/* to_do: the vertices of the graph of file with actions to execute. */
static long
to_do(const char *file)
{
	static const char *const reads[] = { "resource_graph", NULL };
	json_t *doc = read_sections(file, reads);
	const json_t *v, *acts;
	size_t i;
	long n = 0;

	json_array_foreach(json_object_get(json_object_get(doc,
	    "resource_graph"), "vertices"), i, v) {
		acts = json_object_get(v, "actions_to_execute");
		n += json_array_size(acts) > 0;
	}
	if (doc != NULL)
		done_reading(doc);
	return n;
}

/*
 * time_left: at the pace of this iteration, the time the groups still
 * to go take: simulated for upkit-sim, else estimated from this
 * iteration's wall-clock time; -1 when nothing went down.
 */
static long
time_left(const struct loop *l, const json_t *doc, long todo,
    const char **how)
{
	const json_t *sim = json_object_get(json_object_get(doc, "report"),
	    "sim");
	double took = (double)l->step_secs, rounds;
	size_t down = json_array_size(json_object_get(json_object_get(doc,
	    "batch"), "final"));

	*how = "estimated";
	if (sim != NULL && !json_is_null(sim) && !json_is_false(sim)) {
		took = (json_number_value(json_object_get(sim, "clock_ms")) -
		    json_number_value(json_object_get(sim,
		    "iteration_start_ms"))) / 1000;
		*how = "simulated";
	}
	if (down == 0)
		return -1;
	rounds = (double)todo / (double)down - 1;
	rounds = rounds < 0 ? 0 : ceil(rounds);
	return (long)floor(rounds * took);
}

/* tell_progress: iteration n's line: what went down, VMs moved, failed
 * actions, and the time left. */
void
tell_progress(struct loop *l, long n)
{
	static const char *const reads[] = { "report", "batch", NULL };
	char *report, *rg, *left, *clock;
	const char *how;
	long moved, failed, secs, todo;
	json_t *doc;

	if (l->o->quiet)
		return;
	report = iter_path(l, n, "5-report.json");
	rg = iter_path(l, n, "1-rg.json");
	todo = to_do(rg);
	if ((doc = read_sections(report, reads)) == NULL)
		die(EXIT_SOFTWARE, "%s: cannot read the report", report);
	actions_counted(json_object_get(doc, "report"), &moved, &failed);
	secs = time_left(l, doc, todo, &how);
	done_reading(doc);
	if (secs < 0) {
		left = xstrdup("time left unknown");
	} else {
		clock = clock_text(secs);
		left = xasprintf("about %s left (%s)", clock, how);
		free(clock);
	}
	say(l, "iteration %ld: down: %s; %ld VM(s) moved, %ld action(s) "
	    "failed; %s", n, went_down(l, n), moved, failed, left);
	free(left);
	free(rg);
	free(report);
}
