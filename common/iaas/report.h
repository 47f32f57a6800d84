/*
 * report.h: the upgrade iteration report (seed 000 III.B, Fig. 3 and
 * 4), as the "report" section holds it; see upkit-state(5), "The
 * report section".  An actuator collects the schedules it runs with
 * sched_list_collect() (schedule.h), hands in the result of every action
 * in schedule order, and gets the section back from report_finish():
 *
 *	struct report r;
 *	report_init(&r, &rg, requests);
 *	report_schedule(&r, "i1");
 *	report_action(&r, action, RESULT_FAILED);
 *	state_put(doc, SECTION_REPORT,
 *	    report_finish(&r, rg.iteration, time, "ansible"));
 *	report_free(&r);
 *
 * Upgrade actions (those with an undo_unit) go to "results", which
 * rg-build reads; every other action and replacement to
 * "other_results".  Failed resources, isolated-only resources (failed
 * attempts over max-retry, counted as rg-build counts them) and failed
 * undo units follow from the results; so do the failed activations, the
 * wrap-up actions that bring a resource back into service, counted by
 * resource, which rg-build counts as failed attempts (seed 000 III.A).  An actuator that runs actions
 * itself (upkit-sim) may report an action again as its result changes
 * (succeeded, then undone): the new result replaces the old one in its
 * place.
 */
#ifndef UPKIT_REPORT_H
#define UPKIT_REPORT_H

#include <jansson.h>

#include "access.h"
#include "idmap.h"
#include "rgraph.h"

enum action_result {
	RESULT_SUCCEEDED, RESULT_FAILED, RESULT_UNDONE, RESULT_UNDO_FAILED,
	RESULT_NOT_RUN, RESULT_BLOCKED
};
extern const char *const report_result_names[];	/* "succeeded", ... */

struct report {
	json_t *schedules, *results, *other, *skipped;
	json_t *failed, *isolated, *units, *unreachable;
	json_t *activations;	/* resource id -> failed wrap-up actions */
	struct idmap failed_ids, isolated_ids, unit_ids, host_ids;
	const struct rgraph *rg;	/* may be NULL */
	const json_t *requests;		/* the requests section, or NULL */
	struct idmap rg_actions;	/* first-level action id -> index */
	size_t *rg_vertex;		/* beside rg_actions: its vertex */
	const struct rg_action **rg_action;	/* and the action */
};

/*
 * report_init: rg and requests give failed attempts and max-retry.
 * Without rg, isolated_resources stays empty and rg-build decides
 * isolation at max-retry from the results alone.
 */
void report_init(struct report *r, const struct rgraph *rg,
    const json_t *requests);
void report_schedule(struct report *r, const char *sched_id);
/*
 * report_action: the result of a scheduled action (its object).  Its
 * replacement (on_failure), if any, is not-run until report_step()
 * says otherwise.  An undo-failed action leaves its resource failed
 * once its max-retry is reached (before, the resource is tried again),
 * unless it is a migration: a VM is no resource of the system.
 */
void report_action(struct report *r, const json_t *action,
    enum action_result res);
/*
 * report_unmet: the reason the group may not start, a new string, when
 * an action it requires has not succeeded or not stayed applied by the
 * results reported so far; NULL when it may start.  *blocked is set
 * when that action failed (failed, undone, undo-failed or blocked), not
 * merely did not run.
 */
char *report_unmet(const struct report *r, const json_t *group, int *blocked);
/*
 * report_skip: every action of group is not run for reason, which the
 * report's "skipped" keeps by action id: "blocked" when what it
 * required failed, which counts as a failed attempt of an upgrade
 * action's operation toward max-retry, else "not-run".
 */
void report_skip(struct report *r, const json_t *group, const char *reason,
    int blocked);
/* report_step: the result of a replacement (on_failure) by its id. */
void report_step(struct report *r, const char *id, enum action_result res);
void report_unreachable(struct report *r, const char *host);
/* report_failed: a resource found failed outside any action's result. */
void report_failed(struct report *r, const char *resource);
/* report_finish: the section (a new reference, without "version"). */
json_t *report_finish(struct report *r, long iteration, const char *time,
    const char *actuator);
void report_free(struct report *r);

#endif
