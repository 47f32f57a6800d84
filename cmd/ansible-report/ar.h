/*
 * ar.h: what the parts of ansible-report share.
 *
 * outcome.c reads the output of Ansible's json stdout callback into one
 * outcome per task name (a step's name ends with its id in brackets;
 * see ansible-plan(1)); judge.c turns the outcomes of a group's actions and
 * undo steps into the results of upkit-state(5)'s report section;
 * derive.c applies those results to the system configuration.
 */
#ifndef AR_H
#define AR_H

#include <stdint.h>
#include <jansson.h>

#include "access.h"
#include "idmap.h"
#include "report.h"
#include "rgraph.h"
#include "schedule.h"

/* What Ansible says of a task, worst first wins when it ran twice. */
enum outcome { OUT_ABSENT, OUT_SKIPPED, OUT_OK, OUT_FAILED, OUT_UNREACHABLE };

struct outcomes {
	struct idmap names;	/* task name -> index */
	enum outcome *out;
	size_t cap;
	int64_t end;		/* the latest end time, when have_end */
	int have_end;
	json_t *unreachable;	/* host names, from the stats */
};

/* outcomes_load: the callback's document; 0 or -1 (diagnosed). */
int outcomes_load(struct access *a, const json_t *doc, struct outcomes *o);
enum outcome outcome_of(const struct outcomes *o, const char *name);
void outcomes_free(struct outcomes *o);

/*
 * judge_schedule: hand the result of every action of sched to r; tasks
 * are found by the names ansible-plan gave them (sched_task_name(),
 * with the resource graph's actions by id, rg_actions, and the catalog
 * section).
 */
void judge_schedule(const json_t *sched, const struct outcomes *o,
    const json_t *rg_actions, const json_t *catalog, struct report *r);

/*
 * derive_system: a copy of doc's system as the results of the finished
 * report section leave it, the schedules of l taken in the order they
 * ran; NULL when doc has no system section.
 */
json_t *derive_system(const json_t *doc, const struct sched_list *l,
    const json_t *rg_actions, const json_t *report);

#endif
