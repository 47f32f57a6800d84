/*
 * units.c: incompatibility-factors and upgrade units (seed 000 III.A
 * and step 1).  Every execution level belongs to one upgrade unit:
 *
 * - the levels of a Partial Parallel Universe change (a VM-supporting
 *   storage or controller replaced by an incompatible one) form one
 *   "ppu" unit naming the old and the new resource;
 * - levels of the same arrival and order joined by incompatible edges
 *   form a "split" unit: its resources are divided into two partitions,
 *   ends of an incompatible peer dependency (redundant resources) on
 *   opposite sides, ends of any other incompatible dependency on the
 *   same side, so that one partition upgrades while the other serves
 *   and only one version is ever active;
 * - everything else is upgraded one resource group at a time: a
 *   "rolling" unit per arrival and order; undo levels get a rolling
 *   unit per undo unit, or a split unit when undoing crosses an
 *   incompatibility as the change did.
 *
 * Unit ids are made of stable names (undo unit, arrival, the smallest
 * member id), so they stay the same across iterations.
 */
#include <stdlib.h>
#include <string.h>

#include "digraph.h"
#include "rgb.h"
#include "schedule.h"
#include "unionfind.h"
#include "xalloc.h"

/*
 * replaced: the root's transition of the old resource that the level
 * of ref works toward: a change that replaces several storages (one per
 * pod, say) is one Partial Parallel Universe per storage, each with its
 * own hosts and partition.
 */
static uint32_t
replaced(struct rgb *b, const struct change *root, struct tref ref,
    int is_root)
{
	const struct change *c = tref_change(b, ref);
	long k;
	uint32_t first;

	if (is_root)
		return root->tr[ref.tr].destroy || ref.tr == 0 ? ref.tr :
		    ref.tr - 1;
	if ((k = served_by(b, root, c->tr[ref.tr].resource)) >= 0)
		return (uint32_t)k;
	for (first = 0; first < root->ntr; first++)
		if (root->tr[first].destroy)
			return first;
	return 0;
}

size_t
ppu_unit(struct rgb *b, struct tref ref)
{
	const struct change *c = tref_change(b, ref);
	uint32_t root = c->of ? (uint32_t)c->of - 1 : ref.change, k;
	const struct change *rc = &tref_set(b, ref)->changes[root];
	const char *old;
	char *id;
	size_t u, n, len;

	k = replaced(b, rc, ref, c->of == 0);
	old = served_replacements(b, rc) > 1 ? rc->tr[k].resource : NULL;
	len = strlen(tref_set(b, ref)->uid) + (old ? strlen(old) : 0) + 32;
	id = xmalloc(len);
	snprintf(id, len, "ppu:%s.%u%s%s", tref_set(b, ref)->uid, root + 1,
	    old ? ":" : "", old ? old : "");
	n = b->out.nunits;
	u = rgraph_unit(&b->out, id, METHOD_PPU);
	free(id);
	if (u == n) {
		b->out.units[u].old_id = rc->tr[k].resource;
		if (k + 1 < rc->ntr && rc->tr[k + 1].create >= 0)
			b->out.units[u].new_id = rc->tr[k + 1].resource;
	}
	return u;
}

static int
compatible_sets(const struct rgb *b, const struct pstate *x,
    const struct pstate *y, enum dep_type type)
{
	size_t i, j;

	for (i = 0; i < x->n; i++)
		for (j = 0; j < y->n; j++)
			if (!rgb_compatible(b, x->p[i], y->p[j], type))
				return 0;
	return 1;
}

static int
same_set(const struct pstate *x, const struct pstate *y)
{
	size_t i;

	if (x->n != y->n)
		return 0;
	for (i = 0; i < x->n; i++)
		if (!pv_equal(x->p[i], pstate_get(y, x->p[i].product)))
			return 0;
	return 1;
}

/* mark_incompatible: set the incompatibility-factor of every edge. */
static void
mark_incompatible(struct rgb *b, const struct pstate *cur,
    const struct pstate *tgt)
{
	size_t i;

	for (i = 0; i < b->out.ne; i++) {
		struct rg_edge *e = &b->out.e[i];
		size_t d = e->dependent, s = e->sponsor;

		if (e->presence != PRES_BOTH || same_set(&cur[d], &tgt[d]) ||
		    same_set(&cur[s], &tgt[s]))
			continue;
		e->incompatible = !compatible_sets(b, &tgt[d], &cur[s], e->type) ||
		    !compatible_sets(b, &cur[d], &tgt[s], e->type);
	}
}

/* undo_target: take back what the sets being undone changed on r, so
 * that undoing is checked for incompatibilities as the change was. */
static void
undo_target(const struct rgb *b, const struct res *r, struct pstate *s)
{
	size_t k;

	for (k = r->ntr; k-- > 0;) {
		const struct transition *t = tref_tr(b, r->tr[k]);
		struct transition back;

		if (!set_undoing(tref_set(b, r->tr[k])) || !needs_undo(t))
			continue;
		back = *t;
		back.from = t->to;
		back.to = t->create >= 0 ? (struct pv){ NULL, NULL } : t->undo;
		pstate_apply(b, s, &back);
	}
}

