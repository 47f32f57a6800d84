/*
 * upkit-sim: the simulated actuator of the upkit loop (seed 000 III.B,
 * Fig. 3 and 4) for what-if analysis, and the rolling-upgrade baseline
 * of section V.  By default it runs the schedules of a state document
 * in simulated time and writes the document back with the iteration
 * report; --rolling, --summary and --progress are the other modes.
 */
#include <argp.h>
#include <stdlib.h>
#include <string.h>

#include "catalog.h"
#include "cli.h"
#include "exitcodes.h"
#include "load.h"
#include "output.h"
#include "rgraph.h"
#include "sim.h"
#include "state.h"
#include "sysconf.h"

enum { OPT_SUMMARY = 256, OPT_PROGRESS, OPT_TABLE, OPT_FINGERPRINT,
	OPT_SUMMARY_FILE };

static const char usage_doc[] =
    "Run the upgrade schedules of a state document in simulation and "
    "write it back with the iteration report; or simulate the rolling "
    "upgrade baseline, summarize a run, or tell the loop's progress or "
    "whether an iteration repeats the last.\v"
    "With no FILE, or when FILE is -, read standard input.  SECONDS may "
    "have up to three decimals.  Exit status: 0 done, 64 usage, 65 "
    "invalid input, 66 cannot open, 70 internal error, "
    "71 out of memory, 73 cannot write the summary file, 74 I/O error.";

static const struct argp_option option_list[] = {
	{ "fail", 'f', "ID", 0, "The action or undo step ID fails "
	  "(repeatable)", 0 },
	{ "fail-rate", 'p', "P", 0, "Every action and step fails with "
	  "probability P", 0 },
	{ "seed", 's', "N", 0, "Seed of the generator for -p and -m "
	  "(default 1)", 0 },
	{ "timeline", 't', "FILE", 0, "Tenant scaling and host failures "
	  "(upkit-sim(5))", 0 },
	{ "start", 'T', "TIME", 0, "The upgrade's start (default: the first "
	  "request's time)", 0 },
	{ "calc-time", 'C', "SECONDS", 0, "Planning time per iteration "
	  "(default 0)", 0 },
	{ "outage", 'o', "SECONDS", 0, "VM outage per live migration "
	  "(default 0.6)", 0 },
	{ "recovery", 'R', "SECONDS", 0, "Failover time of a VM whose host "
	  "fails (default 23)", 0 },
	{ "rolling", 'b', "N", 0, "Simulate rolling upgrade with batches of "
	  "N hosts instead", 0 },
	{ "samples", 'm', "M", 0, "With -b: M random batch selections "
	  "instead of all", 0 },
	{ "summary", OPT_SUMMARY, 0, 0, "Summarize the run that ended with "
	  "this document", 0 },
	{ "progress", OPT_PROGRESS, 0, 0, "Print done, suspended or running",
	  0 },
	{ "fingerprint", OPT_FINGERPRINT, 0, 0, "Print a digest of the "
	  "system and the plan, the same for an iteration that repeats the "
	  "last (with --progress: after it)", 0 },
	{ "table", OPT_TABLE, 0, 0, "With -b or --summary: a Markdown table "
	  "instead of JSON", 0 },
	{ "summary-file", OPT_SUMMARY_FILE, "FILE", 0, "When simulating: also "
	  "write to FILE what --summary prints of the output, as compact "
	  "JSON", 0 },
	{ "verbose", 'v', 0, 0, "When simulating: a line on standard error "
	  "for each group as it ends, at its simulated time", 0 },
	{ 0 }
};

static void
seconds_arg(struct argp_state *state, const char *arg, ms_t *out)
{
	if (parse_seconds(arg, out) < 0)
		argp_error(state, "'%s' is not a number of seconds", arg);
}

/* set_mode: one mode; --progress and --fingerprint go together. */
static void
set_mode(struct argp_state *state, struct options *o, int mode)
{
	int loop = (mode == MODE_PROGRESS || mode == MODE_FINGERPRINT) &&
	    (o->mode == MODE_PROGRESS || o->mode == MODE_FINGERPRINT ||
	    o->mode == MODE_PROGRESS_FINGERPRINT);

	if (loop && o->mode != mode)
		mode = MODE_PROGRESS_FINGERPRINT;
	else if (o->mode != MODE_SIMULATE && o->mode != mode)
		argp_error(state, "--rolling, --summary and --progress "
		    "(or --fingerprint) exclude each other");
	o->mode = mode;
}

/*
 * The sections each mode reads (NULL: all); the others are checked but
 * kept as text, which matters for the two the loop runs every
 * iteration: they walk the graph's vertices, the schedule and the
 * system in their text (summary.c, fingerprint.c).
 */
static const char *const progress_reads[] = { "requests", "batch",
	"migrations", NULL };
static const char *const fingerprint_reads[] = { "migrations", NULL };
/* the summary's outcome is the progress (summary.c) */
static const char *const summary_reads[] = { "report", "requests", "batch",
	"migrations", NULL };
/* a simulation reads all but the control graph, which it passes on: at
 * 10,000 hosts it is an eighth of the document */
static const char *const simulate_reads[] = { "system", "catalog",
	"resource_graph", "schedule", "migrations", "report", "requests",
	"batch", NULL };
static const char *const *const mode_reads[] = { simulate_reads, NULL,
	summary_reads, progress_reads, fingerprint_reads, progress_reads };

