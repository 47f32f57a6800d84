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
 * delete action; a host that is added or decommissioned, which no
 * product makes, is created by installing its first product and
 * deleted by removing its last.
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

/* emit_def: the action def on p, named op, undone by u (or nothing). */
static size_t
emit_def(struct rgb *b, struct opctx *o, struct pv p,
    const struct cat_action_def *def, const struct cat_action_def *u,
    const char *op, const json_t *new_resource)
{
	struct rg_made m;

	m.new_resource = new_resource;
	m.undo_unit = o->undo_unit;
	m.change = o->change;
	m.resource = o->resource;
	m.count = ++o->count;
	m.op = op;
	m.product = p.product;
	m.version = p.version;
	m.argv = def->argv;
	m.duration = def->duration;
	m.undo_argv = u != NULL ? u->argv : NULL;
	m.undo_duration = u != NULL ? u->duration : 0;
	rgraph_add_made(&b->out, &m);
	return 1;
}

/* emit_as: the catalog's action what on p, named op (a create that
 * installs, a delete that removes). */
static size_t
emit_as(struct rgb *b, struct opctx *o, struct pv p, enum cat_action what,
    struct pv prev, const char *op, const json_t *new_resource)
{
	const struct cat_action_def *def = action_def(b, p, what);
	struct pv up;

	if (def == NULL)
		return 0;
	return emit_def(b, o, p, def, reverse(b, p, what, prev, &up), op,
	    new_resource);
}

static size_t
emit(struct rgb *b, struct opctx *o, struct pv p, enum cat_action what,
    struct pv prev)
{
	return emit_as(b, o, p, what, prev, cat_action_names[what], NULL);
}

/*
 * create: bring a new resource in.  A product that instantiates it (a
 * storage) has a create action; a resource an add change brings (a
 * host, its hypervisor) is created by installing its first product, and
 * the action carries the resource as the change lists it.
 */
static size_t
create(struct rgb *b, struct opctx *o, struct pv from,
    const struct transition *t)
{
	long r = res_find(b, t->resource);
	const json_t *spec = r >= 0 ? b->res[r].spec : NULL;

	if (spec == NULL)
		return emit(b, o, t->to, CAT_CREATE, from);
	return emit_as(b, o, t->to, CAT_INSTALL, from, "create", spec);
}

/* release: its last product removed, a temporary resource given back
 * with the release action of its change. */
static size_t
release(struct rgb *b, struct opctx *o, struct pv from)
{
	struct cat_action_def def;
	size_t n = emit_as(b, o, from, CAT_REMOVE, from, "remove", NULL);

	def.argv = json_object_get(o->release, "argv");
	def.duration = (long)json_integer_value(json_object_get(o->release,
	    "duration"));
	return n + emit_def(b, o, from, &def, NULL, "delete", NULL);
}

/*
 * destroy: take a resource out of the system.  A storage or controller
 * goes with the delete action of the product that makes it; hardware
 * with a release action (a temporary host) is given back with it; any
 * other decommissioned resource goes with its last product's remove.
 */
static size_t
destroy(struct rgb *b, struct opctx *o, struct pv from)
{
	long r = res_find(b, o->resource);
	enum resource_kind kind = r >= 0 ? b->res[r].kind : KIND_HOST;

	if (product_kind(&b->cat, from.product) == (int)kind &&
	    action_def(b, from, CAT_DELETE) != NULL)
		return emit(b, o, from, CAT_DELETE, from);
	if (o->release != NULL && physical(kind))
		return release(b, o, from);
	return emit_as(b, o, from, CAT_REMOVE, from, "delete", NULL);
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
		return create(b, o, from, t);
	if (t->destroy)
		return destroy(b, o, from);
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
