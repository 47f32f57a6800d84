/*
 * select.c: which resources a change targets.  A selector names ids,
 * kinds and roles; a resource matches when it passes every part given.
 * For changes of a product, only resources that run it (once the
 * transitions already planned for them are applied) match; naming one
 * that does not run it by id is an error rather than a silent no-op.
 */
#include <stdlib.h>
#include <string.h>

#include "rgb.h"
#include "xalloc.h"

void
idlist_push(struct idlist *l, size_t x)
{
	if (l->n == l->cap) {
		l->cap = l->cap ? 2 * l->cap : 16;
		l->v = xreallocarray(l->v, l->cap, sizeof *l->v);
	}
	l->v[l->n++] = x;
}

static int
has_role(const struct rgb *b, const struct res *r, const json_t *roles)
{
	json_t *v;
	size_t i;
	int bit;

	if (r->sys < 0)
		return 0;
	json_array_foreach(roles, i, v)
		for (bit = 0; role_names[bit] != NULL; bit++)
			if (strcmp(role_names[bit], json_string_value(v)) == 0 &&
			    (b->sc.resources[r->sys].roles & (1u << bit)))
				return 1;
	return 0;
}

static int
runs(const struct rgb *b, const struct res *r, const char *product)
{
	struct pstate s;
	int yes;

	if (product == NULL)
		return 1;
	pstate_projected(b, r, &s);
	yes = pstate_get(&s, product).product != NULL;
	pstate_free(&s);
	return yes;
}

/* The resources an ids selector marks, which must run product. */
struct id_marks {
	struct rgb *b;
	const char *product;
	char *mark;
};

/* mark_id: the id names a resource, which runs product; mark it. */
static int
mark_id(struct access *a, const json_t *v, size_t i, void *ctx)
{
	struct id_marks *m = ctx;
	long r;

	(void)i;
	if ((r = res_find(m->b, json_string_value(v))) < 0)
		return access_fail(a, "no resource has id \"%s\"",
		    json_string_value(v));
	if (!runs(m->b, &m->b->res[r], m->product))
		return access_fail(a, "\"%s\" does not run %s",
		    json_string_value(v), m->product);
	m->mark[r] = 1;
	return 0;
}

int
select_targets(struct rgb *b, struct access *a, const json_t *spec,
    const char *key, const char *product, struct idlist *out)
{
	json_t *sel = json_object_get(spec, key);
	json_t *ids = json_object_get(sel, "ids");
	json_t *kinds = json_object_get(sel, "kinds");
	json_t *roles = json_object_get(sel, "roles");
	char *mark = ids ? xcalloc(b->nres, 1) : NULL;
	struct id_marks m = { b, product, mark };
	size_t i;

	access_enter_key(a, key);
	if (ids != NULL && acc_each_element(a, sel, "ids", ACC_REQUIRED,
	    mark_id, &m) < 0) {
		free(mark);
		return -1;
	}
	for (i = 0; i < b->nres; i++) {
		struct res *r = &b->res[i];

		if ((ids == NULL || mark[i]) &&
		    (kinds == NULL ||
		    json_strings_have(kinds, resource_kind_names[r->kind])) &&
		    (roles == NULL || has_role(b, r, roles)) &&
		    runs(b, r, product))
			idlist_push(out, i);
	}
	free(mark);
	if (out->n == 0)
		return access_fail(a, "selects no resource%s%s", product ?
		    " running " : "", product ? product : "");
	access_leave(a);
	return 0;
}

void
neighbours(const struct rgb *b, size_t r, enum dep_type type, int out,
    struct idlist *l)
{
	const size_t *edges;
	size_t n, k;

	if (r >= b->sc.nresources)
		return;
	edges = out ? digraph_out(&b->sysg, r, &n) : digraph_in(&b->sysg, r, &n);
	for (k = 0; k < n; k++)
		if (b->sc.deps[edges[k]].type == type)
			idlist_push(l, out ? b->sysg.dst[edges[k]] :
			    b->sysg.src[edges[k]]);
}

/* vm_supporting: a storage or controller that VM operations rely on. */
int
vm_supporting(const struct rgb *b, size_t r)
{
	struct idlist l = { 0 };
	int yes;

	neighbours(b, r, DEP_VM_STORAGE, 0, &l);
	neighbours(b, r, DEP_VM_CONTROLLER, 0, &l);
	yes = l.n > 0;
	free(l.v);
	return yes;
}
