/* jtext.c: values written as kept text (jtext.h). */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "jtext.h"
#include "xalloc.h"

/*
 * Kept parts are sections and their members, tens of them, and the
 * parts a stage stores as it builds its output (jtext_keep_deep):
 * hundreds of thousands.  A table by address finds either at once.
 */
static struct jtext *kept;
static size_t nkept, capkept;
static size_t *slots;		/* index + 1 into kept, 0: empty */
static size_t nslots;		/* a power of two, or 0 */
static unsigned shift;		/* 64 - log2(nslots): the hash's top bits */
static int deep;		/* parts below the sections' members */
static char **held;
static size_t nheld, capheld;
static char *store_next, *store_end;	/* room in the last held chunk */

#define STORE_CHUNK ((size_t)4 << 20)

static size_t
slot_of(const json_t *v)
{
	uint64_t h = (uint64_t)(uintptr_t)v * 0x9e3779b97f4a7c15ULL;
	size_t i = (size_t)(h >> shift);

	while (slots[i] != 0 && kept[slots[i] - 1].value != v)
		i = (i + 1) & (nslots - 1);
	return i;
}

/* reindex: the table again, from kept[]; twice as many slots as parts. */
static void
reindex(void)
{
	size_t i;

	free(slots);
	for (nslots = 64, shift = 58; nslots < 2 * nkept + 2; nslots *= 2)
		shift--;
	slots = xcalloc(nslots, sizeof *slots);
	/* the latest of two parts for one value wins, as before */
	for (i = 0; i < nkept; i++)
		slots[slot_of(kept[i].value)] = i + 1;
}

void
jtext_keep(json_t *value, const char *text, size_t len, int canonical,
    int stand_in)
{
	if (nkept == capkept)
		kept = xreallocarray(kept, capkept = capkept * 2 + 16,
		    sizeof *kept);
	kept[nkept].value = json_incref(value);
	kept[nkept].text = text;
	kept[nkept].len = len;
	kept[nkept].canonical = canonical;
	kept[nkept++].stand_in = stand_in;
	if (2 * nkept + 2 > nslots)
		reindex();
	else
		slots[slot_of(value)] = nkept;
}

void
jtext_keep_deep(json_t *stand_in, const char *text, size_t len)
{
	deep = 1;
	jtext_keep(stand_in, text, len, 1, 1);
}

int
jtext_deep(void)
{
	return deep;
}

const struct jtext *
jtext_find(const json_t *v)
{
	size_t i;

	if (nkept == 0)
		return NULL;
	i = slots[slot_of(v)];
	return i != 0 ? &kept[i - 1] : NULL;
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
	const struct jtext *t = v != NULL ? jtext_find(v) : NULL;
	size_t i;

	if (t == NULL || t->stand_in)
		return NULL;
	i = (size_t)(t - kept);
	/* kept[i]'s reference to v becomes the caller's. */
	stand_in = json_object();
	kept[i].value = json_incref(stand_in);
	kept[i].stand_in = 1;
	json_object_set_new(obj, key, stand_in);
	reindex();
	return v;
}

size_t
jtext_mark(void)
{
	return nkept;
}

void
jtext_rollback(size_t mark)
{
	while (nkept > mark)
		json_decref((json_t *)kept[--nkept].value);
	if (nslots > 0)
		reindex();
}

void
jtext_hold(char *buf)
{
	if (nheld == capheld)
		held = xreallocarray(held, capheld = capheld * 2 + 16,
		    sizeof *held);
	held[nheld++] = buf;
}

const char *
jtext_store(const char *text, size_t len)
{
	char *p;

	if (len > STORE_CHUNK / 4) {
		p = xmalloc(len + 1);
		jtext_hold(p);
	} else {
		if ((size_t)(store_end - store_next) < len + 1) {
			store_next = xmalloc(STORE_CHUNK);
			store_end = store_next + STORE_CHUNK;
			jtext_hold(store_next);
		}
		p = store_next;
		store_next += len + 1;
	}
	memcpy(p, text, len);
	p[len] = '\0';
	return p;
}

void
jtext_end(void)
{
	jtext_rollback(0);
	while (nheld > 0)
		free(held[--nheld]);
	free(held);
	free(kept);
	free(slots);
	held = NULL;
	kept = NULL;
	slots = NULL;
	capkept = capheld = nslots = 0;
	store_next = store_end = NULL;
	deep = 0;
}
