/*
 * step.c: how a step runs on its host (ansible-plan(1), Steps run
 * once).  A step with a command is the upkit_step module (shipped in
 * cmd/ansible-plan/library, which Ansible copies to the host): it runs
 * the argv with no shell, and keeps on the host a record of the steps
 * of the run that ended, so that no command runs twice in a run; a
 * manual step is ansible.builtin.pause.  Each play gives the module its
 * run id and the folder of the records (module_defaults), and the
 * playbook ends with a play, tagged "never" and "forget", that removes
 * the run's records from every host a step ran on.
 */
#include "ap.h"

int
step_is_manual(const json_t *step)
{
	return json_object_get(step, "manual") != NULL;
}

void
step_module(struct yamlw *w, const json_t *step)
{
	const json_t *v;
	size_t i;

	if (step_is_manual(step)) {
		yw_plain(w, "ansible.builtin.pause");
		yw_map(w, 0);
		yw_plain(w, "prompt");
		yw_unsafe(w, json_string_value(json_object_get(step, "manual")));
		yw_end_map(w);
		return;
	}
	yw_plain(w, "upkit_step");
	yw_map(w, 0);
	yw_plain(w, "argv");
	yw_seq(w, 1);
	json_array_foreach(json_object_get(step, "argv"), i, v)
		yw_unsafe(w, json_string_value(v));
	yw_end_seq(w);
	yw_plain(w, "step");
	yw_unsafe(w, json_string_value(json_object_get(step, "id")));
	yw_end_map(w);
}

void
step_run_var(struct yamlw *w, const char *run_id)
{
	if (run_id == NULL)
		return;
	yw_plain(w, "upkit_run_id");
	yw_unsafe(w, run_id);
}

void
step_defaults(struct yamlw *w)
{
	yw_plain(w, "module_defaults");
	yw_map(w, 0);
	yw_plain(w, "upkit_step");
	yw_map(w, 0);
	yw_plain(w, "run");
	yw_quoted(w, "{{ upkit_run_id }}");
	yw_plain(w, "dir");
	yw_quoted(w, "{{ upkit_step_dir | default(omit) }}");
	yw_end_map(w);
	yw_end_map(w);
}

void
step_forget_play(struct yamlw *w, const struct idmap *hosts,
    const char *run_id)
{
	size_t i;

	yw_map(w, 0);
	yw_plain(w, "name");
	yw_plain(w, "forget the records of this run's steps");
	yw_plain(w, "hosts");
	yw_seq(w, 1);
	for (i = 0; i < hosts->count; i++)
		yw_unsafe(w, idmap_key(hosts, i));
	yw_end_seq(w);
	yw_plain(w, "gather_facts");
	yw_plain(w, "false");
	yw_tags(w, TAG_NEVER | TAG_FORGET);
	if (run_id != NULL) {
		yw_plain(w, "vars");
		yw_map(w, 0);
		step_run_var(w, run_id);
		yw_end_map(w);
	}
	step_defaults(w);
	yw_plain(w, "tasks");
	yw_seq(w, 0);
	yw_map(w, 0);
	yw_plain(w, "name");
	yw_plain(w, "remove this host's records of the run");
	yw_plain(w, "upkit_step");
	yw_map(w, 0);
	yw_plain(w, "state");
	yw_plain(w, "absent");
	yw_end_map(w);
	/* records left behind are harmless: no other run reads them */
	yw_plain(w, "ignore_errors");
	yw_plain(w, "true");
	yw_plain(w, "ignore_unreachable");
	yw_plain(w, "true");
	yw_end_map(w);
	yw_end_seq(w);
	yw_end_map(w);
}