static error_t
parse_opt(int key, char *arg, struct argp_state *state)
{
	struct options *o = state->input;

	switch (key) {
	case ARGP_KEY_INIT:
		state->child_inputs[0] = &o->output;
		state->child_inputs[1] = &o->in;
		break;
	case 'f':
		idmap_add(&o->fail_ids, arg);
		break;
	case 'p':
		o->fail_rate = cli_number(state, "--fail-rate", arg, 0, 1);
		break;
	case 's':
		o->seed = (uint64_t)cli_long(state, "--seed", arg, 0, LONG_MAX);
		break;
	case 't':
		o->timeline = arg;
		break;
	case 'T':
		o->start = arg;
		break;
	case 'C':
		seconds_arg(state, arg, &o->calc_ms);
		break;
	case 'o':
		seconds_arg(state, arg, &o->outage_ms);
		break;
	case 'R':
		seconds_arg(state, arg, &o->recovery_ms);
		break;
	case 'b':
		o->rolling = cli_long(state, "--rolling", arg, 1, 64);
		set_mode(state, o, MODE_ROLLING);
		break;
	case 'm':
		o->samples = cli_long(state, "--samples", arg, 1, 100000000);
		break;
	case OPT_SUMMARY:
		set_mode(state, o, MODE_SUMMARY);
		break;
	case OPT_PROGRESS:
		set_mode(state, o, MODE_PROGRESS);
		break;
	case OPT_FINGERPRINT:
		set_mode(state, o, MODE_FINGERPRINT);
		break;
	case OPT_TABLE:
		o->table = 1;
		break;
	case OPT_SUMMARY_FILE:
		o->summary_file = arg;
		break;
	case 'v':
		o->verbose = 1;
		break;
	case ARGP_KEY_END:
		if (o->summary_file != NULL && o->mode != MODE_SIMULATE)
			argp_error(state, "--summary-file: only when simulating "
			    "an iteration");
		if (o->verbose && o->mode != MODE_SIMULATE)
			argp_error(state, "-v: only when simulating an "
			    "iteration");
		o->in.reads = mode_reads[o->mode];
		break;
	default:
		return ARGP_ERR_UNKNOWN;
	}
	return 0;
}

/* rolling_mode: the system, resource graph and catalog, then the baseline. */
static int
rolling_mode(const struct options *o, json_t *doc)
{
	struct sysconf sc = { 0 };
	struct rgraph rg;
	struct catalog cat = { 0 };
	struct access a;
	json_t *sys, *rgs, *cats = json_object_get(doc, "catalog");
	int status = EXIT_DATAERR;

	rgraph_init(&rg);
	access_init(&a, load_name(o->in.file));
	if (state_check(&a, doc) == 0 &&
	    state_require(&a, doc, SECTION_SYSTEM, &sys) == 0 &&
	    state_require(&a, doc, SECTION_RESOURCE_GRAPH, &rgs) == 0) {
		access_enter_key(&a, "system");
		if (sysconf_load(&a, sys, &sc) == 0) {
			access_leave(&a);
			access_enter_key(&a, "resource_graph");
			if (rgraph_load(&a, rgs, &rg) == 0) {
				access_leave(&a);
				access_enter_key(&a, "catalog");
				if (cats == NULL || catalog_load(&a, cats, &cat) == 0)
					status = rolling_run(o, &sc, &rg, &cat);
			}
		}
	}
	access_free(&a);
	catalog_free(&cat);
	rgraph_free(&rg);
	sysconf_free(&sc);
	return status;
}

static int
summary_mode(const struct options *o, json_t *doc)
{
	struct access a;
	json_t *rep;
	int r;

	access_init(&a, load_name(o->in.file));
	r = state_check(&a, doc) < 0 ||
	    state_require(&a, doc, SECTION_REPORT, &rep) < 0 ||
	    sim_report_check(&a, rep) < 0;
	access_free(&a);
	return r ? EXIT_DATAERR : summary_run(o, doc);
}

/* checked_run: run, on a document state_check accepts. */
static int
checked_run(const struct options *o, json_t *doc,
    int (*run)(const struct options *, json_t *))
{
	struct access a;
	int r;

	access_init(&a, load_name(o->in.file));
	r = state_check(&a, doc);
	access_free(&a);
	return r < 0 ? EXIT_DATAERR : run(o, doc);
}

static int
progress_mode(const struct options *o, json_t *doc)
{
	return checked_run(o, doc, progress_run);
}

static int
fingerprint_mode(const struct options *o, json_t *doc)
{
	return checked_run(o, doc, fingerprint_run);
}

static int
progress_fingerprint_run(const struct options *o, json_t *doc)
{
	int status = progress_run(o, doc);

	return status != EXIT_OK ? status : fingerprint_run(o, doc);
}

/* the loop asks both of a plan: the document is read once */
static int
progress_fingerprint_mode(const struct options *o, json_t *doc)
{
	return checked_run(o, doc, progress_fingerprint_run);
}

/* run_mode: the work of the mode the options chose. */
static int
run_mode(void *options, json_t *doc)
{
	static int (*const modes[])(const struct options *, json_t *) = {
		simulate_run, rolling_mode, summary_mode, progress_mode,
		fingerprint_mode, progress_fingerprint_mode
	};
	const struct options *o = options;

	return modes[o->mode](o, doc);
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
	static const struct stage stage = { &argp, STAGE_PIPELINE, run_mode };
	struct options o = { .seed = 1, .outage_ms = 600,
	    .recovery_ms = 23000 };
	int status = stage_main(&stage, &o, &o.in, argc, argv);

	idmap_free(&o.fail_ids);
	return status;
}
