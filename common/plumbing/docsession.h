/*
 * docsession.h: the memory of one document's life in a tool, from the
 * first JSON value read to the last byte written.
 *
 * A stage of the pipeline reads a state document of up to gigabytes,
 * changes a few sections and writes it all out again.  Three things make
 * that fast, and all three live exactly as long as the document:
 *
 *	the arena	every jansson value comes from large chunks, and
 *			they go at once at the end (jarena.h);
 *	kept text	the sections the stage passes through stay the text
 *			they were read from (jtext.h);
 *	shared strings	one value per repeated string (jshare.h).
 *
 * A struct docsession holds all three.  A tool opens one before it makes
 * its first JSON value and closes it after its output is written (the
 * stage runner, stage.h, does both); closing drops the shared strings,
 * forgets the kept text, then gives back the arena.  At most one session
 * is open at a time, because jansson's allocator belongs to the whole
 * process: the open session is the one the functions of jtext.h and
 * jshare.h work on, and the one jansson allocates from.
 *
 * With the arena, freeing a value does nothing: its memory goes when
 * the session closes.  So a session with an arena suits a tool that
 * loads, reads and writes its documents and makes few temporary values,
 * and no value made in it may be used after it closes.  Under
 * AddressSanitizer the arena is off (docsession_drop is json_decref), so
 * that the sanitized suite still checks every value's lifetime.
 */
#ifndef UPKIT_DOCSESSION_H
#define UPKIT_DOCSESSION_H

#include <jansson.h>

#include "jarena.h"
#include "jshare.h"
#include "jtext.h"

enum docsession_memory {
	DOCSESSION_MALLOC,	/* malloc's values, freed as jansson frees them */
	DOCSESSION_ARENA	/* values come from the arena */
};

struct docsession {
	int arena_on;		/* DOCSESSION_ARENA, and not sanitized */
	int scopes;		/* scopes open (docsession_enter) */
	struct jarena arena;
	struct jtext_table texts;
	struct jshare_table shared;
};

/* docsession_open: s becomes the open session; none may be open. */
void docsession_open(struct docsession *s, enum docsession_memory memory);
/* docsession_close: let go of all s holds (above); s must be the open one. */
void docsession_close(struct docsession *s);

/* docsession_open_one: the open session, or NULL. */
struct docsession *docsession_open_one(void);
/*
 * docsession_needed: the open session, for what cannot be done without
 * one (what, in the message): without it the program has a bug, and
 * exits 70.
 */
struct docsession *docsession_needed(const char *what);

/* docsession_drop: let go of v; with the arena, its memory goes at close. */
void docsession_drop(json_t *v);

/*
 * A scope: values made inside one are let go of at once, their memory
 * taken back, when it is left, so that a large array can be read one
 * element at a time in the memory of one.  Nothing made in the scope
 * may be kept after it, and no value from before it may change in it:
 * a member set there, even to an older value, is made there.  Taking a
 * reference to an older value is fine (json_incref allocates nothing).
 * Without the arena, leaving is json_decref of the value.
 */
struct docsession_scope {
	struct jarena_mark mark;
};
void docsession_enter(struct docsession_scope *scope);
/* docsession_leave: drop v, made in the scope, and all else made in it. */
void docsession_leave(struct docsession_scope *scope, json_t *v);
/* docsession_scoped: whether a scope is open (jshare shares none in one). */
int docsession_scoped(void);

#endif
