/*
 * playbook.c: the schedules as an Ansible playbook (seed 000 III.B: the
 * upgrade engine runs the runtime upgrade schedule).
 *
 * One play per stage, schedules in order.  A play's hosts are the
 * stage's anchors: each group runs on the host of its first action,
 * and its other actions are delegated to their own hosts, so a group's
 * actions keep their order while different groups run in parallel
 * under the "free" strategy, at most "concurrency" anchors at once
 * (serial).  Each group is a block whose tasks are its actions, named
 * for a person and ending with the action id in brackets
 * (sched_task_name(), which ansible-report finds them by); its rescue
 * runs the undo steps of the actions that had completed, last action
 * first (resource-level undo, III.A), then the replacement of a failed
 * migration.  A stage with a manual step runs under the "linear"
 * strategy, since ansible.builtin.pause cannot run under "free".
 *
 * Cloud-API actions (a migration, its undo and a failed migration's
 * replacement) are delegated to the system's first controller when
 * it has one, so that only the controller needs cloud credentials;
 * without a controller they run on their own host, as before.  A step
 * with run_on "control" (an openstack command of upkit's own, or a
 * catalog action's run_on, upkit-state(5)) is delegated to the
 * controller too, or to localhost, the control node the playbook runs
 * from, when the system has none.
 *
 * The schedule's safety conditions (a group's "requires") are kept: a
 * block that others require ends with a set_fact of upkit_ok<N> on its
 * anchor, reached only when every action of it succeeded (a failure
 * goes to the rescue instead), and a block that requires actions runs
 * only when the flags of their blocks are set.
 *
 * Each block is tagged with its actions' phases (phases.c), its
 * rescue's steps with "undo" too, so that --tags and --skip-tags pick
 * phases; the flags keep a block from running when what it requires
 * was left out.  Each step runs through the upkit_step module
 * (step.c), which keeps a record on its host so that no command runs
 * twice in a run: run the playbook again, with more tags or after a
 * kill, and what ended is reported, not run again.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ap.h"
#include "diag.h"
#include "idmap.h"
#include "xalloc.h"

struct pb {
	struct yamlw *w;
	long reg;		/* registered results are upkit_r1, upkit_r2... */
	long block;		/* the blocks written so far */
	struct idmap action_ids;	/* every action's id */
	long *block_of;		/* beside action_ids: the block it is in */
	const char **anchors;	/* block -> its anchor */
	unsigned char *required;	/* block -> some block requires it */
	unsigned *tags;		/* block -> its tags (phases.c) */
	struct idmap step_hosts;	/* every host a step runs on */
	const char *controller;	/* where cloud-API actions run, or NULL */
	const char *run_id;	/* --run-id, or NULL */
	const json_t *rg_actions;	/* resource graph action id -> action */
	const json_t *catalog;		/* the catalog section, or NULL */
	const json_t *replay;	/* finished steps, or NULL (replay.c) */
	const struct pb_files *files;	/* a file per block, or NULL */
	int failed;		/* a block's file could not be written */
};

static const char *
str(const json_t *obj, const char *key)
{
	return json_string_value(json_object_get(obj, key));
}

static void
key_unsafe(struct yamlw *w, const char *key, const char *value)
{
	yw_plain(w, key);
	yw_unsafe(w, value);
}

static void
key_plain(struct yamlw *w, const char *key, const char *value)
{
	yw_plain(w, key);
	yw_plain(w, value);
}

/* anchor: the host a group's block runs on. */
static const char *
anchor(const json_t *group)
{
	return str(json_array_get(json_object_get(group, "actions"), 0), "host");
}

static int
stage_has_manual(const json_t *stage)
{
	const json_t *g, *act, *u;
	size_t i, j, k;

	json_array_foreach(json_object_get(stage, "groups"), i, g)
		json_array_foreach(json_object_get(g, "actions"), j, act) {
			if (step_is_manual(act) ||
			    (json_object_get(act, "on_failure") != NULL &&
			    step_is_manual(json_object_get(act, "on_failure"))))
				return 1;
			json_array_foreach(json_object_get(act, "undo"), k, u)
				if (step_is_manual(u))
					return 1;
		}
	return 0;
}

