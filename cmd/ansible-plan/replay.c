/*
 * replay.c: --replay FILE, the steps an interrupted run of the same
 * playbook finished (upgrade-loop(1), Interrupted actuator runs).
 *
 * FILE is {"finished": {TASK NAME: "ok" | "failed"}}, what the upkit_json
 * callback's journal says of each step it saw end.  Such a step is not
 * run again: its task keeps its name, condition and register, but its
 * command becomes ansible.builtin.debug (it had succeeded) or
 * ansible.builtin.fail (it had failed, so that the block's rescue runs
 * as it did).  Ansible's output, and so ansible-report's report, then
 * says of it what the interrupted run saw, and no command runs twice.
 */
#include <string.h>

#include "ap.h"
#include "exitcodes.h"
#include "load.h"

static int
replay_member(struct access *a, const char *name, const json_t *v, void *ctx)
{
	const char *s;

	(void)name;
	(void)ctx;
	if (acc_as_string(a, v, &s) != 0)
		return -1;
	if (strcmp(s, "ok") != 0 && strcmp(s, "failed") != 0)
		return access_fail(a, "'%s' is neither \"ok\" nor \"failed\"",
		    s);
	return 0;
}

int
replay_load(const char *file, json_t **finished)
{
	struct access a;
	json_t *doc;
	int status = load_document(file, &doc), r;

	*finished = NULL;
	if (status != 0)
		return status;
	access_init(&a, load_name(file));
	r = acc_each_member(&a, doc, "finished", 0, replay_member, NULL);
	access_free(&a);
	if (r == 0)
		*finished = json_incref(json_object_get(doc, "finished"));
	json_decref(doc);
	return r == 0 ? 0 : EXIT_DATAERR;
}

void
replay_module(struct yamlw *w, const char *was)
{
	int ok = strcmp(was, "ok") == 0;

	yw_plain(w, ok ? "ansible.builtin.debug" : "ansible.builtin.fail");
	yw_map(w, 0);
	yw_plain(w, "msg");
	yw_plain(w, ok ? "finished in an interrupted run, not run again" :
	    "failed in an interrupted run, not run again");
	yw_end_map(w);
}
