/*
 * ending.c: what the loop's endings read of the last documents: the
 * change sets that did not complete, the failed and isolated resources,
 * why the upgrade waits, and the advice of the last batch
 * (batch-select(1), Advice when nothing goes).
 */
#include <stdlib.h>
#include <string.h>

#include "exitcodes.h"
#include "loop.h"
#include "timefmt.h"
#include "xalloc.h"

static json_t *
read_or_die(const struct loop *l, long n, const char *name,
    const char *const *reads)
{
	char *file = iter_path(l, n, name), *msg;
	json_t *doc = read_sections(file, reads);

	if (doc == NULL) {
		msg = xasprintf("%s: cannot read it back", file);
		free(file);
		end_freeing(EXIT_SOFTWARE, msg);
	}
	free(file);
	return doc;
}

/* text_of: a string's text; anything else as jq's string interpolation
 * has it, for the cases that matter here (null). */
static const char *
text_of(const json_t *v)
{
	return json_is_string(v) ? json_string_value(v) : "null";
}

/*
 * undo_words: why change set cs of request r is undone, in words, or
 * NULL when it is not: above all a completion period that ran out,
 * which the clock alone decides (seed 000 II.D), and which a request
 * dated in the past meets at once.
 */
static char *
undo_words(const json_t *r, const json_t *cs)
{
	const char *why = json_string_value(json_object_get(json_object_get(
	    cs, "undo"), "reason")), *at = json_string_value(json_object_get(r,
	    "time"));
	const json_t *period = json_object_get(cs, "max_completion_period");
	char end[40], span[40];
	int64_t t;

	if (why == NULL)
		return NULL;
	if (strcmp(why, "max-completion-period") == 0 && at != NULL &&
	    json_is_integer(period) && time_parse(at, &t) == 0) {
		time_format(t + json_integer_value(period), end, sizeof end);
		duration_format(json_integer_value(period), span, sizeof span);
		return xasprintf("undone: its completion period ran out at %s, "
		    "max_completion_period %s after the request's time %s", end,
		    span, at);
	}
	if (strcmp(why, "undo-threshold") == 0)
		return xstrdup("undone: more of its resources were lost than "
		    "its undo_threshold allows");
	if (strcmp(why, "requested") == 0)
		return xstrdup("undone: a request asked for it");
	return xasprintf("undone: %s", why);
}

/* unfinished_sets: the change sets of iteration n's graph that did not
 * complete (only those being undone, when undoing), with their status
 * and why they are undone, as "R/S (status), ...". */
char *
unfinished_sets(const struct loop *l, long n, int undoing)
{
	static const char *const reads[] = { "requests", NULL };
	json_t *doc = read_or_die(l, n, "1-rg.json", reads);
	const json_t *r, *cs;
	char *text = xstrdup(""), *more, *undo;
	size_t i, j;

	json_array_foreach(json_object_get(json_object_get(doc, "requests"),
	    "requests"), i, r)
		json_array_foreach(json_object_get(r, "change_sets"), j, cs) {
			const char *st = json_string_value(json_object_get(cs,
			    "status"));

			if (st != NULL && strcmp(st, "completed") == 0)
				continue;
			undo = undo_words(r, cs);
			if (undoing && undo == NULL)
				continue;
			more = xasprintf("%s%s%s/%s (%s%s%s)", text, *text ? ", " :
			    "", text_of(json_object_get(r, "id")),
			    text_of(json_object_get(cs, "id")),
			    text_of(json_object_get(cs, "status")), undo ? ", " : "",
			    undo ? undo : "");
			free(undo);
			free(text);
			text = more;
		}
	done_reading(doc);
	return text;
}

/*
 * The rules of batch-select(1) in plain words, for the start of a
 * suspension's reason: what holds most groups back, before the numbers.
 */
static const char *const plain_rules[][2] = {
	{ "compute-capacity", "too few compute hosts may go out at once: the "
	  "idle ones are kept for tenants to scale out and for hosts that may "
	  "fail" },
	{ "dependency-before-add", "what they depend on must be upgraded "
	  "first" },
	{ "dependency-before-remove", "what depends on them must change "
	  "first" },
	{ "vm-service", "their storage still serves running VMs" },
	{ "ppu-resources", "too few hosts to run the old and the new side by "
	  "side" },
	{ "aggregation-minimum", "a storage needs more of its hosts in "
	  "service" },
	{ "upgrade-method-order", "a split-mode change must finish first" },
	{ "sponsor-compatibility", "a host they rely on runs an incompatible "
	  "version" },
	{ "peer-availability", "their redundant peer is out of service" },
	{ "not-upgradable", "a member cannot be upgraded" },
};

/* plain_lead: the plain words of the rule that holds back the most
 * groups of a batch section (the first named on a tie), or NULL. */
static const char *
plain_lead(const json_t *batch)
{
	size_t n = sizeof plain_rules / sizeof plain_rules[0], i, k,
	    count[sizeof plain_rules / sizeof plain_rules[0]] = { 0 }, best = n;
	const json_t *e;

	json_array_foreach(json_object_get(batch, "eliminated"), i, e) {
		const char *rule = json_string_value(json_object_get(e, "rule"));

		for (k = 0; rule != NULL && k < n; k++)
			if (strcmp(rule, plain_rules[k][0]) == 0)
				count[k]++;
	}
	for (k = 0; k < n; k++)
		if (count[k] > 0 && (best == n || count[k] > count[best]))
			best = k;
	return best < n ? plain_rules[best][1] : NULL;
}

