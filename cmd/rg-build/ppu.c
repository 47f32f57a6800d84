/*
 * ppu.c: resolve the replacement of a VM-supporting storage or
 * controller whose new version does not declare the old one compatible
 * (seed 000 II.E and III.A): the Partial Parallel Universe.  The old
 * resource and the new one are two vertices, one removed and one added;
 * the new one is built on its own sponsors while the old keeps serving,
 * and the compute hosts that relied on the old get the new one's
 * components so that VMs can move over.  The dependencies of the new
 * configuration are recorded with the change: they are the RG's future
 * edges until the system shows them.
 */
#include <stdlib.h>
#include <string.h>

#include "rgb.h"
#include "xalloc.h"

static const char *
new_id(struct rgb *b, const json_t *spec, const struct res *old,
    struct pv to)
{
	const char *id = json_string_value(json_object_get(
	    json_object_get(spec, "to"), "id"));
	size_t n;
	char *s;
	const char *kept;

	if (id != NULL)
		return id;
	n = strlen(old->id) + strlen(to.product) + 2;
	s = xmalloc(n);
	snprintf(s, n, "%s-%s", old->id, to.product);
	kept = request_model_keep(&b->model, s);
	free(s);
	return kept;
}

static void
add_dep(struct change *c, enum dep_type type, const char *dependent,
    const char *sponsor)
{
	c->deps = xreallocarray(c->deps, c->ndeps + 1, sizeof *c->deps);
	c->deps[c->ndeps].type = type;
	c->deps[c->ndeps].dependent = dependent;
	c->deps[c->ndeps++].sponsor = sponsor;
}

/* component_change: p's components, removed (to none) or added. */
static void
component_change(struct rgb *b, uint32_t q, uint32_t s, uint32_t root,
    const struct idlist *hosts, struct pv from, struct pv to)
{
	const struct cat_product *d = catalog_find(&b->cat,
	    from.product ? from.product : to.product,
	    from.product ? from.version : to.version);
	uint32_t ch = (uint32_t)-1;
	size_t i;

	for (i = 0; i < hosts->n; i++) {
		struct change *c;
		struct transition *t;
		struct tref ref;

		if (!(d->installs_on & (1u << b->res[hosts->v[i]].kind)))
			continue;
		if (ch == (uint32_t)-1)
			ch = new_change(b, q, s, root, from.product ? OP_REMOVE :
			    OP_ADD, from, to);
		c = &b->model.reqs[q].sets[s].changes[ch];
		c->ppu = 1;
		t = change_add_transition(c, b->res[hosts->v[i]].id);
		t->from = from;
		t->to = to;
		t->undo = from;
		ref.req = q, ref.set = s, ref.change = ch;
		ref.tr = (uint32_t)(c->ntr - 1);
		res_link(b, ref);
	}
}

/* union_of: a and then what b adds, without repeats (mark: nres). */
static void
union_of(const struct idlist *a, const struct idlist *b, char *mark,
    struct idlist *out)
{
	size_t i;

	for (i = 0; i < a->n + b->n; i++) {
		size_t x = i < a->n ? a->v[i] : b->v[i - a->n];

		if (!mark[x]) {
			mark[x] = 1;
			idlist_push(out, x);
		}
	}
	for (i = 0; i < out->n; i++)
		mark[out->v[i]] = 0;
}

static int
check_actions(struct rgb *b, struct access *a, struct pv from, struct pv to)
{
	const struct cat_product *o = rgb_product(b, from.product,
	    from.version), *n = rgb_product(b, to.product, to.version);

	if (n->actions[CAT_CREATE].argv == NULL)
		return access_fail(a, "%s %s has no create action: the catalog "
		    "must say how to build the new %s", to.product, to.version,
		    resource_kind_names[n->kind < 0 ? KIND_VIRTUAL_STORAGE :
		    n->kind]);
	if (o->actions[CAT_DELETE].argv == NULL)
		return access_fail(a, "%s %s has no delete action: the catalog "
		    "must say how to retire it", from.product, from.version);
	return 0;
}

static void
record_deps(struct rgb *b, struct change *c, size_t old, const char *id,
    const struct idlist *sponsors)
{
	struct idlist vm = { 0 };
	size_t i;

	for (i = 0; i < sponsors->n; i++)
		add_dep(c, DEP_AGGREGATION, id, b->res[sponsors->v[i]].id);
	neighbours(b, old, DEP_VM_STORAGE, 0, &vm);
	for (i = 0; i < vm.n; i++)
		add_dep(c, DEP_VM_STORAGE, b->res[vm.v[i]].id, id);
	vm.n = 0;
	neighbours(b, old, DEP_VM_CONTROLLER, 0, &vm);
	for (i = 0; i < vm.n; i++)
		add_dep(c, DEP_VM_CONTROLLER, b->res[vm.v[i]].id, id);
	free(vm.v);
}

static void
add_replacement(struct rgb *b, uint32_t q, uint32_t s, uint32_t ch,
    size_t old, const char *id, struct pv from, struct pv to)
{
	struct change *c = &b->model.reqs[q].sets[s].changes[ch];
	struct transition *t = change_add_transition(c, b->res[old].id);
	struct tref ref = { q, s, ch, 0 };

	c->ppu = 1;
	t->from = from;
	t->undo = from;
	t->destroy = 1;
	ref.tr = (uint32_t)(c->ntr - 1);
	res_link(b, ref);
	t = change_add_transition(c, id);
	t->to = to;
	t->create = b->res[old].kind;
	ref.tr = (uint32_t)(c->ntr - 1);
	res_link(b, ref);
}

int
resolve_ppu(struct rgb *b, struct access *a, uint32_t q, uint32_t s,
    uint32_t ch, size_t old, struct pv from, struct pv to)
{
	const json_t *spec = b->model.reqs[q].sets[s].changes[ch].spec;
	struct idlist sponsors = { 0 }, oldsp = { 0 }, vm = { 0 }, hosts = { 0 };
	const char *id = new_id(b, spec, &b->res[old], to);
	char *mark;
	int r;

	if (res_find(b, id) >= 0) {
		access_enter_key(a, "to");
		return access_fail_at(a, "id", "\"%s\" is already a resource "
		    "id: name the new %s with \"to\": {\"id\": ...}", id,
		    to.product);
	}
	if (check_actions(b, a, from, to) < 0)
		return -1;
	neighbours(b, old, DEP_AGGREGATION, 1, &oldsp);
	r = 0;
	if (json_object_get(spec, "sponsors") != NULL)
		r = select_targets(b, a, spec, "sponsors", NULL, &sponsors);
	else
		union_of(&oldsp, &vm, (mark = xcalloc(b->nres, 1)), &sponsors),
		    free(mark);
	if (r == 0) {
		add_replacement(b, q, s, ch, old, id, from, to);
		record_deps(b, &b->model.reqs[q].sets[s].changes[ch], old, id,
		    &sponsors);
		neighbours(b, old, DEP_VM_STORAGE, 0, &vm);
		neighbours(b, old, DEP_VM_CONTROLLER, 0, &vm);
		mark = xcalloc(b->nres, 1);
		hosts.n = 0;
		union_of(&oldsp, &vm, mark, &hosts);
		component_change(b, q, s, ch, &hosts, from, (struct pv){ 0 });
		hosts.n = 0;
		union_of(&sponsors, &vm, mark, &hosts);
		component_change(b, q, s, ch, &hosts, (struct pv){ 0 }, to);
		free(mark);
	}
	free(sponsors.v);
	free(oldsp.v);
	free(vm.v);
	free(hosts.v);
	return r;
}
