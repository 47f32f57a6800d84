/* diag.c: one-line, located, escaped diagnostics (see diag.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "diag.h"

static const char *progname = "upkit";
static unsigned long nwarnings;

void
diag_init(const char *argv0)
{
	const char *slash;

	if (argv0 == NULL || *argv0 == '\0')
		return;
	slash = strrchr(argv0, '/');
	progname = slash ? slash + 1 : argv0;
}

const char *
diag_progname(void)
{
	return progname;
}

unsigned long
diag_warnings(void)
{
	return nwarnings;
}

/* put_escaped: write s to stderr with control characters made visible. */
static void
put_escaped(const char *s)
{
	const unsigned char *p;

	for (p = (const unsigned char *)s; *p != '\0'; p++) {
		if (*p == '\n')
			fputs("\\n", stderr);
		else if (*p == '\t')
			fputs("\\t", stderr);
		else if (*p < 0x20 || *p == 0x7f)
			fprintf(stderr, "\\x%02x", *p);
		else
			putc(*p, stderr);
	}
}

/*
 * emit: print one diagnostic.  The message is formatted first so that
 * its control characters can be escaped as a whole.
 */
static void
emit(const char *file, const char *where, const char *level,
    const char *fmt, va_list ap)
{
	char small[512], *msg = small;
	va_list copy;
	int n;

	va_copy(copy, ap);
	n = vsnprintf(small, sizeof small, fmt, copy);
	va_end(copy);
	if (n >= (int)sizeof small && (msg = malloc((size_t)n + 1)) != NULL)
		vsnprintf(msg, (size_t)n + 1, fmt, ap);
	else if (msg == NULL)
		msg = small;	/* truncated, but still said */

	fprintf(stderr, "%s: ", progname);
	if (file != NULL) {
		put_escaped(file);
		fputs(where != NULL && *where == ':' ? "" : ": ", stderr);
	}
	if (where != NULL && *where != '\0') {
		put_escaped(where);
		fputs(": ", stderr);
	}
	if (level != NULL)
		fprintf(stderr, "%s: ", level);
	put_escaped(msg);
	putc('\n', stderr);
	fflush(stderr);
	if (msg != small)
		free(msg);
}

void
diag_error(const char *file, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	emit(file, NULL, NULL, fmt, ap);
	va_end(ap);
}

void
diag_at(const char *file, long line, long col, const char *fmt, ...)
{
	char where[64];
	va_list ap;

	snprintf(where, sizeof where, ":%ld:%ld", line, col);
	va_start(ap, fmt);
	emit(file, where, NULL, fmt, ap);
	va_end(ap);
}

void
diag_vpath(const char *file, const char *path, const char *fmt, va_list ap)
{
	emit(file, path, NULL, fmt, ap);
}

void
diag_path(const char *file, const char *path, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	emit(file, path, NULL, fmt, ap);
	va_end(ap);
}

void
diag_warn(const char *file, const char *path, const char *fmt, ...)
{
	va_list ap;

	nwarnings++;
	va_start(ap, fmt);
	emit(file, path, "warning", fmt, ap);
	va_end(ap);
}

void
diag_fatal(int status, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	emit(NULL, NULL, NULL, fmt, ap);
	va_end(ap);
	exit(status);
}
