/*
 * rgraph_load.c: read the "resource_graph" section back into a struct
 * rgraph, checking types and every reference, so that later stages can
 * index without checking again.
 */
#include <string.h>

#include "rgraph.h"

/* ACTION_MAX_SECONDS: an action's duration, as the catalog bounds it. */
#define ACTION_MAX_SECONDS 100000000

/* load_undo: an action's optional undo, {argv, duration}. */
static int
load_undo(struct access *a, const json_t *obj)
{
	json_t *undo;
	json_int_t d;
	int r = acc_get_object(a, obj, "undo", ACC_OPTIONAL, &undo);

	if (r != 0)
		return r < 0 ? -1 : 0;
	access_enter_key(a, "undo");
	if (acc_get_int_range(a, undo, "duration", ACC_OPTIONAL, 0,
	    ACTION_MAX_SECONDS, &d) < 0)
		return -1;
	access_leave(a);
	return 0;
}

/*
 * load_action: the fields consumers read, checked: the stages sum
 * durations and look products up, so a duration is bounded as the
 * catalog bounds it and a product and version are strings.
 */
static int
load_action(struct access *a, json_t *obj, struct rgraph *g)
{
	static const char *const known[] = { "id", "undo_unit", "change",
		"op", "product", "version", "argv", "duration", "undo", NULL };
	const char *s;
	json_t *argv;
	json_int_t d;

	if (acc_as_object(a, obj) < 0 || acc_check_keys(a, obj, known) < 0 ||
	    acc_get_string(a, obj, "id", ACC_REQUIRED, &s) < 0 ||
	    acc_get_string(a, obj, "undo_unit", ACC_REQUIRED, &s) < 0 ||
	    acc_get_string(a, obj, "op", ACC_REQUIRED, &s) < 0 ||
	    acc_get_string(a, obj, "product", ACC_OPTIONAL, &s) < 0 ||
	    acc_get_string(a, obj, "version", ACC_OPTIONAL, &s) < 0 ||
	    acc_get_int_range(a, obj, "duration", ACC_OPTIONAL, 0,
	    ACTION_MAX_SECONDS, &d) < 0 ||
	    acc_get_array(a, obj, "argv", ACC_REQUIRED, &argv) < 0 ||
	    load_undo(a, obj) < 0)
		return -1;
	rgraph_add_action(g, json_incref(obj));
	return 0;
}

static int
load_level(struct access *a, const json_t *obj, struct rgraph *g)
{
	static const char *const known[] = { "upgrade_unit", "actions", NULL };
	json_t *list, *v;
	const char *unit;
	long u;
	size_t i;

	if (acc_as_object(a, obj) < 0 || acc_check_keys(a, obj, known) < 0 ||
	    acc_get_string(a, obj, "upgrade_unit", ACC_REQUIRED, &unit) < 0 ||
	    acc_get_array(a, obj, "actions", ACC_REQUIRED, &list) < 0)
		return -1;
	if ((u = idmap_find(&g->unit_ids, unit)) < 0)
		return access_fail_at(a, "upgrade_unit", "no upgrade unit has "
		    "id \"%s\"", unit);
	rgraph_add_level(g, (size_t)u);
	access_enter_key(a, "actions");
	json_array_foreach(list, i, v) {
		access_enter_index(a, i);
		if (load_action(a, v, g) < 0)
			return -1;
		access_leave(a);
	}
	access_leave(a);
	return 0;
}

/* EACH: run body for every element of array key of obj (optional). */
#define EACH(a, obj, key, i, v, body)					\
	do {								\
		json_t *list_;						\
		int r_ = acc_get_array(a, obj, key, ACC_OPTIONAL, &list_); \
		if (r_ < 0)						\
			return -1;					\
		if (r_ == 1)						\
			break;						\
		access_enter_key(a, key);				\
		json_array_foreach(list_, i, v) {			\
			access_enter_index(a, i);			\
			body;						\
			access_leave(a);				\
		}							\
		access_leave(a);					\
	} while (0)

static int
load_attempts(struct access *a, const json_t *obj, struct rgraph *g)
{
	json_t *att, *v;
	const char *uu;
	int r;

	if ((r = acc_get_object(a, obj, "failed_attempts", ACC_OPTIONAL,
	    &att)) != 0)
		return r < 0 ? -1 : 0;
	access_enter_key(a, "failed_attempts");
	json_object_foreach(att, uu, v) {
		json_int_t n;

		access_enter_key(a, uu);
		if (acc_as_int(a, v, &n) < 0)
			return -1;
		access_leave(a);
		rgraph_add_attempts(g, uu, (long)n);
	}
	access_leave(a);
	return 0;
}

