/*
 * waits.c: the groups of the initial batch left out of the final one,
 * grouped by the rule that left them out, with counts and one example
 * reason per rule instead of one line per group.
 */
#include <string.h>

#include "show.h"

/* rule_words: what a rule of batch-select(1) means, for a person. */
const char *
rule_words(const char *rule)
{
	static const char *const words[][2] = {
		{ "not-upgradable", "an isolated or failed member" },
		{ "sponsor-compatibility", "their sponsors are upgraded first" },
		{ "peer-availability", "a peer is out of service or goes now" },
		{ "ppu-resources", "the new storage or controller would "
		  "lack hosts (equation 1)" },
		{ "vm-service", "VMs still rely on them" },
		{ "dependency-before-add", "they rely on a resource not added "
		  "yet" },
		{ "dependency-before-remove", "others still depend on what "
		  "they remove" },
		{ "upgrade-method-order", "split mode: an earlier partition "
		  "goes first" },
		{ "aggregation-minimum", "an aggregate would keep too few "
		  "working members" },
		{ "compute-capacity", "more compute hosts than Z_i would be "
		  "out at once" },
		{ "dedicated-resources", "beyond the hosts dedicated to the "
		  "upgrade" },
		{ "evacuation", "their VMs find no place without breaking "
		  "anti-affinity" },
	};
	size_t i;

	for (i = 0; i < sizeof words / sizeof words[0]; i++)
		if (strcmp(rule, words[i][0]) == 0)
			return words[i][1];
	return "see batch-select(1)";
}

/* add_eliminated: an entry into its rule's bucket, by_rule (ctx). */
static int
add_eliminated(struct access *a, const json_t *e, size_t i, void *ctx)
{
	json_t *by_rule = ctx, *bucket;
	const char *group, *rule, *reason;

	(void)i;
	if (acc_as_object(a, e) < 0 ||
	    acc_get_string(a, e, "group", ACC_REQUIRED, &group) < 0 ||
	    acc_get_string(a, e, "rule", ACC_REQUIRED, &rule) < 0 ||
	    acc_get_string(a, e, "reason", ACC_REQUIRED, &reason) < 0)
		return -1;
	if ((bucket = json_object_get(by_rule, rule)) == NULL) {
		bucket = json_pack("{s:s,s:[]}", "reason", reason, "groups");
		json_object_set_new(by_rule, rule, bucket);
	}
	json_array_append_new(json_object_get(bucket, "groups"),
	    json_string(group));
	return 0;
}

/*
 * waits_by_rule: the batch's eliminated groups into by_rule, rule ->
 * {reason: the first one's, groups: [ids]}, rules in first-seen order.
 */
int
waits_by_rule(struct access *a, const json_t *batch, json_t *by_rule)
{
	return acc_each_element(a, batch, "eliminated", ACC_OPTIONAL,
	    add_eliminated, by_rule) < 0 ? -1 : 0;
}

/* noun: "compute hosts" when every group is one, else "groups". */
static const char *
noun(struct show *s, const json_t *groups)
{
	const json_t *g;
	size_t i, n = json_array_size(groups);

	json_array_foreach(groups, i, g)
		if (json_object_get(s->compute, json_string_value(g)) == NULL)
			return n == 1 ? "group" : "groups";
	return n == 1 ? "compute host" : "compute hosts";
}

static void
say_rule(struct show *s, const char *rule, const json_t *bucket)
{
	const json_t *groups = json_object_get(bucket, "groups");
	const char *reason = json_string_value(json_object_get(bucket, "reason"));
	size_t n = json_array_size(groups);

	say(s, 2, 4, "%zu %s wait%s, %s: %s", n, noun(s, groups),
	    n == 1 ? "s" : "", rule, rule_words(rule));
	say(s, 4, 6, "%s%s", n == 1 ? "" : "for example: ", reason);
	if (n > 1)
		say_list(s, 4, groups);
}

int
show_waits(struct show *s)
{
	json_t *by_rule = json_object(), *bucket;
	const char *rule;
	size_t n = 0;

	if (waits_by_rule(s->a, s->batch, by_rule) < 0) {
		json_decref(by_rule);
		return -1;
	}
	json_object_foreach(by_rule, rule, bucket)
		n += json_array_size(json_object_get(bucket, "groups"));
	if (n > 0)
		fputc('\n', s->out);
	if (n > 0)
		say(s, 0, 2, "Waiting: %zu group%s of the initial batch wait "
		    "for a later iteration", n, n == 1 ? "" : "s");
	json_object_foreach(by_rule, rule, bucket)
		say_rule(s, rule, bucket);
	json_decref(by_rule);
	return 0;
}
