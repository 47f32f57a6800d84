/*
 * jarena.h: jansson's values from one arena, let go of all at once.
 *
 * Loading a large state document makes tens of millions of small
 * jansson allocations; malloc's per-block header and rounding add a
 * third to the tree's size, and freeing the tree value by value at exit
 * costs a good part of what loading did.  A tool that only loads,
 * reads and writes its documents can instead take every jansson
 * allocation from large chunks (free does nothing), drop its trees with
 * jarena_drop() and release the chunks once with jarena_end(): still
 * everything freed, as LeakSanitizer wants.
 *
 * Memory jansson frees is not reused, so this only suits tools that
 * build few temporary values.  Under AddressSanitizer the arena is off
 * (jarena_drop is json_decref), so that the sanitized suite still
 * checks every value's lifetime.
 */
#ifndef UPKIT_JARENA_H
#define UPKIT_JARENA_H

#include <jansson.h>

/* jarena_start: call before the first jansson value is made. */
void jarena_start(void);
/* jarena_drop: let go of v; with the arena, its memory goes at the end. */
void jarena_drop(json_t *v);
/*
 * A scope: values made inside one are let go of at once, their memory
 * taken back, when it is left, so that a large array can be read one
 * element at a time in the memory of one.  Nothing made in the scope
 * may be kept after it, and no value from before it may change in it:
 * a member set there, even to an older value, is made there.  Taking a
 * reference to an older value is fine (json_incref allocates nothing).
 * Without the arena, leaving is json_decref of the value.
 */
struct jarena_scope {
	void *chunks;
	char *next_free, *chunk_end;
};
void jarena_enter(struct jarena_scope *s);
/* jarena_leave: drop v, made in s, and everything else made in s. */
void jarena_leave(struct jarena_scope *s, json_t *v);
/*
 * jarena_scoped: whether a scope is open, for the caches of values
 * (jshare), which must not keep a value made in one.
 */
int jarena_scoped(void);
/* jarena_end: free the arena; no jansson value may be used after it. */
void jarena_end(void);

#endif
