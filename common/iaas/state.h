/*
 * state.h: the state document that flows down an upkit pipeline.
 *
 *	{ "format": "upkit-state", "version": 1,
 *	  "system": {...}, "catalog": {...}, "requests": {...},
 *	  "resource_graph": {...}, "control_graph": {...}, "batch": {...},
 *	  "schedule": {...}, "migrations": {...}, "report": {...},
 *	  "os_upgrade": {...} }
 *
 * Each section is an object with its own "version" and exactly one
 * owner, the only tool that writes it; every other tool passes it on
 * untouched, together with any "x-" key an operator added.  See
 * upkit-state(5).
 */
#ifndef UPKIT_STATE_H
#define UPKIT_STATE_H

#include <jansson.h>

#include "access.h"

#define STATE_FORMAT "upkit-state"
#define STATE_VERSION 1

/* The sections in pipeline order. */
enum section {
	SECTION_SYSTEM,
	SECTION_CATALOG,
	SECTION_REQUESTS,
	SECTION_RESOURCE_GRAPH,
	SECTION_CONTROL_GRAPH,
	SECTION_BATCH,
	SECTION_SCHEDULE,
	SECTION_MIGRATIONS,
	SECTION_REPORT,
	SECTION_OS_UPGRADE,	/* seed 002's OS upgrade runs (osu-ctl) */
	SECTION_COUNT
};

struct section_desc {
	const char *name;	/* the key in the document */
	const char *owner;	/* the one tool (or party) that writes it */
	int version;		/* the section version this upkit reads */
};

const struct section_desc *section_desc(enum section s);
/* section_by_name: the section called name, or SECTION_COUNT. */
enum section section_by_name(const char *name);

/* state_new: an empty document with its format marker. */
json_t *state_new(void);

/*
 * state_check: doc is an upkit state document this version reads: an
 * object with the format marker and version, every key a known section
 * (or an "x-" key), every section an object with a supported version.
 * Returns 0 or -1 (diagnosed).
 */
int state_check(struct access *a, const json_t *doc);

/* state_check_section: one section's object and version (0 or -1). */
int state_check_section(struct access *a, enum section s, const json_t *sec);

/* state_section: the section, or NULL when the document has none. */
json_t *state_section(const json_t *doc, enum section s);

/*
 * state_require: like state_section, but a missing section is an error
 * that names the tool which makes it.
 */
int state_require(struct access *a, const json_t *doc, enum section s,
    json_t **out);

/*
 * state_put: store content (stealing the reference) as section s,
 * with "version" as its first member.  An existing section keeps its
 * place in the document; a new one is appended, which puts sections in
 * pipeline order because the stages run in that order.
 */
void state_put(json_t *doc, enum section s, json_t *content);

#endif
