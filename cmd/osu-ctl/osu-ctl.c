/*
 * osu-ctl: one step of seed 002's OS upgrade controller, as a pure
 * function of the state document's os_upgrade section, the replies
 * received since the last step and the time: it writes the document
 * back with the run advanced and the commands to send next.  A driver
 * (osu-run) publishes the commands and collects the replies.
 */
#include <argp.h>
#include <stdio.h>

#include "cli.h"
#include "exitcodes.h"
#include "load.h"
#include "osu.h"
#include "output.h"
#include "state.h"
#include "timefmt.h"

struct options {
	const char *file;
	const char *replies;	/* NULL: none */
	const char *now;
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
	{ 0 }
};

static error_t
parse_opt(int key, char *arg, struct argp_state *state)
{
	struct options *o = state->input;

	switch (key) {
	case ARGP_KEY_INIT:
		state->child_inputs[0] = &o->output;
		break;
	case 't':
		o->now = arg;
		break;
	case 'r':
		o->replies = arg;
		break;
	case ARGP_KEY_ARG:
		o->file = cli_one_input(state, o->file, arg);
		break;
	case ARGP_KEY_END:
		if (o->now == NULL)
			argp_error(state, "-t TIME is required");
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

	access_init(&a, load_name(o->file));
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

int
main(int argc, char **argv)
{
	static const struct argp argp = { option_list, parse_opt, "[FILE]",
		usage_doc, children, 0, 0 };
	struct options o = { 0 };
	json_t *doc = NULL, *rdoc = NULL;
	int64_t now;
	int status;

	cli_init(argv);
	argp_parse(&argp, argc, argv, 0, NULL, &o);
	if (time_parse(o.now, &now) < 0)
		diag_fatal(EXIT_USAGE, "-t: '%s' is not a time such as "
		    "2023-03-17T01:00:00Z", o.now);
	status = load_document(o.file, &doc);
	if (status == EXIT_OK && o.replies != NULL)
		status = load_document(o.replies, &rdoc);
	else if (status == EXIT_OK)
		rdoc = json_array();
	if (status == EXIT_OK)
		status = run_step(&o, doc, rdoc, now);
	json_decref(doc);
	json_decref(rdoc);
	return output_close(status);
}
