/*
 * html.c: the picture as one HTML page: a style sheet, inline SVG and
 * tables, no script and nothing fetched, so that it opens offline.
 * Every string from the input goes through html_text(), which escapes
 * what HTML and SVG give meaning to, in text and in attribute values.
 */
#include <string.h>

#include "picture.h"
#include "show.h"

static const char style[] =
    "body{font:14px/1.45 sans-serif;margin:16px 24px;color:#222;"
    "max-width:1240px}\n"
    "h1{font-size:21px}h2{font-size:17px;margin-top:28px}\n"
    "table{border-collapse:collapse;margin-top:10px}\n"
    "td,th{border:1px solid #ccc;padding:3px 7px;vertical-align:top;"
    "text-align:left}\n"
    "th{background:#f2f2f2}td.n{text-align:right}\n"
    "svg{display:block;margin:6px 0}svg text{font:11px sans-serif;"
    "fill:#222}\n"
    ".band{fill:#f3f5f8}.band.odd{fill:#e8ecf2}.tick{stroke:#d8d8d8}\n"
    ".lane-bg.odd{fill:#fafafa}.lane-bg{fill:#fff}\n"
    ".lane.failed .name{fill:#b00;font-weight:bold}.verdict{fill:#b00}\n"
    ".mark{stroke:none}.prerequisite{fill:#e59f3c}.upgrade{fill:#3a72c4}\n"
    ".wrap-up{fill:#4da35a}.migration{fill:#8e5bb5}.undo{fill:#8a8a8a}\n"
    ".mark.failed,.mark.undo-failed{fill:#d23b32}"
    ".mark.undone{fill-opacity:.4}\n"
    ".mark.blocked,.mark.not-run{fill:#fff;stroke:#777;"
    "stroke-dasharray:2 1}\n"
    ".x{stroke:#900;stroke-width:2;fill:none}.retry{fill:#fff;"
    "stroke:#111;stroke-width:1.5}\n"
    ".out{fill:#e59f3c}.app-out{fill:#d23b32}.allowed{stroke:#2a7a2a;"
    "stroke-width:1.5;stroke-dasharray:5 3;fill:none}.base{stroke:#999}\n"
    ".taken{fill:#3a72c4}.wait{fill:#bbb}.wait.odd{fill:#888}\n"
    "figure{margin:10px 0}figcaption{font-size:13px}\n"
    ".outcome b{font-size:15px}.legend rect{stroke:#777}\n";

/* html_text: s with &, <, >, " and ' escaped, control characters as U+FFFD. */
void
html_text(FILE *out, const char *s)
{
	const unsigned char *p;

	for (p = (const unsigned char *)s; *p != '\0'; p++) {
		switch (*p) {
		case '&': fputs("&amp;", out); break;
		case '<': fputs("&lt;", out); break;
		case '>': fputs("&gt;", out); break;
		case '"': fputs("&quot;", out); break;
		case '\'': fputs("&#39;", out); break;
		default:
			if ((*p < 0x20 && *p != '\t' && *p != '\n') || *p == 0x7f)
				fputs("\xef\xbf\xbd", out);
			else
				fputc(*p, out);
		}
	}
}

/* ids_text: up to most ids of a list, then how many more. */
static void
ids_text(FILE *out, const json_t *ids, size_t most)
{
	size_t i, n = json_array_size(ids);

	for (i = 0; i < n && i < most; i++) {
		fputs(i > 0 ? ", " : "", out);
		html_text(out, json_string_value(json_array_get(ids, i)));
	}
	if (n > most)
		fprintf(out, " and %zu more", n - most);
}

static void
write_outcome(const struct picture *pic, FILE *out)
{
	const char *outcome = json_string_value(json_object_get(pic->summary,
	    "outcome"));
	const char *reason = json_string_value(json_object_get(pic->summary,
	    "reason"));
	size_t ran, i;

	fputs("<p class=\"outcome\" id=\"outcome\">Outcome: <b>", out);
	html_text(out, outcome != NULL ? outcome : "not over");
	fputs("</b>", out);
	if (reason != NULL) {
		fputs(": ", out);
		html_text(out, reason);
	} else if (outcome == NULL) {
		fputs(" (no summary.json: the loop has not ended)", out);
	}
	for (ran = 0, i = 0; i < pic->niterations; i++)
		ran += pic->iterations[i].ran;
	fprintf(out, ".</p>\n<p>%zu iteration%s ran", ran, ran == 1 ? "" : "s");
	if (ran < pic->niterations)
		fprintf(out, ", %zu more %s planned", pic->niterations - ran,
		    pic->niterations - ran == 1 ? "was" : "were");
	fprintf(out, "; %zu lane%s (hosts, switches, routers, storage), %zu "
	    "tenant%s.  ", pic->lanes.count, pic->lanes.count == 1 ? "" : "s",
	    pic->tenants.count, pic->tenants.count == 1 ? "" : "s");
	if (pic->any_measured)
		fputs("Times are upkit-sim's, on its simulated clock from the "
		    "upgrade's start.", out);
	if (pic->any_estimated)
		fputs("Times are estimates: the actuator's report says what "
		    "ended how, not when, so each action is placed as its "
		    "schedule runs it with the catalog's duration, and "
		    "iterations follow one another.", out);
	fputs("</p>\n", out);
}

