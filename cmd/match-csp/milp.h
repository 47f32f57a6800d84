/*
 * milp.h: an instance written as a mixed-integer linear program, the
 * form branch and bound relaxes and --export lp prints.
 *
 *   x[v]      nodes on candidate offer v, integer in [lo, hi]
 *   y[p][c]   binary: class c of an allEqual or ->asSet()->size()
 *             partition p is used
 *   nodes:    sum x = N
 *   rows:     sum a x (<=, >=, =) b
 *   unique:   sum over a class of x <= 1 (classes of two offers or more)
 *   allEqual: sum over class c of x <= N y[c];  sum_c y[c] <= 1
 *   distinct: sum over class c of x <= N y[c];  y[c] <= sum over c of x;
 *             sum_c y[c] (<=, >=, =) k
 */
#ifndef MATCH_CSP_MILP_H
#define MATCH_CSP_MILP_H

#include <stddef.h>

#include "solver.h"

struct milp {
	size_t m, n;		/* rows, columns */
	double *A;		/* m x n, row-major */
	double *b;
	char *sense;		/* 'L', 'G' or 'E' */
	double *c;		/* costs, minimised */
	double *lo, *up;
	const char **rowname;	/* kind of each row, for the LP file */
	size_t *rowpart;	/* partition or row number of each row */
	size_t nx;		/* columns 0..nx-1 are the x; then the y */
	size_t *ypart, *ycls;	/* per y column: partition and class */
};

void milp_build(struct milp *mp, const struct inst *in);
void milp_free(struct milp *mp);

enum lp_status { LP_OPTIMAL, LP_INFEASIBLE, LP_UNBOUNDED, LP_LIMIT };

/*
 * lp_solve: the LP relaxation of mp within the bounds lo and up (which
 * replace mp's).  x receives the n column values.
 */
enum lp_status lp_solve(const struct milp *mp, const double *lo,
    const double *up, double *x, double *obj, unsigned long *iters);

#endif
