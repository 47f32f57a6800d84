/*
 * contradictions.c: a system that says two things that cannot both be
 * true is refused with its place, before anything is planned on it
 * (issue 38): a resource contained in two containers (a hypervisor in
 * two hosts), and a cycle of aggregation and storage dependencies, where
 * an aggregate needs, through the storage a member needs, itself (host1
 * needs the storage of vsan, which aggregates host1), and a containment
 * cycle in the system as given, even among resources the graph leaves
 * out (plan_edges checks the graph with its changes too).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "diag.h"
#include "rgb.h"
#include "xalloc.h"

/* cycle_text: a cycle's ids, "a -> b -> a" (a new string). */
static char *
cycle_text(const struct rgb *b, const size_t *cycle, size_t len,
    const char *(*id_of)(const struct rgb *, size_t))
{
	size_t cap = 64, used = 0, i;
	char *msg = xmalloc(cap);
	const char *id;

	msg[0] = '\0';
	for (i = 0; i <= len; i++) {
		id = id_of(b, cycle[i % len]);
		while (used + strlen(id) + 5 > cap)
			msg = xreallocarray(msg, cap *= 2, 1);
		used += (size_t)snprintf(msg + used, cap - used, "%s%s",
		    i ? " -> " : "", id);
	}
	return msg;
}

int
refuse_cycle(const struct rgb *b, struct digraph *g,
    const char *(*id_of)(const struct rgb *, size_t), const char *what)
{
	size_t *order = xcalloc(g->n + 1, sizeof *order);
	size_t *cycle = xcalloc(g->n + 1, sizeof *cycle), len;
	char *msg;

	digraph_build(g);
	if ((len = digraph_topo(g, order, cycle)) > 0) {
		msg = cycle_text(b, cycle, len, id_of);
		diag_path(b->system_name, ".dependencies", "%s dependencies "
		    "form a cycle: %s", what, msg);
		free(msg);
	}
	digraph_free(g);
	free(order);
	free(cycle);
	return len > 0 ? -1 : 0;
}

static const char *
system_id(const struct rgb *b, size_t x)
{
	return b->sc.resources[x].id;
}

/* one_container: no resource is contained in two resources. */
static int
one_container(struct rgb *b)
{
	long *in = xcalloc(b->sc.nresources, sizeof *in);
	const struct dependency *d;
	char path[64];
	size_t i;
	int r = 0;

	for (i = 0; r == 0 && i < b->sc.ndeps; i++) {
		d = &b->sc.deps[i];
		if (d->type != DEP_CONTAINED)
			continue;
		if (in[d->dependent] == 0) {
			in[d->dependent] = (long)d->sponsor + 1;
			continue;
		}
		if ((size_t)in[d->dependent] - 1 == d->sponsor)
			continue;
		snprintf(path, sizeof path, ".dependencies[%zu]", i);
		diag_path(b->system_name, path, "'%s' is contained in both "
		    "'%s' and '%s'", system_id(b, d->dependent),
		    system_id(b, (size_t)in[d->dependent] - 1),
		    system_id(b, d->sponsor));
		r = -1;
	}
	free(in);
	return r;
}

/*
 * relies: the edge types along which an aggregate may not reach itself:
 * its members, and the storage a resource needs to function.  A VM
 * storage dependency (vm-storage) only supports VM operations, so a
 * hyperconverged host of Fig. 1 (host6, aggregated into vsan, its VMs
 * on vsan) is no cycle.
 */
static int
relies(enum dep_type t)
{
	return t == DEP_AGGREGATION || t == DEP_STORAGE;
}

static int
contained(enum dep_type t)
{
	return t == DEP_CONTAINED;
}

/* system_cycle: the system's dependencies of the types in make no cycle. */
static int
system_cycle(struct rgb *b, int (*in)(enum dep_type), const char *what)
{
	struct digraph g;
	size_t i;

	digraph_init(&g, b->sc.nresources);
	for (i = 0; i < b->sc.ndeps; i++)
		if (in(b->sc.deps[i].type))
			digraph_add_edge(&g, b->sc.deps[i].dependent,
			    b->sc.deps[i].sponsor);
	return refuse_cycle(b, &g, system_id, what);
}

int
check_contradictions(struct rgb *b)
{
	return one_container(b) < 0 ||
	    system_cycle(b, contained, "contained") < 0 ||
	    system_cycle(b, relies, "aggregation and storage") < 0 ? -1 : 0;
}
