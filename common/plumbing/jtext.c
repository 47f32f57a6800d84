/* jtext.c: values written as kept text (jtext.h). */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "docsession.h"
#include "jtext.h"
#include "xalloc.h"

/*
 * Kept parts are sections and their members, tens of them, and the
 * parts a stage stores as it builds its output (jtext_keep_deep):
 * hundreds of thousands.  A table by address finds either at once.
 */

#define STORE_CHUNK ((size_t)4 << 20)

/* open_table: the open session's table, which keeping text needs. */
static struct jtext_table *
open_table(void)
{
	return &docsession_needed("kept text")->texts;
}

static size_t
slot_of(const struct jtext_table *t, const json_t *v)
{
	uint64_t h = (uint64_t)(uintptr_t)v * 0x9e3779b97f4a7c15ULL;
	size_t i = (size_t)(h >> t->shift);

	while (t->slots[i] != 0 && t->kept[t->slots[i] - 1].value != v)
		i = (i + 1) & (t->nslots - 1);
	return i;
}

/* reindex: the table again, from kept[]; twice as many slots as parts. */
static void
reindex(struct jtext_table *t)
{
	size_t i;

	free(t->slots);
	for (t->nslots = 64, t->shift = 58; t->nslots < 2 * t->nkept + 2;
	    t->nslots *= 2)
		t->shift--;
	t->slots = xcalloc(t->nslots, sizeof *t->slots);
	/* the latest of two parts for one value wins, as before */
	for (i = 0; i < t->nkept; i++)
		t->slots[slot_of(t, t->kept[i].value)] = i + 1;
}

void
jtext_keep(json_t *value, const char *text, size_t len, int canonical,
    int stand_in)
{
	struct jtext_table *t = open_table();
	struct jtext *k;

	if (t->nkept == t->capkept)
		t->kept = xreallocarray(t->kept, t->capkept = t->capkept * 2 +
		    16, sizeof *t->kept);
	k = &t->kept[t->nkept++];
	k->value = json_incref(value);
	k->text = text;
	k->len = len;
	k->canonical = canonical;
	k->stand_in = stand_in;
	if (2 * t->nkept + 2 > t->nslots)
		reindex(t);
	else
		t->slots[slot_of(t, value)] = t->nkept;
}

void
jtext_keep_deep(json_t *stand_in, const char *text, size_t len)
{
	open_table()->deep = 1;
	jtext_keep(stand_in, text, len, 1, 1);
}

int
jtext_deep(void)
{
	const struct docsession *s = docsession_open_one();

	return s != NULL && s->texts.deep;
}

const struct jtext *
jtext_find(const json_t *v)
{
	const struct docsession *s = docsession_open_one();
	size_t i;

	if (s == NULL || s->texts.nkept == 0)
		return NULL;
	i = s->texts.slots[slot_of(&s->texts, v)];
	return i != 0 ? &s->texts.kept[i - 1] : NULL;
}

const struct jtext *
jtext_stand_in(const json_t *v)
{
	const struct jtext *t = v != NULL ? jtext_find(v) : NULL;

	return t != NULL && t->stand_in ? t : NULL;
}

json_t *
jtext_take(json_t *obj, const char *key)
{
	json_t *v = json_object_get(obj, key), *stand_in;
	const struct jtext *found = v != NULL ? jtext_find(v) : NULL;
	struct jtext_table *t;
	struct jtext *k;

	if (found == NULL || found->stand_in)
		return NULL;
	t = open_table();
	k = &t->kept[found - t->kept];
	/* the table's reference to v becomes the caller's. */
	stand_in = json_object();
	k->value = json_incref(stand_in);
	k->stand_in = 1;
	json_object_set_new(obj, key, stand_in);
	reindex(t);
	return v;
}

size_t
jtext_mark(void)
{
	const struct docsession *s = docsession_open_one();

	return s != NULL ? s->texts.nkept : 0;
}

static void
forget_after(struct jtext_table *t, size_t mark)
{
	while (t->nkept > mark)
		json_decref((json_t *)t->kept[--t->nkept].value);
	if (t->nslots > 0)
		reindex(t);
}

void
jtext_rollback(size_t mark)
{
	forget_after(open_table(), mark);
}

static void
hold(struct jtext_table *t, char *buf)
{
	if (t->nheld == t->capheld)
		t->held = xreallocarray(t->held, t->capheld = t->capheld * 2 +
		    16, sizeof *t->held);
	t->held[t->nheld++] = buf;
}

void
jtext_hold(char *buf)
{
	hold(open_table(), buf);
}

const char *
jtext_store(const char *text, size_t len)
{
	struct jtext_table *t = open_table();
	char *p;

	if (len > STORE_CHUNK / 4) {
		p = xmalloc(len + 1);
		hold(t, p);
	} else {
		if ((size_t)(t->store_end - t->store_next) < len + 1) {
			t->store_next = xmalloc(STORE_CHUNK);
			t->store_end = t->store_next + STORE_CHUNK;
			hold(t, t->store_next);
		}
		p = t->store_next;
		t->store_next += len + 1;
	}
	memcpy(p, text, len);
	p[len] = '\0';
	return p;
}

void
jtext_table_free(struct jtext_table *t)
{
	forget_after(t, 0);
	while (t->nheld > 0)
		free(t->held[--t->nheld]);
	free(t->held);
	free(t->kept);
	free(t->slots);
	memset(t, 0, sizeof *t);
}
