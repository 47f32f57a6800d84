/*
 * args.c: argument vectors that grow, NULL-terminated for execvp.
 */
#include <stdarg.h>
#include <stdlib.h>

#include "loop.h"
#include "xalloc.h"

void
args_add(struct args *a, const char *s)
{
	a->v = xgrow(a->v, a->n + 1, &a->cap, sizeof *a->v);
	a->v[a->n++] = xstrdup(s);
	a->v[a->n] = NULL;
}

void
args_add_all(struct args *a, const struct args *from)
{
	size_t i;

	for (i = 0; i < from->n; i++)
		args_add(a, from->v[i]);
}

void
args_free(struct args *a)
{
	size_t i;

	for (i = 0; i < a->n; i++)
		free(a->v[i]);
	free(a->v);
	a->v = NULL;
	a->n = a->cap = 0;
}

/* args_of: a, the arguments given, up to a NULL. */
void
args_of(struct args *a, const char *first, ...)
{
	va_list ap;
	const char *s;

	va_start(ap, first);
	for (s = first; s != NULL; s = va_arg(ap, const char *))
		args_add(a, s);
	va_end(ap);
}