/* cloud_api: an action (and so its undo and replacement) that calls
 * the cloud's API rather than acting on its host. */
static int
cloud_api(const json_t *action)
{
	const char *op = str(action, "op");

	return op != NULL && (strcmp(op, "migrate") == 0 ||
	    strcmp(op, "evacuate") == 0);
}

/*
 * task: one step of action (the action itself, an undo step or its
 * replacement) as a task, named for a person (sched_task_name()).  reg
 * > 0 registers its result; cond, when given, is the condition on an
 * earlier registered result, and makes the step one of the rescue's,
 * tagged "undo".  Cloud-API steps go to the controller.
 */
static void
task(struct pb *b, const json_t *step, const json_t *action,
    const char *anchor_host, long reg, const char *cond, long cond_reg)
{
	struct yamlw *w = b->w;
	const char *where = str(step, "host"), *was;
	char buf[64], *name;

	if (cloud_api(action) && b->controller != NULL)
		where = b->controller;
	/* an API call the plan runs once, from the control node */
	if (str(step, "run_on") != NULL && strcmp(str(step, "run_on"),
	    "control") == 0)
		where = b->controller != NULL ? b->controller : "localhost";

	yw_map(w, 0);
	name = sched_task_name(step, action, json_object_get(b->rg_actions,
	    str(action, "id")), b->catalog);
	key_unsafe(w, "name", name);
	was = json_string_value(json_object_get(b->replay, name));
	free(name);
	if (cond != NULL) {
		snprintf(buf, sizeof buf, "upkit_r%ld is defined and upkit_r%ld "
		    "is %s", cond_reg, cond_reg, cond);
		key_plain(w, "when", buf);
	}
	if (was != NULL)
		replay_module(w, was);
	else
		step_module(w, step);
	if (!step_is_manual(step)) {
		(void)idmap_add(&b->step_hosts, where);
		if (strcmp(where, anchor_host) != 0)
			key_unsafe(w, "delegate_to", where);
	}
	if (cond != NULL)
		yw_tags(w, TAG_UNDO);
	if (reg > 0) {
		snprintf(buf, sizeof buf, "upkit_r%ld", reg);
		key_plain(w, "register", buf);
	}
	yw_end_map(w);
}

/* rescue: undo the completed actions, last first; then replacements. */
static void
rescue(struct pb *b, const json_t *group, const char *host, long first_reg)
{
	const json_t *actions = json_object_get(group, "actions"), *act, *u;
	size_t n = json_array_size(actions), i, k;
	char *name = sched_format("undo what group %s completed",
	    str(group, "id"));

	yw_plain(b->w, "rescue");
	yw_seq(b->w, 0);
	/*
	 * Never empty: an empty rescue would let the failure through; and
	 * not tagged "undo", so that --skip-tags undo still rescues.
	 */
	yw_map(b->w, 0);
	key_unsafe(b->w, "name", name);
	free(name);
	yw_plain(b->w, "ansible.builtin.debug");
	yw_map(b->w, 0);
	key_unsafe(b->w, "msg", str(group, "id"));
	yw_end_map(b->w);
	yw_end_map(b->w);
	for (i = n; i-- > 0;) {
		act = json_array_get(actions, i);
		json_array_foreach(json_object_get(act, "undo"), k, u)
			task(b, u, act, host, 0, "succeeded",
			    first_reg + (long)i);
	}
	json_array_foreach(actions, i, act)
		if (json_object_get(act, "on_failure") != NULL)
			task(b, json_object_get(act, "on_failure"), act, host,
			    0, "failed", first_reg + (long)i);
	yw_end_seq(b->w);
}

/* ok_flag: the fact that block k set on success, as a condition. */
static char *
ok_flag(const struct pb *b, long k)
{
	return sched_format("(hostvars['%s'].upkit_ok%ld | default(false))",
	    b->anchors[k], k);
}

