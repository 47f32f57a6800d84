/* jshare.c: a table of shared JSON string values (see jshare.h). */
#include <stdlib.h>
#include <string.h>

#include "docsession.h"
#include "jshare.h"
#include "xalloc.h"

json_t *
jshare(const char *s)
{
	struct docsession *session = docsession_open_one();
	struct jshare_table *t;
	long i;

	if (session == NULL)
		return json_string(s);
	t = &session->shared;
	i = idmap_find(&t->texts, s);
	if (i < 0 && docsession_scoped())
		return json_string(s);	/* it would go with the scope */
	if (i < 0) {
		i = idmap_add(&t->texts, s);
		if ((size_t)i >= t->cap) {
			t->cap = t->cap ? 2 * t->cap : 64;
			t->values = xreallocarray(t->values, t->cap,
			    sizeof *t->values);
		}
		t->values[i] = json_string(s);
	}
	return json_incref(t->values[i]);
}

void
jshare_table_free(struct jshare_table *t)
{
	size_t i;

	for (i = 0; i < t->texts.count; i++)
		json_decref(t->values[i]);
	free(t->values);
	idmap_free(&t->texts);
	memset(t, 0, sizeof *t);
}
