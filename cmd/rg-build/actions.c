/*
 * actions.c: the upgrade actions that take one resource through one
 * transition, from the catalog (seed 000 II.C and step 1).  Each action
 * is an argument vector in which an element "{resource}" becomes the
 * resource id, as one whole argument: no shell ever parses it.  Each
 * carries the undo action that reverts it (II.C: "an upgrade action is
 * always associated with one or more undo actions"), for the actuator's
 * resource-level undo.
 *
 * Replacing a product by another removes the old one and installs the
 * new; a new version of the same product is installed over the old.
 * A resource that is added or retired runs its product's create or
 * delete action.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "jshare.h"
#include "rgb.h"
#include "xalloc.h"

static json_t *
substitute(const json_t *argv, const char *resource)
{
	json_t *out = json_array(), *v;
	size_t i;

	json_array_foreach(argv, i, v) {
		const char *s = json_string_value(v);

		json_array_append_new(out, jshare(
		    strcmp(s, "{resource}") == 0 ? resource : s));
	}
	return out;
}

static const struct cat_action_def *
action_def(const struct rgb *b, struct pv p, enum cat_action what)
{
	const struct cat_product *d;

	if (p.product == NULL ||
	    (d = catalog_find(&b->cat, p.product, p.version)) == NULL ||
	    d->actions[what].argv == NULL)
		return NULL;
	return &d->actions[what];
}

/* reverse: the action that undoes what on p (replacing prev). */
static const struct cat_action_def *
reverse(const struct rgb *b, struct pv p, enum cat_action what,
    struct pv prev, struct pv *undo_p)
{
	*undo_p = p;
	switch (what) {
	case CAT_INSTALL:
		if (action_def(b, p, CAT_REMOVE) != NULL)
			return action_def(b, p, CAT_REMOVE);
		*undo_p = prev;
		return prev.product && strcmp(prev.product, p.product) == 0 ?
		    action_def(b, prev, CAT_INSTALL) : NULL;
	case CAT_REMOVE:
		return action_def(b, p, CAT_INSTALL);
	case CAT_CREATE:
		return action_def(b, p, CAT_DELETE);
	default:
		return action_def(b, p, CAT_CREATE);
	}
}

static json_t *
make_action(struct rgb *b, struct opctx *o, struct pv p, enum cat_action what,
    const struct cat_action_def *def, struct pv prev)
{
	const struct cat_action_def *u;
	struct pv up;
	json_t *act = json_object();
	size_t n = strlen(o->undo_unit) + strlen(o->resource) + 48;
	char *id = xmalloc(n);

	if (o->change > 0)
		snprintf(id, n, "%s.%ld:%s:%zu", o->undo_unit, o->change,
		    o->resource, ++o->count);
	else
		snprintf(id, n, "%s.undo:%s:%zu", o->undo_unit, o->resource,
		    ++o->count);
	json_object_set_new_nocheck(act, "id", json_string(id));
	free(id);
	json_object_set_new_nocheck(act, "undo_unit", jshare(o->undo_unit));
	if (o->change > 0)
		json_object_set_new_nocheck(act, "change", json_integer(o->change));
	json_object_set_new_nocheck(act, "op",
	    jshare(cat_action_names[what]));
	json_object_set_new_nocheck(act, "product", jshare(p.product));
	json_object_set_new_nocheck(act, "version", jshare(p.version));
	json_object_set_new_nocheck(act, "argv", substitute(def->argv,
	    o->resource));
	json_object_set_new_nocheck(act, "duration", json_integer(def->duration));
	if ((u = reverse(b, p, what, prev, &up)) != NULL)
		json_object_set_new_nocheck(act, "undo", json_pack("{s:o, s:I}",
		    "argv", substitute(u->argv, o->resource),
		    "duration", (json_int_t)u->duration));
	return act;
}

static size_t
emit(struct rgb *b, struct opctx *o, struct pv p, enum cat_action what,
    struct pv prev)
{
	const struct cat_action_def *def = action_def(b, p, what);

	if (def == NULL)
		return 0;
	rgraph_add_action(&b->out, make_action(b, o, p, what, def, prev));
	return 1;
}

/* step: the actions from one product state to another on a resource. */
static size_t
step(struct rgb *b, struct opctx *o, struct pv from, struct pv to)
{
	size_t n = 0;

	if (pv_equal(from, to))
		return 0;
	if (from.product != NULL && (to.product == NULL ||
	    strcmp(from.product, to.product) != 0))
		n += emit(b, o, from, CAT_REMOVE, from);
	if (to.product != NULL)
		n += emit(b, o, to, CAT_INSTALL, from);
	return n;
}

size_t
forward_actions(struct rgb *b, struct opctx *o, struct pv from,
    const struct transition *t)
{
	if (t->create >= 0)
		return emit(b, o, t->to, CAT_CREATE, from);
	if (t->destroy)
		return emit(b, o, from, CAT_DELETE, from);
	return step(b, o, from, t->to);
}

size_t
undo_actions(struct rgb *b, struct opctx *o, struct pv now,
    const struct transition *t)
{
	if (t->create >= 0)
		return t->status == TR_DONE ? emit(b, o, t->to, CAT_DELETE, now) : 0;
	if (t->destroy)
		return t->status == TR_DONE ? emit(b, o, t->undo, CAT_CREATE,
		    now) : 0;
	return step(b, o, now, t->undo);
}
