/*
 * rgraph.h: the resource graph (RG) of seed 000 section II.E, as the
 * "resource_graph" section holds it and as C structures.
 *
 * Vertices are resources with resource-id, resource-kind,
 * modification-type, activation-status, undo-unit-ids, actions-to-
 * execute as ordered execution levels (each tied to an upgrade unit),
 * failed attempts per undo unit, is-isolated and is-failed.  Edges point
 * from the dependent to the sponsor and carry their type, presence
 * (current, future, current/future) and incompatibility-factor.  Upgrade
 * units carry their method (rolling, split with its two partitions, or
 * ppu with the old and the new resource).
 *
 * rg-build fills a struct rgraph and writes it with rgraph_to_json();
 * later stages read it with rgraph_load(), which checks every reference
 * (edge ends, level units) so that consumers can trust indices.
 * Actions read back are records of the fields the stages read (struct
 * rg_action), and their JSON objects, which consumers pass on as they
 * are, come from rgraph_action_value().  Actions rg-build makes stay
 * flat records (struct rg_made) until the graph is written: a large
 * cloud has hundreds of thousands.
 *
 * A section that a tool left as text (load_document_reading without
 * "resource_graph"; jtext.h) is read a vertex at a time, without the
 * tree: a large cloud's vertices cost ten times their text as jansson
 * values.  Its action objects are then built from their text, when
 * asked for.  Either way the graph's strings are its own.
 */
#ifndef UPKIT_RGRAPH_H
#define UPKIT_RGRAPH_H

#include <stddef.h>
#include <stdio.h>
#include <jansson.h>

#include "access.h"
#include "idmap.h"
#include "strpool.h"
#include "sysconf.h"

struct jbuild;

enum modification { MOD_NO_CHANGE, MOD_UPGRADE, MOD_ADD, MOD_REMOVE };
enum presence { PRES_CURRENT, PRES_FUTURE, PRES_BOTH };
enum upgrade_method { METHOD_ROLLING, METHOD_SPLIT, METHOD_PPU };

extern const char *const modification_names[];	/* "no-change", ... */
extern const char *const presence_names[];	/* "current", ... */
extern const char *const method_names[];	/* "rolling", ... */

struct rg_level {
	size_t unit;		/* index into units */
	size_t first, count;	/* slice of actions */
};

struct rg_attempts {
	const char *undo_unit;
	long count;
};

/*
 * rg_made: an action as rg-build makes it.  Its id is
 * "<undo_unit>.<change>:<resource>:<count>" ("undo" for change 0); its
 * argv is the catalog's, with each "{resource}" element replaced by the
 * resource id; undo_argv is NULL when nothing undoes it.
 */
struct rg_made {
	const char *undo_unit;
	long change;		/* 0 for an undo operation */
	const char *resource;
	size_t count;		/* its number within the operation */
	const char *op, *product, *version;
	const json_t *argv, *undo_argv;
	long duration, undo_duration;
	const json_t *new_resource;	/* what a create brings, or NULL */
};

/*
 * rg_action: an action read back.  Its strings are the graph's; product
 * and version are NULL when absent, change -1 (an undo operation has
 * none) and the durations 0.
 */
struct rg_action {
	const char *id, *undo_unit, *op, *product, *version;
	long change, duration, undo_duration;
	/*
	 * When the section was kept as text: the text of the action's
	 * vertex, and the action's place among the vertex's actions.
	 */
	const char *text;
	size_t len, nth;
};

struct rg_vertex {
	const char *id;
	int kind;		/* enum resource_kind */
	enum modification mod;
	int deactivated;	/* activation-status */
	int isolated, failed;
	int down;		/* the system said it failed (an outage) */
	size_t first_uu, nuu;		/* slice of undo_units */
	size_t first_level, nlevels;	/* slice of levels */
	size_t first_att, natt;		/* slice of attempts */
};

