/*
 * summarize.c: the section V summary of a loop run (summary.json and
 * summary.txt), with the loop's outcome and, unless done, its reason
 * and the advice that goes with it; printed on standard output unless
 * -q.
 *
 * The measures are those of the last report.  When this process ran
 * the simulator that wrote it, the simulator wrote them beside it
 * (upkit-sim --summary-file, iter-N/5-summary.json); else upkit-sim
 * --summary reads them of the document.  Another actuator's reports
 * have no such measures: the summary then says what they say ran.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "diag.h"
#include "jwriter.h"
#include "exitcodes.h"
#include "loop.h"
#include "report.h"
#include "summary_table.h"
#include "xalloc.h"

/*
 * The temporary hosts of the upgrade (added with a release action,
 * rg-build(1)) and what they cost: a host counts from the start of its
 * first action to the end of its release, or to the last report while
 * it stays: by upkit-sim's step times, else by the reports' times (from
 * the report before the iteration that created it to the report of the
 * iteration that gave it back).  Left to jq: most upgrades add no
 * temporary host, and this runs once, at the end.
 */
static const char hosts_program[] =
    "[.system.resources[].id] as $there"
    " | [.requests.requests[]? | .id as $r | .change_sets[]"
    " | .id as $s | .changes[] | select(.release != null and .system != null)"
    " | .system.resources[] | select(.kind == \"host\")"
    " | {id, unit: \"\\($r)/\\($s).\", back: \"\\($r)-\\($s)-release\","
    " gone: (. as $h | $there | index($h.id) == null)}]";
static const char cost_program[] =
    /* per report: its time, the actions that succeeded, and the
       simulator's steps when it ran */
    "[inputs | .report | {t: (.time | fromdateiso8601? // null),"
    " ok: [(.results // {}) | to_entries[]"
    " | select(.value == \"succeeded\") | .key],"
    " steps: (.sim.steps // null), now: (.sim.clock_ms // null)}] as $it"
    " | ($it | length) as $n"
    /* a release is R-S-release/release.N:HOST:K, or a later try of it,
       R-S-release-2/release... */
    " | def on($p; $h): startswith($p) and contains(\":\\($h):\");"
    " def its($p; $h): [range($n) | select(any($it[.].ok[]; on($p; $h)))];"
    " def ms($h): [$it[].steps // empty | .[] | select(.id | on($h.unit; $h.id))"
    " | .start_ms] | min;"
    " def back_ms($h): [$it[].steps // empty | .[] | select((.id | on($h.back; $h.id))"
    " and .result == \"succeeded\") | .end_ms] | max;"
    " [$hosts[] | . as $h"
    " | (its($h.unit; $h.id) | first) as $in"
    " | (its($h.back; $h.id) | last) as $out"
    " | {id: $h.id, released: ($h.gone and $in != null),"
    " hours: (if $in == null then null"
    " elif any($it[]; .steps != null) then"
    " ((back_ms($h) // ([$it[].now] | max)) - ms($h)) / 3600000"
    " elif $it[$in - 1].t? != null and $in > 0 then"
    " ((($it[$out // ($n - 1)].t) - $it[$in - 1].t) / 3600)"
    " else null end"
    " | if . == null then null else . * 100 | round / 100 end)}]"
    " | {hosts: length, released: ([.[] | select(.released)] | length),"
    " host_hours: (if any(.[]; .hours == null) then null"
    " else ([.[].hours] | add * 100 | round / 100) end),"
    " each: .}";

/*
 * may_release: a request of the upgrade (inputs/request-*, added-*) may
 * have a release action: it says "release", or holds an escape (in JSON
 * or YAML) that could spell it.  The requests are a few kilobytes; the
 * last document is megabytes.
 */
static int
may_release(const struct loop *l)
{
	struct args files = { 0 };
	char *inputs = xasprintf("%s/inputs", l->dir), *text;
	size_t i;
	int may = 0;

	names_with_prefix(inputs, "request-", &files);
	names_with_prefix(inputs, "added-", &files);
	for (i = 0; !may && i < files.n; i++) {
		text = read_text(files.v[i], NULL);
		may = text == NULL || strstr(text, "release") != NULL ||
		    strchr(text, '\\') != NULL;
		free(text);
	}
	args_free(&files);
	free(inputs);
	return may;
}

