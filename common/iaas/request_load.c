/*
 * request_load.c: read the "requests" section (the upgrade request
 * model rg-build wrote in an earlier iteration) back into a model.
 */
#include <string.h>

#include "request.h"
#include "timefmt.h"
#include "xalloc.h"

/* Where an element being read goes: the model, and the request, change
 * set and change that hold it. */
struct model_at {
	struct request_model *m;
	struct request *r;
	struct change_set *cs;
	struct change *c;
};

static int
load_pv(struct access *a, struct request_model *m, const json_t *obj,
    const char *key, struct pv *out)
{
	const char *s;
	int r;

	out->product = out->version = NULL;
	if ((r = acc_get_string(a, obj, key, ACC_OPTIONAL, &s)) != 0)
		return r < 0 ? -1 : 0;
	if (pv_parse(m, s, out) < 0)
		return access_fail_at(a, key, "\"%s\" is not product@version", s);
	return 0;
}

/* load_pv_default: like load_pv, but absent leaves *out as it is. */
static int
load_pv_default(struct access *a, struct request_model *m, const json_t *obj,
    const char *key, struct pv *out)
{
	if (json_object_get(obj, key) == NULL)
		return 0;
	return load_pv(a, m, obj, key, out);
}

static int
load_transition(struct access *a, struct request_model *m, const json_t *obj,
    struct change *c)
{
	static const char *const known[] = { "id", "from", "to", "undo",
		"create", "destroy", "status", NULL };
	struct transition *t;
	const char *id;
	int status, create = -1, destroy = 0;

	if (acc_as_object(a, obj) < 0 || acc_check_keys(a, obj, known) < 0 ||
	    acc_get_string(a, obj, "id", ACC_REQUIRED, &id) < 0)
		return -1;
	t = change_add_transition(c, id);
	if (load_pv(a, m, obj, "from", &t->from) < 0 ||
	    load_pv(a, m, obj, "to", &t->to) < 0 ||
	    (t->undo = t->from, 0) ||
	    load_pv_default(a, m, obj, "undo", &t->undo) < 0 ||
	    acc_get_enum(a, obj, "create", ACC_OPTIONAL, resource_kind_names,
	    &create) < 0 ||
	    acc_get_bool(a, obj, "destroy", ACC_OPTIONAL, &destroy) < 0 ||
	    acc_get_enum(a, obj, "status", ACC_REQUIRED, tr_status_names,
	    &status) < 0)
		return -1;
	t->create = create;
	t->destroy = destroy;
	t->status = (enum tr_status)status;
	return 0;
}

static int
load_dep(struct access *a, const json_t *obj, struct change *c)
{
	static const char *const known[] = { "type", "dependent", "sponsor",
		NULL };
	struct dep_change *d;
	int type;

	c->deps = xreallocarray(c->deps, c->ndeps + 1, sizeof *c->deps);
	d = &c->deps[c->ndeps];
	if (acc_as_object(a, obj) < 0 || acc_check_keys(a, obj, known) < 0 ||
	    acc_get_enum(a, obj, "type", ACC_REQUIRED, dep_type_names,
	    &type) < 0 ||
	    acc_get_string(a, obj, "dependent", ACC_REQUIRED, &d->dependent) < 0 ||
	    acc_get_string(a, obj, "sponsor", ACC_REQUIRED, &d->sponsor) < 0)
		return -1;
	d->type = (enum dep_type)type;
	c->ndeps++;
	return 0;
}

static int
dep_at(struct access *a, const json_t *v, size_t i, void *ctx)
{
	(void)i;
	return load_dep(a, v, ctx);
}

static int
load_adds(struct access *a, const json_t *obj, struct change *c)
{
	json_t *list;
	int r;

	if ((r = acc_get_array(a, obj, "adds_dependencies", ACC_OPTIONAL,
	    &list)) != 0)
		return r < 0 ? -1 : 0;
	if (!c->ppu)
		return access_fail_at(a, "adds_dependencies", "only a ppu change "
		    "adds dependencies");
	return acc_each_element(a, obj, "adds_dependencies", ACC_REQUIRED,
	    dep_at, c);
}

static int
transition_at(struct access *a, const json_t *v, size_t i, void *ctx)
{
	struct model_at *at = ctx;

	(void)i;
	return load_transition(a, at->m, v, at->c);
}

static int
load_change(struct access *a, struct request_model *m, json_t *obj,
    struct change_set *cs)
{
	static const char *const methods[] = { "in-place", "ppu", NULL };
	struct change *c = change_add(cs);
	struct model_at at = { m, NULL, cs, c };
	json_int_t of = 0;
	json_t *list;
	int status, method = 0;

	if (change_spec_check(a, obj, c) < 0 ||
	    acc_get_int_range(a, obj, "complements", ACC_OPTIONAL, 1,
	    (json_int_t)cs->nchanges - 1, &of) < 0 ||
	    acc_get_enum(a, obj, "method", ACC_OPTIONAL, methods, &method) < 0 ||
	    acc_get_enum(a, obj, "status", ACC_REQUIRED, cs_status_names,
	    &status) < 0 ||
	    acc_get_array(a, obj, "resources", ACC_REQUIRED, &list) < 0)
		return -1;
	c->of = (size_t)of;
	c->ppu = method == 1;
	c->status = (enum cs_status)status;
	if (load_adds(a, obj, c) < 0)
		return -1;
	return acc_each_element(a, obj, "resources", ACC_REQUIRED,
	    transition_at, &at);
}

