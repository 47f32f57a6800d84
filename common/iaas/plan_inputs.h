/*
 * plan_inputs.h: what the planning stages after cg-coarsen read from
 * the state document: the system, the catalog, the resource graph and
 * the control graph, each checked and located in diagnostics.
 */
#ifndef UPKIT_PLAN_INPUTS_H
#define UPKIT_PLAN_INPUTS_H

#include <jansson.h>

#include "access.h"
#include "catalog.h"
#include "cgraph.h"
#include "rgraph.h"
#include "sysconf.h"

struct plan_inputs {
	struct sysconf sc;
	struct catalog cat;
	struct rgraph rg;
	struct cgraph cg;
};

/* plan_inputs_load: check doc and read the four sections; 0 or -1. */
int plan_inputs_load(struct access *a, const json_t *doc,
    struct plan_inputs *in);
/* plan_inputs_free: free what plan_inputs_load read, even partly. */
void plan_inputs_free(struct plan_inputs *in);

#endif
