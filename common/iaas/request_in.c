/*
 * request_in.c: read an upgrade request as the operator writes it, and
 * check change specs (shared with request_load.c).
 */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "catalog.h"
#include "request.h"
#include "timefmt.h"
#include "xalloc.h"

/* check_name: ids that become parts of undo unit and action ids. */
static int
check_name(struct access *a, const char *key, const char *s)
{
	const char *p;

	for (p = s; *p != '\0'; p++)
		if (!isalnum((unsigned char)*p) && *p != '-' && *p != '_' &&
		    *p != '.')
			break;
	if (*s != '\0' && *p == '\0')
		return 0;
	return access_fail_at(a, key, "\"%s\" is not a name (letters, digits, "
	    "'.', '-' and '_')", s);
}

/* string_list: an optional array of strings, checked only. */
static int
string_list(struct access *a, const json_t *obj, const char *key)
{
	json_t *list;

	return acc_get_string_array(a, obj, key, ACC_OPTIONAL, &list) < 0 ?
	    -1 : 0;
}

/* check_selector: {ids, kinds, roles}, each an array of strings. */
static int
check_selector(struct access *a, const json_t *spec, const char *key,
    int flags)
{
	static const char *const known[] = { "ids", "kinds", "roles", NULL };
	json_t *sel;
	int r;

	if ((r = acc_get_object(a, spec, key, flags, &sel)) != 0)
		return r;
	access_enter_key(a, key);
	r = acc_check_keys(a, sel, known) < 0 || string_list(a, sel, "ids") < 0 ||
	    string_list(a, sel, "kinds") < 0 ||
	    string_list(a, sel, "roles") < 0 ? -1 : 0;
	if (r == 0 && json_object_size(sel) == 0)
		r = access_fail(a, "an empty selector selects nothing");
	access_leave(a);
	return r;
}

static int
check_to(struct access *a, const json_t *spec, int flags)
{
	static const char *const known[] = { "product", "version", "id", NULL };
	json_t *to;
	const char *s;
	int r;

	if ((r = acc_get_object(a, spec, "to", flags, &to)) != 0)
		return r;
	access_enter_key(a, "to");
	r = acc_check_keys(a, to, known) < 0 ||
	    acc_get_string(a, to, "product", ACC_OPTIONAL, &s) < 0 ||
	    acc_get_string(a, to, "version", ACC_REQUIRED, &s) < 0 ||
	    acc_get_string(a, to, "id", ACC_OPTIONAL, &s) < 0 ? -1 : 0;
	access_leave(a);
	return r;
}

static int
check_dependency(struct access *a, const json_t *spec, struct change *c)
{
	static const char *const known[] = { "type", "dependent", "sponsor",
		NULL };
	struct dep_change d;
	json_t *dep;
	int type, r;

	if ((r = acc_get_object(a, spec, "dependency", ACC_OPTIONAL, &dep)) != 0)
		return r;
	access_enter_key(a, "dependency");
	r = acc_check_keys(a, dep, known) < 0 ||
	    acc_get_enum(a, dep, "type", ACC_REQUIRED, dep_type_names,
	    &type) < 0 ||
	    acc_get_string(a, dep, "dependent", ACC_REQUIRED, &d.dependent) < 0 ||
	    acc_get_string(a, dep, "sponsor", ACC_REQUIRED, &d.sponsor) < 0 ?
	    -1 : 0;
	access_leave(a);
	if (r < 0)
		return -1;
	d.type = (enum dep_type)type;
	c->deps = xmalloc(sizeof *c->deps);
	c->deps[0] = d;
	c->ndeps = 1;
	return 0;
}

/*
 * check_release: the action that gives a temporary resource back: on an
 * add of new resources (which makes them temporary), and on the removal
 * of whole resources (rg-build's own, when it releases them).
 */
static int
check_release(struct access *a, const json_t *spec, const struct change *c)
{
	struct cat_action_def def;
	int r = catalog_action_load(a, spec, "release", &def);

	if (r != 0)
		return r < 0 ? -1 : 0;
	if (c->op == OP_ADD && json_object_get(spec, "system") != NULL)
		return 0;
	if (c->op == OP_REMOVE && json_object_get(spec, "product") == NULL &&
	    c->ndeps == 0)
		return 0;
	return access_fail_at(a, "release", "only an add of new resources "
	    "(they are temporary) or the removal of whole resources takes a "
	    "release action");
}

