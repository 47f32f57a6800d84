/*
 * jsonw.h: a streaming JSON writer.
 *
 * A plan for 100,000 machines per tier has over half a million steps;
 * building it as jansson values first costs more time and memory than
 * computing it.  jsonw writes the same bytes output_json() would (two-
 * space indentation, or one line with -c) straight into the text
 * buffer of output.h, so the output is still all or nothing.
 */
#ifndef KARAMEL_JSONW_H
#define KARAMEL_JSONW_H

#include <stdio.h>

/* Deeper nesting is a bug in the caller, not in the input. */
#define JSONW_MAX_DEPTH 16
#define JSONW_BUFFER 65536

struct jsonw {
	FILE *fp;
	int compact;
	int depth;
	int after_key;		/* a member's key is written, its value not */
	unsigned char has_items[JSONW_MAX_DEPTH];
	char closer[JSONW_MAX_DEPTH];	/* '}' or ']' by depth */
	size_t len;		/* bytes waiting in buf */
	char buf[JSONW_BUFFER];	/* stdio per call is too slow per token */
};

void jsonw_init(struct jsonw *j, FILE *fp, int compact);
void jsonw_object(struct jsonw *j);	/* { */
void jsonw_array(struct jsonw *j);	/* [ */
void jsonw_end(struct jsonw *j);	/* } or ] */
void jsonw_key(struct jsonw *j, const char *key);
void jsonw_string(struct jsonw *j, const char *s);
/*
 * jsonw_plain: a string of len bytes known to need no escapes, such as
 * the names karamel-diff makes from checked recipe and machine names.
 */
void jsonw_plain(struct jsonw *j, const char *s, size_t len);
void jsonw_int(struct jsonw *j, long long v);
/* jsonw_finish: the newline that ends the document; flushes. */
void jsonw_finish(struct jsonw *j);

#endif
