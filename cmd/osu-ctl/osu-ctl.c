/*
 * osu-ctl: one step of seed 002's OS upgrade controller, as a pure
 * function of the state document's os_upgrade section, the replies
 * received since the last step and the time: it writes the document
 * back with the run advanced and the commands to send next.  A driver
 * (osu-run) publishes the commands and collects the replies.
 */
#include <argp.h>
#include <stdio.h>

#include "exitcodes.h"
#include "load.h"
#include "osu.h"
#include "output.h"
#include "stage.h"
#include "state.h"
#include "timefmt.h"

struct options {
	struct stage_input in;	/* FILE */
	const char *replies;	/* NULL: none */
	const char *now;
	int64_t now_time;	/* now, parsed */
	struct output_opts output;	/* -c */
};

static const char usage_doc[] =
    "Advance the OS upgrade run of a state document by one step."
    "\vWith no FILE, or when FILE is -, read standard input.  "
    "Exit status: 0 done, 64 usage, 65 invalid input, 66 cannot open, "
    "71 out of memory, 74 I/O error.";

static const struct argp_option option_list[] = {
	{ "now", 't', "TIME", 0, "The time of the step, such as "
	  "2023-03-17T01:00:00Z (required)", 0 },
	{ "replies", 'r', "FILE", 0, "The replies received since the last "
	  "step (a JSON array; default: none)", 0 },
	{ 0 }
};

static const struct argp_child children[] = {
	{ &output_argp, 0, 0, 0 },
	{ &stage_input_argp, 0, 0, 0 },
	{ 0 }
};

static error_t
parse_opt(int key, char *arg, struct argp_state *state)
{
	struct options *o = state->input;

	switch (key) {
	case ARGP_KEY_INIT:
		state->child_inputs[0] = &o->output;
		state->child_inputs[1] = &o->in;
		break;
	case 't':
		o->now = arg;
		break;
	case 'r':
		o->replies = arg;
		break;
	case ARGP_KEY_END:
		if (o->now == NULL)
			argp_error(state, "-t TIME is required");
		if (time_parse(o->now, &o->now_time) < 0)
			diag_fatal(EXIT_USAGE, "-t: '%s' is not a time such as "
			    "2023-03-17T01:00:00Z", o->now);
		break;
	default:
		return ARGP_ERR_UNKNOWN;
	}
	return 0;
}

/* run_step: check both documents, then step the section in place. */
static int
run_step(const struct options *o, json_t *doc, const json_t *rdoc,
    int64_t now)
{
	struct access a, ra;
	struct replies rs = { NULL, NULL, 0 };
	json_t *sec;
	int r;

	access_init(&a, load_name(o->in.file));
	access_init(&ra, o->replies ? load_name(o->replies) : "<none>");
	r = state_check(&a, doc) < 0 ||
	    state_require(&a, doc, SECTION_OS_UPGRADE, &sec) < 0 ||
	    replies_load(&ra, rdoc, &rs) < 0;
	if (!r) {
		access_enter_key(&a, "os_upgrade");
		r = step(&a, sec, &rs, now) < 0;
		access_leave(&a);
	}
	free(rs.r);
	access_free(&a);
	access_free(&ra);
	return r ? EXIT_DATAERR : output_json(doc, &o->output);
}

/* step_once: one step of doc's run, with the replies -r names. */
static int
step_once(void *options, json_t *doc)
{
	const struct options *o = options;
	json_t *rdoc = NULL;
	int status = EXIT_OK;

	if (o->replies != NULL)
		status = load_document(o->replies, &rdoc);
	else
		rdoc = json_array();
	if (status == EXIT_OK)
		status = run_step(o, doc, rdoc, o->now_time);
	json_decref(rdoc);
	return status;
}

int
main(int argc, char **argv)
{
	static const struct argp argp = { option_list, parse_opt, "[FILE]",
		usage_doc, children, 0, 0 };
	static const struct stage stage = { &argp, STAGE_TOOL, step_once };
	struct options o = { 0 };

	return stage_main(&stage, &o, &o.in, argc, argv);
}
