/*
 * text.c: the text view of one iteration: what the batch is and why,
 * the numbered operations of the upgrade schedule, what waits, step 4
 * and, when the document holds it, the iteration's result.
 */
#include <string.h>

#include "show.h"

static long long
sla_number(const json_t *sla, const char *key)
{
	return (long long)json_integer_value(json_object_get(sla, key));
}

static void
say_compute(struct show *s)
{
	const json_t *c = json_object_get(s->batch, "compute");
	const char *cause = json_string_value(json_object_get(c, "cause"));

	if (c == NULL)
		return;
	say(s, 0, 2, "Compute hosts: %zu old (%lld with VMs), %zu new (%lld with "
	    "VMs)%s%s", json_array_size(json_object_get(c, "old")),
	    sla_number(c, "used_old"), json_array_size(json_object_get(c, "new")),
	    sla_number(c, "used_new"), cause ? ", split by " : "",
	    cause ? cause : "");
}

static void
say_sla(struct show *s)
{
	const json_t *sla = json_object_get(s->batch, "sla");

	if (sla == NULL)
		return;
	say(s, 0, 2, "Z_i = %lld, the compute hosts that may go out at once: "
	    "%lld not in use, less %lld kept for the tenants' scaling "
	    "(S_i = %lld VM%s each for A_i = %lld tenants, K = %lld per host), "
	    "less %lld for host failures; T_i = %lld s",
	    sla_number(sla, "Z_i"), sla_number(sla, "not_in_use"),
	    sla_number(sla, "scaling_reservation"), sla_number(sla, "S_i"),
	    sla_number(sla, "S_i") == 1 ? "" : "s",
	    sla_number(sla, "A_i"), sla_number(sla, "K"),
	    sla_number(sla, "failover_reservation"), sla_number(sla, "T_i"));
}

static void
say_consolidation(struct show *s)
{
	const json_t *c = json_object_get(s->batch, "consolidation");
	json_int_t moves = json_integer_value(json_object_get(c, "migrations"));

	if (moves > 0)
		say(s, 0, 2, "Consolidation: %lld VM move%s empty %zu host%s "
		    "first", (long long)moves, moves == 1 ? "" : "s",
		    json_array_size(json_object_get(c, "freed")),
		    json_array_size(json_object_get(c, "freed")) == 1 ? "" : "s");
}

static int
add_sub_seconds(struct show *s, const json_t *sched, void *ctx)
{
	json_int_t *total = ctx, t;

	if (schedule_seconds(s, sched, &t) < 0)
		return -1;
	*total += t;
	return 0;
}

/* total_seconds: the upgrade schedule and every sub-iteration. */
static int
total_seconds(struct show *s, json_int_t *out)
{
	access_enter_key(s->a, "schedule");
	if (schedule_seconds(s, s->schedule, out) < 0)
		return -1;
	access_leave(s->a);
	return each_sub_schedule(s, add_sub_seconds, out);
}

static int
say_header(struct show *s, const char *status)
{
	const json_t *final = json_object_get(s->batch, "final");
	const char *reason = json_string_value(json_object_get(s->batch, "reason"));
	json_int_t secs;
	char dur[40];
	const json_t *f;
	json_t *ids = json_array();
	size_t i;

	say(s, 0, 2, "Iteration %lld, a dry run: what the actuator will do, in "
	    "order", (long long)s->iteration);
	if (strcmp(status, "suspended") == 0)
		say(s, 0, 2, "SUSPENDED: %s", reason ? reason : "no reason given");
	json_array_foreach(final, i, f)
		json_array_append(ids, json_object_get(f, "group"));
	say(s, 0, 2, "Final batch: %zu group%s", json_array_size(ids),
	    json_array_size(ids) == 1 ? "" : "s");
	say_list(s, 2, ids);
	json_decref(ids);
	say_compute(s);
	say_sla(s);
	say_consolidation(s);
	if (total_seconds(s, &secs) < 0)
		return -1;
	say(s, 0, 2, "Estimated duration: %s if every action succeeds (the "
	    "vendors' estimates)", seconds_text(secs, dur, sizeof dur));
	return 0;
}

static int
say_sub_iteration(struct access *a, const json_t *sub, size_t i, void *ctx)
{
	struct show *s = ctx;
	json_int_t index = 0, w = 0, budget = 0;
	json_t *sched;
	char title[160];

	(void)i;
	if (acc_as_object(a, sub) < 0 ||
	    acc_get_int(a, sub, "index", ACC_REQUIRED, &index) < 0 ||
	    acc_get_int(a, sub, "W", ACC_REQUIRED, &w) < 0 ||
	    acc_get_int(a, sub, "budget", ACC_OPTIONAL, &budget) < 0 ||
	    acc_get_object(a, sub, "schedule", ACC_REQUIRED, &sched) < 0)
		return -1;
	snprintf(title, sizeof title, "Sub-iteration %lld: %lld VM%s of the "
	    "%lld V_i still allows, one per anti-affinity group at a time",
	    (long long)index, (long long)w, w == 1 ? "" : "s",
	    (long long)budget);
	access_enter_key(a, "schedule");
	if (show_schedule(s, sched, title) < 0)
		return -1;
	access_leave(a);
	return 0;
}

