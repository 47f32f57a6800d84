/*
 * tell.c: what a person watching the loop sees: the groups an
 * iteration takes out of service, and after each actuator run a line
 * of progress (unless -q).
 */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "diag.h"
#include "exitcodes.h"
#include "loop.h"
#include "report.h"
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

void
report_tally(const json_t *report, struct tally *t)
{
	const char *parts[] = { "results", "other_results" }, *key, *v;
	const json_t *val;
	size_t i, r;

	for (i = 0; i < 2; i++)
		json_object_foreach((json_t *)json_object_get(report, parts[i]),
		    key, val) {
			v = json_is_string(val) ? json_string_value(val) : "";
			if ((strstr(key, "/migrate:") || strstr(key,
			    "/evacuate:")) && strcmp(v, "succeeded") == 0)
				t->moved++;
			for (r = 0; report_result_names[r] != NULL &&
			    strcmp(v, report_result_names[r]) != 0; r++)
				;
			if (strchr(key, '~') != NULL)
				t->steps_failed += strcmp(v, "failed") == 0;
			else if (r < TALLY_RESULTS)
				t->actions[r]++;
		}
	if (json_is_string(json_object_get(report, "time")))
		t->last_time = json_string_value(json_object_get(report,
		    "time"));
}

/*
 * The work of an action: its duration in the catalog (the vendor's
 * estimate, in seconds), 1 when it has none.
 */
static double
work_of(const json_t *action)
{
	double d = json_number_value(json_object_get(action, "duration"));

	return d > 0 ? d : 1;
}

/*
 * work_left: of the actions the graph of file still has to execute,
 * the work in all and the work of those that succeeded in results.
 */
static void
work_left(const char *file, const json_t *results, double *all,
    double *done)
{
	static const char *const reads[] = { "resource_graph", NULL };
	json_t *doc = read_sections(file, reads);
	const json_t *v, *unit, *a;
	const char *id, *r;
	size_t i, k, j;

	*all = *done = 0;
	json_array_foreach(json_object_get(json_object_get(doc,
	    "resource_graph"), "vertices"), i, v)
		json_array_foreach(json_object_get(v, "actions_to_execute"), k,
		    unit)
			json_array_foreach(json_object_get(unit, "actions"), j,
			    a) {
				*all += work_of(a);
				id = json_string_value(json_object_get(a, "id"));
				r = id != NULL ? json_string_value(
				    json_object_get(results, id)) : NULL;
				if (r != NULL && strcmp(r, "succeeded") == 0)
					*done += work_of(a);
			}
	if (doc != NULL)
		done_reading(doc);
}

/*
 * time_left: the time the work still to do takes at the pace of the
 * iterations this loop ran so far, all together: the work they did
 * (catalog seconds of the actions that succeeded) over the time they
 * took, simulated for upkit-sim, else the actuator's wall time; -1
 * while no work is done.  An iteration's own pace swings with what it
 * holds (a batch of switches, one of storage hosts); the pace of all
 * so far changes less with each, and in a run whose iterations do
 * equal work in equal time the estimate is exact.
 */
static long
time_left(struct loop *l, const json_t *report, const char *rg,
    const char **how)
{
	const json_t *sim = json_object_get(report, "sim");
	double took = l->step_secs, all, done;

	*how = "estimated";
	if (sim != NULL && !json_is_null(sim) && !json_is_false(sim)) {
		took = (json_number_value(json_object_get(sim, "clock_ms")) -
		    json_number_value(json_object_get(sim,
		    "iteration_start_ms"))) / 1000;
		*how = "simulated";
	}
	work_left(rg, json_object_get(report, "results"), &all, &done);
	l->paced_work += done;
	l->paced_secs += took;
	if (l->paced_work <= 0)
		return -1;
	return lround((all - done) * l->paced_secs / l->paced_work);
}

/* tell_progress: iteration n's line: what went down, VMs moved, failed
 * actions, and the time left. */
void
tell_progress(struct loop *l, long n)
{
	static const char *const reads[] = { "report", NULL };
	char *report, *rg, *left, *clock;
	const char *how;
	struct tally t = { 0 };
	long failed, secs;
	json_t *doc;

	if (l->o->quiet)
		return;
	report = iter_path(l, n, "5-report.json");
	rg = iter_path(l, n, "1-rg.json");
	if ((doc = read_sections(report, reads)) == NULL)
		diag_fatal_whole(EXIT_SOFTWARE, "%s: cannot read the report",
		    report);
	report_tally(json_object_get(doc, "report"), &t);
	failed = t.actions[RESULT_FAILED] + t.actions[RESULT_UNDONE] +
	    t.actions[RESULT_UNDO_FAILED] + t.actions[RESULT_BLOCKED] +
	    t.steps_failed;
	secs = time_left(l, json_object_get(doc, "report"), rg, &how);
	done_reading(doc);
	if (secs < 0) {
		left = xstrdup("time left unknown");
	} else {
		clock = clock_text(secs);
		left = xasprintf("about %s left (%s)", clock, how);
		free(clock);
	}
	say(l, "iteration %ld: down: %s; %ld VM(s) moved, %ld action(s) "
	    "failed; %s", n, went_down(l, n), t.moved, failed, left);
	free(left);
	free(rg);
	free(report);
}

void
say(const struct loop *l, const char *fmt, ...)
{
	va_list ap;

	if (l->o->quiet)
		return;
	va_start(ap, fmt);
	diag_vnote_whole(fmt, ap);
	va_end(ap);
}

void
end_freeing(int status, char *msg)
{
	diag_note_whole("%s", msg);
	free(msg);
	exit(status);
}

char *
clock_text(long secs)
{
	return xasprintf("%ld:%02ld:%02ld", secs / 3600, secs % 3600 / 60,
	    secs % 60);
}
