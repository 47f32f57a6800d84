/*
 * machines.c: which group of a cluster each machine belongs to, shared
 * by the groups that list their machines (group.c) and the providers
 * that name them (provider.c).
 */
#include <string.h>

#include "cluster.h"
#include "xalloc.h"

int
cluster_add_machine(struct world *w, struct cluster *c, struct group *g,
    const char *id, long *other)
{
	long m = idmap_add(&w->machines, id);
	size_t old = c->group_of_len;

	if (m < 0)
		m = -m - 1;
	if ((size_t)m >= c->group_of_len) {
		c->group_of_len = w->machines.count > 2 * old ?
		    w->machines.count : 2 * old;
		c->group_of = xreallocarray(c->group_of, c->group_of_len,
		    sizeof *c->group_of);
		memset(c->group_of + old, 0xff,
		    (c->group_of_len - old) * sizeof *c->group_of);
	}
	if ((*other = c->group_of[m]) >= 0)
		return -1;
	c->group_of[m] = (long)g->index;
	if ((g->nmachines & (g->nmachines - 1)) == 0)
		g->machines = xreallocarray(g->machines,
		    g->nmachines ? 2 * g->nmachines : 1, sizeof *g->machines);
	g->machines[g->nmachines++] = (size_t)m;
	return 0;
}
