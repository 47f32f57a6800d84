/*
 * cgraph.h: the control graph (CG) of seed 000 step 2, as the
 * "control_graph" section holds it.
 *
 * Each vertex is a resource group: RG vertices to be upgraded at the same
 * time.  A group keeps what its members carry: their actions merged per
 * execution level (as action ids into the resource graph, which holds
 * the actions themselves), the upgrade units of each level, the undo
 * units, the failed attempts (the highest member count per undo unit),
 * and whether any member is deactivated, isolated or failed.  Group
 * edges are the members' dependencies on other groups.
 */
#ifndef UPKIT_CGRAPH_H
#define UPKIT_CGRAPH_H

#include <stddef.h>
#include <stdio.h>
#include <jansson.h>

#include "rgraph.h"

struct cg_group {
	const char *id;		/* the smallest member id, bytewise */
	size_t *members;	/* RG vertex indices, in RG order */
	size_t nmembers;
	enum modification mod;
	int deactivated, isolated, failed;
};

struct cg_edge {
	size_t from, to;	/* group indices: dependent, sponsor */
	enum dep_type type;
	enum presence presence;
	int incompatible;
};

struct cgraph {
	const struct rgraph *rg;	/* the graph it coarsens */
	struct cg_group *groups;
	size_t ngroups, groups_cap;
	size_t *group_of;		/* RG vertex -> group */
	struct cg_edge *edges;
	size_t nedges, edges_cap;
	struct idmap ids;		/* read back: group id -> index */
};

void cgraph_free(struct cgraph *cg);
/*
 * cgraph_write: the section's members after "version", streamed into
 * the open section object; cg is a const struct cgraph * (the shape
 * output_json_with() wants).
 */
struct jwriter;
void cgraph_write(struct jwriter *w, const void *cg);
void cgraph_dot(const struct cgraph *cg, FILE *fp);

#endif
