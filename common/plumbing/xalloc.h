/*
 * xalloc.h: allocation that cannot fail.  On exhaustion these print
 * "prog: out of memory" and exit with EXIT_OSERR, so callers never
 * carry a NULL check for memory.
 */
#ifndef UPKIT_XALLOC_H
#define UPKIT_XALLOC_H

#include <stdarg.h>
#include <stddef.h>

void *xmalloc(size_t size);
void *xcalloc(size_t count, size_t size);
/* xreallocarray: resize to count * size bytes, checking the product. */
void *xreallocarray(void *ptr, size_t count, size_t size);
char *xstrdup(const char *s);
/* xasprintf: a new string formatted as printf would. */
char *xasprintf(const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 1, 2)))
#endif
    ;
/* xvasprintf: xasprintf with the arguments in ap. */
char *xvasprintf(const char *fmt, va_list ap)
#if defined(__GNUC__)
    __attribute__((format(printf, 1, 0)))
#endif
    ;
/*
 * xgrow: array p of *cap elements of size bytes, grown when needed to
 * hold element i, the new elements zeroed: for arrays whose length is
 * not known up front, filled in index order.
 */
void *xgrow(void *p, size_t i, size_t *cap, size_t size);
/* xreserve: grow *buf (of *cap bytes, or NULL) to hold need bytes. */
void xreserve(char **buf, size_t *cap, size_t need);

#endif
