/*
 * jshare.h: one JSON string value per distinct text, shared by every
 * container that holds it.
 *
 * A resource graph repeats the same few strings ("current/future",
 * "install", a product name, an argv word) hundreds of thousands of
 * times; jansson would otherwise allocate each one.  jansson values are
 * reference counted and may sit in several containers, so sharing them
 * changes nothing in the output and saves most of the memory and time
 * of building a large document.
 *
 * The table belongs to the open document session (docsession.h) and
 * goes when it closes.  Without an open session, or inside one of its
 * scopes (a text not yet shared would go with the scope), jshare makes
 * a value of the text's own.
 */
#ifndef UPKIT_JSHARE_H
#define UPKIT_JSHARE_H

#include <jansson.h>

#include "idmap.h"

/* The shared strings of one session; zeroed, it is empty. */
struct jshare_table {
	struct idmap texts;
	json_t **values;	/* values[i]: the value of texts' key i */
	size_t cap;
};

/* jshare: a new reference to the shared string value of s. */
json_t *jshare(const char *s);
/* jshare_table_free: drop the table (values held elsewhere live on). */
void jshare_table_free(struct jshare_table *t);

#endif
