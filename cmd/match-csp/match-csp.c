/*
 * match-csp: provider-agnostic offer matchmaking, solved exactly.
 *
 * Reads a component's requirements (seed 004's constraint language or
 * Cloudiator's OCL) and a discovery model of clouds, locations,
 * hardware, images and prices; writes the cheapest set of offers that
 * satisfies every requirement, proven optimal, or names a minimal set
 * of requirements that cannot hold together.
 */
#include <argp.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "exitcodes.h"
#include "output.h"
#include "run.h"
#include "stage.h"

enum { OPT_NOW = 256, OPT_SPAN, OPT_TIMING, OPT_GAP, OPT_METHOD };

static const char usage_doc[] =
    "Find the cheapest offers for a component's nodes, proven optimal.\v"
    "With no JOB, or when JOB is -, read standard input.  Exit status: "
    "0 solved, 1 infeasible, 64 usage, 65 bad input, 66 cannot open, "
    "71 out of memory, 74 I/O, 75 time limit before any solution.";

static const struct argp_option option_list[] = {
	{ "model", 'm', "FILE", 0, "The discovery model (else the job's "
	  "\"discovery\" member)", 0 },
	{ "nodes", 'n', "N", 0, "Place N nodes instead of the job's count", 0 },
	{ "grow", 'g', 0, 0, "Listing 2: grow from the smallest feasible "
	  "count, keeping earlier nodes", 0 },
	{ "replan", 'r', 0, 0, "Plan from scratch instead of keeping running "
	  "nodes", 0 },
	{ "time-limit", 't', "SECONDS", 0, "Stop the search after SECONDS", 0 },
	{ "gap", OPT_GAP, "FRACTION", 0, "Stop within this relative gap of "
	  "the optimum", 0 },
	{ "export", 'e', "FORMAT", 0, "Write the model instead of solving it "
	  "(FORMAT: lp)", 0 },
	{ "now", OPT_NOW, "TIME", 0, "The current time for errors (RFC 3339 "
	  "or seconds)", 0 },
	{ "error-span", OPT_SPAN, "SECONDS", 0, "How long an error keeps "
	  "offers out (default 3600)", 0 },
	{ "method", OPT_METHOD, "NAME", 0, "auto (default) or bnb: always "
	  "use branch and bound (for cross-checks)", 0 },
	{ "timing", OPT_TIMING, 0, 0, "Add solve and total times (they vary "
	  "from run to run)", 0 },
	{ 0 }
};

static void
set_now(struct argp_state *state, struct options *o, const char *arg)
{
	json_t *v = json_string(arg);
	char *end;
	long long n = strtoll(arg, &end, 10);

	if (*arg != '\0' && *end == '\0')
		o->plan.now = n;
	else if (parse_time(v, &o->plan.now) < 0)
		argp_error(state, "--now: '%s' is not a time such as "
		    "2024-05-01T10:00:00Z", arg);
	json_decref(v);
	o->plan.has_now = 1;
}

static error_t
parse_opt(int key, char *arg, struct argp_state *state)
{
	struct options *o = state->input;

	switch (key) {
	case ARGP_KEY_INIT:
		state->child_inputs[0] = &o->output;
		break;
	case 'm': o->model = arg; break;
	case 'g': o->plan.grow = 1; break;
	case 'r': o->plan.replan = 1; break;
	case 't': o->plan.time_limit = cli_number(state, "--time-limit", arg, 0, 1e9); break;
	case OPT_GAP: o->plan.gap = cli_number(state, "--gap", arg, 0, 1e9); break;
	case OPT_SPAN: o->plan.span = cli_number(state, "--error-span", arg, 0, 1e9); break;
	case OPT_TIMING: o->timing = 1; break;
	case OPT_NOW: set_now(state, o, arg); break;
	case OPT_METHOD:
		if (strcmp(arg, "auto") != 0 && strcmp(arg, "bnb") != 0)
			argp_error(state, "--method: unknown method '%s' "
			    "(known: auto, bnb)", arg);
		o->plan.method = strcmp(arg, "bnb") == 0 ? 2 : 0;
		break;
	case 'n':
		o->plan.nodes = cli_long(state, "--nodes", arg, 0, 100000);
		break;
	case 'e':
		if (strcmp(arg, "lp") != 0)
			argp_error(state, "--export: unknown format '%s' "
			    "(known: lp)", arg);
		o->export_lp = 1;
		break;
	case ARGP_KEY_ARG:
		o->job = cli_one_input(state, o->job, arg);
		break;
	case ARGP_KEY_END:
		if (o->job == NULL)
			o->job = "-";
		break;
	default:
		return ARGP_ERR_UNKNOWN;
	}
	return 0;
}

/* solve_job: the job the options name, which match_csp_run reads. */
static int
solve_job(void *options, json_t *no_input)
{
	(void)no_input;
	return match_csp_run(options);
}

int
main(int argc, char **argv)
{
	static const struct argp_child children[] = {
		{ &output_argp, 0, 0, 0 }, { 0 }
	};
	static const struct argp argp = { option_list, parse_opt, "[JOB]",
		usage_doc, children, 0, 0 };
	static const struct stage stage = { &argp, STAGE_TOOL, solve_job };
	struct options o = { .plan.nodes = -1, .plan.span = 3600 };

	return stage_main(&stage, &o, NULL, argc, argv);
}
