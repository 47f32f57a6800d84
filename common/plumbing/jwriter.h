/*
 * jwriter.h: JSON written straight to a stream, byte for byte as
 * jansson's json_dump_callback() lays it out with JSON_PRESERVE_ORDER
 * and either JSON_COMPACT or JSON_INDENT(2).
 *
 * jansson's dumper is slow on large documents: it hands out one token
 * per callback and, to detect cycles, formats every container's address
 * with snprintf and files it in a hash table.  jwriter dumps a jansson
 * tree without that (jw_value), and lets a tool stream a large section
 * from its own structures without building the tree at all (jw_object,
 * jw_key, jw_string, ...).  Output goes through one 64 KiB block.
 *
 * With jw_jq, the layout is jq's (jq .) instead, for a file people and
 * scripts have always read in it (upgrade-loop's summary.json).
 */
#ifndef UPKIT_JWRITER_H
#define UPKIT_JWRITER_H

#include <stddef.h>
#include <stdio.h>
#include <jansson.h>

/* Streamed nesting deeper than this is a bug in the caller. */
#define JW_MAX_LEVELS 64

struct jwriter {
	FILE *fp;
	int compact;
	int failed;		/* a write failed; errno tells why */
	int after_key;		/* a member's key is out, its value not */
	int fresh;		/* see jw_fresh */
	int jq;			/* see jw_jq */
	size_t depth;		/* indentation depth of the open container */
	size_t level;		/* streamed containers open */
	unsigned char has_items[JW_MAX_LEVELS];
	char closer[JW_MAX_LEVELS];
	const json_t *hole;	/* see jw_set_hole */
	void (*fill)(struct jwriter *, const void *);
	const void *fill_ctx;
	size_t len;
	char buf[1 << 16];
};

void jw_init(struct jwriter *w, FILE *fp, int compact);
/*
 * jw_fresh: what w writes was just built and holds no kept part
 * (jtext.h), so no value is looked up: each lookup is a cache miss in
 * a table of a stage's hundreds of thousands of kept parts.  The
 * sanitized suite checks the promise.
 */
void jw_fresh(struct jwriter *w);
/*
 * jw_jq: jq's layout instead of jansson's: the same indentation, but
 * control characters (and DEL) as lower-case \u escapes, and reals at
 * their shortest (jw_jq_real).
 */
void jw_jq(struct jwriter *w);
/*
 * jw_jq_real: d as jq prints a number: a whole number without a
 * fraction, any other at the fewest digits (15 to 17) that read back
 * as d; into buf, its length.
 */
size_t jw_jq_real(double d, char *buf, size_t size);
/*
 * jw_set_hole: when jw_value meets object hole, it calls fill after the
 * object's own members, with the object still open, to stream more.
 */
void jw_set_hole(struct jwriter *w, const json_t *hole,
    void (*fill)(struct jwriter *, const void *), const void *ctx);

void jw_object(struct jwriter *w);	/* { */
void jw_array(struct jwriter *w);	/* [ */
void jw_end(struct jwriter *w);		/* } or ] */
void jw_key(struct jwriter *w, const char *key);
void jw_string(struct jwriter *w, const char *s);
void jw_stringn(struct jwriter *w, const char *s, size_t n);
void jw_int(struct jwriter *w, json_int_t v);
void jw_bool(struct jwriter *w, int v);
/* jw_value: a jansson value, as json_dump_callback would write it. */
void jw_value(struct jwriter *w, const json_t *v);
/*
 * A string written in parts (an id made of several names): the parts
 * are escaped like any string.
 */
void jw_string_open(struct jwriter *w);
void jw_string_part(struct jwriter *w, const char *s, size_t n);
void jw_string_part_int(struct jwriter *w, json_int_t v);
void jw_string_close(struct jwriter *w);
/* jw_finish: the final newline; flush.  0, or -1 when a write failed. */
int jw_finish(struct jwriter *w);

#endif
