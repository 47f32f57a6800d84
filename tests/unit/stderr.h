/*
 * stderr.h: capture what a call prints on stderr, so a unit test can
 * assert the exact diagnostic.  stderr goes to a scratch file between
 * capture_begin() and capture_end(), which returns its text.
 */
#ifndef UPKIT_TEST_STDERR_H
#define UPKIT_TEST_STDERR_H

#include <stdio.h>
#include <string.h>
#include <unistd.h>

static char captured[4096];
static int saved_fd = -1;
static FILE *capture_fp;

static void
capture_begin(void)
{
	fflush(stderr);
	saved_fd = dup(2);
	capture_fp = tmpfile();
	dup2(fileno(capture_fp), 2);
}

static const char *
capture_end(void)
{
	size_t n;

	fflush(stderr);
	dup2(saved_fd, 2);
	close(saved_fd);
	rewind(capture_fp);
	n = fread(captured, 1, sizeof captured - 1, capture_fp);
	captured[n] = '\0';
	fclose(capture_fp);
	return captured;
}

#endif
