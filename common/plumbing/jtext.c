/* jtext.c: a short list of values written as kept text (jtext.h). */
#include <stdlib.h>

#include "jtext.h"
#include "xalloc.h"

/*
 * Kept parts are sections and their members: tens, so a list searched
 * from the end is enough, and jwriter only asks near the top.
 */
static struct jtext *kept;
static size_t nkept, capkept;
static char **held;
static size_t nheld;

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
}

const struct jtext *
jtext_find(const json_t *v)
{
	size_t i;

	for (i = nkept; i-- > 0;)
		if (kept[i].value == v)
			return &kept[i];
	return NULL;
}

json_t *
jtext_take(json_t *obj, const char *key)
{
	json_t *v = json_object_get(obj, key), *stand_in;
	size_t i;

	for (i = nkept; v != NULL && i-- > 0;)
		if (kept[i].value == v && !kept[i].stand_in)
			break;
	if (v == NULL || i >= nkept)
		return NULL;
	/* kept[i]'s reference to v becomes the caller's. */
	stand_in = json_object();
	kept[i].value = json_incref(stand_in);
	kept[i].stand_in = 1;
	json_object_set_new(obj, key, stand_in);
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
}

void
jtext_hold(char *buf)
{
	held = xreallocarray(held, nheld + 1, sizeof *held);
	held[nheld++] = buf;
}

void
jtext_end(void)
{
	jtext_rollback(0);
	while (nheld > 0)
		free(held[--nheld]);
	free(held);
	free(kept);
	held = NULL;
	kept = NULL;
	capkept = 0;
}