static void
project_all(struct rgb *b, struct pstate *cur, struct pstate *tgt)
{
	size_t i, k;

	for (i = 0; i < b->nres; i++) {
		struct res *r = &b->res[i];

		if (!r->in_graph)
			continue;
		pstate_from_system(b, r, &cur[r->vertex]);
		for (k = 0; k < r->ntr; k++)
			if (tref_tr(b, r->tr[k])->status == TR_DONE)
				pstate_apply(b, &cur[r->vertex],
				    tref_tr(b, r->tr[k]));
		pstate_projected(b, r, &tgt[r->vertex]);
		undo_target(b, r, &tgt[r->vertex]);
	}
}

/* plain: a level that no PPU claims: forward, or the undo of a set. */
static int
plain(const struct rgb *b, size_t l)
{
	return b->lv[l].ppu_unit < 0;
}

/* same_key: levels k and l go together: the same arrival and order, or
 * the undo of the same set (undoing a split-mode change needs split mode
 * too, or the resources undone first run beside those not yet undone). */
static int
same_key(const struct rgb *b, size_t k, size_t l)
{
	if (b->lv[k].arrival != b->lv[l].arrival)
		return 0;
	if (b->lv[l].arrival == 0)
		return strcmp(b->lv[k].undo_unit, b->lv[l].undo_unit) == 0;
	return b->lv[k].sub == b->lv[l].sub;
}

/* matching_level: v's plain level with the same key as level l, or -1. */
static long
matching_level(const struct rgb *b, size_t v, size_t l)
{
	const struct rg_vertex *x = &b->out.v[v];
	size_t k;

	for (k = x->first_level; k < x->first_level + x->nlevels; k++)
		if (plain(b, k) && same_key(b, k, l))
			return (long)k;
	return -1;
}

/* join: union the levels along incompatible edges (peer: all or none). */
static void
join(struct rgb *b, struct unionfind *all, struct unionfind *block)
{
	size_t i, k;
	long m;

	for (i = 0; i < b->out.ne; i++) {
		const struct rg_edge *e = &b->out.e[i];
		const struct rg_vertex *x = &b->out.v[e->dependent];

		if (!e->incompatible)
			continue;
		for (k = x->first_level; k < x->first_level + x->nlevels; k++) {
			if (!plain(b, k) || (m = matching_level(b, e->sponsor,
			    k)) < 0)
				continue;
			uf_union(all, k, (size_t)m);
			if (e->type != DEP_PEER)
				uf_union(block, k, (size_t)m);
		}
	}
}

/* peer_graph: blocks joined by incompatible peer edges, both ways. */
static void
peer_graph(struct rgb *b, struct unionfind *block, struct digraph *g)
{
	size_t i, k, p, q;
	long m;

	digraph_init(g, b->out.nlevels);
	for (i = 0; i < b->out.ne; i++) {
		const struct rg_edge *e = &b->out.e[i];
		const struct rg_vertex *x = &b->out.v[e->dependent];

		if (!e->incompatible || e->type != DEP_PEER)
			continue;
		for (k = x->first_level; k < x->first_level + x->nlevels; k++) {
			if (!plain(b, k) || (m = matching_level(b, e->sponsor,
			    k)) < 0)
				continue;
			p = uf_find(block, k);
			q = uf_find(block, (size_t)m);
			digraph_add_edge(g, p, q);
			digraph_add_edge(g, q, p);
		}
	}
	digraph_build(g);
}

/* color_from: colour p's side 0, then its peers 1, theirs 0, ... */
static void
color_from(const struct digraph *g, size_t p, signed char *color,
    size_t *queue)
{
	size_t head, tail, n, k;
	const size_t *out;

	color[p] = 0;
	queue[0] = p;
	for (head = 0, tail = 1; head < tail; head++) {
		out = digraph_out(g, queue[head], &n);
		for (k = 0; k < n; k++) {
			size_t q = g->dst[out[k]];

			if (color[q] < 0) {
				color[q] = (signed char)!color[queue[head]];
				queue[tail++] = q;
			}
		}
	}
}

/* deactivated_levels: per level, whether its resource is out of service. */
static char *
deactivated_levels(const struct rgb *b)
{
	char *out = xcalloc(b->out.nlevels, 1);
	size_t v, l;

	for (v = 0; v < b->out.nv; v++)
		for (l = b->out.v[v].first_level;
		    l < b->out.v[v].first_level + b->out.v[v].nlevels; l++)
			out[l] = (char)b->out.v[v].deactivated;
	return out;
}

/*
 * color_blocks: two partitions, peers apart, blocks together: a
 * breadth-first 2-colouring from each block not yet reached, in level
 * order (an odd ring of peers leaves one pair on the same side).  The
 * first partition goes first while the second serves (III.A), so the
 * colouring starts from a deactivated resource where there is one: a
 * router left out of service by a failed change is undone while its
 * active peer serves, never the other way round.
 */
