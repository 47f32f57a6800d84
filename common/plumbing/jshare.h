/*
 * jshare.h: one JSON string value per distinct text, shared by every
 * container that holds it.
 *
 * A resource graph repeats the same few strings ("current/future",
 * "install", a product name, an argv word) hundreds of thousands of
 * times; jansson would otherwise allocate each one.  jansson values are
 * reference counted and may sit in several containers, so sharing them
 * changes nothing in the output and saves most of the memory and time
 * of building a large document.  Call jshare_clear() before exit.
 * Inside a jarena scope, a text not yet shared gets a value of its own:
 * the table must not keep one that goes with the scope.
 */
#ifndef UPKIT_JSHARE_H
#define UPKIT_JSHARE_H

#include <jansson.h>

/* jshare: a new reference to the shared string value of s. */
json_t *jshare(const char *s);
/* jshare_clear: drop the table (values still held elsewhere live on). */
void jshare_clear(void);

#endif