/*
 * block_when: the block runs on its anchor once what it requires is;
 * NULL when it always runs (a block in a file of its own, included only
 * by its anchor, that requires nothing).
 */
static char *
block_when(const struct pb *b, const json_t *group)
{
	char *when = b->files != NULL ? NULL :
	    xstrdup("inventory_hostname == upkit_anchor"), *flag, *t;
	const json_t *v;
	size_t i;

	json_array_foreach(json_object_get(group, "requires"), i, v) {
		flag = ok_flag(b, b->block_of[idmap_find(&b->action_ids,
		    json_string_value(v))]);
		if (when == NULL) {
			when = flag;
			continue;
		}
		if (strstr(when, flag) == NULL) {
			t = sched_format("%s and %s", when, flag);
			free(when);
			when = t;
		}
		free(flag);
	}
	return when;
}

/* done_flag: the last task of a required block records its success. */
static void
done_flag(struct pb *b, const json_t *group, long k)
{
	char name[32], *task_name = sched_format("note that group %s "
	    "succeeded", str(group, "id"));

	snprintf(name, sizeof name, "upkit_ok%ld", k);
	yw_map(b->w, 0);
	key_unsafe(b->w, "name", task_name);
	free(task_name);
	yw_plain(b->w, "ansible.builtin.set_fact");
	yw_map(b->w, 0);
	key_plain(b->w, name, "true");
	yw_end_map(b->w);
	yw_end_map(b->w);
}

static void
group_block(struct pb *b, const json_t *group)
{
	struct yamlw *w = b->w;
	const char *host = anchor(group);
	const json_t *act;
	long first = b->reg + 1, k = b->block++;
	char *when = block_when(b, group);
	size_t i;

	yw_map(w, 0);
	key_unsafe(w, "name", str(group, "id"));
	if (when != NULL) {
		yw_plain(w, "when");
		yw_quoted(w, when);
		free(when);
	}
	if (b->files == NULL) {
		yw_plain(w, "vars");
		yw_map(w, 0);
		key_unsafe(w, "upkit_anchor", host);
		yw_end_map(w);
	}
	yw_tags(w, b->tags[k]);
	yw_plain(w, "block");
	yw_seq(w, 0);
	json_array_foreach(json_object_get(group, "actions"), i, act)
		task(b, act, act, host, ++b->reg, NULL, 0);
	if (b->required[k])
		done_flag(b, group, k);
	yw_end_seq(w);
	rescue(b, group, host, first);
	yw_end_map(w);
}

/* block_path: where block k's file goes (a new string). */
static char *
block_path(const struct pb_files *f, long k)
{
	return sched_format("%s/%ld-%ld.yml", f->dir, f->iteration, k);
}

/*
 * group_file: group's block, block k, as a task file of its own,
 * written to a temporary name and renamed, so that a file there is
 * whole; after a first failure, nothing more is written.
 */
static void
group_file(struct pb *b, const json_t *group, long k)
{
	char *path = block_path(b->files, k), *tmp = sched_format("%s.tmp",
	    path);
	struct yamlw fw, *saved = b->w;
	FILE *fp = b->failed ? NULL : fopen(tmp, "w");
	int bad;

	if (fp == NULL) {
		if (!b->failed)
			diag_error(tmp, "cannot create the task file: %s",
			    strerror(errno));
		b->failed = 1;
		b->block++;
	} else {
		yw_open(&fw, fp);
		b->w = &fw;
		yw_seq(&fw, 0);
		group_block(b, group);
		yw_end_seq(&fw);
		b->w = saved;
		bad = yw_close(&fw) < 0;
		if (fclose(fp) != 0 || bad || rename(tmp, path) != 0) {
			diag_error(path, "cannot write the task file: %s",
			    bad ? "libyaml failed" : strerror(errno));
			(void)remove(tmp);
			b->failed = 1;
		}
	}
	free(tmp);
	free(path);
}

/*
 * files_var: the play variable of files mode, upkit_tasks, which maps
 * each host of the play to the files of its own groups, in order; the
 * play's one task includes them (include_task), so no host ever sees,
 * or skips, another's tasks.
 */