static void
color_blocks(struct rgb *b, struct unionfind *all, struct unionfind *block,
    signed char *color)
{
	size_t *queue = xmalloc((b->out.nlevels + 1) * sizeof *queue);
	char *out_of_service = deactivated_levels(b);
	size_t l;
	int pass;
	struct digraph g;

	peer_graph(b, block, &g);
	for (pass = 0; pass < 2; pass++)
		for (l = 0; l < b->out.nlevels; l++) {
			size_t p = uf_find(block, l);

			if (all->size[uf_find(all, l)] < 2 || color[p] >= 0 ||
			    (pass == 0 && !out_of_service[l]))
				continue;
			color_from(&g, p, color, queue);
		}
	digraph_free(&g);
	free(out_of_service);
	free(queue);
}

/* smallest_members: per component root, its smallest member id. */
static const char **
smallest_members(const struct rgb *b, struct unionfind *all,
    const size_t *vertex_of)
{
	const char **best = xcalloc(b->out.nlevels, sizeof *best);
	size_t l, r;

	for (l = 0; l < b->out.nlevels; l++) {
		const char *id = b->out.v[vertex_of[l]].id;

		r = uf_find(all, l);
		if (best[r] == NULL || strcmp(id, best[r]) < 0)
			best[r] = id;
	}
	return best;
}

static size_t
split_unit(struct rgb *b, struct unionfind *all, size_t l,
    const char **smallest, size_t *unit_of_root)
{
	size_t root = uf_find(all, l), u;
	char *id;

	if (unit_of_root[root] != (size_t)-1)
		return unit_of_root[root];
	if (b->lv[l].arrival == 0)
		id = sched_format("split:undo:%s:%s", b->lv[l].undo_unit,
		    smallest[root]);
	else
		id = sched_format("split:%ld.%d:%s", b->lv[l].arrival,
		    b->lv[l].sub, smallest[root]);
	u = rgraph_unit(&b->out, id, METHOD_SPLIT);
	free(id);
	b->out.units[u].partitions = json_pack("[[],[]]");
	return unit_of_root[root] = u;
}

static size_t
level_unit(struct rgb *b, struct unionfind *all, size_t l,
    const char **smallest, size_t *unit_of_root)
{
	char *id;
	size_t u;

	if (b->lv[l].ppu_unit >= 0)
		return (size_t)b->lv[l].ppu_unit;
	if (all->size[uf_find(all, l)] > 1)
		return split_unit(b, all, l, smallest, unit_of_root);
	if (b->lv[l].arrival == 0)
		id = sched_format("undo:%s", b->lv[l].undo_unit);
	else
		id = sched_format("rolling:%ld.%d", b->lv[l].arrival,
		    b->lv[l].sub);
	u = rgraph_unit(&b->out, id, METHOD_ROLLING);
	free(id);
	return u;
}

static void
assign_units(struct rgb *b, struct unionfind *all, struct unionfind *block,
    const signed char *color)
{
	size_t *vertex_of = xcalloc(b->out.nlevels, sizeof *vertex_of);
	size_t *unit_of_root = xmalloc((b->out.nlevels + 1) *
	    sizeof *unit_of_root);
	const char **smallest;
	size_t v, l;

	memset(unit_of_root, 0xff, (b->out.nlevels + 1) * sizeof *unit_of_root);
	for (v = 0; v < b->out.nv; v++)
		for (l = b->out.v[v].first_level;
		    l < b->out.v[v].first_level + b->out.v[v].nlevels; l++)
			vertex_of[l] = v;
	smallest = smallest_members(b, all, vertex_of);
	for (l = 0; l < b->out.nlevels; l++) {
		struct rg_unit *u;

		b->out.levels[l].unit = level_unit(b, all, l, smallest,
		    unit_of_root);
		u = &b->out.units[b->out.levels[l].unit];
		if (u->method == METHOD_SPLIT)
			json_array_append_new(json_array_get(u->partitions,
			    color[uf_find(block, l)] > 0),
			    json_string(b->out.v[vertex_of[l]].id));
	}
	free(smallest);
	free(vertex_of);
	free(unit_of_root);
}

void
plan_units(struct rgb *b)
{
	struct pstate *cur = xcalloc(b->out.nv, sizeof *cur);
	struct pstate *tgt = xcalloc(b->out.nv, sizeof *tgt);
	signed char *color = xmalloc(b->out.nlevels + 1);
	struct unionfind all, block;
	size_t i;

	project_all(b, cur, tgt);
	mark_incompatible(b, cur, tgt);
	for (i = 0; i < b->out.nv; i++) {
		pstate_free(&cur[i]);
		pstate_free(&tgt[i]);
	}
	free(cur);
	free(tgt);
	uf_init(&all, b->out.nlevels);
	uf_init(&block, b->out.nlevels);
	memset(color, 0xff, b->out.nlevels + 1);
	join(b, &all, &block);
	color_blocks(b, &all, &block, color);
	assign_units(b, &all, &block, color);
	uf_free(&all);
	uf_free(&block);
	free(color);
}
