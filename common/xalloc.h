/*
 * xalloc.h: allocation that cannot fail.  On exhaustion these print
 * "prog: out of memory" and exit with EXIT_OSERR, so callers never
 * carry a NULL check for memory.
 */
#ifndef UPKIT_XALLOC_H
#define UPKIT_XALLOC_H

#include <stddef.h>

void *xmalloc(size_t size);
void *xcalloc(size_t count, size_t size);
/* xreallocarray: resize to count * size bytes, checking the product. */
void *xreallocarray(void *ptr, size_t count, size_t size);
char *xstrdup(const char *s);

#endif