static void
write_results(const struct iteration *it, FILE *out)
{
	const char *sep = "";
	int r;

	for (r = 0; r < RESULT_COUNT; r++)
		if (it->results[r] > 0) {
			fprintf(out, "%s%ld %s", sep, it->results[r],
			    result_name((enum result)r));
			sep = ", ";
		}
}

static void
write_waits(const struct iteration *it, FILE *out)
{
	const char *rule;
	const json_t *bucket, *groups;

	json_object_foreach((json_t *)it->waits, rule, bucket) {
		groups = json_object_get(bucket, "groups");
		fprintf(out, "<p><b>%zu</b> by <i>", json_array_size(groups));
		html_text(out, rule);
		fputs("</i> (", out);
		html_text(out, rule_words(rule));
		fputs("): ", out);
		ids_text(out, groups, 12);
		fputs("; for example: ", out);
		html_text(out, json_string_value(json_object_get(bucket,
		    "reason")));
		fputs("</p>", out);
	}
}

/* clock_text: milliseconds on the clock as h:mm:ss. */
void
clock_text(FILE *out, int64_t ms)
{
	int64_t s = ms / 1000;

	fprintf(out, "%lld:%02lld:%02lld", (long long)(s / 3600),
	    (long long)(s / 60 % 60), (long long)(s % 60));
}

static void
write_row(const struct iteration *it, FILE *out)
{
	fprintf(out, "<tr id=\"iteration-%ld\" class=\"%s\"><td class=\"n\">"
	    "%ld</td><td>", it->number, it->ran ? "ran" : "planned",
	    it->number);
	if (it->ran) {
		clock_text(out, it->start);
		fputs(" to ", out);
		clock_text(out, it->end);
		if (it->time != NULL) {
			fputs("<br>report: ", out);
			html_text(out, it->time);
		}
	} else {
		fputs("planned, not run", out);
	}
	fputs("</td><td>", out);
	html_text(out, it->status);
	fprintf(out, ": %zu group%s", json_array_size(it->taken),
	    json_array_size(it->taken) == 1 ? "" : "s");
	if (json_array_size(it->taken) > 0)
		fputs("<br>", out);
	ids_text(out, it->taken, 30);
	fprintf(out, "</td><td class=\"n\">%ld</td><td>", it->moved);
	write_results(it, out);
	fputs("</td><td>", out);
	write_waits(it, out);
	if (it->note != NULL) {
		fputs("<p>", out);
		html_text(out, it->note);
		fputs("</p>", out);
	}
	fputs("</td></tr>\n", out);
}

static void
write_table(const struct picture *pic, FILE *out)
{
	size_t i;

	fputs("<table id=\"iterations\">\n<tr><th>iteration</th><th>when"
	    "</th><th>batch: taken out of service</th><th>VMs moved</th>"
	    "<th>actions</th><th>what waited, and why</th></tr>\n", out);
	for (i = 0; i < pic->niterations; i++)
		write_row(&pic->iterations[i], out);
	fputs("</table>\n", out);
}

/* html_write: the whole page; 0, or -1 when out could not be written. */
int
html_write(const struct picture *pic, FILE *out)
{
	fprintf(out, "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n"
	    "<meta charset=\"utf-8\">\n<title>upkit: the upgrade in "
	    "%zu iteration%s</title>\n<style>\n%s</style>\n</head>\n<body>\n"
	    "<h1>The upgrade</h1>\n", pic->niterations,
	    pic->niterations == 1 ? "" : "s", style);
	write_outcome(pic, out);
	fputs("<h2 id=\"timeline-title\">What ran where, and when</h2>\n"
	    "<p>A lane per host (a hypervisor's actions are on its host's, a "
	    "VM's move on the host it leaves), and one for each switch, "
	    "router and storage.  A cross marks a failed action, a ring an "
	    "action run again after a failed attempt; hover over a mark for "
	    "what it did.</p>\n", out);
	svg_legend(out);
	svg_timeline(pic, out);
	fputs("<h2 id=\"tenants-title\">Each tenant's VMs out of service"
	    "</h2>\n<p>Orange: the tenant's VMs out at once; dashed green: "
	    "the most its SLA allows out while its application stays up, one "
	    "VM per anti-affinity group of two or more; red: its application "
	    "out, with two VMs of one group out, or the only VM of one.</p>\n",
	    out);
	svg_tenants(pic, out);
	fputs("<h2 id=\"batches-title\">The iterations' batches, and what "
	    "waited</h2>\n<p>Blue: the groups each iteration took out of "
	    "service; grey: those that waited, by the rule that held them "
	    "(batch-select(1)).</p>\n", out);
	svg_batches(pic, out);
	write_table(pic, out);
	fputs("</body>\n</html>\n", out);
	return ferror(out) ? -1 : 0;
}
