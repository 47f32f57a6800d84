/*
 * answer_file.h: the answers a tool writes for upgrade-loop(1) beside
 * the document it writes, so that the loop need not read the document
 * back to ask (rg-build and vm-migrate-plan --progress-file, upkit-sim
 * --summary-file).
 */
#ifndef UPKIT_ANSWER_FILE_H
#define UPKIT_ANSWER_FILE_H

#include <jansson.h>

/*
 * answer_file_write: write first, and second unless NULL, a line each,
 * to file; EXIT_CANTCREAT, with a diagnostic, if it cannot be written.
 */
int answer_file_write(const char *file, const char *first,
    const char *second);
/* answer_file_json: value, as compact JSON on one line, to file. */
int answer_file_json(const char *file, const json_t *value);
/*
 * answer_file_close: given the tool's final status, remove the file
 * answer_file_write created unless status is EXIT_OK: no answers
 * without the document they answer for.  Returns status.
 */
int answer_file_close(int status);

#endif