/* change_at: a change keeps a reference to its spec, hence the cast. */
static int
change_at(struct access *a, const json_t *v, size_t i, void *ctx)
{
	struct model_at *at = ctx;

	(void)i;
	return load_change(a, at->m, (json_t *)v, at->cs);
}

static int
load_undo(struct access *a, const json_t *obj, struct change_set *cs)
{
	static const char *const known[] = { "reason", "status", NULL };
	static const char *const states[] = { "pending", "done", NULL };
	json_t *undo;
	int r, reason, state;

	if ((r = acc_get_object(a, obj, "undo", ACC_OPTIONAL, &undo)) != 0)
		return r < 0 ? -1 : 0;
	access_enter_key(a, "undo");
	r = acc_check_keys(a, undo, known) < 0 ||
	    acc_get_enum(a, undo, "reason", ACC_REQUIRED, undo_reason_names,
	    &reason) < 0 ||
	    acc_get_enum(a, undo, "status", ACC_REQUIRED, states, &state) < 0 ?
	    -1 : 0;
	access_leave(a);
	cs->undo = (enum undo_reason)reason;
	cs->undo_done = state == 1;
	return r;
}

static int
load_change_set(struct access *a, struct request_model *m, const json_t *obj,
    const char *rid, struct change_set *cs)
{
	static const char *const known[] = { "id", "undo_unit", "status",
		"max_completion_period", "max_retry", "undo", "changes", NULL };
	struct model_at at = { m, NULL, cs, NULL };
	json_t *list;
	const char *uid;
	int status;
	size_t n;

	cs->max_completion_period = -1;
	if (acc_as_object(a, obj) < 0 || acc_check_keys(a, obj, known) < 0 ||
	    acc_get_string(a, obj, "id", ACC_REQUIRED, &cs->id) < 0 ||
	    acc_get_string(a, obj, "undo_unit", ACC_REQUIRED, &uid) < 0 ||
	    acc_get_enum(a, obj, "status", ACC_REQUIRED, cs_status_names,
	    &status) < 0 ||
	    acc_get_int_range(a, obj, "max_completion_period", ACC_OPTIONAL, 0,
	    INT64_C(1) << 40, &cs->max_completion_period) < 0 ||
	    acc_get_int_range(a, obj, "max_retry", ACC_OPTIONAL, 0, 1000000,
	    &cs->max_retry) < 0 ||
	    load_undo(a, obj, cs) < 0 ||
	    acc_get_array(a, obj, "changes", ACC_REQUIRED, &list) < 0)
		return -1;
	cs->status = (enum cs_status)status;
	n = strlen(rid) + strlen(cs->id) + 2;
	cs->uid = xmalloc(n);
	snprintf(cs->uid, n, "%s/%s", rid, cs->id);
	if (strcmp(uid, cs->uid) != 0)
		return access_fail_at(a, "undo_unit", "\"%s\" should be \"%s\"",
		    uid, cs->uid);
	return acc_each_element(a, obj, "changes", ACC_REQUIRED, change_at,
	    &at);
}

static int
change_set_at(struct access *a, const json_t *v, size_t i, void *ctx)
{
	struct model_at *at = ctx;

	at->r->nsets = i + 1;
	return load_change_set(a, at->m, v, at->r->id, &at->r->sets[i]);
}

static int
load_request(struct access *a, struct request_model *m, const json_t *obj,
    struct request *r)
{
	static const char *const known[] = { "id", "time", "arrival",
		"change_sets", NULL };
	struct model_at at = { m, r, NULL, NULL };
	json_int_t arrival;
	json_t *list;

	if (acc_as_object(a, obj) < 0 || acc_check_keys(a, obj, known) < 0 ||
	    acc_get_string(a, obj, "id", ACC_REQUIRED, &r->id) < 0 ||
	    acc_get_string(a, obj, "time", ACC_REQUIRED, &r->time) < 0 ||
	    acc_get_int_range(a, obj, "arrival", ACC_REQUIRED, 1, 1000000000,
	    &arrival) < 0 ||
	    acc_get_array(a, obj, "change_sets", ACC_REQUIRED, &list) < 0)
		return -1;
	r->arrival = (long)arrival;
	if (time_parse(r->time, &r->t) < 0)
		return access_fail_at(a, "time", "\"%s\" is not an ISO 8601 "
		    "time", r->time);
	r->sets = xcalloc(json_array_size(list), sizeof *r->sets);
	return acc_each_element(a, obj, "change_sets", ACC_REQUIRED,
	    change_set_at, &at);
}

/* request_at: request i, whose id must be new. */
static int
request_at(struct access *a, const json_t *v, size_t i, void *ctx)
{
	struct request_model *m = ctx;

	m->nreqs = i + 1;
	if (load_request(a, m, v, &m->reqs[i]) < 0)
		return -1;
	if (request_find(m, m->reqs[i].id) != &m->reqs[i])
		return access_fail_at(a, "id", "duplicate request id \"%s\"",
		    m->reqs[i].id);
	return 0;
}

int
request_model_load(struct access *a, const json_t *section,
    struct request_model *m)
{
	static const char *const known[] = { "version", "requests", NULL };
	json_t *list;

	if (acc_as_object(a, section) < 0 ||
	    acc_check_keys(a, section, known) < 0 ||
	    acc_get_array(a, section, "requests", ACC_REQUIRED, &list) < 0)
		return -1;
	m->reqs_cap = json_array_size(list);
	m->reqs = xcalloc(m->reqs_cap, sizeof *m->reqs);
	return acc_each_element(a, section, "requests", ACC_REQUIRED,
	    request_at, m);
}
