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
/* jarena_end: free the arena; no jansson value may be used after it. */
void jarena_end(void);

#endif
