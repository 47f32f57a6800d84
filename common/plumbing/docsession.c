/* docsession.c: the open document session (see docsession.h). */
#include <stdlib.h>
#include <string.h>

#include "diag.h"
#include "docsession.h"
#include "exitcodes.h"
#include "sanitized.h"

/*
 * The one session open, if any.  It is reached from here, not passed
 * along, because jansson calls its allocator with no context of ours.
 */
static struct docsession *open_session;

static void *
arena_malloc(size_t size)
{
	return jarena_alloc(&open_session->arena, size);
}

static void
arena_free(void *p)
{
	(void)p;	/* everything goes when the session closes */
}

void
docsession_open(struct docsession *s, enum docsession_memory memory)
{
	if (open_session != NULL)
		diag_fatal(EXIT_SOFTWARE, "a document session is already open");
	memset(s, 0, sizeof *s);
	s->arena_on = memory == DOCSESSION_ARENA && !UPKIT_SANITIZED;
	open_session = s;
	if (s->arena_on)
		json_set_alloc_funcs(arena_malloc, arena_free);
}

void
docsession_close(struct docsession *s)
{
	if (s != open_session)
		diag_fatal(EXIT_SOFTWARE, "closing a document session not open");
	jshare_table_free(&s->shared);
	jtext_table_free(&s->texts);
	jarena_free(&s->arena);
	if (s->arena_on)
		json_set_alloc_funcs(malloc, free);
	open_session = NULL;
}

struct docsession *
docsession_open_one(void)
{
	return open_session;
}

struct docsession *
docsession_needed(const char *what)
{
	if (open_session == NULL)
		diag_fatal(EXIT_SOFTWARE, "%s needs an open document session",
		    what);
	return open_session;
}

void
docsession_drop(json_t *v)
{
	if (open_session == NULL || !open_session->arena_on)
		json_decref(v);
}

void
docsession_enter(struct docsession_scope *scope)
{
	struct docsession *s = docsession_needed("a scope");

	if (s->arena_on)
		jarena_mark(&s->arena, &scope->mark);
	s->scopes++;
}

void
docsession_leave(struct docsession_scope *scope, json_t *v)
{
	struct docsession *s = docsession_needed("a scope");

	s->scopes--;
	if (s->arena_on)
		jarena_release(&s->arena, &scope->mark);
	else
		json_decref(v);
}

int
docsession_scoped(void)
{
	return open_session != NULL && open_session->scopes > 0;
}
