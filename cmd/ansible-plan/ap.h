/*
 * ap.h: what the parts of ansible-plan share.
 *
 * yamlw.c wraps libyaml's emitter so that no YAML is ever printed by
 * hand; playbook.c turns the schedules into plays; inventory.c turns
 * the system section into an inventory; check.c makes sure that what
 * the schedules hold can be written safely before anything is.
 */
#ifndef AP_H
#define AP_H

#include <stdio.h>
#include <jansson.h>
#include <yaml.h>

#include "access.h"
#include "idmap.h"
#include "schedule.h"

/* yamlw: a libyaml emitter; the first failure sticks in failed. */
struct yamlw {
	yaml_emitter_t em;
	int failed;
};

void yw_open(struct yamlw *w, FILE *fp);
/* yw_close: end the document; returns -1 when any event failed. */
int yw_close(struct yamlw *w);
void yw_map(struct yamlw *w, int flow);
void yw_seq(struct yamlw *w, int flow);
void yw_end_map(struct yamlw *w);
void yw_end_seq(struct yamlw *w);
/* yw_plain: text of ours (keys, module names, booleans), untagged. */
void yw_plain(struct yamlw *w, const char *s);
void yw_long(struct yamlw *w, long n);
/*
 * yw_unsafe: text from the input, double-quoted and tagged !unsafe, so
 * that Ansible never templates it: "{{ lookup('pipe', 'id') }}" stays
 * those characters.
 */
void yw_unsafe(struct yamlw *w, const char *s);
/* yw_quoted: text from the input that Ansible does not template. */
void yw_quoted(struct yamlw *w, const char *s);

/* check.c */
int plan_collect(struct access *a, const json_t *doc, struct sched_list *p);
/* host_name_ok: a name Ansible takes as one host, never as a pattern. */
int host_name_ok(const char *s);
/* run_id_ok: a run id as the upkit_step module takes it (--run-id). */
int run_id_ok(const char *s);

/* playbook.c */
/*
 * pb_files: with --tasks-dir, each group's block goes to a task file of
 * its own, dir/ITERATION-BLOCK.yml, and each play's hosts include only
 * their own groups' files.
 */
struct pb_files {
	const char *dir;
	long iteration;		/* the resource graph's, else 0 */
};

/* What the playbook takes from the rest of the document. */
struct pb_names {
	const char *controller;	/* where cloud-API actions go, or NULL */
	const char *run_id;	/* --run-id, or NULL */
	const json_t *rg_actions;	/* the resource graph's actions by id */
	const json_t *catalog;		/* the catalog section, or NULL */
	const json_t *replay;	/* --replay: task name -> "ok"/"failed" */
};

/*
 * playbook_write: the plays of p, tasks named with names (see
 * sched_task_name()); files NULL for one file, each group a block
 * guarded by its anchor.  Returns 0, or -1 when a task file could not
 * be written (diagnosed).
 */
int playbook_write(struct yamlw *w, const struct sched_list *p,
    const struct pb_names *names, const struct pb_files *files);

/*
 * replay.c: --replay FILE, the steps an interrupted run finished.
 * replay_load: FILE's task names and outcomes in *finished (a new
 * reference); 0, or an exit status (diagnosed).  replay_module: the
 * module call that stands for a step whose outcome was (ok or failed).
 */
int replay_load(const char *file, json_t **finished);
void replay_module(struct yamlw *w, const char *was);

/* phases.c: the Ansible tags, as bits. */
enum {
	TAG_PREREQUISITE = 1 << 0, TAG_EVACUATE = 1 << 1,
	TAG_UPGRADE = 1 << 2, TAG_ACTIVATE = 1 << 3, TAG_UNDO = 1 << 4,
	TAG_ALWAYS = 1 << 5, TAG_NEVER = 1 << 6, TAG_FORGET = 1 << 7
};
/* action_tags: the tag of an action's phase; group_tags: of its actions. */
unsigned action_tags(const json_t *action);
unsigned group_tags(const json_t *group);
/* yw_tags: "tags:" and the tags, in a fixed order; nothing for none. */
void yw_tags(struct yamlw *w, unsigned tags);
/* stage_purpose: what a stage does, in words, by its id; or NULL. */
const char *stage_purpose(const char *stage_id);

/* step.c */
int step_is_manual(const json_t *step);
/* step_module: the module call of a step: upkit_step, or a pause. */
void step_module(struct yamlw *w, const json_t *step);
/* step_run_var: the play variable upkit_run_id, when run_id is given. */
void step_run_var(struct yamlw *w, const char *run_id);
/* step_defaults: a play's module_defaults for upkit_step. */
void step_defaults(struct yamlw *w);
/* step_forget_play: the play that removes the run's records on hosts. */
void step_forget_play(struct yamlw *w, const struct idmap *hosts,
    const char *run_id);

/* inventory.c */
int inventory_write(struct access *a, const json_t *doc, struct yamlw *w);
/* inventory_group_name: s names one of the inventory's groups. */
int inventory_group_name(const char *s);

#endif
