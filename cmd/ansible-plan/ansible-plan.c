/*
 * ansible-plan: the runtime upgrade schedules of a state document (the
 * schedule section, then each sub-iteration of the migrations section;
 * seed 000 III.B and IV, steps 3 and 4) as an Ansible playbook, or,
 * with --inventory, the inventory of the system section.  All YAML is
 * written by libyaml's emitter; every string from the input is tagged
 * !unsafe so that Ansible never templates it, and commands are argv
 * lists that no shell sees.
 */
#include <argp.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "ap.h"
#include "diag.h"
#include "exitcodes.h"
#include "load.h"
#include "output.h"
#include "rgraph.h"
#include "stage.h"
#include "state.h"
#include "xalloc.h"

struct options {
	struct stage_input in;	/* FILE */
	int inventory;
	const char *tasks_dir;	/* --tasks-dir, or NULL */
	const char *replay;	/* --replay, or NULL */
	const char *run_id;	/* --run-id, or NULL */
};

static const char usage_doc[] =
    "Write the schedules of a state document as an Ansible playbook."
    "\vWith no FILE, or when FILE is -, read standard input.  "
    "Exit status: 0 done, 64 usage, 65 invalid input, 66 cannot open, "
    "70 internal error, 73 cannot write a task file, "
    "71 out of memory, 74 I/O error.";

static const struct argp_option option_list[] = {
	{ "inventory", 'i', 0, 0, "Write an inventory of the system "
	  "section's hosts instead of the playbook", 0 },
	{ "tasks-dir", 'd', "DIR", 0, "Write each group's tasks to a file "
	  "of its own in DIR, which each play's hosts include, only their "
	  "own", 0 },
	{ "replay", 'R', "FILE", 0, "Do not run again the steps that FILE "
	  "says an interrupted run finished; say their outcome instead", 0 },
	{ "run-id", 'I', "RUN", 0, "The run's id, under which each host "
	  "keeps its record of the steps that ended (letters, digits, '.', "
	  "'_', '-'; at most 64)", 0 },
	{ 0 }
};

static error_t
parse_opt(int key, char *arg, struct argp_state *state)
{
	struct options *o = state->input;

	switch (key) {
	case ARGP_KEY_INIT:
		state->child_inputs[0] = &o->in;
		break;
	case 'i':
		o->inventory = 1;
		break;
	case 'd':
		o->tasks_dir = arg;
		break;
	case 'R':
		o->replay = arg;
		break;
	case 'I':
		if (!run_id_ok(arg))
			argp_error(state, "'%s' is not a run id (letters, "
			    "digits, '.', '_', '-'; at most 64)", arg);
		o->run_id = arg;
		break;
	default:
		return ARGP_ERR_UNKNOWN;
	}
	return 0;
}

/* controller: the id of the system's first controller, or NULL. */
static const char *
controller(const json_t *doc)
{
	const json_t *r;
	const char *kind;
	size_t i;

	json_array_foreach(json_object_get(json_object_get(doc, "system"),
	    "resources"), i, r) {
		kind = json_string_value(json_object_get(r, "kind"));
		if (kind != NULL && strcmp(kind, "controller") == 0 &&
		    json_is_string(json_object_get(r, "id")) &&
		    host_name_ok(json_string_value(json_object_get(r, "id"))) &&
		    !inventory_group_name(json_string_value(json_object_get(r,
		    "id"))))
			return json_string_value(json_object_get(r, "id"));
	}
	return NULL;
}

/*
 * load_rg: the resource graph's actions by id (empty without the
 * section), for the task names, and its iteration (else 0); -1 once
 * diagnosed.
 */
static int
load_rg(struct access *a, const json_t *doc, json_t **by_id, long *iteration)
{
	const json_t *sec = state_section(doc, SECTION_RESOURCE_GRAPH);
	struct rgraph rg;
	int r;

	*by_id = NULL;
	*iteration = 0;
	if (sec == NULL) {
		*by_id = json_object();
		return 0;
	}
	rgraph_init(&rg);
	access_enter_key(a, "resource_graph");
	if ((r = rgraph_load(a, sec, &rg)) == 0) {
		*by_id = rgraph_actions_by_id(&rg);
		*iteration = rg.iteration;
	}
	access_leave(a);
	rgraph_free(&rg);
	return r;
}

