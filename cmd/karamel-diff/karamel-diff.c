/*
 * karamel-diff: the desired-state diff of two Karamel cluster
 * definitions, as an ordered plan of build, reconcile, purge and check
 * actions (seed 001, sections III and IV).
 *
 * Karamel itself never diffs: every run rebuilds the whole install DAG
 * and relies on convergence.  karamel-diff expands both definitions
 * into key-DAGs, compares them in the key space and orders the union,
 * so that scaling a cluster touches only what the change reaches.
 */
#include <argp.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "diag.h"
#include "exitcodes.h"
#include "load.h"
#include "output.h"
#include "plan.h"
#include "stage.h"
#include "xalloc.h"

struct options {
	const char *old, *new;
	char **karamelfiles;	/* the operands after OLD and NEW */
	size_t nkaramelfiles;
	int dot, detailed, quiet, strict;
	int changes;		/* with -e: the plan changes something */
	struct output_opts output;	/* -c */
};

static const char usage_doc[] =
    "Diff two Karamel cluster definitions into an ordered plan.\v"
    "OLD and NEW are cluster definitions (YAML or JSON); one of them may "
    "be - for standard input.  Each KARAMELFILE is a cookbook's "
    "Karamelfile or a directory of them.  Exit status: 0 success (with "
    "-e: no changes), 2 changes (with -e), 64 usage, 65 invalid input, "
    "66 cannot open, "
    "71 out of memory, 74 I/O error.";

static const struct argp_option option_list[] = {
	{ "dot", 'g', 0, 0, "Write the plan graph for Graphviz", 0 },
	/* -d: the spelling before 0.2 (HACKING.md, the letters) */
	{ 0, 'd', 0, OPTION_ALIAS, 0, 0 },
	{ "exit-code", 'e', 0, 0, "Exit 2 when the plan changes anything, "
	  "0 when it only checks", 0 },
	{ "quiet", 'q', 0, 0, "No summary line on standard error", 0 },
	{ "strict", 's', 0, 0, "Refuse duplicate YAML keys (by default the "
	  "last one wins, with a warning, as in Karamel)", 0 },
	{ 0 }
};

static void
check_operands(struct argp_state *state, const struct options *o)
{
	size_t i, stdin_uses;

	if (o->new == NULL)
		argp_error(state, "two cluster definitions are needed: OLD NEW");
	stdin_uses = (strcmp(o->old, "-") == 0) + (strcmp(o->new, "-") == 0);
	for (i = 0; i < o->nkaramelfiles; i++)
		stdin_uses += strcmp(o->karamelfiles[i], "-") == 0;
	if (stdin_uses > 1)
		argp_error(state, "only one input can be standard input");
}

static error_t
parse_opt(int key, char *arg, struct argp_state *state)
{
	struct options *o = state->input;

	switch (key) {
	case ARGP_KEY_INIT:
		state->child_inputs[0] = &o->output;
		/* every argument could be a KARAMELFILE */
		o->karamelfiles = xcalloc((size_t)state->argc,
		    sizeof *o->karamelfiles);
		break;
	case 'g':
	case 'd':
		o->dot = 1;
		break;
	case 'e':
		o->detailed = 1;
		break;
	case 'q':
		o->quiet = 1;
		break;
	case 's':
		o->strict = 1;
		break;
	case ARGP_KEY_ARG:
		if (o->old == NULL)
			o->old = arg;
		else if (o->new == NULL)
			o->new = arg;
		else
			o->karamelfiles[o->nkaramelfiles++] = arg;
		break;
	case ARGP_KEY_END:
		check_operands(state, o);
		if (!o->strict)
			load_duplicate_keys_win();
		break;
	default:
		return ARGP_ERR_UNKNOWN;
	}
	return 0;
}

/*
 * write_plan: the plan, or its graph, on stdout.  Everything is known
 * by now, so the JSON streams straight out, as output_json() would.
 * Both are flushed here, so that a failed write is known before the
 * summary line would claim success.
 */
static int
write_plan(const struct plan *p, const struct options *o)
{
	FILE *fp;
	int status = EXIT_OK;

	if (!o->dot) {
		plan_json(p, stdout, o->output.compact);
	} else {
		fp = output_text_begin();
		plan_dot(p, fp);
		status = output_text_commit(fp);
	}
	if (status == EXIT_OK && (fflush(stdout) != 0 || ferror(stdout))) {
		diag_error("stdout", "write error: %s", strerror(errno));
		status = EXIT_IOERR;
	}
	return status;
}

/*
 * run: the plan of OLD to NEW; with -e, o->changes says whether it
 * changes anything (main turns that into EXIT_CHANGES once the output
 * is known to be written).
 */
static int
run(void *options, json_t *no_input)
{
	struct options *o = options;
	struct plan p;
	int status = plan_load(&p, o->old, o->new, o->karamelfiles,
	    o->nkaramelfiles);

	(void)no_input;
	if (status == EXIT_OK)
		status = plan_compute(&p);
	if (status == EXIT_OK)
		status = write_plan(&p, o);
	if (status == EXIT_OK && !o->quiet)
		diag_error(NULL, "%zu to build, %zu to reconcile, %zu to purge, "
		    "%zu unchanged", p.diff.count[ACTION_BUILD],
		    p.diff.count[ACTION_RECONCILE], p.diff.count[ACTION_PURGE],
		    p.diff.count[ACTION_CHECK]);
	o->changes = status == EXIT_OK && o->detailed && plan_changes(&p) > 0;
	plan_free(&p);
	return status;
}

int
main(int argc, char **argv)
{
	static const struct argp_child children[] = {
		{ &output_argp, 0, 0, 0 }, { 0 }
	};
	static const struct argp argp = { option_list, parse_opt,
		"OLD NEW [KARAMELFILE | DIR]...", usage_doc, children, 0, 0 };
	static const struct stage stage = { &argp, STAGE_TOOL, run };
	struct options o = { 0 };
	int status = stage_main(&stage, &o, NULL, argc, argv);

	free(o.karamelfiles);
	return status == EXIT_OK && o.changes ? EXIT_CHANGES : status;
}
