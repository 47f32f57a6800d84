/*
 * output.h: all-or-nothing output on stdout.
 *
 * A tool computes its whole result first and writes it once, at the
 * end, with output_json() or by committing a text buffer; nothing
 * reaches stdout before the tool knows it succeeded.  output_close()
 * then flushes and checks stdout, so "tool > /dev/full" fails with
 * EXIT_IOERR instead of exiting 0.
 *
 * JSON keeps the key order of the input (sections a tool adds come
 * after the ones it read), is pretty-printed with two spaces by
 * default and on one line with -c; either way it ends with a newline.
 * The same input therefore always gives byte-identical output.
 */
#ifndef UPKIT_OUTPUT_H
#define UPKIT_OUTPUT_H

#include <stdio.h>
#include <jansson.h>

/* How a tool writes JSON: a member of the tool's struct options. */
struct output_opts {
	int compact;		/* -c: one line instead of indented */
};

/*
 * The -c/--compact option, shared by every JSON-writing tool: an argp
 * child whose input is the tool's struct output_opts, which the tool's
 * parser hands over at ARGP_KEY_INIT (state->child_inputs[i]).
 */
extern const struct argp output_argp;

/*
 * output_json: write doc to stdout as how says (NULL: indented);
 * returns an exit status.
 */
int output_json(const json_t *doc, const struct output_opts *how);

/*
 * output_json_with: output_json, but object hole (in doc) gets more
 * members from fill, streamed after its own (see jw_set_hole), so a
 * large section need not be built as jansson values first.
 */
struct jwriter;
int output_json_with(const json_t *doc, const struct output_opts *how,
    const json_t *hole, void (*fill)(struct jwriter *, const void *),
    const void *ctx);

/* A text buffer (Graphviz, YAML...) that reaches stdout only on commit. */
FILE *output_text_begin(void);
int output_text_commit(FILE *fp);
void output_text_discard(FILE *fp);

/* output_close: flush and close stdout; EXIT_IOERR if that failed. */
int output_close(int status);
/*
 * output_check_at_exit: exits that skip output_close() (--help,
 * --version) exit EXIT_IOERR when stdout could not be written.
 */
void output_check_at_exit(void);

#endif