static int
load_vertex(struct access *a, const json_t *obj, struct rgraph *g)
{
	static const char *const known[] = { "id", "kind", "modification_type",
		"activation_status", "undo_unit_ids", "actions_to_execute",
		"failed_attempts", "is_isolated", "is_failed", NULL };
	static const char *const statuses[] = { "active", "deactivated", NULL };
	struct rg_vertex *v;
	const char *id, *s;
	json_t *x;
	int kind, mod, status;
	size_t i;

	if (acc_as_object(a, obj) < 0 || acc_check_keys(a, obj, known) < 0 ||
	    acc_get_string(a, obj, "id", ACC_REQUIRED, &id) < 0 ||
	    acc_get_enum(a, obj, "kind", ACC_REQUIRED, resource_kind_names,
	    &kind) < 0 ||
	    acc_get_enum(a, obj, "modification_type", ACC_REQUIRED,
	    modification_names, &mod) < 0 ||
	    acc_get_enum(a, obj, "activation_status", ACC_REQUIRED, statuses,
	    &status) < 0)
		return -1;
	if (idmap_find(&g->ids, id) >= 0)
		return access_fail_at(a, "id", "duplicate vertex id \"%s\"", id);
	i = rgraph_add_vertex(g, id, kind);
	v = &g->v[i];
	v->mod = (enum modification)mod;
	v->deactivated = status == 1;
	if (acc_get_bool(a, obj, "is_isolated", ACC_OPTIONAL, &v->isolated) < 0 ||
	    acc_get_bool(a, obj, "is_failed", ACC_OPTIONAL, &v->failed) < 0)
		return -1;
	EACH(a, obj, "undo_unit_ids", i, x, {
		if (acc_as_string(a, x, &s) < 0)
			return -1;
		rgraph_add_undo_unit(g, s);
	});
	EACH(a, obj, "actions_to_execute", i, x, {
		if (load_level(a, x, g) < 0)
			return -1;
	});
	return load_attempts(a, obj, g);
}

static int
load_edge(struct access *a, const json_t *obj, struct rgraph *g)
{
	static const char *const known[] = { "type", "dependent", "sponsor",
		"presence", "incompatibility_factor", NULL };
	size_t from, to, e;
	int type, presence, incompatible = 0;

	if (acc_as_object(a, obj) < 0 || acc_check_keys(a, obj, known) < 0 ||
	    acc_get_enum(a, obj, "type", ACC_REQUIRED, dep_type_names,
	    &type) < 0 ||
	    acc_get_ref(a, obj, "dependent", &g->ids, "vertex", &from) < 0 ||
	    acc_get_ref(a, obj, "sponsor", &g->ids, "vertex", &to) < 0 ||
	    acc_get_enum(a, obj, "presence", ACC_REQUIRED, presence_names,
	    &presence) < 0 ||
	    acc_get_bool(a, obj, "incompatibility_factor", ACC_OPTIONAL,
	    &incompatible) < 0)
		return -1;
	e = rgraph_add_edge(g, (enum dep_type)type, from, to,
	    (enum presence)presence);
	g->e[e].incompatible = incompatible;
	return 0;
}

static int
load_unit(struct access *a, json_t *obj, struct rgraph *g)
{
	static const char *const known[] = { "id", "method", "partitions",
		"old", "new", NULL };
	struct rg_unit *u;
	const char *id;
	json_t *parts = NULL;
	size_t n;
	int method;

	if (acc_as_object(a, obj) < 0 || acc_check_keys(a, obj, known) < 0 ||
	    acc_get_string(a, obj, "id", ACC_REQUIRED, &id) < 0 ||
	    acc_get_enum(a, obj, "method", ACC_REQUIRED, method_names,
	    &method) < 0 ||
	    acc_get_array(a, obj, "partitions", ACC_OPTIONAL, &parts) < 0)
		return -1;
	if (idmap_find(&g->unit_ids, id) >= 0)
		return access_fail_at(a, "id", "duplicate upgrade unit \"%s\"", id);
	n = rgraph_unit(g, id, (enum upgrade_method)method);
	u = &g->units[n];
	u->partitions = parts ? json_incref(parts) : NULL;
	if (acc_get_string(a, obj, "old", ACC_OPTIONAL, &u->old_id) < 0 ||
	    acc_get_string(a, obj, "new", ACC_OPTIONAL, &u->new_id) < 0)
		return -1;
	return 0;
}

int
rgraph_load(struct access *a, const json_t *section, struct rgraph *g)
{
	static const char *const known[] = { "version", "iteration", "time",
		"vertices", "edges", "upgrade_units", NULL };
	json_int_t iteration;
	json_t *x;
	size_t i;

	if (acc_as_object(a, section) < 0 ||
	    acc_check_keys(a, section, known) < 0 ||
	    acc_get_int_range(a, section, "iteration", ACC_REQUIRED, 1,
	    1000000000, &iteration) < 0 ||
	    acc_get_string(a, section, "time", ACC_OPTIONAL, &g->time) < 0)
		return -1;
	g->iteration = (long)iteration;
	EACH(a, section, "upgrade_units", i, x, {
		if (load_unit(a, x, g) < 0)
			return -1;
	});
	EACH(a, section, "vertices", i, x, {
		if (load_vertex(a, x, g) < 0)
			return -1;
	});
	EACH(a, section, "edges", i, x, {
		if (load_edge(a, x, g) < 0)
			return -1;
	});
	return 0;
}