struct rg_edge {
	enum dep_type type;
	size_t dependent, sponsor;	/* vertex indices */
	enum presence presence;
	int incompatible;
};

struct rg_unit {
	const char *id;
	enum upgrade_method method;
	json_t *partitions;	/* split: array of two arrays of ids */
	const char *old_id, *new_id;	/* ppu: the two resources */
};

struct rgraph {
	long iteration;
	const char *time;	/* of the report it took in, or NULL */
	struct rg_vertex *v;
	size_t nv, v_cap;
	struct rg_edge *e;
	size_t ne, e_cap;
	struct rg_unit *units;
	size_t nunits, units_cap;
	struct rg_level *levels;
	size_t nlevels, levels_cap;
	json_t **actions;	/* action objects read from a tree, owned */
	size_t nactions, actions_cap;
	struct rg_action *act;	/* by action index, for actions read back */
	struct rg_made *made;	/* by action index, for actions rg-build made */
	const char **undo_units;
	size_t nundo_units, undo_units_cap;
	struct rg_attempts *att;
	size_t natt, att_cap;
	struct idmap ids;	/* vertex id -> index */
	struct idmap unit_ids;	/* unit id -> index */
	struct idmap names;	/* the other strings read back, once each */
	struct strpool strings;	/* the actions' ids read back */
	struct jbuild *build;	/* for rgraph_action_value, when from text */
};

void rgraph_init(struct rgraph *g);
void rgraph_free(struct rgraph *g);

/* Building, in order: a vertex, then its undo units, levels, attempts. */
size_t rgraph_add_vertex(struct rgraph *g, const char *id, int kind);
void rgraph_add_undo_unit(struct rgraph *g, const char *uu);
/* rgraph_add_level: a level of the last vertex, in unit; its index. */
size_t rgraph_add_level(struct rgraph *g, size_t unit);
/*
 * rgraph_add_action: append action to the last level: its record, and
 * its object (stolen) when it was read from a tree, else NULL.
 */
void rgraph_add_action(struct rgraph *g, const struct rg_action *act,
    json_t *action);
/* rgraph_name: s as the graph's own string. */
const char *rgraph_name(struct rgraph *g, const char *s);
/* rgraph_add_made: append a copy of m to the last level. */
void rgraph_add_made(struct rgraph *g, const struct rg_made *m);
void rgraph_add_attempts(struct rgraph *g, const char *uu, long count);
size_t rgraph_add_edge(struct rgraph *g, enum dep_type type, size_t dependent,
    size_t sponsor, enum presence presence);
/* rgraph_unit: the unit with id, added with method if new. */
size_t rgraph_unit(struct rgraph *g, const char *id,
    enum upgrade_method method);

/* rgraph_load: the "resource_graph" section; 0 or -1 (diagnosed). */
int rgraph_load(struct access *a, const json_t *section, struct rgraph *g);
/*
 * rgraph_action_value: the JSON object of action k read back, a new
 * reference: the one read, or one built from its text.
 */
json_t *rgraph_action_value(const struct rgraph *g, size_t k);
/*
 * rgraph_action_member: member key of action k ("argv", "undo"), a new
 * value the caller may change (a shallow copy), or NULL: a stage that
 * copies a few members need not build the whole object.
 */
json_t *rgraph_action_member(const struct rgraph *g, size_t k,
    const char *key);
/* rgraph_actions_by_id: a new object mapping each action's id to it. */
json_t *rgraph_actions_by_id(const struct rgraph *g);
/*
 * rgraph_write: the section's members after "version", streamed into
 * the open section object; g is a const struct rgraph * (the shape
 * output_json_with() wants).
 */
struct jwriter;
void rgraph_write(struct jwriter *w, const void *g);
/* rgraph_dot: the graph in Graphviz's dot language. */
void rgraph_dot(const struct rgraph *g, FILE *fp);

/* dot_id: write s as a quoted dot identifier. */
void dot_id(FILE *fp, const char *s);

#endif
