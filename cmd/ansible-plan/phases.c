/*
 * phases.c: the words of the playbook for a person: the Ansible tags of
 * the phases (ansible-plan(1), Tags) and what each stage's play does.
 *
 * An action's tag is its phase: a migration is "evacuate" (moving VMs
 * off hosts, whatever the stage), a deactivation "prerequisite", the
 * upgrade's actions "upgrade", an activation "activate"; the rescue's
 * undo steps and replacements add "undo".
 */
#include <string.h>

#include "ap.h"

static const char *const tag_names[] = { "prerequisite", "evacuate",
	"upgrade", "activate", "undo", "always", "never", "forget" };

static int
is(const char *s, const char *t)
{
	return s != NULL && strcmp(s, t) == 0;
}

unsigned
action_tags(const json_t *action)
{
	const char *op = json_string_value(json_object_get(action, "op")),
	    *phase = json_string_value(json_object_get(action, "phase"));

	if (is(op, "migrate") || is(phase, "migration"))
		return TAG_EVACUATE;
	if (is(phase, "prerequisite"))
		return TAG_PREREQUISITE;
	if (is(phase, "upgrade"))
		return TAG_UPGRADE;
	if (is(phase, "wrap-up"))
		return TAG_ACTIVATE;
	return 0;
}

unsigned
group_tags(const json_t *group)
{
	const json_t *act;
	unsigned tags = 0;
	size_t i;

	json_array_foreach(json_object_get(group, "actions"), i, act)
		tags |= action_tags(act);
	return tags;
}

void
yw_tags(struct yamlw *w, unsigned tags)
{
	size_t i;

	if (tags == 0)
		return;
	yw_plain(w, "tags");
	yw_seq(w, 1);
	for (i = 0; i < sizeof tag_names / sizeof tag_names[0]; i++)
		if (tags & (1u << i))
			yw_plain(w, tag_names[i]);
	yw_end_seq(w);
}

const char *
stage_purpose(const char *stage_id)
{
	static const struct {
		const char *prefix, *words;
	} purposes[] = {
		{ "consolidate-", "move VMs together to free hosts" },
		{ "evacuate-", "move VMs off the hosts to upgrade" },
		{ "prerequisite", "take resources out of service" },
		{ "switch", "switch the partitions" },
		{ "upgrade", "change the products" },
		{ "wrap-up", "return resources to service" },
		{ "migrate", "move VMs onto upgraded hosts" },
	};
	size_t i, n;

	for (i = 0; i < sizeof purposes / sizeof purposes[0]; i++) {
		n = strlen(purposes[i].prefix);
		if (strncmp(stage_id, purposes[i].prefix, n) == 0 &&
		    (purposes[i].prefix[n - 1] == '-' || stage_id[n] == '\0'))
			return purposes[i].words;
	}
	return NULL;
}