static void
files_var(struct pb *b, const json_t *stage)
{
	struct yamlw *w = b->w;
	struct idmap hosts;
	json_t *files = json_array(), *g;
	long k = b->block, x;
	size_t i;

	idmap_init(&hosts);
	json_array_foreach(json_object_get(stage, "groups"), i, g) {
		if (json_array_size(json_object_get(g, "actions")) == 0)
			continue;
		if ((x = idmap_add(&hosts, anchor(g))) < 0)
			x = -x - 1;
		else
			json_array_append_new(files, json_array());
		json_array_append_new(json_array_get(files, (size_t)x),
		    json_integer(k++));
	}
	yw_plain(w, "upkit_tasks");
	yw_map(w, 0);
	for (i = 0; i < hosts.count; i++) {
		const json_t *v;
		size_t j;
		char *path;

		yw_quoted(w, idmap_key(&hosts, i));
		yw_seq(w, 1);
		json_array_foreach(json_array_get(files, i), j, v) {
			path = block_path(b->files, (long)json_integer_value(v));
			yw_unsafe(w, path);
			free(path);
		}
		yw_end_seq(w);
	}
	yw_end_map(w);
	json_decref(files);
	idmap_free(&hosts);
}

/*
 * include_task: the play's one task in files mode, tagged "always", so
 * that --tags and --skip-tags select among the tasks it includes, by
 * their own tags, rather than all or none.
 */
static void
include_task(struct yamlw *w)
{
	yw_plain(w, "tasks");
	yw_seq(w, 0);
	yw_map(w, 0);
	key_plain(w, "name", "run the groups of this host");
	yw_plain(w, "ansible.builtin.include_tasks");
	yw_map(w, 0);
	key_plain(w, "file", "{{ upkit_file }}");
	yw_end_map(w);
	key_plain(w, "loop", "{{ upkit_tasks[inventory_hostname] }}");
	yw_plain(w, "loop_control");
	yw_map(w, 0);
	key_plain(w, "loop_var", "upkit_file");
	yw_end_map(w);
	yw_tags(w, TAG_ALWAYS);
	yw_end_map(w);
	yw_end_seq(w);
}

static void
play_hosts(struct yamlw *w, const json_t *stage, size_t *count)
{
	struct idmap seen;
	const json_t *g;
	size_t i;

	idmap_init(&seen);
	yw_plain(w, "hosts");
	yw_seq(w, 1);
	json_array_foreach(json_object_get(stage, "groups"), i, g)
		if (json_array_size(json_object_get(g, "actions")) > 0 &&
		    idmap_add(&seen, anchor(g)) >= 0)
			yw_unsafe(w, anchor(g));
	yw_end_seq(w);
	*count = seen.count;
	idmap_free(&seen);
}

static void
play(struct pb *b, const json_t *sched, const json_t *stage)
{
	struct yamlw *w = b->w;
	json_int_t conc = json_integer_value(json_object_get(sched,
	    "concurrency"));
	const json_t *g;
	size_t i, anchors;
	const char *purpose = stage_purpose(str(stage, "id"));
	char *name = sched_format("%s %s%s%s", str(sched, "id"),
	    str(stage, "id"), purpose != NULL ? ": " : "",
	    purpose != NULL ? purpose : "");

	yw_map(w, 0);
	key_unsafe(w, "name", name);
	free(name);
	play_hosts(w, stage, &anchors);
	key_plain(w, "gather_facts", "false");
	key_plain(w, "strategy", stage_has_manual(stage) ? "linear" : "free");
	if ((size_t)conc < anchors) {
		yw_plain(w, "serial");
		yw_long(w, (long)conc);
	}
	if (b->run_id != NULL || b->files != NULL) {
		yw_plain(w, "vars");
		yw_map(w, 0);
		step_run_var(w, b->run_id);
		if (b->files != NULL)
			files_var(b, stage);
		yw_end_map(w);
	}
	step_defaults(w);
	if (b->files != NULL) {
		include_task(w);
		json_array_foreach(json_object_get(stage, "groups"), i, g)
			if (json_array_size(json_object_get(g, "actions")) > 0)
				group_file(b, g, b->block);
	} else {
		yw_plain(w, "tasks");
		yw_seq(w, 0);
		json_array_foreach(json_object_get(stage, "groups"), i, g)
			if (json_array_size(json_object_get(g, "actions")) > 0)
				group_block(b, g);
		yw_end_seq(w);
	}
	yw_end_map(w);
}

