/*
 * stages.c: a schedule object's stages as numbered operations, one per
 * group (a group's actions run in order, groups of a stage in
 * parallel), with what makes each safe; and the schedule's length.
 */
#include <stdlib.h>
#include <string.h>

#include "show.h"
#include "xalloc.h"

struct stage_view {
	const char *id;
	const char *phase;
	json_t *groups;
	json_int_t concurrency;
};

/* stage_words: "take 7 groups out of service" and the like. */
static void
stage_words(const char *id, const char *phase, size_t n, char *buf, size_t size)
{
	const char *plural = n == 1 ? "" : "s";

	if (strcmp(id, "switch") == 0)
		snprintf(buf, size, "swap %zu split-mode pair%s, the old "
		    "partition out, the new one in", n, plural);
	else if (strcmp(phase, "prerequisite") == 0)
		snprintf(buf, size, "take %zu group%s out of service", n, plural);
	else if (strcmp(phase, "upgrade") == 0)
		snprintf(buf, size, "upgrade %zu group%s", n, plural);
	else if (strcmp(phase, "wrap-up") == 0)
		snprintf(buf, size, "bring %zu group%s back into service", n,
		    plural);
	else if (strcmp(phase, "migration") == 0)
		snprintf(buf, size, "move %zu VM%s", n, plural);
	else
		snprintf(buf, size, "%zu group%s", n, plural);
}

static int
add_duration(struct access *a, const json_t *act, size_t i, void *ctx)
{
	json_int_t *total = ctx, d;

	(void)i;
	if (acc_as_object(a, act) < 0 ||
	    acc_get_int_range(a, act, "duration", ACC_REQUIRED, 0,
	    (json_int_t)1 << 40, &d) < 0)
		return -1;
	*total += d;
	return 0;
}

/* group_seconds: the sum of the durations of a group's actions. */
static int
group_seconds(struct show *s, const json_t *group, json_int_t *out)
{
	*out = 0;
	return acc_each_element(s->a, group, "actions", ACC_REQUIRED,
	    add_duration, out) < 0 ? -1 : 0;
}

/* stage_seconds: groups in order, each on the first free of c slots. */
static int
stage_seconds(struct show *s, const json_t *groups, json_int_t c,
    json_int_t *out)
{
	size_t n = json_array_size(groups), slots, i, k, best;
	json_int_t *end, d;

	slots = c < 1 || (size_t)c > n ? (n > 0 ? n : 1) : (size_t)c;
	end = xcalloc(slots, sizeof *end);
	*out = 0;
	for (i = 0; i < n; i++) {
		access_enter_index(s->a, i);
		if (group_seconds(s, json_array_get(groups, i), &d) < 0) {
			free(end);
			return -1;
		}
		access_leave(s->a);
		for (best = 0, k = 1; k < slots; k++)
			if (end[k] < end[best])
				best = k;
		end[best] += d;
		if (end[best] > *out)
			*out = end[best];
	}
	free(end);
	return 0;
}

static int
read_stage(struct show *s, const json_t *stage, json_int_t c,
    struct stage_view *v)
{
	v->phase = "";
	v->concurrency = c;
	if (acc_as_object(s->a, stage) < 0 ||
	    acc_get_string(s->a, stage, "id", ACC_REQUIRED, &v->id) < 0 ||
	    acc_get_string(s->a, stage, "phase", ACC_OPTIONAL, &v->phase) < 0 ||
	    acc_get_array(s->a, stage, "groups", ACC_REQUIRED, &v->groups) < 0)
		return -1;
	if (v->concurrency < 1 ||
	    (size_t)v->concurrency > json_array_size(v->groups))
		v->concurrency = (json_int_t)json_array_size(v->groups);
	return 0;
}

/* read_stage_seconds: a stage and its length. */
static int
read_stage_seconds(struct show *s, const json_t *stage, json_int_t c,
    struct stage_view *v, json_int_t *secs)
{
	int r;

	if (read_stage(s, stage, c, v) < 0)
		return -1;
	access_enter_key(s->a, "groups");
	r = stage_seconds(s, v->groups, v->concurrency, secs);
	access_leave(s->a);
	return r;
}

