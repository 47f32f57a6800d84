/* answer.h: the answer as JSON, and the model as a CPLEX LP file. */
#ifndef MATCH_CSP_ANSWER_H
#define MATCH_CSP_ANSWER_H

#include <jansson.h>

#include "output.h"
#include "plan.h"

/*
 * A proven "no" is an answer, EXIT_INFEASIBLE (exitcodes.h); running
 * out of time before any answer is EXIT_TEMPFAIL, "try again later"
 * (with more time).
 */

/* report_build: the result document (see match-csp(5), OUTPUT). */
json_t *report_build(const struct plan *p, int timing, double total);
/* report_write: write doc as how says, prices rounded to 12 digits. */
int report_write(const json_t *doc, const struct output_opts *how);
/* report_status: the exit status the result calls for. */
int report_status(const struct plan *p);
/* lp_export: the integer program of the answer's mode, CPLEX LP. */
int lp_export(struct plan *p);

#endif
