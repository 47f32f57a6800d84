/*
 * progress_file.c: the answers a planning stage writes for
 * upgrade-loop(1) with --progress-file (progress.h), and their removal
 * when the document they answer for could not be written after all.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "diag.h"
#include "exitcodes.h"
#include "progress.h"

/* made: the file progress_file_write created, or NULL */
static const char *made;

int
progress_file_write(const char *file, const char *progress,
    const char *digest)
{
	FILE *fp = fopen(file, "w");

	if (fp == NULL) {
		diag_error(file, "%s", strerror(errno));
		return EXIT_CANTCREAT;
	}
	made = file;
	fprintf(fp, "%s\n", progress);
	if (digest != NULL)
		fprintf(fp, "%s\n", digest);
	if (fclose(fp) != 0) {
		diag_error(file, "%s", strerror(errno));
		return EXIT_CANTCREAT;
	}
	return EXIT_OK;
}

int
progress_file_close(int status)
{
	if (status != EXIT_OK && made != NULL)
		(void)remove(made);
	return status;
}