/* check_op_fields: what each op needs, given what is present. */
static int
check_op_fields(struct access *a, const json_t *spec, const struct change *c)
{
	int product = json_object_get(spec, "product") != NULL;
	int version = json_object_get(spec, "version") != NULL;
	int targets = json_object_get(spec, "targets") != NULL;

	if (json_object_get(spec, "system") != NULL)
		return c->op != OP_ADD ? access_fail_at(a, "system", "only an "
		    "add brings new resources") : product || version ||
		    targets || json_object_get(spec, "dependency") != NULL ?
		    access_fail(a, "an add of new resources takes no product, "
		    "version, targets or dependency: the resources say what "
		    "they run") : 0;
	if (c->ndeps > 0 && (product || targets || version))
		return access_fail(a, "a dependency change takes no product, "
		    "version or targets");
	if (c->ndeps > 0 && c->op == OP_UPGRADE)
		return access_fail_at(a, "op", "a dependency is added or "
		    "removed, not upgraded");
	if (c->ndeps > 0)
		return 0;
	if (json_object_get(spec, "resources") != NULL)
		return 0;	/* the model's own form: resolved already */
	if (!targets)
		return access_fail(a, "missing required field \"targets\"");
	if (c->op == OP_UPGRADE && (!product ||
	    json_object_get(spec, "to") == NULL))
		return access_fail(a, "an upgrade needs \"product\" and \"to\"");
	if (c->op == OP_ADD && (!product || !version))
		return access_fail(a, "an add needs \"product\" and \"version\" "
		    "(or a \"dependency\")");
	return 0;
}

/*
 * check_threshold: undo_threshold, a number of resources or a string
 * "P%" (P from 0 to 100) of the change's scope.
 */
static int
check_threshold(struct access *a, const json_t *spec, struct change *c)
{
	const json_t *v = json_object_get(spec, "undo_threshold");
	const char *s;
	char *end;
	long pct;

	if (!json_is_string(v))
		return acc_get_int_range(a, spec, "undo_threshold",
		    ACC_OPTIONAL, 0, 100000000, &c->undo_threshold);
	s = json_string_value(v);
	pct = strtol(s, &end, 10);
	if (end == s || *s < '0' || *s > '9' || strcmp(end, "%") != 0 ||
	    pct > 100)
		return access_fail_at(a, "undo_threshold", "\"%s\" is neither "
		    "a number of resources nor a share from \"0%%\" to "
		    "\"100%%\"", s);
	c->undo_percent = (int)pct;
	return 0;
}

int
change_spec_check(struct access *a, json_t *spec, struct change *c)
{
	static const char *const known[] = { "op", "product", "version", "to",
		"targets", "sponsors", "dependency", "undo_threshold",
		"undo_version", "number", "complements", "method", "status",
		"resources", "adds_dependencies", "system", "release", NULL };
	const char *s;
	int op;

	if (acc_as_object(a, spec) < 0 || acc_check_keys(a, spec, known) < 0 ||
	    acc_get_enum(a, spec, "op", ACC_REQUIRED, change_op_names, &op) < 0 ||
	    acc_get_string(a, spec, "product", ACC_OPTIONAL, &s) < 0 ||
	    acc_get_string(a, spec, "version", ACC_OPTIONAL, &s) < 0 ||
	    acc_get_string(a, spec, "undo_version", ACC_OPTIONAL, &s) < 0 ||
	    check_threshold(a, spec, c) < 0 ||
	    check_to(a, spec, ACC_OPTIONAL) < 0 ||
	    check_selector(a, spec, "targets", ACC_OPTIONAL) < 0 ||
	    check_selector(a, spec, "sponsors", ACC_OPTIONAL) < 0 ||
	    check_dependency(a, spec, c) < 0 || add_spec_check(a, spec, c) < 0)
		return -1;
	c->op = (enum change_op)op;
	c->spec = json_incref(spec);
	return check_op_fields(a, spec, c) < 0 ||
	    check_release(a, spec, c) < 0 ? -1 : 0;
}

static int
read_change(struct access *a, json_t *spec, struct change_set *cs)
{
	struct change *c = change_add(cs);

	if (acc_as_object(a, spec) < 0)
		return -1;
	if (json_object_get(spec, "complements") != NULL ||
	    json_object_get(spec, "resources") != NULL)
		return access_fail(a, "\"complements\" and \"resources\" are "
		    "derived by rg-build, not written in a request");
	return change_spec_check(a, spec, c);
}

/* change_at: a change keeps a reference to its spec, hence the cast. */
static int
change_at(struct access *a, const json_t *v, size_t i, void *ctx)
{
	(void)i;
	return read_change(a, (json_t *)v, ctx);
}

static int
read_change_set(struct access *a, const json_t *obj, const char *rid,
    struct change_set *cs)
{
	static const char *const known[] = { "id", "max_completion_period",
		"max_retry", "changes", NULL };
	json_t *list;
	size_t n;

