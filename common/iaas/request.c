/* request.c: the upgrade request model and its JSON form (request.h). */
#include <stdlib.h>
#include <string.h>

#include "jshare.h"
#include "request.h"
#include "xalloc.h"

const char *const cs_status_names[] = { "new", "scheduled", "completed",
	"failed", NULL };
const char *const tr_status_names[] = { "pending", "done", "cancelled",
	"undone", "failed", "gone", NULL };
const char *const change_op_names[] = { "add", "remove", "upgrade", NULL };
const char *const undo_reason_names[] = { "none", "undo-threshold",
	"max-completion-period", "requested", NULL };

void
request_model_init(struct request_model *m)
{
	memset(m, 0, sizeof *m);
}

static void
change_set_free(struct change_set *cs)
{
	size_t k;

	for (k = 0; k < cs->nchanges; k++) {
		free(cs->changes[k].tr);
		free(cs->changes[k].deps);
		json_decref(cs->changes[k].spec);
	}
	free(cs->changes);
	free(cs->uid);
}

void
request_model_free(struct request_model *m)
{
	size_t i, j;

	for (i = 0; i < m->nreqs; i++) {
		for (j = 0; j < m->reqs[i].nsets; j++)
			change_set_free(&m->reqs[i].sets[j]);
		free(m->reqs[i].sets);
	}
	for (i = 0; i < m->npool; i++)
		free(m->pool[i]);
	free(m->pool);
	free(m->reqs);
	memset(m, 0, sizeof *m);
}

const char *
request_model_keep(struct request_model *m, const char *s)
{
	if (m->npool == m->pool_cap) {
		m->pool_cap = m->pool_cap ? 2 * m->pool_cap : 16;
		m->pool = xreallocarray(m->pool, m->pool_cap, sizeof *m->pool);
	}
	return m->pool[m->npool++] = xstrdup(s);
}

struct request *
request_find(const struct request_model *m, const char *id)
{
	size_t i;

	for (i = 0; i < m->nreqs; i++)
		if (strcmp(m->reqs[i].id, id) == 0)
			return &m->reqs[i];
	return NULL;
}

struct change *
change_add(struct change_set *cs)
{
	struct change *c;

	if (cs->nchanges == cs->changes_cap) {
		cs->changes_cap = cs->changes_cap ? 2 * cs->changes_cap : 4;
		cs->changes = xreallocarray(cs->changes, cs->changes_cap,
		    sizeof *cs->changes);
	}
	c = &cs->changes[cs->nchanges++];
	memset(c, 0, sizeof *c);
	c->undo_threshold = -1;
	c->undo_percent = UNDO_PERCENT_DEFAULT;
	c->tr = NULL;
	return c;
}

struct transition *
change_add_transition(struct change *c, const char *resource)
{
	struct transition *t;

	if (c->ntr == c->tr_cap) {
		c->tr_cap = c->tr_cap ? 2 * c->tr_cap : 8;
		c->tr = xreallocarray(c->tr, c->tr_cap, sizeof *c->tr);
	}
	t = &c->tr[c->ntr++];
	memset(t, 0, sizeof *t);
	t->resource = resource;
	t->create = -1;
	return t;
}

char *
pv_format(struct pv p)
{
	size_t n = strlen(p.product) + strlen(p.version) + 2;
	char *s = xmalloc(n);

	memcpy(s, p.product, strlen(p.product));
	s[strlen(p.product)] = '@';
	memcpy(s + strlen(p.product) + 1, p.version, strlen(p.version) + 1);
	return s;
}

int
pv_parse(struct request_model *m, const char *s, struct pv *out)
{
	const char *at = strchr(s, '@');
	char *copy;

	if (at == NULL || at == s || at[1] == '\0')
		return -1;
	copy = (char *)request_model_keep(m, s);
	copy[at - s] = '\0';
	out->product = copy;
	out->version = copy + (at - s) + 1;
	return 0;
}

int
pv_equal(struct pv a, struct pv b)
{
	if (a.product == NULL || b.product == NULL)
		return a.product == b.product;
	return strcmp(a.product, b.product) == 0 &&
	    strcmp(a.version, b.version) == 0;
}

static void
set_pv(json_t *obj, const char *key, struct pv p)
{
	char *s;

	if (p.product == NULL)
		return;
	s = pv_format(p);
	json_object_set_new_nocheck(obj, key, jshare(s));
	free(s);
}

