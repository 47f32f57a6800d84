/*
 * keys.c: an object's keys, sorted, so that what upkit-import writes
 * never depends on the order the cloud listed things in.
 */
#include <stdlib.h>
#include <string.h>

#include "import.h"
#include "xalloc.h"

static int
compare_strings(const void *x, const void *y)
{
	return strcmp(*(const char *const *)x, *(const char *const *)y);
}

json_t *
sorted_keys(const json_t *obj)
{
	size_t n = json_object_size(obj), i = 0;
	const char **keys = xcalloc(n, sizeof *keys);
	const char *key;
	json_t *v, *out = json_array();

	json_object_foreach((json_t *)obj, key, v)
		keys[i++] = key;
	qsort(keys, n, sizeof *keys, compare_strings);
	for (i = 0; i < n; i++)
		json_array_append_new(out, json_string(keys[i]));
	free(keys);
	return out;
}