	cs->max_completion_period = -1;
	if (acc_as_object(a, obj) < 0 || acc_check_keys(a, obj, known) < 0 ||
	    acc_get_string(a, obj, "id", ACC_REQUIRED, &cs->id) < 0 ||
	    check_name(a, "id", cs->id) < 0 ||
	    acc_get_int_range(a, obj, "max_completion_period", ACC_OPTIONAL, 0,
	    INT64_C(1) << 40, &cs->max_completion_period) < 0 ||
	    acc_get_int_range(a, obj, "max_retry", ACC_OPTIONAL, 0, 1000000,
	    &cs->max_retry) < 0 ||
	    acc_get_array(a, obj, "changes", ACC_REQUIRED, &list) < 0)
		return -1;
	if (json_array_size(list) == 0)
		return access_fail_at(a, "changes", "a change set needs at least "
		    "one change");
	n = strlen(rid) + strlen(cs->id) + 2;
	cs->uid = xmalloc(n);
	snprintf(cs->uid, n, "%s/%s", rid, cs->id);
	return acc_each_element(a, obj, "changes", ACC_REQUIRED, change_at,
	    cs);
}

static int
read_undo_list(struct access *a, const json_t *doc, json_t *undo)
{
	json_t *list, *v;
	size_t i;
	int r;

	if ((r = acc_get_array(a, doc, "undo", ACC_OPTIONAL, &list)) != 0)
		return r < 0 ? -1 : 0;
	if (string_list(a, doc, "undo") < 0)
		return -1;
	json_array_foreach(list, i, v)
		json_array_append(undo, v);
	return 0;
}

static struct request *
new_request(struct request_model *m)
{
	struct request *r;

	if (m->nreqs == m->reqs_cap) {
		m->reqs_cap = m->reqs_cap ? 2 * m->reqs_cap : 4;
		m->reqs = xreallocarray(m->reqs, m->reqs_cap, sizeof *m->reqs);
	}
	r = &m->reqs[m->nreqs++];
	memset(r, 0, sizeof *r);
	return r;
}

/* change_set_at: change set i of request ctx, whose id must be new. */
static int
change_set_at(struct access *a, const json_t *v, size_t i, void *ctx)
{
	struct request *r = ctx;
	size_t j;

	r->nsets = i + 1;
	if (read_change_set(a, v, r->id, &r->sets[i]) < 0)
		return -1;
	for (j = 0; j < i; j++)
		if (strcmp(r->sets[j].id, r->sets[i].id) == 0)
			return access_fail_at(a, "id", "duplicate change set id "
			    "\"%s\"", r->sets[i].id);
	return 0;
}

static int
read_sets(struct access *a, const json_t *doc, struct request *r)
{
	json_t *list;
	int rc;

	if ((rc = acc_get_array(a, doc, "change_sets", ACC_OPTIONAL, &list)) != 0)
		return rc < 0 ? -1 : 0;
	r->sets = xcalloc(json_array_size(list), sizeof *r->sets);
	return acc_each_element(a, doc, "change_sets", ACC_REQUIRED,
	    change_set_at, r);
}

int
request_read(struct access *a, const json_t *doc, long arrival,
    struct request_model *m, json_t *undo)
{
	static const char *const known[] = { "version", "id", "time",
		"change_sets", "undo", NULL };
	size_t undos = json_array_size(undo);
	struct request *r;
	json_int_t version;
	const char *id;

	if (acc_as_object(a, doc) < 0 || acc_check_keys(a, doc, known) < 0 ||
	    acc_get_int_range(a, doc, "version", ACC_REQUIRED, 1, 1,
	    &version) < 0 ||
	    acc_get_string(a, doc, "id", ACC_REQUIRED, &id) < 0 ||
	    check_name(a, "id", id) < 0)
		return -1;
	if (request_find(m, id) != NULL)
		return access_fail_at(a, "id", "request \"%s\" was already "
		    "received (give each request a new id)", id);
	r = new_request(m);
	r->id = id;
	r->arrival = arrival;
	if (acc_get_string(a, doc, "time", ACC_REQUIRED, &r->time) < 0)
		return -1;
	if (time_parse(r->time, &r->t) < 0)
		return access_fail_at(a, "time", "\"%s\" is not an ISO 8601 "
		    "time such as 2026-11-21T08:00:00Z", r->time);
	if (read_sets(a, doc, r) < 0 || read_undo_list(a, doc, undo) < 0)
		return -1;
	if (r->nsets == 0 && json_array_size(undo) == undos)
		return access_fail(a, "a request needs \"change_sets\" or "
		    "\"undo\"");
	return 0;
}
