/*
 * answer_file.c: answers a tool writes for upgrade-loop(1) beside the
 * document it writes (--progress-file, --summary-file), and their
 * removal when that document could not be written after all.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "answer_file.h"
#include "diag.h"
#include "exitcodes.h"

/* made: the file answer_file_open created, or NULL */
static const char *made;

static FILE *
answer_file_open(const char *file)
{
	FILE *fp = fopen(file, "w");

	if (fp == NULL)
		diag_error(file, "%s", strerror(errno));
	else
		made = file;
	return fp;
}

static int
answer_file_commit(const char *file, FILE *fp)
{
	if (fclose(fp) != 0) {
		diag_error(file, "%s", strerror(errno));
		return EXIT_CANTCREAT;
	}
	return EXIT_OK;
}

int
answer_file_write(const char *file, const char *first, const char *second)
{
	FILE *fp = answer_file_open(file);

	if (fp == NULL)
		return EXIT_CANTCREAT;
	fprintf(fp, "%s\n", first);
	if (second != NULL)
		fprintf(fp, "%s\n", second);
	return answer_file_commit(file, fp);
}

int
answer_file_json(const char *file, const json_t *value)
{
	FILE *fp = answer_file_open(file);

	if (fp == NULL)
		return EXIT_CANTCREAT;
	(void)json_dumpf(value, fp, JSON_COMPACT | JSON_PRESERVE_ORDER);
	putc('\n', fp);
	return answer_file_commit(file, fp);
}

int
answer_file_close(int status)
{
	if (status != EXIT_OK && made != NULL)
		(void)remove(made);
	return status;
}