/* why_suspended: the reason iteration n's plan gives for waiting, led
 * by what holds it back in plain words when batch-select says. */
char *
why_suspended(const struct loop *l, long n)
{
	static const char *const reads[] = { "batch", "migrations", NULL };
	json_t *doc = read_or_die(l, n, "4-migrations.json", reads);
	const json_t *batch = json_object_get(doc, "batch"),
	    *why = json_object_get(batch, "reason");
	const char *lead;
	char *text;

	if (why == NULL || json_is_null(why) || json_is_false(why))
		why = json_object_get(json_object_get(doc, "migrations"),
		    "note");
	lead = json_is_string(json_object_get(batch, "reason")) ?
	    plain_lead(batch) : NULL;
	text = xasprintf("%s%s%s", lead != NULL ? lead : "", lead != NULL ?
	    "; in detail: " : "", json_is_string(why) ?
	    json_string_value(why) : "nothing can run");
	done_reading(doc);
	return text;
}

/* advice_of: the texts of iteration n's batch's advice, an array. */
json_t *
advice_of(const struct loop *l, long n)
{
	static const char *const reads[] = { "batch", NULL };
	json_t *doc = read_or_die(l, n, "4-migrations.json", reads), *texts,
	    *a;
	size_t i;

	texts = json_array();
	json_array_foreach(json_object_get(json_object_get(doc, "batch"),
	    "advice"), i, a) {
		const json_t *t = json_object_get(a, "text");

		json_array_append_new(texts, t != NULL ? json_deep_copy(t) :
		    json_null());
	}
	done_reading(doc);
	return texts;
}

/* advises_hosts: iteration n's batch advises adding hosts. */
int
advises_hosts(const struct loop *l, long n)
{
	static const char *const reads[] = { "batch", NULL };
	json_t *doc = read_or_die(l, n, "3-batch.json", reads), *a;
	size_t i;
	int hosts = 0;

	json_array_foreach(json_object_get(json_object_get(doc, "batch"),
	    "advice"), i, a) {
		const char *kind = json_string_value(json_object_get(a, "kind"));

		hosts |= kind != NULL && strcmp(kind, "add-hosts") == 0;
	}
	done_reading(doc);
	return hosts;
}

/*
 * failed_resources: the failed and isolated resources of iteration n's
 * graph, in its order, each as {id, kind, failed, isolated,
 * failed_attempts}: an array.
 */
json_t *
failed_resources(const struct loop *l, long n)
{
	static const char *const reads[] = { "resource_graph", NULL };
	json_t *doc = read_or_die(l, n, "1-rg.json", reads), *out, *att;
	const json_t *v;
	size_t i;

	out = json_array();
	json_array_foreach(json_object_get(json_object_get(doc,
	    "resource_graph"), "vertices"), i, v) {
		int failed = json_is_true(json_object_get(v, "is_failed")),
		    isolated = json_is_true(json_object_get(v, "is_isolated"));

		if (!failed && !isolated)
			continue;
		att = json_object_get(v, "failed_attempts");
		json_array_append_new(out, json_pack("{s:O, s:O, s:b, s:b, s:o}",
		    "id", json_object_get(v, "id"), "kind",
		    json_object_get(v, "kind"), "failed", failed, "isolated",
		    isolated, "failed_attempts", att != NULL ? json_incref(att) :
		    json_object()));
	}
	done_reading(doc);
	return out;
}

/*
 * failed_resources_text: "failed: host7 (r1/ipv6 2 failed attempt(s);
 * last r1/ipv6.1:host7:1 failed in iteration 3), ...; isolated: ...",
 * or "" when there are none.
 */
char *
failed_resources_text(const json_t *failed)
{
	char *text[2] = { xstrdup(""), xstrdup("") }, *more, *att;
	const json_t *f, *count, *last;
	const char *unit;
	size_t i;
	int k;

	json_array_foreach(failed, i, f) {
		att = xstrdup("");
		json_object_foreach((json_t *)json_object_get(f,
		    "failed_attempts"), unit, count) {
			more = xasprintf("%s%s%s %" JSON_INTEGER_FORMAT
			    " failed attempt(s)", att, *att ? ", " : "", unit,
			    json_integer_value(count));
			free(att);
			att = more;
		}
		last = json_object_get(f, "failing_action");
		if (last != NULL) {
			more = xasprintf("%s%slast %s %s in iteration %"
			    JSON_INTEGER_FORMAT, att, *att ? "; " : "",
			    text_of(json_object_get(last, "action")),
			    text_of(json_object_get(last, "result")),
			    json_integer_value(json_object_get(last,
			    "iteration")));
			free(att);
			att = more;
		}
		k = json_is_true(json_object_get(f, "failed")) ? 0 : 1;
		more = xasprintf("%s%s%s%s%s%s", text[k], *text[k] ? ", " : "",
		    text_of(json_object_get(f, "id")), *att ? " (" : "", att,
		    *att ? ")" : "");
		free(att);
		free(text[k]);
		text[k] = more;
	}
	more = xasprintf("%s%s%s%s%s", *text[0] ? "failed: " : "", text[0],
	    *text[0] && *text[1] ? "; " : "", *text[1] ? "isolated: " : "",
	    text[1]);
	free(text[0]);
	free(text[1]);
	return more;
}
