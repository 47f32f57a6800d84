/* jshare.c: a table of shared JSON string values (see jshare.h). */
#include <stdlib.h>

#include "idmap.h"
#include "jarena.h"
#include "jshare.h"
#include "xalloc.h"

static struct idmap texts;
static json_t **values;
static size_t cap;

json_t *
jshare(const char *s)
{
	long i = idmap_find(&texts, s);

	if (i < 0 && jarena_scoped())
		return json_string(s);	/* it would go with the scope */
	if (i < 0) {
		i = idmap_add(&texts, s);
		if ((size_t)i >= cap) {
			cap = cap ? 2 * cap : 64;
			values = xreallocarray(values, cap, sizeof *values);
		}
		values[i] = json_string(s);
	}
	return json_incref(values[i]);
}

void
jshare_clear(void)
{
	size_t i;

	for (i = 0; i < texts.count; i++)
		json_decref(values[i]);
	free(values);
	values = NULL;
	cap = 0;
	idmap_free(&texts);
}