/* v_i_text: ", V_i = n VMs may move (equation 5)" when planned. */
static const char *
v_i_text(const json_t *migrations)
{
	static char buf[80];
	const json_t *v = json_object_get(json_object_get(migrations, "sla"),
	    "V_i");

	if (!json_is_integer(v) || json_object_get(migrations, "note") != NULL)
		return "";
	snprintf(buf, sizeof buf, ", V_i = %lld VMs may move (equation 5)",
	    (long long)json_integer_value(v));
	return buf;
}

static int
say_step4(struct show *s)
{
	const char *status = "?", *note = NULL;
	json_t *subs = NULL;
	int r;

	if (s->migrations == NULL)
		return 0;
	access_enter_key(s->a, "migrations");
	if (acc_get_string(s->a, s->migrations, "status", ACC_REQUIRED,
	    &status) < 0 ||
	    acc_get_string(s->a, s->migrations, "note", ACC_OPTIONAL, &note) < 0 ||
	    acc_get_array(s->a, s->migrations, "sub_iterations", ACC_OPTIONAL,
	    &subs) < 0)
		return -1;
	fputc('\n', s->out);
	say(s, 0, 2, "Step 4, VMs to the new partition: %s%s%s%s",
	    strcmp(status, "suspended") == 0 ? "SUSPENDED" : status,
	    note ? ": " : "", note ? note : "", v_i_text(s->migrations));
	r = acc_each_element(s->a, s->migrations, "sub_iterations",
	    ACC_OPTIONAL, say_sub_iteration, s);
	access_leave(s->a);
	return r < 0 ? -1 : 0;
}

/* say_result: the actuator's report of this iteration, in counts. */
static void
say_result(struct show *s)
{
	const json_t *results, *v;
	const char *key, *names[] = { "succeeded", "failed", "undone",
		"undo-failed", "not-run", "blocked" };
	size_t counts[6] = { 0 }, k;
	char *buf = NULL;
	size_t size = 0;
	FILE *fp;

	if (s->report == NULL)
		return;
	fp = open_memstream(&buf, &size);
	results = json_object_get(s->report, "results");
	json_object_foreach((json_t *)results, key, v)
		for (k = 0; k < 6; k++)
			if (json_is_string(v) &&
			    strcmp(json_string_value(v), names[k]) == 0)
				counts[k]++;
	for (k = 0; k < 6; k++)
		if (counts[k] > 0)
			fprintf(fp, "%s %zu %s", ftell(fp) > 0 ? "," : ":",
			    counts[k], names[k]);
	fclose(fp);
	fputc('\n', s->out);
	say(s, 0, 2, "Result, reported by %s at %s: %zu upgrade action%s%s",
	    json_string_value(json_object_get(s->report, "actuator")) ?
	    json_string_value(json_object_get(s->report, "actuator")) : "the actuator",
	    json_string_value(json_object_get(s->report, "time")) ?
	    json_string_value(json_object_get(s->report, "time")) : "?",
	    json_object_size(results), json_object_size(results) == 1 ? "" : "s",
	    size > 0 ? buf : "");
	free(buf);
	if (json_array_size(json_object_get(s->report, "failed_resources")) > 0) {
		say(s, 2, 2, "failed resources:");
		say_list(s, 4, json_object_get(s->report, "failed_resources"));
	}
	if (json_array_size(json_object_get(s->report, "isolated_resources")) > 0) {
		say(s, 2, 2, "isolated resources:");
		say_list(s, 4, json_object_get(s->report, "isolated_resources"));
	}
}

int
show_text(struct show *s)
{
	const char *status;

	access_enter_key(s->a, "batch");
	if (acc_get_string(s->a, s->batch, "status", ACC_REQUIRED, &status) < 0)
		return -1;
	access_leave(s->a);
	if (say_header(s, status) < 0)
		return -1;
	fputc('\n', s->out);
	s->number = 1;
	access_enter_key(s->a, "schedule");
	if (show_schedule(s, s->schedule, NULL) < 0)
		return -1;
	access_leave(s->a);
	access_enter_key(s->a, "batch");
	if (show_waits(s) < 0)
		return -1;
	access_leave(s->a);
	if (say_step4(s) < 0)
		return -1;
	say_result(s);
	return 0;
}
