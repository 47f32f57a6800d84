/*
 * solver.h: solving one compiled problem exactly.
 *
 * inst.c turns a problem, the requirements in force and the bounds on
 * each offer's node count into an instance over candidate offers, and
 * drops every offer another one dominates (same classes, no dearer,
 * no worse in any row).  dp.c solves instances whose rows have integer
 * coefficients and at most one "unique" partition by dynamic
 * programming over (nodes placed, capped row values); bnb.c solves the
 * rest by branch and bound on the LP relaxation of milp.c's integer
 * program, with simplex.c's bounded primal simplex.  Both are exact:
 * the result is a proven optimum unless a limit stops the search.
 */
#ifndef MATCH_CSP_SOLVER_H
#define MATCH_CSP_SOLVER_H

#include <stddef.h>

#include "problem.h"

enum mc_status {
	ST_OPTIMAL, ST_FEASIBLE, ST_TIMEOUT, ST_INFEASIBLE,
	ST_UNSUITED		/* dp_solve: too big for DP, use bnb */
};

struct mc_limits {
	double deadline;	/* monotonic_seconds(); 0: none */
	double gap;		/* stop within this relative gap */
	int first;		/* stop at the first solution (feasibility) */
	int reduce;		/* drop dominated offers (off: LP export) */
	int method;		/* 0 auto, 1 dynamic programming only, 2 bnb */
	const char *label;	/* for progress messages */
};

struct mc_stats {
	size_t candidates;	/* offers passing the filters */
	size_t vars;		/* after dominance */
	unsigned long nodes;	/* DP states or branch-and-bound nodes */
	unsigned long iterations;	/* simplex pivots */
	const char *method;	/* "dp" or "branch-and-bound" */
};

struct mc_result {
	enum mc_status status;
	int found;		/* count holds a solution */
	long *count;		/* per offer: nodes on it */
	double objective;	/* in the stated direction, with constant */
	double bound;		/* proven bound in the stated direction */
	struct mc_stats st;
};

/* An instance: the problem restricted to candidate offers. */
struct inst {
	long N;
	size_t n;		/* variables: candidate offers */
	size_t *offer;		/* variable -> offer */
	double *cost;		/* to minimise */
	long *lo, *hi;
	size_t nrows;
	size_t *rowreq;		/* the requirement of each row */
	double **a;		/* a[row][var] */
	double *b;
	enum sense *s;
	size_t nparts;
	const struct mc_part **part;
	size_t **cls;		/* cls[part][var] */
	int infeasible;		/* proven while building */
};

/*
 * inst_build: active[req] says which requirements are in force; lo and
 * hi bound each offer's count (running nodes, mitigation, N).
 */
void inst_build(struct inst *in, const struct mc_problem *p,
    const unsigned char *active, const long *lo, const long *hi, int reduce,
    struct mc_stats *st);
void inst_free(struct inst *in);

/* Solvers fill x (per variable) and return the status. */
int dp_applies(const struct inst *in);
enum mc_status dp_solve(const struct inst *in, const struct mc_limits *lim,
    long *x, struct mc_stats *st);
enum mc_status bnb_solve(const struct inst *in, const struct mc_limits *lim,
    long *x, double *bound, int *found, struct mc_stats *st);

/* solve: the whole path from problem to result. */
void solve(const struct mc_problem *p, const unsigned char *active,
    const long *lo, const long *hi, const struct mc_limits *lim,
    struct mc_result *r);
void result_free(struct mc_result *r);

#endif
