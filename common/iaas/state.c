/* state.c: the state document's sections and checks (see state.h). */
#include <string.h>

#include "state.h"

static const struct section_desc sections[SECTION_COUNT] = {
	[SECTION_SYSTEM] = { "system", "the operator (input)", 1 },
	[SECTION_CATALOG] = { "catalog", "the operator (input)", 1 },
	[SECTION_REQUESTS] = { "requests", "rg-build", 1 },
	[SECTION_RESOURCE_GRAPH] = { "resource_graph", "rg-build", 1 },
	[SECTION_CONTROL_GRAPH] = { "control_graph", "cg-coarsen", 1 },
	[SECTION_BATCH] = { "batch", "batch-select", 1 },
	[SECTION_SCHEDULE] = { "schedule", "batch-select", 1 },
	[SECTION_MIGRATIONS] = { "migrations", "vm-migrate-plan", 1 },
	[SECTION_REPORT] = { "report", "the actuator", 1 },
	[SECTION_OS_UPGRADE] = { "os_upgrade", "osu-ctl", 1 },
};

const struct section_desc *
section_desc(enum section s)
{
	return &sections[s];
}

enum section
section_by_name(const char *name)
{
	int s;

	for (s = 0; s < SECTION_COUNT; s++)
		if (strcmp(sections[s].name, name) == 0)
			return (enum section)s;
	return SECTION_COUNT;
}

json_t *
state_new(void)
{
	return json_pack("{s:s, s:i}", "format", STATE_FORMAT,
	    "version", STATE_VERSION);
}

int
state_check_section(struct access *a, enum section s, const json_t *sec)
{
	json_int_t v;
	int r;

	if (acc_as_object(a, sec) < 0)
		return -1;
	r = acc_get_int(a, sec, "version", ACC_REQUIRED, &v);
	if (r < 0)
		return -1;
	if (v < 1 || v > sections[s].version)
		return access_fail_at(a, "version",
		    "unsupported version %" JSON_INTEGER_FORMAT " of section "
		    "\"%s\" (this upkit reads version %d)", v,
		    sections[s].name, sections[s].version);
	return 0;
}

static int
check_marker(struct access *a, const json_t *doc)
{
	const char *format;
	json_int_t v;

	if (acc_as_object(a, doc) < 0)
		return -1;
	if (json_object_get(doc, "format") == NULL)
		return access_fail(a, "not an upkit state document "
		    "(no \"format\": \"%s\")", STATE_FORMAT);
	if (acc_get_string(a, doc, "format", ACC_REQUIRED, &format) < 0)
		return -1;
	if (strcmp(format, STATE_FORMAT) != 0)
		return access_fail_at(a, "format", "format \"%s\" is not "
		    "\"%s\"", format, STATE_FORMAT);
	if (acc_get_int(a, doc, "version", ACC_REQUIRED, &v) < 0)
		return -1;
	if (v != STATE_VERSION)
		return access_fail_at(a, "version", "unsupported document "
		    "version %" JSON_INTEGER_FORMAT " (this upkit reads %d)",
		    v, STATE_VERSION);
	return 0;
}

int
state_check(struct access *a, const json_t *doc)
{
	const char *key;
	json_t *value;
	enum section s;
	int r = 0;

	if (check_marker(a, doc) < 0)
		return -1;
	json_object_foreach((json_t *)doc, key, value) {
		if (strcmp(key, "format") == 0 || strcmp(key, "version") == 0 ||
		    strncmp(key, "x-", 2) == 0)
			continue;
		if ((s = section_by_name(key)) == SECTION_COUNT)
			return access_fail_at(a, key, "unknown section \"%s\" "
			    "(operator data goes under keys starting with "
			    "\"x-\")", key);
		access_enter_key(a, key);
		r = state_check_section(a, s, value);
		access_leave(a);
		if (r < 0)
			return -1;
	}
	return 0;
}

json_t *
state_section(const json_t *doc, enum section s)
{
	return json_object_get(doc, sections[s].name);
}

int
state_require(struct access *a, const json_t *doc, enum section s,
    json_t **out)
{
	*out = state_section(doc, s);
	if (*out != NULL)
		return 0;
	return access_fail(a, "missing section \"%s\" (written by %s)",
	    sections[s].name, sections[s].owner);
}

void
state_put(json_t *doc, enum section s, json_t *content)
{
	json_t *sec = json_pack("{s:i}", "version", sections[s].version);
	const char *key;
	json_t *v;

	/* content may be part of another section (rg-build's system comes
	 * from the report): it is copied from, never edited */
	json_object_foreach(content, key, v)
		if (strcmp(key, "version") != 0)
			json_object_set(sec, key, v);
	json_decref(content);
	json_object_set_new(doc, sections[s].name, sec);
}
