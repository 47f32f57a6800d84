/*
 * ended.c: -v, a line on standard error for each group of the
 * iteration's schedules as it ends, in simulated time:
 *
 *	upkit-sim: 0:42:00 i3 upgrade host6: done (6 of 16 groups)
 *
 * the time since the iteration started, the schedule, stage and group
 * ids, and how the group ended: done, failed at the action that
 * failed, blocked (an action it requires failed) or not run (its
 * resource failed in an earlier stage).  The groups of a stage run in
 * parallel and all end before the next stage starts, so a stage's lines
 * are told once it has run, in the order its groups end.
 */
#include <stdlib.h>
#include <string.h>

#include "diag.h"
#include "sim.h"
#include "xalloc.h"

void
ended_init(struct ended_groups *e, int on, const struct sched_list *l)
{
	const json_t *stage;
	size_t i, k;

	memset(e, 0, sizeof *e);
	e->on = on;
	for (i = 0; on && i < l->n; i++)
		json_array_foreach(json_object_get(l->sched[i], "stages"), k,
		    stage)
			e->total += (long)json_array_size(json_object_get(stage,
			    "groups"));
}

void
ended_add(struct ended_groups *e, ms_t end, char *what)
{
	if (!e->on) {
		free(what);
		return;
	}
	if (e->n == e->cap) {
		e->cap = e->cap ? 2 * e->cap : 16;
		e->v = xreallocarray(e->v, e->cap, sizeof *e->v);
	}
	e->v[e->n].end = end;
	e->v[e->n].seq = e->n;
	e->v[e->n].what = what;
	e->n++;
}

/* by_end: earlier ends first; on a tie, the group that started first. */
static int
by_end(const void *pa, const void *pb)
{
	const struct ended_group *a = pa, *b = pb;

	if (a->end != b->end)
		return a->end < b->end ? -1 : 1;
	return a->seq < b->seq ? -1 : a->seq > b->seq;
}

void
ended_tell(struct ended_groups *e, ms_t since)
{
	ms_t t;
	size_t i;

	if (e->n == 0)
		return;
	qsort(e->v, e->n, sizeof *e->v, by_end);
	for (i = 0; i < e->n; i++) {
		t = (e->v[i].end - since) / 1000;
		diag_note("%lld:%02lld:%02lld %s (%ld of %ld groups)",
		    (long long)(t / 3600), (long long)(t % 3600 / 60),
		    (long long)(t % 60), e->v[i].what, ++e->told, e->total);
		free(e->v[i].what);
	}
	e->n = 0;
}

void
ended_free(struct ended_groups *e)
{
	size_t i;

	for (i = 0; i < e->n; i++)
		free(e->v[i].what);
	free(e->v);
	e->v = NULL;
	e->n = e->cap = 0;
}
