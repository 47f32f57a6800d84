/* stage.c: a tool's life, from argv to exit status (see stage.h). */
#include "answer_file.h"
#include "cli.h"
#include "exitcodes.h"
#include "load.h"
#include "output.h"
#include "stage.h"

static error_t
parse_operand(int key, char *arg, struct argp_state *state)
{
	struct stage_input *in = state->input;

	if (key != ARGP_KEY_ARG)
		return ARGP_ERR_UNKNOWN;
	in->file = cli_one_input(state, in->file, arg);
	return 0;
}

const struct argp stage_input_argp = { 0, parse_operand, 0, 0, 0, 0, 0 };

/* read_and_run: the input document, given to the tool's work. */
static int
read_and_run(const struct stage *stage, void *options,
    const struct stage_input *in)
{
	json_t *doc = NULL;
	int status;

	status = stage->kind == STAGE_PIPELINE ?
	    load_document_reading(in->file, in->reads, &doc) :
	    load_document(in->file, &doc);
	if (status == EXIT_OK)
		status = stage->run(options, doc);
	docsession_drop(doc);
	return status;
}

int
stage_main(const struct stage *stage, void *options, struct stage_input *in,
    int argc, char **argv)
{
	enum docsession_memory memory = stage->kind == STAGE_PIPELINE ?
	    DOCSESSION_ARENA : DOCSESSION_MALLOC;
	struct docsession session;
	int status;

	cli_init(argv);
	docsession_open(&session, memory);
	argp_parse(stage->argp, argc, argv, 0, NULL, options);
	status = in != NULL && !in->none ? read_and_run(stage, options, in) :
	    stage->run(options, NULL);
	docsession_close(&session);
	return answer_file_close(output_close(status));
}
