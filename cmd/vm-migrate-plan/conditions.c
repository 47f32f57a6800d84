/*
 * conditions.c: the safety conditions of step 4's moves (seed 000 IV,
 * step 4: "taking into account the results of step 3"), as the groups'
 * "requires".  vm-migrate-plan plans as if the upgrade schedule of
 * step 3 succeeds; these conditions make an actuator skip every move
 * that relied on a part of it that did not:
 *
 * - a VM moves onto a host only after that host's actions of the
 *   upgrade schedule (its deactivation, upgrade and activation), so
 *   never onto a host left out of service or on the old version;
 * - and only after every earlier planned move out of that host, whose
 *   slot and anti-affinity the plan counted on;
 * - a VM moves only after its own earlier moves, so it is where the
 *   plan says.
 */
#include "schedule.h"
#include "vmp.h"

/* push: append id to the array of key in map. */
static void
push(json_t *map, const char *key, const char *id)
{
	json_t *list = json_object_get(map, key);

	if (list == NULL) {
		list = json_array();
		json_object_set_new(map, key, list);
	}
	json_array_append_new(list, json_string(id));
}

static const char *
str(const json_t *obj, const char *key)
{
	return json_string_value(json_object_get(obj, key));
}

void
conditions_init(struct conditions *c)
{
	c->host_actions = json_object();
	c->moves_out = json_object();
	c->moves_of = json_object();
}

void
conditions_free(struct conditions *c)
{
	json_decref(c->host_actions);
	json_decref(c->moves_out);
	json_decref(c->moves_of);
}

/* conditions_note: a scheduled action, once its schedule is built. */
void
conditions_note(struct conditions *c, const json_t *action)
{
	const char *id = str(action, "id"), *vm = str(action, "vm");

	if (vm == NULL) {
		push(c->host_actions, str(action, "host"), id);
		return;
	}
	push(c->moves_out, str(action, "source"), id);
	push(c->moves_of, vm, id);
}

void
conditions_require(const struct conditions *c, json_t *groups,
    const char *vm, const char *destination)
{
	sched_require_all(groups, json_object_get(c->host_actions, destination));
	sched_require_all(groups, json_object_get(c->moves_out, destination));
	sched_require_all(groups, json_object_get(c->moves_of, vm));
}
