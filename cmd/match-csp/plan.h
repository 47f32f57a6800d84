/*
 * plan.h: what match-csp decides, and how (seed 004 sections V-VI).
 *
 * By default running nodes are kept (they cost to move): new nodes are
 * added around them (scale-out, failure replacement), or, when fewer
 * nodes are wanted, the cheapest set of running ones that still meets
 * the requirements stays (scale-in).  The full re-plan ignoring running
 * nodes is solved too, so the price of keeping is known.  With grow,
 * Listing 2: start from the smallest feasible node count and add one
 * node at a time, keeping the earlier ones.  When the nodes cannot be
 * placed, a deletion filter names a minimal set of requirements (and
 * the running nodes) that cannot hold together.
 */
#ifndef MATCH_CSP_PLAN_H
#define MATCH_CSP_PLAN_H

#include "expr.h"
#include "model.h"
#include "problem.h"
#include "solver.h"

struct plan_opts {
	long nodes;		/* -n, or -1: the job's */
	int grow, replan;
	int method;		/* --method: 0 auto, 2 branch and bound */
	double time_limit;	/* seconds; 0: none */
	double gap;
	double span;		/* seconds an error keeps its offers out */
	long long now;
	int has_now;
	const char *label;	/* the job's name in diagnostics */
};

/* One error of Table V and what it removed. */
struct mitigation {
	size_t error;		/* index in job->errors */
	int active;
	const char *scope;	/* "provider", "region" or "offer" */
	const char *id;
	size_t offers;		/* offers it took out */
};

struct grow_step {
	long nodes;
	int found;
	enum mc_status status;
	double objective;
};

struct plan {
	const struct mc_model *m;
	const struct mc_job *j;
	struct expr *const *reqs;
	const struct src *srcs;
	struct plan_opts o;
	long N;
	double deadline;
	unsigned char *banned;		/* per offer, by mitigation */
	struct mitigation *mits;
	long *kept;			/* per offer: running nodes kept */
	long nkept;
	int keep;			/* the answer keeps running nodes */
	struct mc_problem prob;		/* compiled for N */
	struct mc_result res;		/* the answer */
	struct mc_result full;		/* the full re-plan, if keep */
	struct grow_step *steps;
	size_t nsteps;
	unsigned char *conflict;	/* per requirement, when infeasible */
	int conflict_running, conflict_minimal;
	double solve_seconds;
};

/* mitigate: apply the job's errors to p->banned (mitigate.c). */
void mitigate(struct plan *p);

/* plan_run: 0, or -1 when a requirement cannot be compiled. */
int plan_run(struct plan *p);
void plan_free(struct plan *p);

/* plan_bounds: lo/hi per offer when keeping running nodes or not. */
void plan_bounds(const struct plan *p, int keep, long *lo, long *hi);

#endif
