/* xalloc.c: allocation that exits on failure (see xalloc.h). */
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "diag.h"
#include "exitcodes.h"
#include "xalloc.h"

static void *
checked(void *p)
{
	if (p == NULL)
		diag_fatal(EXIT_OSERR, "out of memory");
	return p;
}

void *
xmalloc(size_t size)
{
	return checked(malloc(size ? size : 1));
}

void *
xcalloc(size_t count, size_t size)
{
	return checked(calloc(count ? count : 1, size ? size : 1));
}

void *
xreallocarray(void *ptr, size_t count, size_t size)
{
	size_t bytes;

	if (size != 0 && count > SIZE_MAX / size)
		diag_fatal(EXIT_OSERR, "out of memory");
	bytes = count * size;
	return checked(realloc(ptr, bytes != 0 ? bytes : 1));
}

char *
xstrdup(const char *s)
{
	return checked(strdup(s));
}

char *
xasprintf(const char *fmt, ...)
{
	va_list ap;
	char *s;

	va_start(ap, fmt);
	s = xvasprintf(fmt, ap);
	va_end(ap);
	return s;
}

char *
xvasprintf(const char *fmt, va_list ap)
{
	va_list again;
	int n;
	char *s;

	va_copy(again, ap);
	n = vsnprintf(NULL, 0, fmt, ap);
	if (n < 0)
		diag_fatal(EXIT_SOFTWARE, "cannot format a message");
	s = xmalloc((size_t)n + 1);
	vsnprintf(s, (size_t)n + 1, fmt, again);
	va_end(again);
	return s;
}

void
xreserve(char **buf, size_t *cap, size_t need)
{
	if (need <= *cap && *buf != NULL)
		return;
	*cap = need > 2 * *cap ? need : 2 * *cap;
	*buf = xreallocarray(*buf, *cap, 1);
}

void *
xgrow(void *p, size_t i, size_t *cap, size_t size)
{
	if (i < *cap)
		return p;
	*cap = *cap * 2 + 64;
	p = xreallocarray(p, *cap, size);
	memset((char *)p + i * size, 0, (*cap - i) * size);
	return p;
}
