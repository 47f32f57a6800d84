/*
 * resources.c: the table of resources rg-build plans for, and the
 * transitions each one carries (see rgb.h).
 */
#include <stdlib.h>
#include <string.h>

#include "rgb.h"
#include "xalloc.h"

size_t
res_add(struct rgb *b, const char *id, int kind)
{
	struct res *r;

	if (b->nres == b->res_cap) {
		b->res_cap = b->res_cap ? 2 * b->res_cap : 64;
		b->res = xreallocarray(b->res, b->res_cap, sizeof *b->res);
	}
	r = &b->res[b->nres];
	memset(r, 0, sizeof *r);
	r->id = id;
	r->kind = kind;
	r->sys = -1;
	idmap_add(&b->res_ids, id);
	return b->nres++;
}

long
res_find(const struct rgb *b, const char *id)
{
	return idmap_find(&b->res_ids, id);
}

struct request *
tref_req(const struct rgb *b, struct tref ref)
{
	return &b->model.reqs[ref.req];
}

struct change_set *
tref_set(const struct rgb *b, struct tref ref)
{
	return &b->model.reqs[ref.req].sets[ref.set];
}

struct change *
tref_change(const struct rgb *b, struct tref ref)
{
	return &tref_set(b, ref)->changes[ref.change];
}

struct transition *
tref_tr(const struct rgb *b, struct tref ref)
{
	return &tref_change(b, ref)->tr[ref.tr];
}

/* added_spec: the resource id as the add change c lists it, or NULL. */
static const json_t *
added_spec(const struct change *c, const char *id)
{
	const json_t *list = json_object_get(json_object_get(c->spec,
	    "system"), "resources"), *v;
	size_t i;

	json_array_foreach(list, i, v)
		if (strcmp(json_string_value(json_object_get(v, "id")), id) == 0)
			return v;
	return NULL;
}

/*
 * res_link: file a transition under its resource.  A resource the
 * system does not list is one a change set creates (or one that left
 * the system: its transitions are then gone).
 */
void
res_link(struct rgb *b, struct tref ref)
{
	struct transition *t = tref_tr(b, ref);
	long i = res_find(b, t->resource);
	struct res *r;

	if (i < 0)
		i = (long)res_add(b, t->resource, t->create >= 0 ? t->create : 0);
	r = &b->res[i];
	if (t->create >= 0 && r->spec == NULL)
		r->spec = added_spec(tref_change(b, ref), t->resource);
	if (r->ntr == r->tr_cap) {
		r->tr_cap = r->tr_cap ? 2 * r->tr_cap : 4;
		r->tr = xreallocarray(r->tr, r->tr_cap, sizeof *r->tr);
	}
	r->tr[r->ntr++] = ref;
}

void
res_link_change(struct rgb *b, uint32_t req, uint32_t set, uint32_t ch)
{
	struct change *c = &b->model.reqs[req].sets[set].changes[ch];
	struct tref ref = { req, set, ch, 0 };

	for (ref.tr = 0; ref.tr < c->ntr; ref.tr++)
		res_link(b, ref);
}

/* res_table_build: system resources, then every transition's resource. */
void
res_table_build(struct rgb *b)
{
	const struct request_model *m = &b->model;
	size_t i;
	uint32_t q, s, c;

	idmap_init(&b->res_ids);
	for (i = 0; i < b->sc.nresources; i++) {
		size_t x = res_add(b, b->sc.resources[i].id,
		    (int)b->sc.resources[i].kind);
		struct res *r = &b->res[x];

		r->sys = (long)i;
		r->deactivated = b->sc.resources[i].status != STATUS_ACTIVE;
		r->failed = b->sc.resources[i].status == STATUS_FAILED;
		r->isolated = r->failed;
		r->down = r->failed;
	}
	digraph_init(&b->sysg, b->sc.nresources);
	for (i = 0; i < b->sc.ndeps; i++)
		digraph_add_edge(&b->sysg, b->sc.deps[i].dependent,
		    b->sc.deps[i].sponsor);
	digraph_build(&b->sysg);
	for (q = 0; q < m->nreqs; q++)
		for (s = 0; s < m->reqs[q].nsets; s++)
			for (c = 0; c < m->reqs[q].sets[s].nchanges; c++)
				res_link_change(b, q, s, c);
}

struct attempts *
res_attempts(struct res *r, const char *undo_unit)
{
	size_t i;

	for (i = 0; i < r->natt; i++)
		if (strcmp(r->att[i].undo_unit, undo_unit) == 0)
			return &r->att[i];
	r->att = xreallocarray(r->att, r->natt + 1, sizeof *r->att);
	r->att[r->natt].undo_unit = undo_unit;
	r->att[r->natt].count = 0;
	r->att[r->natt].counted = 0;
	return &r->att[r->natt++];
}
