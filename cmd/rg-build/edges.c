/*
 * edges.c: the edges of the resource graph (seed 000 II.E).  System
 * dependencies are current/future unless a change removes them or
 * retires an end (current); the dependencies a change set adds (the new
 * configuration of a PPU, a requested dependency) are future until the
 * system shows them.  A peer dependency, written once, is a pair of
 * edges.  The incompatibility-factor is set on current/future edges
 * whose ends both change, when one end's new products and the other's
 * old ones are not compatible along the edge's type (the catalog's
 * "compatible" rules): the mixed-version moment an upgrade method must
 * avoid.
 */
#include <stdlib.h>
#include <string.h>

#include "diag.h"
#include "rgb.h"
#include "xalloc.h"

/* retiring: r's vertex is removed by a live change set. */
static int
retiring(const struct rgb *b, const struct res *r)
{
	size_t i;

	for (i = 0; i < r->ntr; i++)
		if (tref_tr(b, r->tr[i])->destroy &&
		    tref_tr(b, r->tr[i])->status == TR_PENDING)
			return 1;
	return 0;
}

/* sys_dep: the system dependency d -> s of type, or -1. */
static long
sys_dep(const struct rgb *b, long d, long s, enum dep_type type)
{
	const size_t *out;
	size_t n, k;

	if (d < 0 || s < 0 || (size_t)d >= b->sc.nresources ||
	    (size_t)s >= b->sc.nresources)
		return -1;
	out = digraph_out(&b->sysg, (size_t)d, &n);
	for (k = 0; k < n; k++)
		if (b->sysg.dst[out[k]] == (size_t)s &&
		    b->sc.deps[out[k]].type == type)
			return (long)out[k];
	return -1;
}

static void
add_edge(struct rgb *b, enum dep_type type, size_t d, size_t s,
    enum presence p)
{
	rgraph_add_edge(&b->out, type, b->res[d].vertex, b->res[s].vertex, p);
	if (type == DEP_PEER)
		rgraph_add_edge(&b->out, type, b->res[s].vertex,
		    b->res[d].vertex, p);
}

int
dep_ends_known(struct rgb *b, struct access *a, const struct dep_change *dc)
{
	if (res_find(b, dc->dependent) < 0)
		return access_fail_at(a, "dependent", "no resource has id "
		    "\"%s\"", dc->dependent);
	if (res_find(b, dc->sponsor) < 0)
		return access_fail_at(a, "sponsor", "no resource has id \"%s\"",
		    dc->sponsor);
	return 0;
}

static int
set_ends_known(struct rgb *b, struct access *a, const struct change_set *cs)
{
	size_t k, i;
	int r = 0;

	access_enter_key(a, "changes");
	for (k = 0; r == 0 && k < cs->nchanges; k++) {
		access_enter_index(a, k);
		access_enter_key(a, "adds_dependencies");
		for (i = 0; r == 0 && i < cs->changes[k].ndeps; i++) {
			access_enter_index(a, i);
			r = dep_ends_known(b, a, &cs->changes[k].deps[i]);
			access_leave(a);
		}
		access_leave(a);
		access_leave(a);
	}
	access_leave(a);
	return r;
}

/*
 * check_dep_ends: the dependencies that the live change sets of the
 * state document's request model add name resources rg-build knows (a
 * request given with -r is checked when it is resolved).
 */
int
check_dep_ends(struct rgb *b)
{
	struct access a;
	size_t q, s;
	int r = 0;

	access_init(&a, b->state_name);
	access_enter_key(&a, "requests");
	access_enter_key(&a, "requests");
	for (q = 0; r == 0 && q < b->model.nreqs; q++) {
		access_enter_index(&a, q);
		access_enter_key(&a, "change_sets");
		for (s = 0; r == 0 && s < b->model.reqs[q].nsets; s++) {
			access_enter_index(&a, s);
			if (change_set_live(&b->model.reqs[q].sets[s]))
				r = set_ends_known(b, &a,
				    &b->model.reqs[q].sets[s]);
			access_leave(&a);
		}
		access_leave(&a);
		access_leave(&a);
	}
	access_free(&a);
	return r;
}

/* change_deps: what live changes add (future) or remove (current). */
static void
change_deps(struct rgb *b, char *removed, int add)
{
	size_t q, s, k, i;

	for (q = 0; q < b->model.nreqs; q++)
		for (s = 0; s < b->model.reqs[q].nsets; s++) {
			const struct change_set *cs = &b->model.reqs[q].sets[s];

			for (k = 0; change_set_live(cs) && k < cs->nchanges; k++)
				for (i = 0; i < cs->changes[k].ndeps; i++) {
					const struct dep_change *dc =
					    &cs->changes[k].deps[i];
					long d = res_find(b, dc->dependent);
					long sp = res_find(b, dc->sponsor);
					long e = sys_dep(b, d, sp, dc->type);

					if (cs->changes[k].op == OP_REMOVE) {
						if (e >= 0)
							removed[e] = 1;
					} else if (add && e < 0 && b->res[d].in_graph &&
					    b->res[sp].in_graph)
						add_edge(b, dc->type, (size_t)d,
						    (size_t)sp, PRES_FUTURE);
				}
		}
}

static void
system_edges(struct rgb *b, const char *removed)
{
	size_t i;

	for (i = 0; i < b->sc.ndeps; i++) {
		const struct dependency *d = &b->sc.deps[i];
		struct res *x = &b->res[d->dependent], *y = &b->res[d->sponsor];

		if (!x->in_graph || !y->in_graph)
			continue;
		add_edge(b, d->type, d->dependent, d->sponsor,
		    removed[i] || retiring(b, x) || retiring(b, y) ?
		    PRES_CURRENT : PRES_BOTH);
	}
}

static const char *
vertex_id(const struct rgb *b, size_t x)
{
	return b->out.v[x].id;
}

/* check_cycles: containment must be a forest; name a cycle's ids. */
static int
check_cycles(struct rgb *b)
{
	struct digraph g;
	size_t i;

	digraph_init(&g, b->out.nv);
	for (i = 0; i < b->out.ne; i++)
		if (b->out.e[i].type == DEP_CONTAINED)
			digraph_add_edge(&g, b->out.e[i].dependent,
			    b->out.e[i].sponsor);
	return refuse_cycle(b, &g, vertex_id, "contained");
}

int
plan_edges(struct rgb *b)
{
	char *removed = xcalloc(b->sc.ndeps, 1);

	change_deps(b, removed, 0);
	system_edges(b, removed);
	change_deps(b, removed, 1);
	free(removed);
	return check_cycles(b);
}