/* The walk over a schedule's stages. */
struct sched_walk {
	struct show *s;
	const char *id;
	size_t count;		/* stages */
	json_int_t c;		/* the schedule's concurrency */
	json_int_t secs;	/* the length so far */
	json_t *said;		/* group id -> true once its safety is said */
};

static int
add_stage_seconds(struct access *a, const json_t *stage, size_t i, void *ctx)
{
	struct sched_walk *w = ctx;
	struct stage_view v;
	json_int_t t;

	(void)a;
	(void)i;
	if (read_stage_seconds(w->s, stage, w->c, &v, &t) < 0)
		return -1;
	w->secs += t;
	return 0;
}

/* schedule_seconds: the schedule's length if every action succeeds. */
int
schedule_seconds(struct show *s, const json_t *sched, json_int_t *out)
{
	struct sched_walk w = { s, NULL, 0, 0, 0, NULL };
	int r;

	*out = 0;
	if (acc_as_object(s->a, sched) < 0 ||
	    acc_get_int(s->a, sched, "concurrency", ACC_OPTIONAL, &w.c) < 0)
		return -1;
	r = acc_each_element(s->a, sched, "stages", ACC_REQUIRED,
	    add_stage_seconds, &w);
	*out = w.secs;
	return r < 0 ? -1 : 0;
}

/* The function each_sub_schedule calls, and its context. */
struct sub_walk {
	struct show *s;
	sched_fn fn;
	void *ctx;
};

static int
sub_schedule(struct access *a, const json_t *sub, size_t i, void *ctx)
{
	struct sub_walk *w = ctx;
	json_t *sched;
	int r;

	(void)i;
	if (acc_as_object(a, sub) < 0 ||
	    acc_get_object(a, sub, "schedule", ACC_REQUIRED, &sched) < 0)
		return -1;
	access_enter_key(a, "schedule");
	r = w->fn(w->s, sched, w->ctx);
	access_leave(a);
	return r;
}

/* each_sub_schedule: fn on each sub-iteration's schedule, in order. */
int
each_sub_schedule(struct show *s, sched_fn fn, void *ctx)
{
	struct sub_walk w = { s, fn, ctx };
	int r;

	if (s->migrations == NULL)
		return 0;
	access_enter_key(s->a, "migrations");
	r = acc_each_element(s->a, s->migrations, "sub_iterations",
	    ACC_OPTIONAL, sub_schedule, &w);
	access_leave(s->a);
	return r < 0 ? -1 : 0;
}

/* final_entry: the batch's final entry of group id, or NULL. */
static const json_t *
final_entry(struct show *s, const char *id)
{
	const json_t *f;
	size_t i;

	json_array_foreach(json_object_get(s->batch, "final"), i, f)
		if (strcmp(json_string_value(json_object_get(f, "group")) ?
		    json_string_value(json_object_get(f, "group")) : "", id) == 0)
			return f;
	return NULL;
}

/* say_safety: why taking group id out is safe, once per group. */
static void
say_safety(struct show *s, const char *id, json_t *said)
{
	const json_t *f = final_entry(s, id);
	const json_t *hosts = json_object_get(f, "compute_hosts");
	json_int_t in_use = json_integer_value(json_object_get(f, "in_use"));
	json_int_t z = json_integer_value(json_object_get(
	    json_object_get(s->batch, "sla"), "Z_i"));
	int back = json_is_false(json_object_get(f, "returns_to_service")) ? 0 : 1;
	size_t n = json_array_size(hosts);

	if (f == NULL || json_object_get(said, id) != NULL)
		return;
	json_object_set_new(said, id, json_true());
	if (n == 0)
		say(s, 7, 7, "safe: no compute host goes out of service%s",
		    back ? "" : "; stays out after this iteration");
	else if (in_use == 0)
		say(s, 7, 7, "safe: %zu compute host%s out, within Z_i = %lld; "
		    "no VM runs there%s", n, n == 1 ? "" : "s", (long long)z,
		    back ? "" : "; stays out after this iteration");
	else
		say(s, 7, 7, "safe: %zu compute host%s out, within Z_i = %lld; "
		    "the VMs of %lld were moved off first%s", n,
		    n == 1 ? "" : "s", (long long)z, (long long)in_use,
		    back ? "" : "; stays out after this iteration");
}