/* temporary_cost: the temporary hosts' cost, or NULL when none. */
static json_t *
temporary_cost(struct loop *l, const char *last)
{
	char *text, *hosts = NULL, *cost = NULL;
	struct args argv = { 0 }, reports = { 0 };
	json_t *t = NULL;

	if (!may_release(l))
		return NULL;
	/* no "release" key, nor an escape that could spell one: none */
	text = read_text(last, NULL);
	if (text == NULL || (strstr(text, "\"release\"") == NULL &&
	    strstr(text, "\\u") == NULL)) {
		free(text);
		return NULL;
	}
	free(text);
	args_of(&argv, "jq", "-c", hosts_program, last, (char *)NULL);
	if (capture(l, argv.v, &hosts) == 0 && strcmp(hosts, "[]\n") != 0) {
		iteration_reports(l, &reports);
		hosts[strcspn(hosts, "\n")] = '\0';
		args_free(&argv);
		args_add(&argv, "jq");
		args_add(&argv, "-n");
		args_add(&argv, "-c");
		args_add(&argv, "--argjson");
		args_add(&argv, "hosts");
		args_add(&argv, hosts);
		args_add(&argv, cost_program);
		args_add_all(&argv, &reports);
		if (capture(l, argv.v, &cost) == 0)
			t = json_loads(cost, JSON_DECODE_ANY, NULL);
	}
	args_free(&argv);
	args_free(&reports);
	free(cost);
	free(hosts);
	return t;
}

/* measures: the summary of the last report, or NULL when it has none. */
static json_t *
measures(struct loop *l, long summary_iter, const char *last)
{
	struct args argv = { 0 };
	char *file, *out;
	json_t *sum = NULL;

	if (l->sim && summary_iter > 0 && summary_iter == l->acted) {
		file = iter_path(l, summary_iter, "5-summary.json");
		sum = json_load_file(file, 0, NULL);
		free(file);
		if (sum != NULL)
			return sum;
	}
	args_of(&argv, "upkit-sim", "--summary", last, (char *)NULL);
	if (capture_quietly(l, argv.v, &out) == 0)
		sum = json_loads(out, 0, NULL);
	args_free(&argv);
	free(out);
	return sum;
}

/*
 * reports_tally: with an actuator other than the simulator, what its
 * reports say ran, over every iteration (summary.json's "reports"):
 * {actuator, iterations, last_time, actions: {RESULT: count...},
 * vm_moves}; NULL when no iteration has a report.
 */
static json_t *
reports_tally(const struct loop *l)
{
	static const char *const reads[] = { "report", NULL };
	struct tally t = { 0 };
	struct args files = { 0 };
	json_t *doc, *out = NULL, *by;
	char *actuator = NULL, *last = NULL;
	const char *a;
	long k = 0;
	size_t r, i;

	iteration_reports(l, &files);
	for (i = 0; i < files.n; i++)
		if ((doc = read_sections(files.v[i], reads)) != NULL) {
			t.last_time = NULL;
			report_tally(json_object_get(doc, "report"), &t);
			free(last);
			last = t.last_time != NULL ? xstrdup(t.last_time) : NULL;
			a = json_string_value(json_object_get(json_object_get(doc,
			    "report"), "actuator"));
			free(actuator);
			actuator = xstrdup(a != NULL ? a : "unknown");
			done_reading(doc);
			k++;
		}
	args_free(&files);
	if (k > 0) {
		by = json_object();
		for (r = 0; r < TALLY_RESULTS; r++)
			json_object_set_new(by, report_result_names[r],
			    json_integer(t.actions[r]));
		out = json_pack("{s:s,s:I,s:s?,s:o,s:I}", "actuator", actuator,
		    "iterations", (json_int_t)k, "last_time", last, "actions",
		    by, "vm_moves", (json_int_t)t.moved);
	}
	free(actuator);
	free(last);
	return out;
}

