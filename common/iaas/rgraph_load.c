/*
 * rgraph_load.c: read the "resource_graph" section back into a struct
 * rgraph, checking types and every reference, so that later stages can
 * index without checking again.  Vertices and edges kept as text are
 * read one at a time (acc_each_kept_element): nothing of them may be
 * kept but copies (rgraph_name) and the text of their actions.
 */
#include <string.h>

#include "jbuild.h"
#include "rgraph.h"

/*
 * loading: the graph being read, and the text of the current vertex
 * when it was read from text, with the number of its actions so far.
 */
struct loading {
	struct rgraph *g;
	const char *text;
	size_t len, nth;
};

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

/* name: the graph's copy of string member key of obj, or NULL. */
static const char *
name(struct rgraph *g, const json_t *obj, const char *key)
{
	const char *s = json_string_value(json_object_get(obj, key));

	return s != NULL ? rgraph_name(g, s) : NULL;
}

/*
 * add_action: obj, checked, as the record of its fields and its text,
 * or its object when it was not read from text.
 */
static void
add_action(struct loading *l, json_t *obj)
{
	struct rg_action act;

	/* ids are many and each its own: copied, not looked up */
	act.id = strpool_copy(&l->g->strings, json_string_value(
	    json_object_get(obj, "id")));
	act.undo_unit = name(l->g, obj, "undo_unit");
	act.op = name(l->g, obj, "op");
	act.product = name(l->g, obj, "product");
	act.version = name(l->g, obj, "version");
	act.change = json_object_get(obj, "change") != NULL ?
	    (long)json_integer_value(json_object_get(obj, "change")) : -1;
	act.duration = (long)json_integer_value(json_object_get(obj,
	    "duration"));
	act.undo_duration = (long)json_integer_value(json_object_get(
	    json_object_get(obj, "undo"), "duration"));
	act.text = l->text;
	act.len = l->len;
	act.nth = l->nth++;
	if (act.text != NULL && l->g->build == NULL)
		l->g->build = jbuild_new();
	rgraph_add_action(l->g, &act, act.text ? NULL : json_incref(obj));
}

/*
 * load_action: the fields consumers read, checked: the stages sum
 * durations and look products up, so a duration is bounded as the
 * catalog bounds it and a product and version are strings; a change is
 * a number from 1, and an undo operation's action has none (III.A).
 */
static int
load_action(struct access *a, json_t *obj, struct loading *l)
{
	static const char *const known[] = { "id", "undo_unit", "change",
		"op", "product", "version", "argv", "duration", "undo",
		"new_resource", NULL };
	const char *s;
	json_t *argv, *res;
	json_int_t d;
	int r;

	if (acc_as_object(a, obj) < 0 || acc_check_keys(a, obj, known) < 0 ||
	    acc_get_string(a, obj, "id", ACC_REQUIRED, &s) < 0 ||
	    acc_get_string(a, obj, "undo_unit", ACC_REQUIRED, &s) < 0 ||
	    acc_get_string(a, obj, "op", ACC_REQUIRED, &s) < 0 ||
	    acc_get_string(a, obj, "product", ACC_OPTIONAL, &s) < 0 ||
	    acc_get_string(a, obj, "version", ACC_OPTIONAL, &s) < 0 ||
	    acc_get_int_range(a, obj, "duration", ACC_OPTIONAL, 0,
	    ACTION_MAX_SECONDS, &d) < 0 ||
	    acc_get_int_range(a, obj, "change", ACC_OPTIONAL, 1, 1000000000,
	    &d) < 0 ||
	    acc_get_array(a, obj, "argv", ACC_REQUIRED, &argv) < 0 ||
	    load_undo(a, obj) < 0 ||
	    (r = acc_get_object(a, obj, "new_resource", ACC_OPTIONAL, &res)) < 0)
		return -1;
	if (r == 0) {
		access_enter_key(a, "new_resource");
		r = resource_spec_check(a, res);
		access_leave(a);
		if (r < 0)
			return -1;
	}
	add_action(l, obj);
	return 0;
}

/* action_at: the graph may keep a reference to an action, hence the
 * cast. */
static int
action_at(struct access *a, const json_t *v, size_t i, void *l)
{
	(void)i;
	return load_action(a, (json_t *)v, l);
}

