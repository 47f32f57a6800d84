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
#include <stdlib.h>
#include <string.h>

#include "schedule.h"
#include "vmp.h"
#include "xalloc.h"

/*
 * The lists are C, not JSON: vm-migrate-plan notes step 3's actions
 * while it reads the schedule a group at a time (schedule_check_each),
 * when no older JSON value may change.
 */
static void
lists_init(struct id_lists *l)
{
	memset(l, 0, sizeof *l);
	idmap_init(&l->keys);
}

static void
lists_free(struct id_lists *l)
{
	size_t i;

	for (i = 0; i < l->keys.count; i++)
		free(l->lists[i].ids);
	free(l->lists);
	strpool_free(&l->copies);
	idmap_free(&l->keys);
}

/* push: append a copy of id to the list of key; nothing without a key. */
static void
push(struct id_lists *l, const char *key, const char *id)
{
	struct id_list *list;
	long i;

	if (key == NULL || id == NULL)
		return;
	if ((i = idmap_add(&l->keys, key)) < 0) {
		i = -i - 1;
	} else {
		if ((size_t)i == l->cap) {
			l->cap = l->cap * 2 + 64;
			l->lists = xreallocarray(l->lists, l->cap,
			    sizeof *l->lists);
		}
		l->lists[i] = (struct id_list){ NULL, 0, 0 };
	}
	list = &l->lists[i];
	if (list->n == list->cap) {
		list->cap = list->cap * 2 + 4;
		list->ids = xreallocarray(list->ids, list->cap,
		    sizeof *list->ids);
	}
	list->ids[list->n++] = strpool_copy(&l->copies, id);
}

/* require_list: the last group of groups requires every id of key. */
static void
require_list(const struct id_lists *l, json_t *groups, const char *key)
{
	long i = key != NULL ? idmap_find(&l->keys, key) : -1;
	size_t k;

	for (k = 0; i >= 0 && k < l->lists[i].n; k++)
		sched_require(groups, l->lists[i].ids[k]);
}

static const char *
str(const json_t *obj, const char *key)
{
	return json_string_value(json_object_get(obj, key));
}

void
conditions_init(struct conditions *c)
{
	lists_init(&c->host_actions);
	lists_init(&c->moves_out);
	lists_init(&c->moves_of);
}

void
conditions_free(struct conditions *c)
{
	lists_free(&c->host_actions);
	lists_free(&c->moves_out);
	lists_free(&c->moves_of);
}

/* conditions_note: a scheduled action, once its schedule is built. */
void
conditions_note(struct conditions *c, const json_t *action)
{
	const char *id = str(action, "id"), *vm = str(action, "vm");

	if (vm == NULL) {
		push(&c->host_actions, str(action, "host"), id);
		return;
	}
	push(&c->moves_out, str(action, "source"), id);
	push(&c->moves_of, vm, id);
}

void
conditions_require(const struct conditions *c, json_t *groups,
    const char *vm, const char *destination)
{
	require_list(&c->host_actions, groups, destination);
	require_list(&c->moves_out, groups, destination);
	require_list(&c->moves_of, groups, vm);
}
