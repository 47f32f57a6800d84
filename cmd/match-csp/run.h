/* run.h: one invocation of match-csp, from file names to exit status. */
#ifndef MATCH_CSP_RUN_H
#define MATCH_CSP_RUN_H

#include "output.h"
#include "plan.h"

struct options {
	const char *job;	/* operand, "-" for stdin */
	const char *model;	/* -m */
	int export_lp;		/* -e lp */
	int timing;
	struct plan_opts plan;
	struct output_opts output;	/* -c */
};

int match_csp_run(const struct options *o);

#endif
