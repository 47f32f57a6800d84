/*
 * schedule.h: runtime upgrade schedules (seed 000 III.B), as the
 * "schedule" section and every sub-iteration of the "migrations"
 * section hold them; see upkit-state(5), "The schedule section".
 *
 * A schedule is stages run one after the other; the groups of a stage
 * run in parallel, at most "concurrency" at once; the actions of a
 * group run in order.  Every action has a stable id, the inventory host
 * it runs on, an argv (or a manual step), a duration and its undo
 * actions.  batch-select and vm-migrate-plan build schedules with the
 * sched_* functions; actuators read them back with sched_list_collect(),
 * and vm-migrate-plan with schedule_check() and schedule_each_action().
 * The strings of built actions that repeat (phases, ops, hosts, VMs,
 * argv words) are shared with jshare(), in the open document session
 * (docsession.h).
 */
#ifndef UPKIT_SCHEDULE_H
#define UPKIT_SCHEDULE_H

#include <jansson.h>

#include "sysconf.h"

#include "access.h"
#include "diag.h"

/* sched_new: an empty schedule with its id. */
json_t *sched_new(const char *id);
/* sched_stage: append a stage; returns its groups array (borrowed). */
json_t *sched_stage(json_t *sched, const char *id, const char *phase);
/* sched_group: append a group; returns its actions array (borrowed). */
json_t *sched_group(json_t *groups, const char *id);
/*
 * sched_require: the last group of groups may start only once the
 * action action_id, of an earlier stage or schedule of the iteration,
 * has succeeded and stayed applied (the group's "requires"; each id is
 * kept once).
 */
void sched_require(json_t *groups, const char *action_id);
/* sched_require_all: sched_require() of every id of the array ids. */
void sched_require_all(json_t *groups, const json_t *ids);
/*
 * sched_finish: drop empty stages and set the concurrency: every group
 * of the largest stage, capped at limit when limit > 0; at least 1.
 */
void sched_finish(json_t *sched, long limit);
/*
 * sched_expand_hosts: each argv element (actions, undo steps,
 * replacements) that is exactly "{host}", "{service_host}", "{address}"
 * or "{zone}" becomes what sc says of the step's host (sched_hosts.c).
 */
void sched_expand_hosts(json_t *sched, const struct sysconf *sc);
/* sched_host_placeholders: those four names, NULL-terminated. */
const char *const *sched_host_placeholders(void);

/*
 * sched_argv: a copy of the argument vector tmpl in which every element
 * that is exactly one of the placeholders names[i] ("{resource}",
 * "{vm}"...) becomes values[i], as one whole argument.
 */
json_t *sched_argv(const json_t *tmpl, const char *const *names,
    const char *const *values, size_t n);
/* sched_argv_words: the same from a NULL-terminated C template. */
json_t *sched_argv_words(const char *const *words, const char *const *names,
    const char *const *values, size_t n);

/*
 * sched_step: {id, host, argv | manual, duration}, the shape of undo
 * actions and replacements; argv is stolen and may be NULL, in which
 * case manual says what the operator does.
 */
json_t *sched_step(const char *id, const char *host, json_t *argv,
    const char *manual, long duration);
/*
 * sched_action: a step with its phase, op and resource, and an empty
 * undo list.
 */
json_t *sched_action(const char *id, const char *phase, const char *op,
    const char *resource, const char *host, json_t *argv,
    const char *manual, long duration);
/* sched_add_undo: append undo (stolen) to action's undo list. */
void sched_add_undo(json_t *action, json_t *undo);

/*
 * sched_task_name: what an actuator calls a step for a person, a new
 * string: its words, then its id in brackets, which keeps the name
 * unique and traceable to the plan:
 *
 *	deactivate esxi 6.7 on hv6 [i1/deactivate:hv6:esxi@6.7]
 *	install qemu 7.2 on hv1 [r1/storage-to-ceph.4:hv1:1]
 *	migrate t3-vm1 from host6 to host11 [i1/migrate:t3-vm1:host6:host11]
 *	undo: install qemu 7.2 on hv1 [r1/storage-to-ceph.4:hv1:1~undo]
 *
 * action is the scheduled action step belongs to (step itself, or the
 * action of an undo step or a replacement); rg_action, when not NULL,
 * is the resource graph's action of the same id, whose product and
 * version name an upgrade action's product; catalog, the catalog
 * section or NULL, names the product of an activate or deactivate
 * action, when exactly one product's action of that name runs its argv.
 */
char *sched_task_name(const json_t *step, const json_t *action,
    const json_t *rg_action, const json_t *catalog);

/*
 * sched_id_with: id followed by suffix ("~undo", "~replace"), a new
 * string (caller frees).
 */
char *sched_id_with(const char *id, const char *suffix);
/* sched_format: a new string, printf-style (caller frees). */
char *sched_format(const char *fmt, ...) DIAG_PRINTF(1, 2);

/*
 * schedule_check: sched is a well-formed schedule object: known keys,
 * types, unique action ids, every action with argv or manual, every
 * migration (op "migrate" or phase "migration") with its vm, source
 * and destination, every id a group requires an action of an earlier
 * stage (or schedule), and no string with a NUL inside (C would read it
 * cut short).  "op" and "resource" may be absent, for an action that
 * changes no resource (a check the operator makes).  Returns 0 or -1
 * (diagnosed at the path of the fault).
 */
int schedule_check(struct access *a, const json_t *sched);

/*
 * schedule_each_action: call fn for every action of a checked schedule
 * in run order, with its stage index and group index; stops at the
 * first fn that returns nonzero and returns that.
 */
typedef int (*sched_action_fn)(const json_t *action, size_t stage,
    size_t group, void *ctx);
int schedule_each_action(const json_t *sched, sched_action_fn fn, void *ctx);
/*
 * schedule_check_each: schedule_check(), calling fn as
 * schedule_each_action() does on the actions of each group once the
 * group is checked; -1 when a check fails or fn returns nonzero (fn
 * diagnoses its own).  A schedule kept as text (jtext.h) is read a
 * group at a time, so fn must keep nothing of an action and change no
 * older JSON value (docsession.h, scopes).
 */
int schedule_check_each(struct access *a, const json_t *sched,
    sched_action_fn fn, void *ctx);

/*
 * The schedules an actuator runs in one iteration, in run order: the
 * schedule section, then the schedule of each sub-iteration of the
 * migrations section when that is "planned".
 */
struct sched_list {
	const json_t **sched;
	long *sub;		/* -1: the schedule section; else sub_iterations[sub] */
	size_t n;
};

/*
 * sched_step_check_fn: an actuator's own check of one step (an action,
 * an undo step or a replacement) whose form is checked already, with
 * a's path at the step; 0, or -1 once diagnosed.
 */
typedef int (*sched_step_check_fn)(struct access *a, const json_t *step,
    void *ctx);

/*
 * sched_list_collect: the schedules of doc into out (initially zeroed),
 * each checked as by schedule_check(), action ids unique over all of
 * them (the report finds results by id), and every step passed to
 * check, unless it is NULL.  A missing schedule section is an error.
 * Returns 0 or -1 (diagnosed); free out either way.
 */
int sched_list_collect(struct access *a, const json_t *doc,
    sched_step_check_fn check, void *ctx, struct sched_list *out);
void sched_list_free(struct sched_list *l);

#endif
