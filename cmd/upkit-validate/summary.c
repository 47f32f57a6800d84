/* summary.c: counts that let an operator eyeball a document. */
#include <string.h>

#include "summary.h"
#include "sysconf.h"

static void
bump(json_t *counts, const char *key)
{
	json_t *v = json_object_get(counts, key);

	json_object_set_new(counts, key,
	    json_integer(v ? json_integer_value(v) + 1 : 1));
}

/* system_detail: resources per kind and role, VMs; the input is valid. */
static void
system_detail(const json_t *sec, json_t *out)
{
	json_t *kinds = json_object(), *roles = json_object(), *res, *r, *t;
	size_t i, j, vms = 0;

	json_array_foreach(json_object_get(sec, "resources"), i, res) {
		bump(kinds, json_string_value(json_object_get(res, "kind")));
		json_array_foreach(json_object_get(res, "roles"), j, r)
			bump(roles, json_string_value(r));
	}
	json_array_foreach(json_object_get(sec, "tenants"), i, t)
		vms += json_array_size(json_object_get(t, "vms"));
	json_object_set_new(out, "kinds", kinds);
	json_object_set_new(out, "roles", roles);
	json_object_set_new(out, "vms", json_integer((json_int_t)vms));
}

static json_t *
section_counts(enum section s, const json_t *sec)
{
	json_t *out = json_object(), *v;
	const char *key;

	json_object_foreach((json_t *)sec, key, v) {
		if (json_is_array(v))
			json_object_set_new(out, key,
			    json_integer((json_int_t)json_array_size(v)));
		else if (json_is_object(v))
			json_object_set_new(out, key,
			    json_integer((json_int_t)json_object_size(v)));
	}
	if (s == SECTION_SYSTEM)
		system_detail(sec, out);
	return out;
}

json_t *
summarize(const json_t *doc, enum section only)
{
	json_t *out = json_object(), *sec;
	int s;

	if (only != SECTION_COUNT) {
		json_object_set_new(out, section_desc(only)->name,
		    section_counts(only, doc));
		return out;
	}
	for (s = 0; s < SECTION_COUNT; s++)
		if ((sec = state_section(doc, (enum section)s)) != NULL)
			json_object_set_new(out, section_desc(s)->name,
			    section_counts((enum section)s, sec));
	return out;
}