/* write_playbook: -1 bad input, -3 a task file not written, else 0. */
static int
write_playbook(struct access *a, const struct options *o, const json_t *doc,
    const json_t *replay, struct yamlw *w)
{
	struct sched_list p = { NULL, NULL, 0 };
	struct pb_files files = { o->tasks_dir, 0 };
	json_t *by_id = NULL;
	struct pb_names names = { controller(doc), o->run_id, NULL,
		state_section(doc, SECTION_CATALOG), replay };
	int r;

	if ((r = plan_collect(a, doc, &p)) == 0 &&
	    (r = load_rg(a, doc, &by_id, &files.iteration)) == 0) {
		names.rg_actions = by_id;
		if (playbook_write(w, &p, &names, o->tasks_dir != NULL ?
		    &files : NULL) < 0)
			r = -3;
	}
	json_decref(by_id);
	sched_list_free(&p);
	return r;
}

/* translate: check doc, then write the YAML all at once or not at all. */
static int
translate(const struct options *o, const json_t *doc, const json_t *replay)
{
	struct access a;
	struct yamlw w;
	FILE *fp = output_text_begin();
	int r;

	access_init(&a, load_name(o->in.file));
	yw_open(&w, fp);
	if (o->inventory)
		r = inventory_write(&a, doc, &w);
	else
		r = write_playbook(&a, o, doc, replay, &w);
	if (yw_close(&w) < 0 && r == 0) {
		diag_error(NULL, "libyaml could not emit the YAML");
		r = -2;
	}
	access_free(&a);
	if (r < 0) {
		output_text_discard(fp);
		return r == -1 ? EXIT_DATAERR : r == -3 ? EXIT_CANTCREAT :
		    EXIT_SOFTWARE;
	}
	return output_text_commit(fp);
}

/*
 * make_dir: dir and its missing parents, as mkdir -p (the -d of
 * HACKING.md's letters: a directory the tool keeps files in is made
 * when missing); 0, or -1 with a diagnostic.
 */
static int
make_dir(const char *dir)
{
	char *p = xstrdup(dir), *s;
	struct stat st;
	int r = 0;

	for (s = p + 1; r == 0; s++) {
		if (*s != '/' && *s != '\0')
			continue;
		char c = *s;
		*s = '\0';
		if (mkdir(p, 0777) != 0 && (errno != EEXIST || stat(p, &st) != 0 ||
		    !S_ISDIR(st.st_mode))) {
			diag_error(p, "cannot make the directory: %s",
			    errno == EEXIST ? "not a directory" : strerror(errno));
			r = -1;
		}
		*s = c;
		if (c == '\0')
			break;
	}
	free(p);
	return r;
}

/* run: doc's playbook, or inventory, the steps --replay names told. */
static int
run(void *options, json_t *doc)
{
	const struct options *o = options;
	json_t *replay = NULL;
	int status = EXIT_OK;

	if (o->tasks_dir != NULL && !o->inventory && make_dir(o->tasks_dir) < 0)
		return EXIT_CANTCREAT;
	if (o->replay != NULL)
		status = replay_load(o->replay, &replay);
	if (status == EXIT_OK)
		status = translate(o, doc, replay);
	json_decref(replay);
	return status;
}

int
main(int argc, char **argv)
{
	static const struct argp_child children[] = {
		{ &stage_input_argp, 0, 0, 0 }, { 0 }
	};
	static const struct argp argp = { option_list, parse_opt, "[FILE]",
		usage_doc, children, 0, 0 };
	static const struct stage stage = { &argp, STAGE_TOOL, run };
	struct options o = { 0 };

	return stage_main(&stage, &o, &o.in, argc, argv);
}
