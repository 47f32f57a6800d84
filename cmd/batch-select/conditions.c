/*
 * conditions.c: the safety conditions of the upgrade schedule (seed 000
 * III.A and IV step 3), as the groups' "requires": what must have
 * succeeded, and stayed applied, before a group may start.  The
 * guarantee must hold when actions fail, not only when they succeed:
 *
 * - a VM moves onto a host only after every earlier planned move out of
 *   that host (its slot, and its anti-affinity group's absence, were
 *   planned on them) and every earlier move of the same VM (it is not
 *   where the plan says otherwise);
 * - a host is taken out of service only after every move out of it
 *   succeeded, so no VM is left on a host that goes down;
 * - a group's upgrade follows its own prerequisites, and its wrap-up
 *   follows its upgrade, so nothing returns to service half done;
 * - a split-mode partition is switched in only after the last one has
 *   gone out, so one version is active at a time.
 */
#include <string.h>

#include "bs.h"
#include "schedule.h"

/* earlier: does move p run in a stage before move q? */
static int
earlier(const struct placed_move *p, const struct placed_move *q)
{
	return p->kind != q->kind ? p->kind < q->kind : p->stage < q->stage;
}

void
require_moves(json_t *groups, const struct placed_move *m, size_t n,
    size_t self)
{
	const struct placed_move *q = &m[self];
	size_t i;

	for (i = 0; i < n; i++)
		if (earlier(&m[i], q) && (strcmp(m[i].from, q->to) == 0 ||
		    strcmp(m[i].vm, q->vm) == 0))
			sched_require(groups, m[i].id);
}

void
add_moves_out(json_t *need, const struct placed_move *m, size_t n,
    const char *host)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (strcmp(m[i].from, host) == 0)
			json_array_append_new(need, json_string(m[i].id));
}

void
add_action_ids(json_t *need, const json_t *list)
{
	const json_t *a;
	size_t i;

	json_array_foreach(list, i, a)
		json_array_append(need, json_object_get(a, "id"));
}