static int
stage_has_actions(const json_t *stage)
{
	const json_t *g;
	size_t i;

	json_array_foreach(json_object_get(stage, "groups"), i, g)
		if (json_array_size(json_object_get(g, "actions")) > 0)
			return 1;
	return 0;
}

/*
 * nothing_to_run: ansible-playbook refuses a playbook without plays and
 * a play without hosts, so an empty plan is one play on the implicit
 * localhost that does nothing.
 */
static void
nothing_to_run(struct yamlw *w)
{
	yw_map(w, 0);
	key_plain(w, "name", "nothing to run");
	key_plain(w, "hosts", "localhost");
	key_plain(w, "gather_facts", "false");
	yw_plain(w, "tasks");
	yw_seq(w, 1);
	yw_end_seq(w);
	yw_end_map(w);
}

/* index_group: block k's anchor, actions and tags; mark what it requires. */
static void
index_group(struct pb *b, const json_t *group, long k)
{
	const json_t *v;
	size_t i;
	long x;

	b->anchors[k] = anchor(group);
	b->tags[k] = group_tags(group);
	json_array_foreach(json_object_get(group, "actions"), i, v) {
		x = idmap_add(&b->action_ids, str(v, "id"));
		b->block_of = xreallocarray(b->block_of, (size_t)x + 1,
		    sizeof *b->block_of);
		b->block_of[x] = k;
	}
	json_array_foreach(json_object_get(group, "requires"), i, v)
		b->required[b->block_of[idmap_find(&b->action_ids,
		    json_string_value(v))]] = 1;
}

/* index_blocks: every block of the playbook, in the order written. */
static void
index_blocks(struct pb *b, const struct sched_list *p)
{
	const json_t *st, *g;
	size_t i, j, k, n = 0;

	for (i = 0; i < p->n; i++)
		json_array_foreach(json_object_get(p->sched[i], "stages"), j, st)
			n += json_array_size(json_object_get(st, "groups"));
	b->anchors = xcalloc(n, sizeof *b->anchors);
	b->tags = xcalloc(n, sizeof *b->tags);
	b->required = xcalloc(n, 1);
	n = 0;
	for (i = 0; i < p->n; i++)
		json_array_foreach(json_object_get(p->sched[i], "stages"), j, st)
			json_array_foreach(json_object_get(st, "groups"), k, g)
				if (json_array_size(json_object_get(g,
				    "actions")) > 0)
					index_group(b, g, (long)n++);
}

int
playbook_write(struct yamlw *w, const struct sched_list *p,
    const struct pb_names *names, const struct pb_files *files)
{
	struct pb b = { .w = w, .controller = names->controller,
		.run_id = names->run_id, .rg_actions = names->rg_actions,
		.catalog = names->catalog, .replay = names->replay,
		.files = files };
	const json_t *st;
	size_t i, j, plays = 0;

	idmap_init(&b.action_ids);
	idmap_init(&b.step_hosts);
	index_blocks(&b, p);
	yw_seq(w, 0);
	for (i = 0; i < p->n; i++)
		json_array_foreach(json_object_get(p->sched[i], "stages"), j, st)
			if (stage_has_actions(st)) {
				play(&b, p->sched[i], st);
				plays++;
			}
	if (plays == 0)
		nothing_to_run(w);
	else if (b.step_hosts.count > 0)
		step_forget_play(w, &b.step_hosts, b.run_id);
	yw_end_seq(w);
	idmap_free(&b.action_ids);
	idmap_free(&b.step_hosts);
	free(b.block_of);
	free(b.anchors);
	free(b.tags);
	free(b.required);
	return b.failed ? -1 : 0;
}
