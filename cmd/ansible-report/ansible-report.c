/*
 * ansible-report: the upgrade iteration report (seed 000 III.B, Fig. 3
 * and 4) from a state document and the output of Ansible's json stdout
 * callback for the playbook ansible-plan made of it.  Writes the state
 * document with its "report" section added or replaced.
 */
#include <argp.h>
#include <stdio.h>
#include <string.h>

#include "ar.h"
#include "exitcodes.h"
#include "load.h"
#include "output.h"
#include "schedule.h"
#include "stage.h"
#include "state.h"
#include "timefmt.h"

struct options {
	struct stage_input in;	/* FILE */
	const char *ansible, *time;
	struct output_opts output;	/* -c */
};

static const char usage_doc[] =
    "Write the iteration report of a state document from the output of "
    "Ansible's json stdout callback.\vWith no FILE, or when FILE is -, "
    "read standard input.  Exit status: 0 done, 64 usage, 65 invalid "
    "input, 66 cannot open, "
    "71 out of memory, 74 I/O error.";

static const struct argp_option option_list[] = {
	{ "ansible", 'a', "JSON", 0, "The json callback's output (required)",
	  0 },
	{ "time", 't', "TIME", 0, "When the iteration ended, ISO 8601 "
	  "(default: the last end time in JSON)", 0 },
	{ 0 }
};

static error_t
parse_opt(int key, char *arg, struct argp_state *state)
{
	struct options *o = state->input;
	int64_t t;

	switch (key) {
	case ARGP_KEY_INIT:
		state->child_inputs[0] = &o->output;
		state->child_inputs[1] = &o->in;
		break;
	case 'a':
		o->ansible = arg;
		break;
	case 't':
		if (time_parse(arg, &t) < 0)
			argp_error(state, "'%s' is not an ISO 8601 time", arg);
		o->time = arg;
		break;
	case ARGP_KEY_END:
		if (o->ansible == NULL)
			argp_error(state, "give the callback's output with -a");
		if (strcmp(o->ansible, "-") == 0 &&
		    (o->in.file == NULL || strcmp(o->in.file, "-") == 0))
			argp_error(state, "only one input can be standard input");
		break;
	default:
		return ARGP_ERR_UNKNOWN;
	}
	return 0;
}

/* report_time: --time, else the output's last end, as written. */
static int
report_time(const struct options *opt, const struct outcomes *o,
    char *buf, size_t size)
{
	int64_t t;

	if (opt->time != NULL) {
		time_parse(opt->time, &t);
	} else if (o->have_end) {
		t = o->end;
	} else {
		diag_error(load_name(opt->ansible), "no end time in the "
		    "output (nothing ran): give --time");
		return -1;
	}
	time_format(t, buf, size);
	return 0;
}

/* judge_all: the report section of the schedules l, from o. */
static json_t *
judge_all(const json_t *doc, const struct sched_list *l,
    const struct rgraph *rg, const struct outcomes *o, const char *when)
{
	json_t *by_id = rgraph_actions_by_id(rg), *rep, *sys;
	struct report r;
	size_t i;

	report_init(&r, rg, state_section(doc, SECTION_REQUESTS));
	for (i = 0; i < l->n; i++)
		judge_schedule(l->sched[i], o, by_id, state_section(doc,
		    SECTION_CATALOG), &r);
	for (i = 0; i < json_array_size(o->unreachable); i++)
		report_unreachable(&r, json_string_value(json_array_get(
		    o->unreachable, i)));
	rep = report_finish(&r, rg->iteration, when, "ansible");
	if ((sys = derive_system(doc, l, by_id, rep)) != NULL)
		json_object_set_new(rep, "system", sys);
	report_free(&r);
	json_decref(by_id);
	return rep;
}

/* build: the report section of doc, from the outcomes o. */
static int
build(struct access *a, const struct options *opt, json_t *doc,
    const struct outcomes *o)
{
	struct sched_list l = { NULL, NULL, 0 };
	struct rgraph rg;
	json_t *sec;
	char when[32];
	int status = EXIT_DATAERR;

	rgraph_init(&rg);
	if (state_check(a, doc) == 0 &&
	    state_require(a, doc, SECTION_RESOURCE_GRAPH, &sec) == 0 &&
	    sched_list_collect(a, doc, NULL, NULL, &l) == 0) {
		access_enter_key(a, "resource_graph");
		if (rgraph_load(a, sec, &rg) == 0 &&
		    report_time(opt, o, when, sizeof when) == 0) {
			state_put(doc, SECTION_REPORT, judge_all(doc, &l, &rg,
			    o, when));
			status = EXIT_OK;
		}
	}
	sched_list_free(&l);
	rgraph_free(&rg);
	return status;
}

static int
run(void *options, json_t *doc)
{
	const struct options *opt = options;
	struct access a;
	struct outcomes o;
	json_t *out;
	int status = load_document(opt->ansible, &out);

	if (status != EXIT_OK)
		return status;
	access_init(&a, load_name(opt->ansible));
	status = outcomes_load(&a, out, &o) == 0 ? EXIT_OK : EXIT_DATAERR;
	access_free(&a);
	if (status == EXIT_OK) {
		access_init(&a, load_name(opt->in.file));
		status = build(&a, opt, doc, &o);
		access_free(&a);
	}
	outcomes_free(&o);
	json_decref(out);
	if (status == EXIT_OK)
		status = output_json(doc, &opt->output);
	return status;
}

int
main(int argc, char **argv)
{
	static const struct argp_child children[] = {
		{ &output_argp, 0, 0, 0 }, { &stage_input_argp, 0, 0, 0 },
		{ 0 }
	};
	static const struct argp argp = { option_list, parse_opt, "[FILE]",
		usage_doc, children, 0, 0 };
	static const struct stage stage = { &argp, STAGE_TOOL, run };
	struct options o = { 0 };

	return stage_main(&stage, &o, &o.in, argc, argv);
}
