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
 *
 * What is kept belongs to the open document session (docsession.h),
 * and goes when it closes; the functions below work on its table.
 * Without an open session nothing is kept: jtext_find finds nothing,
 * and keeping or storing text is a program error (exit 70).
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

/* The kept parts of one session (docsession.h); zeroed, it is empty. */
struct jtext_table {
	struct jtext *kept;
	size_t nkept, capkept;
	size_t *slots;		/* index + 1 into kept, 0: empty */
	size_t nslots;		/* a power of two, or 0 */
	unsigned shift;		/* 64 - log2(nslots): the hash's top bits */
	int deep;		/* parts below the sections' members */
	char **held;		/* the buffers the text is in */
	size_t nheld, capheld;
	char *store_next, *store_end;	/* room in the last held chunk */
};

/*
 * jtext_keep: write text wherever value is met (see above).  value is
 * held until the session closes, so that no other value can take its address.
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
/* jtext_store: a copy of text, NUL-terminated, held until the session closes. */
const char *jtext_store(const char *text, size_t len);
/* jtext_find: what is kept for v, or NULL. */
const struct jtext *jtext_find(const json_t *v);
/* jtext_stand_in: the text v stands in for, when v (or NULL) is a
 * stand-in; else NULL. */
const struct jtext *jtext_stand_in(const json_t *v);
/* jtext_mark, jtext_rollback: forget what was kept after the mark. */
size_t jtext_mark(void);
void jtext_rollback(size_t mark);
/* jtext_hold: buf holds kept text; it is freed when the session closes. */
void jtext_hold(char *buf);
/*
 * jtext_table_free: forget every kept text and free the held buffers
 * (docsession_close, before the values themselves go).
 */
void jtext_table_free(struct jtext_table *t);

#endif
