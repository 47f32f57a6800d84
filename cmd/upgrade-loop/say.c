/*
 * say.c: the loop's messages, "upgrade-loop: message", a line each on
 * standard error, written whole, however long (the change sets it names
 * can be many).
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include "diag.h"
#include "exitcodes.h"
#include "loop.h"
#include "xalloc.h"

static void
vsay(const char *fmt, va_list ap)
{
	char *msg;
	va_list copy;
	int n;

	va_copy(copy, ap);
	n = vsnprintf(NULL, 0, fmt, copy);
	va_end(copy);
	msg = xmalloc((size_t)n + 1);
	vsnprintf(msg, (size_t)n + 1, fmt, ap);
	fflush(stdout);
	fprintf(stderr, "%s: %s\n", diag_progname(), msg);
	fflush(stderr);
	free(msg);
}

void
die(int status, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsay(fmt, ap);
	va_end(ap);
	exit(status);
}

/* die_freeing: die with msg, which is freed first (no leak at exit). */
void
die_freeing(int status, char *msg)
{
	fflush(stdout);
	fprintf(stderr, "%s: %s\n", diag_progname(), msg);
	fflush(stderr);
	free(msg);
	exit(status);
}

/*
 * die_tool: a program the loop ran failed with status: its input's
 * fault (65) stays 65, anything else is a bug (70).
 */
void
die_tool(int status, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsay(fmt, ap);
	va_end(ap);
	exit(status == EXIT_DATAERR ? EXIT_DATAERR : EXIT_SOFTWARE);
}

/* say: a line of progress, unless -q. */
void
say(const struct loop *l, const char *fmt, ...)
{
	va_list ap;

	if (l->o->quiet)
		return;
	va_start(ap, fmt);
	vsay(fmt, ap);
	va_end(ap);
}

/* clock_text: secs as H:MM:SS. */
char *
clock_text(long secs)
{
	return xasprintf("%ld:%02ld:%02ld", secs / 3600, secs % 3600 / 60,
	    secs % 60);
}
