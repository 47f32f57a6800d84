/*
 * problem.h: the requirements compiled against the offers.
 *
 * Written per offer, a requirement becomes one of four things:
 *   a filter      offers its nodes may use (forAll, min >= k, ...);
 *   a row         sum over offers of coef[o] * x[o] (<=, >=, =) rhs,
 *                 x[o] being the number of nodes on offer o (exists,
 *                 count, sum, avg and linear mixtures of them);
 *   a partition   classes of offers with a rule on how many nodes a
 *                 class takes: at most one (unique), all in one class
 *                 (allEqual), or how many classes are used (->asSet()
 *                 ->size());
 *   the objective coefficients to minimise (default: the price).
 * Each part remembers the requirement it came from, so that a solve can
 * leave requirements out (the deletion filter of plan.c).
 */
#ifndef MATCH_CSP_PROBLEM_H
#define MATCH_CSP_PROBLEM_H

#include <stddef.h>

#include "expr.h"
#include "model.h"

enum sense { S_LE, S_GE, S_EQ };

struct mc_filter {
	size_t req;
	unsigned char *ok;		/* per offer */
};

struct mc_row {
	size_t req;
	double *coef;			/* per offer */
	double rhs;
	enum sense sense;
};

enum part_kind { P_UNIQUE, P_ALLEQUAL, P_DISTINCT };

struct mc_part {
	size_t req;
	enum part_kind kind;
	size_t *cls;			/* per offer; MC_NONE: in no class */
	size_t ncls;
	enum sense sense;		/* P_DISTINCT: classes used (sense) rhs */
	double rhs;
};

struct mc_problem {
	const struct mc_model *model;
	size_t noffers, nreqs;
	long nodes;			/* N: the node count compiled for */
	struct mc_filter *filters;
	size_t nfilters;
	struct mc_row *rows;
	size_t nrows;
	struct mc_part *parts;
	size_t nparts;
	double *obj;			/* per offer, in the stated direction */
	double obj_const;
	int maximise;
	size_t obj_req;			/* MC_NONE: the default, total price */
};

/*
 * problem_compile: compile reqs (parsed trees, with their sources for
 * messages) for a component of nodes nodes.  Returns 0, or -1 when a
 * requirement is beyond what can be solved exactly (diagnosed).
 */
int problem_compile(struct mc_problem *p, const struct mc_model *m,
    struct expr *const *reqs, const struct src *srcs, size_t nreqs,
    long nodes);
void problem_free(struct mc_problem *p);

#endif
