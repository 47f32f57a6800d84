/* attrs.c: merging and comparing Chef attributes (see attrs.h). */
#include <stdlib.h>
#include <string.h>

#include "attrs.h"
#include "xalloc.h"

json_t *
attrs_merge(const json_t *base, const json_t *over)
{
	json_t *out, *v, *mine;
	const char *key;

	if (!json_is_object(over))
		return json_is_object(base) ? json_deep_copy(base) : json_object();
	if (!json_is_object(base))
		return json_deep_copy(over);
	out = json_deep_copy(base);
	json_object_foreach((json_t *)over, key, v) {
		mine = json_object_get(out, key);
		json_object_set_new(out, key, json_is_object(mine) &&
		    json_is_object(v) ? attrs_merge(mine, v) : json_deep_copy(v));
	}
	return out;
}

/* append_key: ".key", or ."key" when jq needs the quotes. */
static void
append_key(char **buf, size_t *size, const char *key)
{
	size_t len = strlen(*buf), n = strlen(key);
	int plain = names_valid_word(key, n) &&
	    strpbrk(key, ".-") == NULL && !(key[0] >= '0' && key[0] <= '9');

	xreserve(buf, size, len + n + 4);
	snprintf(*buf + len, *size - len, plain ? ".%s" : ".\"%s\"", key);
}

static int
by_string(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* sorted_keys: the members of a and b, each once, in name order. */
static const char **
sorted_keys(const json_t *a, const json_t *b, size_t *count)
{
	const char **keys = xcalloc(json_object_size(a) + json_object_size(b),
	    sizeof *keys), *key;
	size_t n = 0;
	json_t *v;

	json_object_foreach((json_t *)a, key, v)
		keys[n++] = key;
	json_object_foreach((json_t *)b, key, v)
		if (json_object_get(a, key) == NULL)
			keys[n++] = key;
	qsort(keys, n, sizeof *keys, by_string);
	*count = n;
	return keys;
}

/*
 * seen: does a recipe of cookbook read namespace key?  (-1: any key)
 * Its own cookbook's, one named after no cookbook, and one shared.
 */
static int
seen(const struct names *n, const unsigned char *shared, long cookbook,
    const char *key)
{
	long owner;

	if (cookbook < 0)
		return 1;
	owner = idmap_find(&n->cookbooks, key);
	return owner < 0 || owner == cookbook || shared[owner];
}

/*
 * first_change: append to buf the path of the first member, in name
 * order, that differs between a and b and that cookbook sees (below
 * the top level, every member); 1 when there is one.
 */
static int
first_change(const struct names *n, const unsigned char *shared,
    long cookbook, const json_t *a, const json_t *b, char **buf, size_t *size)
{
	const char **keys;
	size_t count, i;
	int changed = 0;

	if (!json_is_object(a) || !json_is_object(b))
		return !json_equal(a, b);
	keys = sorted_keys(a, b, &count);
	for (i = 0; i < count && !changed; i++) {
		const json_t *x = json_object_get(a, keys[i]);
		const json_t *y = json_object_get(b, keys[i]);

		if (!seen(n, shared, cookbook, keys[i]) ||
		    (x != NULL && y != NULL && json_equal(x, y)))
			continue;
		append_key(buf, size, keys[i]);
		if (x != NULL && y != NULL)
			first_change(n, shared, -1, x, y, buf, size);
		changed = 1;
	}
	free(keys);
	return changed;
}

int
attrs_seen_change(const struct names *n, const unsigned char *shared,
    size_t cookbook, const json_t *old, const json_t *new, char **buf,
    size_t *size)
{
	xreserve(buf, size, 1);
	(*buf)[0] = '\0';
	return first_change(n, shared, (long)cookbook, old, new, buf, size);
}
