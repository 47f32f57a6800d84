/*
 * plan.h: everything one run computes, and its two written forms: the
 * JSON plan of karamel-plan(5) and a Graphviz drawing of it.
 */
#ifndef KARAMEL_PLAN_H
#define KARAMEL_PLAN_H

#include <stdio.h>

#include "cluster.h"
#include "diff.h"
#include "graph.h"
#include "keyspace.h"
#include "world.h"

#define PLAN_FORMAT "karamel-plan"
#define PLAN_VERSION 1

struct plan {
	struct world world;
	struct cluster old, new;
	struct keyspace keys;
	struct diff diff;
	struct plan_graph graph;
};

/*
 * plan_load: read the Karamelfiles, then the old and the new
 * definition, and check both; returns an exit status.
 */
int plan_load(struct plan *p, const char *old, const char *new,
    char *const *karamelfiles, size_t nkaramelfiles);

/* plan_compute: keys, diff and ordered graph; an exit status. */
int plan_compute(struct plan *p);
void plan_free(struct plan *p);

/* plan_json: the plan document, indented or (compact) on one line. */
void plan_json(const struct plan *p, FILE *fp, int compact);

/* plan_dot: the plan graph in Graphviz, changed keys filled in colour. */
void plan_dot(const struct plan *p, FILE *fp);

/* plan_changes: keys built, reconciled or purged. */
size_t plan_changes(const struct plan *p);

#endif
