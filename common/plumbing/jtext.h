/*
 * jtext.h: parts of a document kept as the text they were read from.
 *
 * A stage of the pipeline reads a few sections of a large state
 * document and passes the rest on untouched.  Parsing the rest into
 * jansson values only to write them out again costs most of the
 * stage's time and memory.  Instead, load_document_reading() (load.h)
 * leaves such a part as its checked text, with an empty object standing
 * in for it in the tree, and jwriter writes the text where it meets the
 * stand-in, laid out as it lays out everything else.
 *
 * A part a tool reads is kept too: as long as the tree still holds the
 * very value that was read, the text is written instead of the value,
 * so a tool must replace (state_put), never edit in place, a section
 * it read this way.
 */
#ifndef UPKIT_JTEXT_H
#define UPKIT_JTEXT_H

#include <stddef.h>
#include <jansson.h>

struct jtext {
	const json_t *value;	/* the stand-in, or the value read */
	const char *text;	/* valid JSON (jscan_value) */
	size_t len;
	int canonical;		/* text is exactly jwriter's compact form */
	int stand_in;		/* value is an empty stand-in, not the text's */
};

/*
 * jtext_keep: write text wherever value is met (see above).  value is
 * held until jtext_end, so that no other value can take its address.
 */
void jtext_keep(json_t *value, const char *text, size_t len,
    int canonical, int stand_in);
/*
 * jtext_take: the value of obj's member key as read, now the caller's
 * to edit and free, when its text is kept: the member becomes a
 * stand-in for that text, so the document still writes what was read.
 * NULL when no text is kept for it (the caller copies it instead).
 * Its short strings and small integers may be shared (jbuild.h): edit
 * it by replacing members, never by setting a scalar in place.
 */
json_t *jtext_take(json_t *obj, const char *key);
/*
 * jtext_keep_deep: jtext_keep of a stand-in anywhere in the document,
 * for text in jwriter's compact form (jtext_store's): a stage that
 * builds a large output a part at a time writes each part as text and
 * lets go of its values (jarena.h).  jwriter then looks for kept text
 * at every depth (jtext_deep), not only at the sections.
 */
void jtext_keep_deep(json_t *stand_in, const char *text, size_t len);
int jtext_deep(void);
/* jtext_store: a copy of text, NUL-terminated, held until jtext_end. */
const char *jtext_store(const char *text, size_t len);
/* jtext_find: what is kept for v, or NULL. */
const struct jtext *jtext_find(const json_t *v);
/* jtext_stand_in: the text v stands in for, when v (or NULL) is a
 * stand-in; else NULL. */
const struct jtext *jtext_stand_in(const json_t *v);
/* jtext_mark, jtext_rollback: forget what was kept after the mark. */
size_t jtext_mark(void);
void jtext_rollback(size_t mark);
/* jtext_hold: buf holds kept text; it is freed by jtext_end. */
void jtext_hold(char *buf);
/*
 * jtext_end: forget every kept text and free the held buffers; before
 * jarena_end, which frees the values.
 */
void jtext_end(void);

#endif
