/*
 * decommission.c: remove a resource that no product instantiates, a
 * host, a hypervisor or a network device (seed 000 II.D: "the ...
 * removal ... of some resources themselves").  A storage or controller
 * is retired by its product's delete action (resolve.c); a host has no
 * such action, so it goes the way it came: every product it runs is
 * removed, and the last removal takes the resource out of the system.
 *
 * Products with no remove action in the catalog get no transition:
 * there is nothing to run, and they go with the resource (a transition
 * "in effect" at once would also be undone "in effect", after its set
 * had been evaluated, and an undo would never end).  The resource
 * leaves with a product that has one, so that its removal always runs
 * an action, and its group is taken out of service, its VMs evacuated,
 * before it goes.  A
 * host none of whose products has one leaves with the release action of
 * its change, when it has one (a temporary host given back: release.c).
 */
#include "rgb.h"

int
physical(enum resource_kind k)
{
	return k == KIND_HOST || k == KIND_SWITCH || k == KIND_ROUTER ||
	    k == KIND_STORAGE_DEVICE;
}

static int
removable(const struct rgb *b, struct pv p)
{
	const struct cat_product *d = rgb_product(b, p.product, p.version);

	return d != NULL && d->actions[CAT_REMOVE].argv != NULL;
}

/* last_removable: the index in st of the product the resource leaves
 * with, or -1. */
static long
last_removable(const struct rgb *b, const struct pstate *st)
{
	size_t i;

	for (i = st->n; i-- > 0;)
		if (removable(b, st->p[i]))
			return (long)i;
	return -1;
}

/* released: the change of ref gives its resources back with an action. */
static int
released(const struct rgb *b, struct tref ref)
{
	return json_object_get(tref_change(b, ref)->spec, "release") != NULL;
}

static void
remove_product(struct rgb *b, struct tref ref, struct res *r, struct pv p,
    int destroy)
{
	struct change *c = tref_change(b, ref);
	struct transition *t = change_add_transition(c, r->id);

	t->from = p;
	t->undo = p;
	t->destroy = destroy;
	ref.tr = (uint32_t)(c->ntr - 1);
	res_link(b, ref);
}

int
decommission(struct rgb *b, struct access *a, struct tref ref, size_t ri)
{
	struct res *r = &b->res[ri];
	struct pstate st;
	long last;
	size_t i;

	pstate_projected(b, r, &st);
	last = last_removable(b, &st);
	if (last < 0 && st.n > 0 && released(b, ref) && physical(r->kind))
		last = (long)st.n - 1;	/* it leaves with the release action */
	if (last < 0) {
		pstate_free(&st);
		return access_fail(a, "nothing takes \"%s\" out: none of the "
		    "products it runs has a remove action in the catalog, and "
		    "the change has no release action", r->id);
	}
	for (i = 0; i < st.n; i++)
		if (removable(b, st.p[i]) && (long)i != last)
			remove_product(b, ref, r, st.p[i], 0);
	remove_product(b, ref, r, st.p[last], 1);
	pstate_free(&st);
	return 0;
}
