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
 *
 * The moves are indexed by source host and by VM, so that finding what
 * a move or a group relies on costs what it finds, not every move.
 */
#include <stdlib.h>

#include "bs.h"
#include "schedule.h"
#include "xalloc.h"

/* bucket: CSR lists of the moves by key (a host or a VM index). */
static void
bucket(size_t nkeys, size_t n, const size_t *key, size_t **start,
    size_t **list)
{
	size_t *fill, i;

	*start = xcalloc(nkeys + 2, sizeof **start);
	*list = xmalloc(n * sizeof **list);
	for (i = 0; i < n; i++)
		(*start)[key[i] + 1]++;
	for (i = 0; i < nkeys; i++)
		(*start)[i + 1] += (*start)[i];
	fill = xmalloc(nkeys * sizeof *fill);
	for (i = 0; i < nkeys; i++)
		fill[i] = (*start)[i];
	for (i = 0; i < n; i++)
		(*list)[fill[key[i]]++] = i;
	free(fill);
}

void
move_index_build(struct move_index *x, const struct bs *b)
{
	size_t *key = xmalloc(b->nmoves * sizeof *key), i;

	for (i = 0; i < b->nmoves; i++)
		key[i] = b->moves[i].from;
	bucket(b->cl.nhosts, b->nmoves, key, &x->out_start, &x->out);
	for (i = 0; i < b->nmoves; i++)
		key[i] = b->moves[i].vm;
	bucket(b->in.sc.nvms, b->nmoves, key, &x->vm_start, &x->vm);
	free(key);
}

void
move_index_free(struct move_index *x)
{
	free(x->out_start);
	free(x->out);
	free(x->vm_start);
	free(x->vm);
}

/* earlier: does move p run in a stage before move q? */
static int
earlier(const struct placed_move *p, const struct placed_move *q)
{
	return p->kind != q->kind ? p->kind < q->kind : p->stage < q->stage;
}

/* require_if_earlier: the last group of groups needs move i when it runs
 * before move self. */
static void
require_if_earlier(json_t *groups, const struct placed_move *m, size_t i,
    size_t self)
{
	if (earlier(&m[i], &m[self]))
		sched_require(groups, m[i].id);
}

/*
 * require_moves: the moves off self's destination and the moves of its
 * VM, both lists in move order, merged so that the ids come in move
 * order too.
 */
void
require_moves(json_t *groups, const struct bs *b, const struct placed_move *m,
    const struct move_index *x, size_t self)
{
	size_t to = b->moves[self].to, vm = b->moves[self].vm;
	size_t i = x->out_start[to], ie = x->out_start[to + 1];
	size_t j = x->vm_start[vm], je = x->vm_start[vm + 1];

	while (i < ie || j < je) {
		if (j >= je || (i < ie && x->out[i] <= x->vm[j]))
			require_if_earlier(groups, m, x->out[i++], self);
		else
			require_if_earlier(groups, m, x->vm[j++], self);
	}
}

void
add_moves_out(json_t *need, const struct bs *b, const struct placed_move *m,
    const struct move_index *x, const char *host)
{
	long r = idmap_find(&b->in.sc.resource_ids, host);
	size_t h, k;

	if (r < 0 || (h = b->cl.host_of[r]) == CLOUD_NONE)
		return;
	for (k = x->out_start[h]; k < x->out_start[h + 1]; k++)
		json_array_append_new(need, json_string(m[x->out[k]].id));
}

void
add_action_ids(json_t *need, const json_t *list)
{
	const json_t *a;
	size_t i;

	json_array_foreach(list, i, a)
		json_array_append(need, json_object_get(a, "id"));
}