/* names_itself: a group of one action on the group itself (a VM). */
static int
names_itself(const json_t *group, const char *id)
{
	const json_t *acts = json_object_get(group, "actions");
	const char *res = json_string_value(json_object_get(
	    json_array_get(acts, 0), "resource"));

	return json_array_size(acts) == 1 && res != NULL &&
	    strcmp(res, id) == 0;
}

/* One group's actions in words, "; " between them. */
struct say_actions {
	struct show *s;
	FILE *fp;
};

static int
describe_at(struct access *a, const json_t *act, size_t i, void *ctx)
{
	struct say_actions *sa = ctx;

	(void)a;
	fputs(i > 0 ? "; " : "", sa->fp);
	return describe_action(sa->s, act, sa->fp);
}

/* say_group: one numbered operation. */
static int
say_group(struct show *s, const json_t *group, json_t *said)
{
	const char *id;
	json_t *req = NULL;
	json_int_t secs;
	char *buf = NULL, dur[40];
	size_t size = 0;
	struct say_actions sa = { s, NULL };

	if (acc_as_object(s->a, group) < 0 ||
	    acc_get_string(s->a, group, "id", ACC_REQUIRED, &id) < 0 ||
	    acc_get_array(s->a, group, "requires", ACC_OPTIONAL, &req) < 0 ||
	    group_seconds(s, group, &secs) < 0)
		return -1;
	sa.fp = open_memstream(&buf, &size);
	fprintf(sa.fp, "%3ld. ", s->number++);
	if (!names_itself(group, id))
		fprintf(sa.fp, "%s: ", id);
	if (acc_each_element(s->a, group, "actions", ACC_REQUIRED, describe_at,
	    &sa) < 0) {
		fclose(sa.fp);
		free(buf);
		return -1;
	}
	fprintf(sa.fp, " (%s)", seconds_text(secs, dur, sizeof dur));
	fclose(sa.fp);
	say(s, 2, 7, "%s", buf);
	free(buf);
	if (json_array_size(req) > 0)
		say(s, 7, 7, "only after %zu earlier action%s succeeded",
		    json_array_size(req), json_array_size(req) == 1 ? "" : "s");
	say_safety(s, id, said);
	return 0;
}

static int
say_group_at(struct access *a, const json_t *group, size_t i, void *ctx)
{
	struct sched_walk *w = ctx;

	(void)a;
	(void)i;
	return say_group(w->s, group, w->said);
}

/* say_stage: the stage's line, then its groups' operations. */
static int
say_stage(struct access *a, const json_t *stage, size_t i, void *ctx)
{
	struct sched_walk *w = ctx;
	struct stage_view v;
	json_int_t secs;
	char dur[40], words[80];

	if (read_stage_seconds(w->s, stage, w->c, &v, &secs) < 0)
		return -1;
	stage_words(v.id, v.phase, json_array_size(v.groups), words,
	    sizeof words);
	say(w->s, 0, 2, "%s stage %zu/%zu, %s: %s, %lld at a time, %s",
	    w->id, i + 1, w->count, v.id, words,
	    (long long)v.concurrency, seconds_text(secs, dur, sizeof dur));
	return acc_each_element(a, stage, "groups", ACC_REQUIRED, say_group_at,
	    w);
}

/* show_schedule: sched's stages as numbered operations. */
int
show_schedule(struct show *s, const json_t *sched, const char *title)
{
	struct sched_walk w = { s, "?", 0, 0, 0, json_object() };
	json_t *stages;
	int r = -1;

	if (acc_as_object(s->a, sched) < 0 ||
	    acc_get_string(s->a, sched, "id", ACC_REQUIRED, &w.id) < 0 ||
	    acc_get_int(s->a, sched, "concurrency", ACC_OPTIONAL, &w.c) < 0 ||
	    acc_get_array(s->a, sched, "stages", ACC_REQUIRED, &stages) < 0)
		goto out;
	if (title != NULL)
		say(s, 0, 2, "%s", title);
	w.count = json_array_size(stages);
	if (w.count == 0)
		say(s, 0, 2, "%s: nothing to run", w.id);
	if (acc_each_element(s->a, sched, "stages", ACC_REQUIRED, say_stage,
	    &w) == 0)
		r = 0;
out:
	json_decref(w.said);
	return r;
}
