/*
 * judge.c: the result of each scheduled action from what Ansible says
 * of it and of its undo steps (upkit-state(5), the report section).
 *
 * Within a group of a stage, a failed action stops the group and the
 * rescue undoes the actions completed before it, last first (seed 000
 * III.A, resource-level undo).  So an action that succeeded is undone
 * only when its group broke and every undo step of it succeeded; if a
 * step failed, or never ran because an earlier one failed, it is
 * undo-failed.  An unreachable host leaves its action's effect unknown,
 * which is undo-failed too.  An action Ansible does not mention, or
 * skipped, did not run: results are never guessed from an exit status.
 * A group whose required actions did not all succeed, and of which
 * nothing ran, was skipped by its safety condition: the report says
 * which action it waited for.
 */
#include <stdlib.h>

#include "ar.h"

/* What judging one schedule needs besides the report. */
struct judge {
	const struct outcomes *o;
	const json_t *rg_actions;	/* resource graph action id -> action */
	const json_t *catalog;		/* the catalog section, or NULL */
};

static const char *
id_of(const json_t *step)
{
	return json_string_value(json_object_get(step, "id"));
}

/* step_outcome: what Ansible says of step, a step of action. */
static enum outcome
step_outcome(const struct judge *j, const json_t *step, const json_t *action)
{
	char *name = sched_task_name(step, action, json_object_get(
	    j->rg_actions, id_of(action)), j->catalog);
	enum outcome v = outcome_of(j->o, name);

	free(name);
	return v;
}

static int
undo_succeeded(const struct judge *j, const json_t *action)
{
	const json_t *u;
	size_t i;

	json_array_foreach(json_object_get(action, "undo"), i, u)
		if (step_outcome(j, u, action) != OUT_OK)
			return 0;
	return 1;
}

static enum action_result
judge_action(const struct judge *j, const json_t *action, int broke)
{
	switch (step_outcome(j, action, action)) {
	case OUT_UNREACHABLE:
		return RESULT_UNDO_FAILED;
	case OUT_FAILED:
		return RESULT_FAILED;
	case OUT_OK:
		if (!broke || json_array_size(json_object_get(action,
		    "undo")) == 0)
			return RESULT_SUCCEEDED;
		return undo_succeeded(j, action) ? RESULT_UNDONE :
		    RESULT_UNDO_FAILED;
	default:
		return RESULT_NOT_RUN;
	}
}

static enum action_result
judge_replacement(const struct judge *j, const json_t *step,
    const json_t *action)
{
	switch (step_outcome(j, step, action)) {
	case OUT_OK:
		return RESULT_SUCCEEDED;
	case OUT_FAILED:
	case OUT_UNREACHABLE:
		return RESULT_FAILED;
	default:
		return RESULT_NOT_RUN;
	}
}

/* skipped: nothing of group ran, as its unmet conditions required. */
static int
skipped(const struct judge *j, const json_t *group, struct report *r)
{
	const json_t *act;
	char *why;
	size_t i;
	int blocked;

	json_array_foreach(json_object_get(group, "actions"), i, act)
		if (step_outcome(j, act, act) >= OUT_OK)
			return 0;
	if ((why = report_unmet(r, group, &blocked)) == NULL)
		return 0;
	report_skip(r, group, why, blocked);
	free(why);
	return 1;
}

static void
judge_group(const struct judge *j, const json_t *group, struct report *r)
{
	const json_t *actions = json_object_get(group, "actions"), *act, *f;
	size_t i;
	int broke = 0;

	if (skipped(j, group, r))
		return;
	json_array_foreach(actions, i, act)
		broke |= step_outcome(j, act, act) >= OUT_FAILED;
	json_array_foreach(actions, i, act) {
		report_action(r, act, judge_action(j, act, broke));
		if ((f = json_object_get(act, "on_failure")) != NULL)
			report_step(r, id_of(f), judge_replacement(j, f, act));
	}
}

void
judge_schedule(const json_t *sched, const struct outcomes *o,
    const json_t *rg_actions, const json_t *catalog, struct report *r)
{
	const struct judge j = { o, rg_actions, catalog };
	const json_t *stage, *group;
	size_t i, k;

	report_schedule(r, id_of(sched));
	json_array_foreach(json_object_get(sched, "stages"), i, stage)
		json_array_foreach(json_object_get(stage, "groups"), k, group)
			judge_group(&j, group, r);
}