static int
load_level(struct access *a, const json_t *obj, struct loading *l)
{
	struct rgraph *g = l->g;
	static const char *const known[] = { "upgrade_unit", "actions", NULL };
	json_t *list;
	const char *unit;
	long u;

	if (acc_as_object(a, obj) < 0 || acc_check_keys(a, obj, known) < 0 ||
	    acc_get_string(a, obj, "upgrade_unit", ACC_REQUIRED, &unit) < 0 ||
	    acc_get_array(a, obj, "actions", ACC_REQUIRED, &list) < 0)
		return -1;
	if ((u = idmap_find(&g->unit_ids, unit)) < 0)
		return access_fail_at(a, "upgrade_unit", "no upgrade unit has "
		    "id \"%s\"", unit);
	rgraph_add_level(g, (size_t)u);
	return acc_each_element(a, obj, "actions", ACC_REQUIRED, action_at, l);
}

static int
attempts_of(struct access *a, const char *unit, const json_t *v, void *g)
{
	json_int_t n;

	if (acc_as_int(a, v, &n) < 0)
		return -1;
	rgraph_add_attempts(g, rgraph_name(g, unit), (long)n);
	return 0;
}

static int
load_attempts(struct access *a, const json_t *obj, struct rgraph *g)
{
	return acc_each_member(a, obj, "failed_attempts", ACC_OPTIONAL,
	    attempts_of, g) < 0 ? -1 : 0;
}

static int
undo_unit_at(struct access *a, const json_t *v, size_t i, void *g)
{
	const char *s;

	(void)i;
	if (acc_as_string(a, v, &s) < 0)
		return -1;
	rgraph_add_undo_unit(g, rgraph_name(g, s));
	return 0;
}

static int
level_at(struct access *a, const json_t *v, size_t i, void *l)
{
	(void)i;
	return load_level(a, v, l);
}

static int
load_vertex(struct access *a, const json_t *obj, const char *text,
    size_t len, struct loading *l)
{
	struct rgraph *g = l->g;
	static const char *const known[] = { "id", "kind", "modification_type",
		"activation_status", "undo_unit_ids", "actions_to_execute",
		"failed_attempts", "is_isolated", "is_failed", "is_down", NULL };
	static const char *const statuses[] = { "active", "deactivated", NULL };
	struct rg_vertex *v;
	const char *id;
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
	    acc_get_bool(a, obj, "is_failed", ACC_OPTIONAL, &v->failed) < 0 ||
	    acc_get_bool(a, obj, "is_down", ACC_OPTIONAL, &v->down) < 0)
		return -1;
	l->text = text;
	l->len = len;
	l->nth = 0;
	if (acc_each_element(a, obj, "undo_unit_ids", ACC_OPTIONAL,
	    undo_unit_at, g) < 0 ||
	    acc_each_element(a, obj, "actions_to_execute", ACC_OPTIONAL,
	    level_at, l) < 0)
		return -1;
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
	u->old_id = u->old_id ? rgraph_name(g, u->old_id) : NULL;
	u->new_id = u->new_id ? rgraph_name(g, u->new_id) : NULL;
	return 0;
}

/* unit_at: a unit keeps a reference to its partitions, hence the cast. */
static int
unit_at(struct access *a, const json_t *v, size_t i, const char *text,
    size_t len, void *g)
{
	(void)i, (void)text, (void)len;
	return load_unit(a, (json_t *)v, g);
}

static int
vertex_at(struct access *a, const json_t *v, size_t i, const char *text,
    size_t len, void *l)
{
	(void)i;
	return load_vertex(a, v, text, len, l);
}

static int
edge_at(struct access *a, const json_t *v, size_t i, const char *text,
    size_t len, void *g)
{
	(void)i, (void)text, (void)len;
	return load_edge(a, v, g);
}

int
rgraph_load(struct access *a, const json_t *section, struct rgraph *g)
{
	static const char *const known[] = { "version", "iteration", "time",
		"vertices", "edges", "upgrade_units", NULL };
	struct loading l = { g, NULL, 0, 0 };
	json_int_t iteration;
	int r;

	if (acc_as_object(a, section) < 0 ||
	    acc_check_keys(a, section, known) < 0 ||
	    acc_get_int_range(a, section, "iteration", ACC_REQUIRED, 1,
	    1000000000, &iteration) < 0 ||
	    acc_get_string(a, section, "time", ACC_OPTIONAL, &g->time) < 0)
		return -1;
	g->iteration = (long)iteration;
	r = acc_each_kept_element(a, section, "upgrade_units", ACC_OPTIONAL |
	    ACC_KEEP_ELEMENTS, unit_at, g) < 0 ||
	    acc_each_kept_element(a, section, "vertices", ACC_OPTIONAL,
	    vertex_at, &l) < 0 ||
	    acc_each_kept_element(a, section, "edges", ACC_OPTIONAL, edge_at,
	    g) < 0 ? -1 : 0;
	return r;
}
