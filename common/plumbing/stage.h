/*
 * stage.h: a tool's life, from its command line to its exit status.
 *
 * Every upkit tool starts and ends the same way: it names itself for
 * diagnostics (cli.h), opens a document session (docsession.h), parses
 * its options with argp, reads its input document when it has one, does
 * its work, closes the session and closes its output (output.h) and
 * answer file (answer_file.h), whose status it returns.  stage_main is
 * that sequence, once; a tool's main() is its options and a call of it.
 */
#ifndef UPKIT_STAGE_H
#define UPKIT_STAGE_H

#include <argp.h>
#include <jansson.h>

#include "docsession.h"

/*
 * The input document of a filter: the file operand (NULL or "-":
 * standard input) and, for a stage of the pipeline, the top-level
 * sections it reads, the others passing through as text
 * (load_document_reading; NULL: all of them).  Another tool loads the
 * whole document as values (load_document).  A tool's parser fills it.
 */
struct stage_input {
	const char *file;
	const char *const *reads;
	int none;	/* the options read no document: run gets NULL */
};

/*
 * stage_input_argp: an argp child taking the single FILE operand into
 * its input, a struct stage_input (which the tool's parser hands over at
 * ARGP_KEY_INIT, state->child_inputs[i]); a second operand is a usage
 * error.
 */
extern const struct argp stage_input_argp;

/*
 * A stage of the pipeline reads and writes large documents and makes
 * few values of its own: its session has an arena, and what it does not
 * read passes through as text.  Other tools use malloc and values.
 */
enum stage_kind { STAGE_TOOL, STAGE_PIPELINE };

struct stage {
	const struct argp *argp;
	enum stage_kind kind;
	/*
	 * run: the tool's work, given its options (argp's input) and its
	 * input document, or NULL when the tool reads its own inputs
	 * (stage_main's in is NULL); returns an exit status.  The document
	 * is the session's: run may change it, not free it.
	 */
	int (*run)(void *options, json_t *doc);
};

/*
 * stage_main: the life above, for argc and argv; options is argp's
 * input, and in (NULL for a tool without an input document) is where
 * the parser leaves the input's name and sections.
 */
int stage_main(const struct stage *stage, void *options,
    struct stage_input *in, int argc, char **argv);

#endif