static json_t *
transition_to_json(const struct transition *t)
{
	json_t *o = json_object();

	json_object_set_new_nocheck(o, "id", json_string(t->resource));
	set_pv(o, "from", t->from);
	set_pv(o, "to", t->to);
	if (!pv_equal(t->undo, t->from))	/* the default: back to from */
		set_pv(o, "undo", t->undo);
	if (t->create >= 0)
		json_object_set_new_nocheck(o, "create",
		    jshare(resource_kind_names[t->create]));
	if (t->destroy)
		json_object_set_new_nocheck(o, "destroy", json_true());
	json_object_set_new_nocheck(o, "status",
	    jshare(tr_status_names[t->status]));
	return o;
}

/* Keys the model derives; everything else in a change is its spec. */
static const char *const derived_keys[] = { "number", "complements",
	"method", "status", "resources", "adds_dependencies", NULL };

static int
is_derived(const char *key)
{
	size_t i;

	for (i = 0; derived_keys[i] != NULL; i++)
		if (strcmp(key, derived_keys[i]) == 0)
			return 1;
	return 0;
}

static json_t *
change_to_json(const struct change *c, size_t number)
{
	json_t *o = json_object(), *list = json_array(), *v;
	const char *key;
	size_t i;

	json_object_set_new_nocheck(o, "number", json_integer((json_int_t)number));
	json_object_foreach(c->spec, key, v)
		if (!is_derived(key))
			json_object_set_nocheck(o, key, v);
	if (c->of)
		json_object_set_new_nocheck(o, "complements",
		    json_integer((json_int_t)c->of));
	json_object_set_new_nocheck(o, "method",
	    json_string(c->ppu ? "ppu" : "in-place"));
	json_object_set_new_nocheck(o, "status",
	    json_string(cs_status_names[c->status]));
	for (i = 0; i < c->ntr; i++)
		json_array_append_new(list, transition_to_json(&c->tr[i]));
	json_object_set_new_nocheck(o, "resources", list);
	if (c->ppu && c->ndeps > 0) {
		list = json_array();
		for (i = 0; i < c->ndeps; i++)
			json_array_append_new(list, json_pack("{s:s, s:s, s:s}",
			    "type", dep_type_names[c->deps[i].type],
			    "dependent", c->deps[i].dependent,
			    "sponsor", c->deps[i].sponsor));
		json_object_set_new_nocheck(o, "adds_dependencies", list);
	}
	return o;
}

static json_t *
change_set_to_json(const struct change_set *cs)
{
	json_t *o = json_object(), *changes = json_array();
	size_t k;

	json_object_set_new_nocheck(o, "id", json_string(cs->id));
	json_object_set_new_nocheck(o, "undo_unit", json_string(cs->uid));
	json_object_set_new_nocheck(o, "status",
	    json_string(cs_status_names[cs->status]));
	if (cs->max_completion_period >= 0)
		json_object_set_new_nocheck(o, "max_completion_period",
		    json_integer(cs->max_completion_period));
	json_object_set_new_nocheck(o, "max_retry",
	    json_integer(cs->max_retry));
	if (cs->undo != UNDO_NONE)
		json_object_set_new_nocheck(o, "undo", json_pack("{s:s, s:s}",
		    "reason", undo_reason_names[cs->undo],
		    "status", cs->undo_done ? "done" : "pending"));
	for (k = 0; k < cs->nchanges; k++)
		json_array_append_new(changes,
		    change_to_json(&cs->changes[k], k + 1));
	json_object_set_new_nocheck(o, "changes", changes);
	return o;
}

json_t *
request_model_to_json(const struct request_model *m)
{
	json_t *reqs = json_array();
	size_t i, j;

	for (i = 0; i < m->nreqs; i++) {
		const struct request *r = &m->reqs[i];
		json_t *sets = json_array();

		for (j = 0; j < r->nsets; j++)
			json_array_append_new(sets,
			    change_set_to_json(&r->sets[j]));
		json_array_append_new(reqs, json_pack("{s:s, s:s, s:I, s:o}",
		    "id", r->id, "time", r->time, "arrival", (json_int_t)r->arrival,
		    "change_sets", sets));
	}
	return json_pack("{s:o}", "requests", reqs);
}

int
change_set_live(const struct change_set *cs)
{
	return cs->status == CS_NEW || cs->status == CS_SCHEDULED;
}
