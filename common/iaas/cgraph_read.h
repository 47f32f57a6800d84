/*
 * cgraph_read.h: read the "control_graph" section (made by cg-coarsen)
 * back into a struct cgraph over the resource graph it coarsens.
 *
 * cgraph_load() checks types, unknown fields, unique group ids, that
 * every member is a vertex of the resource graph in exactly one group,
 * and that every edge joins two groups, so that later stages (batch-
 * select, vm-migrate-plan) can index without checking again.  A group's
 * actions stay in the resource graph: the first execution level of a
 * group is the first level of each of its members.
 */
#ifndef UPKIT_CGRAPH_READ_H
#define UPKIT_CGRAPH_READ_H

#include <jansson.h>

#include "access.h"
#include "cgraph.h"

/* cgraph_load: section into cg (zeroed by the caller); 0 or -1. */
int cgraph_load(struct access *a, const json_t *section,
    const struct rgraph *rg, struct cgraph *cg);

#endif
