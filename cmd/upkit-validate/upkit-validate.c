/*
 * upkit-validate: check that a file is a well-formed upkit state
 * document (or, with -s, one section of it) and pass it on as JSON.
 *
 * It is the pipeline's entry check and its YAML-to-JSON converter:
 * whatever the other tools would reject, it rejects first with the same
 * located message, and what it prints every other tool accepts.
 */
#include <argp.h>
#include <stdlib.h>
#include <string.h>

#include "access.h"
#include "exitcodes.h"
#include "load.h"
#include "output.h"
#include "stage.h"
#include "state.h"
#include "summary.h"
#include "sysconf.h"
#include "xalloc.h"

struct options {
	enum section section;	/* SECTION_COUNT: a whole document */
	int quiet;
	int summary;
	const char **files;
	size_t nfiles;
	struct output_opts output;	/* -c */
};

static const char usage_doc[] =
    "Check upkit state documents and write them out as JSON.\v"
    "With no FILE, or when FILE is -, read standard input.  "
    "Exit status: 0 valid, 64 usage, 65 invalid, 66 cannot open, "
    "71 out of memory, 74 I/O.";

static const struct argp_option option_list[] = {
	{ "section", 's', "NAME", 0,
	  "The input is one section (system, catalog, ...), not a document", 0 },
	{ "quiet", 'q', 0, 0, "Write nothing; only the exit status tells", 0 },
	{ "summary", 'S', 0, 0, "Write counts per section instead of the "
	  "document", 0 },
	{ 0 }
};

static error_t
parse_opt(int key, char *arg, struct argp_state *state)
{
	struct options *o = state->input;

	switch (key) {
	case ARGP_KEY_INIT:
		state->child_inputs[0] = &o->output;
		/* every argument could be a FILE */
		o->files = xcalloc((size_t)state->argc, sizeof *o->files);
		break;
	case 's':
		o->section = section_by_name(arg);
		if (o->section == SECTION_COUNT)
			argp_error(state, "unknown section '%s'", arg);
		break;
	case 'q':
		o->quiet = 1;
		break;
	case 'S':
		o->summary = 1;
		break;
	case ARGP_KEY_ARG:
		o->files[o->nfiles++] = arg;
		break;
	case ARGP_KEY_END:
		if (o->nfiles == 0)
			o->files[o->nfiles++] = "-";
		if (o->nfiles > 1 && !o->quiet)
			argp_error(state, "several files need -q");
		break;
	default:
		return ARGP_ERR_UNKNOWN;
	}
	return 0;
}

static int
check_section(struct access *a, enum section s, const json_t *sec)
{
	struct sysconf sc;
	int r;

	if (state_check_section(a, s, sec) < 0)
		return -1;
	if (s != SECTION_SYSTEM)
		return 0;
	r = sysconf_load(a, sec, &sc);
	sysconf_free(&sc);
	return r;
}

/* check_document: the whole document, or the one section given. */
static int
check_document(struct access *a, const struct options *o, const json_t *doc)
{
	json_t *sec;

	if (o->section != SECTION_COUNT)
		return check_section(a, o->section, doc);
	if (state_check(a, doc) < 0)
		return -1;
	if ((sec = state_section(doc, SECTION_SYSTEM)) == NULL)
		return 0;
	access_enter_key(a, section_desc(SECTION_SYSTEM)->name);
	return check_section(a, SECTION_SYSTEM, sec);
}

static int
validate(const struct options *o, const char *file)
{
	struct access a;
	json_t *doc, *summary;
	int status = load_document(file, &doc);

	if (status != EXIT_OK)
		return status;
	access_init(&a, load_name(file));
	if (check_document(&a, o, doc) < 0)
		status = EXIT_DATAERR;
	access_free(&a);
	if (status == EXIT_OK && !o->quiet) {
		summary = o->summary ? summarize(doc, o->section) : NULL;
		status = output_json(summary ? summary : doc, &o->output);
		json_decref(summary);
	}
	json_decref(doc);
	return status;
}

/* validate_all: every FILE; the status of the first that fails. */
static int
validate_all(void *options, json_t *no_input)
{
	const struct options *o = options;
	int status = EXIT_OK, s;
	size_t i;

	(void)no_input;
	for (i = 0; i < o->nfiles; i++)
		if ((s = validate(o, o->files[i])) != EXIT_OK && status == EXIT_OK)
			status = s;
	return status;
}

int
main(int argc, char **argv)
{
	static const struct argp_child children[] = {
		{ &output_argp, 0, 0, 0 }, { 0 }
	};
	static const struct argp argp = { option_list, parse_opt,
		"[FILE...]", usage_doc, children, 0, 0 };
	static const struct stage stage = { &argp, STAGE_TOOL, validate_all };
	struct options o = { .section = SECTION_COUNT };
	int status = stage_main(&stage, &o, NULL, argc, argv);

	free(o.files);
	return status;
}
