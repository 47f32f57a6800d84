/*
 * actions.c: the upgrade actions that take one resource through one
 * transition, from the catalog (seed 000 II.C and step 1).  Each action
 * is an argument vector in which an element "{resource}" becomes the
 * resource id, as one whole argument: no shell ever parses it.  Each
 * carries the undo action that reverts it (II.C: "an upgrade action is
 * always associated with one or more undo actions"), for the actuator's
 * resource-level undo.
 *
 * The actions stay flat records (struct rg_made) until rgraph_write().
 *
 * Replacing a product by another removes the old one and installs the
 * new; a new version of the same product is installed over the old.
 * A resource that is added or retired runs its product's create or
 * delete action.
 */
#include <string.h>

#include "rgb.h"

static const struct cat_action_def *
action_def(const struct rgb *b, struct pv p, enum cat_action what)
{
	const struct cat_product *d;

	if (p.product == NULL ||
	    (d = rgb_product(b, p.product, p.version)) == NULL ||
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

static size_t
emit(struct rgb *b, struct opctx *o, struct pv p, enum cat_action what,
    struct pv prev)
{
	const struct cat_action_def *def = action_def(b, p, what), *u;
	struct rg_made m;
	struct pv up;

	if (def == NULL)
		return 0;
	m.undo_unit = o->undo_unit;
	m.change = o->change;
	m.resource = o->resource;
	m.count = ++o->count;
	m.op = cat_action_names[what];
	m.product = p.product;
	m.version = p.version;
	m.argv = def->argv;
	m.duration = def->duration;
	u = reverse(b, p, what, prev, &up);
	m.undo_argv = u != NULL ? u->argv : NULL;
	m.undo_duration = u != NULL ? u->duration : 0;
	rgraph_add_made(&b->out, &m);
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
