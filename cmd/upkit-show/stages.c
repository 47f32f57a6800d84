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

/* group_seconds: the sum of the durations of a group's actions. */
static int
group_seconds(struct show *s, const json_t *group, json_int_t *out)
{
	json_t *acts, *act;
	json_int_t d;
	size_t i;

	*out = 0;
	if (acc_get_array(s->a, group, "actions", ACC_REQUIRED, &acts) < 0)
		return -1;
	access_enter_key(s->a, "actions");
	json_array_foreach(acts, i, act) {
		access_enter_index(s->a, i);
		if (acc_as_object(s->a, act) < 0 ||
		    acc_get_int_range(s->a, act, "duration", ACC_REQUIRED, 0,
		    (json_int_t)1 << 40, &d) < 0)
			return -1;
		*out += d;
		access_leave(s->a);
	}
	access_leave(s->a);
	return 0;
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

/* schedule_seconds: the schedule's length if every action succeeds. */
int
schedule_seconds(struct show *s, const json_t *sched, json_int_t *out)
{
	json_t *stages, *stage;
	json_int_t c = 0, t;
	size_t i;

	*out = 0;
	if (acc_as_object(s->a, sched) < 0 ||
	    acc_get_int(s->a, sched, "concurrency", ACC_OPTIONAL, &c) < 0 ||
	    acc_get_array(s->a, sched, "stages", ACC_REQUIRED, &stages) < 0)
		return -1;
	access_enter_key(s->a, "stages");
	json_array_foreach(stages, i, stage) {
		struct stage_view v;

		access_enter_index(s->a, i);
		if (read_stage(s, stage, c, &v) < 0)
			return -1;
		access_enter_key(s->a, "groups");
		if (stage_seconds(s, v.groups, v.concurrency, &t) < 0)
			return -1;
		*out += t;
		access_leave(s->a);
		access_leave(s->a);
	}
	access_leave(s->a);
	return 0;
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

/* say_group: one numbered operation. */
static int
say_group(struct show *s, const json_t *group, json_t *said)
{
	const char *id;
	json_t *acts, *act, *req = NULL;
	json_int_t secs;
	char *buf = NULL, dur[40];
	size_t size = 0, i;
	FILE *fp;

	if (acc_as_object(s->a, group) < 0 ||
	    acc_get_string(s->a, group, "id", ACC_REQUIRED, &id) < 0 ||
	    acc_get_array(s->a, group, "requires", ACC_OPTIONAL, &req) < 0 ||
	    group_seconds(s, group, &secs) < 0)
		return -1;
	acts = json_object_get(group, "actions");
	fp = open_memstream(&buf, &size);
	fprintf(fp, "%3ld. ", s->number++);
	if (!names_itself(group, id))
		fprintf(fp, "%s: ", id);
	access_enter_key(s->a, "actions");
	json_array_foreach(acts, i, act) {
		access_enter_index(s->a, i);
		fputs(i > 0 ? "; " : "", fp);
		if (describe_action(s, act, fp) < 0) {
			fclose(fp);
			free(buf);
			return -1;
		}
		access_leave(s->a);
	}
	access_leave(s->a);
	fprintf(fp, " (%s)", seconds_text(secs, dur, sizeof dur));
	fclose(fp);
	say(s, 2, 7, "%s", buf);
	free(buf);
	if (json_array_size(req) > 0)
		say(s, 7, 7, "only after %zu earlier action%s succeeded",
		    json_array_size(req), json_array_size(req) == 1 ? "" : "s");
	say_safety(s, id, said);
	return 0;
}

static int
say_stage(struct show *s, const char *sched_id, size_t index, size_t count,
    const struct stage_view *v, json_t *said)
{
	const json_t *group;
	json_int_t secs;
	size_t i, n = json_array_size(v->groups);
	char dur[40], words[80];

	if (stage_seconds(s, v->groups, v->concurrency, &secs) < 0)
		return -1;
	stage_words(v->id, v->phase, n, words, sizeof words);
	say(s, 0, 2, "%s stage %zu/%zu, %s: %s, %lld at a time, %s",
	    sched_id, index + 1, count, v->id, words,
	    (long long)v->concurrency, seconds_text(secs, dur, sizeof dur));
	json_array_foreach(v->groups, i, group) {
		access_enter_index(s->a, i);
		if (say_group(s, group, said) < 0)
			return -1;
		access_leave(s->a);
	}
	return 0;
}

/* show_schedule: sched's stages as numbered operations. */
int
show_schedule(struct show *s, const json_t *sched, const char *title)
{
	json_t *stages, *stage, *said = json_object();
	const char *id = "?";
	json_int_t c = 0;
	size_t i;
	int r = -1;

	if (acc_as_object(s->a, sched) < 0 ||
	    acc_get_string(s->a, sched, "id", ACC_REQUIRED, &id) < 0 ||
	    acc_get_int(s->a, sched, "concurrency", ACC_OPTIONAL, &c) < 0 ||
	    acc_get_array(s->a, sched, "stages", ACC_REQUIRED, &stages) < 0)
		goto out;
	if (title != NULL)
		say(s, 0, 2, "%s", title);
	if (json_array_size(stages) == 0)
		say(s, 0, 2, "%s: nothing to run", id);
	access_enter_key(s->a, "stages");
	json_array_foreach(stages, i, stage) {
		struct stage_view v;

		access_enter_index(s->a, i);
		if (read_stage(s, stage, c, &v) < 0)
			goto out;
		access_enter_key(s->a, "groups");
		if (say_stage(s, id, i, json_array_size(stages), &v, said) < 0)
			goto out;
		access_leave(s->a);
		access_leave(s->a);
	}
	access_leave(s->a);
	r = 0;
out:
	json_decref(said);
	return r;
}
