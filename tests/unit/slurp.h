/*
 * slurp.h: read a whole test input file, for the unit tests that replay
 * files (fuzz_replay.c, passthrough.c).
 */
#ifndef UPKIT_TEST_SLURP_H
#define UPKIT_TEST_SLURP_H

#include <stdio.h>
#include <stdlib.h>

#include "xalloc.h"

/* slurp: the whole file in a new buffer (NUL-terminated), or NULL. */
static char *
slurp(const char *path, size_t *len)
{
	FILE *fp = fopen(path, "rb");
	char *buf = NULL;
	long n;

	if (fp != NULL && fseek(fp, 0, SEEK_END) == 0 && (n = ftell(fp)) >= 0 &&
	    fseek(fp, 0, SEEK_SET) == 0) {
		buf = xmalloc((size_t)n + 1);
		*len = fread(buf, 1, (size_t)n, fp);
		buf[*len] = '\0';
	}
	if (fp != NULL)
		fclose(fp);
	return buf;
}

#endif