/* reports_line: summary.txt's line of what the reports say. */
static void
reports_line(FILE *fp, const json_t *rep)
{
	const json_t *by = json_object_get(rep, "actions");
	json_int_t c;
	size_t r;

	if (rep == NULL) {
		fputs("no actuator report: nothing ran\n", fp);
		return;
	}
	fprintf(fp, "%s reports of %" JSON_INTEGER_FORMAT " iteration(s)",
	    json_string_value(json_object_get(rep, "actuator")),
	    json_integer_value(json_object_get(rep, "iterations")));
	if (json_is_string(json_object_get(rep, "last_time")))
		fprintf(fp, ", the last at %s", json_string_value(
		    json_object_get(rep, "last_time")));
	fputs(": actions", fp);
	for (r = 0; r < TALLY_RESULTS; r++) {
		c = json_integer_value(json_object_get(by,
		    report_result_names[r]));
		if (c > 0 || r <= RESULT_FAILED)
			fprintf(fp, "%s %" JSON_INTEGER_FORMAT " %s", r > 0 ?
			    "," : "", c, report_result_names[r]);
	}
	fprintf(fp, "; %" JSON_INTEGER_FORMAT " VM(s) moved\n",
	    json_integer_value(json_object_get(rep, "vm_moves")));
}

/* table_text: summary.txt, but for its outcome line. */
static char *
table_text(const json_t *sum, const json_t *rep, const json_t *temp)
{
	char *text = NULL;
	size_t len = 0;
	FILE *fp = open_memstream(&text, &len);
	const json_t *hh;
	char num[40];

	if (fp == NULL)
		diag_fatal_whole(EXIT_OSERR, "out of memory");
	if (sum != NULL)
		summary_table(fp, sum, 1);
	else
		reports_line(fp, rep);
	if (temp != NULL) {
		fprintf(fp, "temporary hosts: %" JSON_INTEGER_FORMAT " added, %"
		    JSON_INTEGER_FORMAT " given back, ",
		    json_integer_value(json_object_get(temp, "hosts")),
		    json_integer_value(json_object_get(temp, "released")));
		hh = json_object_get(temp, "host_hours");
		if (json_is_number(hh))
			fwrite(num, 1, jw_jq_real(json_number_value(hh), num,
			    sizeof num), fp);
		else
			fputs("unknown (no simulated times)", fp);
		fputs(" host-hours\n", fp);
	}
	fclose(fp);
	return text;
}

/* write_summary: the two files, each replaced at once. */
static void
write_summary(const struct loop *l, const json_t *sum, const char *txt)
{
	char *json = NULL, *path;
	size_t len = 0;
	FILE *fp = open_memstream(&json, &len);
	struct jwriter *w = xmalloc(sizeof *w);

	if (fp == NULL)
		diag_fatal_whole(EXIT_OSERR, "out of memory");
	jw_init(w, fp, 0);
	jw_fresh(w);
	jw_jq(w);
	jw_value(w, sum);
	if (jw_finish(w) != 0 || fclose(fp) != 0)
		diag_fatal_whole(EXIT_OSERR, "out of memory");
	free(w);
	path = xasprintf("%s/summary.json", l->dir);
	write_text_atomically(path, json);
	free(path);
	path = xasprintf("%s/summary.txt", l->dir);
	write_text_atomically(path, txt);
	free(path);
	free(json);
}

void
summarize(struct loop *l, long summary_iter, const char *last,
    const char *outcome, long count, const char *reason,
    const json_t *more)
{
	json_t *sum = measures(l, summary_iter, last), *temp, *out,
	    *rep = NULL;
	char *table, *txt;

	out = sum != NULL ? json_incref(sum) :
	    json_pack("{s:I}", "iterations", (json_int_t)count);
	if (sum == NULL && (rep = reports_tally(l)) != NULL)
		json_object_set(out, "reports", rep);
	temp = temporary_cost(l, last);
	json_object_set_new(out, "outcome", json_string(outcome));
	if (reason != NULL && *reason != '\0')
		json_object_set_new(out, "reason", json_string(reason));
	if (more != NULL)
		json_object_update(out, (json_t *)more);
	if (temp != NULL)
		json_object_set(out, "temporary", temp);
	table = table_text(sum, rep, temp);
	txt = xasprintf("%soutcome: %s%s%s\n", table, outcome,
	    reason != NULL && *reason ? ": " : "", reason ? reason : "");
	write_summary(l, out, txt);
	if (!l->o->quiet) {
		if (strcmp(outcome, "done") == 0)
			printf("upgrade done after %ld iteration(s); state in "
			    "%s\n", count, l->dir);
		else
			printf("upgrade %s after %ld iteration(s), not over; "
			    "state in %s\nmeasures so far:\n", outcome, count,
			    l->dir);
		fputs(txt, stdout);
		fflush(stdout);
	}
	free(txt);
	free(table);
	json_decref(temp);
	json_decref(rep);
	json_decref(out);
	json_decref(sum);
}
