/*
 * rules.c: the initial batch G_batch of seed 000 IV step 3: the groups
 * with remaining changes and the deactivated groups, less those the
 * elimination rules remove.  One rule per guarantee the step lists; a
 * group removed carries the first rule that removed it and the numbers
 * behind it.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bs.h"
#include "cloud.h"
#include "xalloc.h"

static void
verdict(struct verdict *v, const char *rule, long needed, long available,
    const char *fmt, ...) DIAG_PRINTF(5, 6);
static size_t peer_partner(const struct bs *b, size_t g);

static void
verdict_vsay(struct verdict *v, const char *fmt, va_list ap)
{
	free(v->reason);
	v->reason = xvasprintf(fmt, ap);
}

static void
verdict(struct verdict *v, const char *rule, long needed, long available,
    const char *fmt, ...)
{
	va_list ap;

	v->rule = rule;
	v->needed = needed;
	v->available = available;
	va_start(ap, fmt);
	verdict_vsay(v, fmt, ap);
	va_end(ap);
}

void
verdict_say(struct verdict *v, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	verdict_vsay(v, fmt, ap);
	va_end(ap);
}

void
eliminate(struct bs *b, size_t g, struct verdict *v)
{
	json_t *o = json_pack("{s:s, s:s, s:s}", "group", b->in.cg.groups[g].id,
	    "rule", v->rule, "reason", v->reason);

	free(v->reason);
	v->reason = NULL;
	if (v->needed >= 0) {
		json_object_set_new(o, "needed", json_integer(v->needed));
		json_object_set_new(o, "available", json_integer(v->available));
	}
	json_decref(b->why[g]);
	b->why[g] = o;
	b->cand[g] = 0;
	b->chosen[g] = 0;
}

int
group_pending(const struct bs *b, size_t g)
{
	return b->in.cg.groups[g].mod != MOD_NO_CHANGE;
}

static const char *
vid(const struct bs *b, size_t v)
{
	return b->in.rg.v[v].id;
}

/* first_level_units: call fn for each upgrade unit of g's first level. */
static int
has_first_unit(const struct bs *b, size_t g, size_t u)
{
	const struct cg_group *grp = &b->in.cg.groups[g];
	size_t m;

	for (m = 0; m < grp->nmembers; m++) {
		const struct rg_vertex *v = &b->in.rg.v[grp->members[m]];

		if (v->nlevels > 0 && b->in.rg.levels[v->first_level].unit == u)
			return 1;
	}
	return 0;
}

static int
share_first_unit(const struct bs *b, size_t g, size_t s)
{
	const struct cg_group *grp = &b->in.cg.groups[g];
	size_t m;

	for (m = 0; m < grp->nmembers; m++) {
		const struct rg_vertex *v = &b->in.rg.v[grp->members[m]];

		if (v->nlevels > 0 &&
		    has_first_unit(b, s, b->in.rg.levels[v->first_level].unit))
			return 1;
	}
	return 0;
}

/* index_splits: which split unit and partition each vertex is in. */
static void
index_splits(struct bs *b)
{
	json_t *part, *id;
	size_t u, p, i;
	long v;

	b->split_unit = xmalloc(b->in.rg.nv * sizeof *b->split_unit);
	b->split_part = xcalloc(b->in.rg.nv, sizeof *b->split_part);
	memset(b->split_unit, 0xff, b->in.rg.nv * sizeof *b->split_unit);
	for (u = 0; u < b->in.rg.nunits; u++) {
		if (b->in.rg.units[u].method != METHOD_SPLIT)
			continue;
		json_array_foreach(b->in.rg.units[u].partitions, p, part)
			json_array_foreach(part, i, id)
				if ((v = idmap_find(&b->in.rg.ids,
				    json_string_value(id))) >= 0) {
					b->split_unit[v] = u;
					b->split_part[v] = p;
				}
	}
}

static int
rule_not_upgradable(struct bs *b, size_t g, struct verdict *v)
{
	const struct cg_group *grp = &b->in.cg.groups[g];

	if (!grp->isolated && !grp->failed)
		return 0;
	verdict(v, "not-upgradable", -1, -1, "%s has a member that is %s",
	    grp->id, grp->failed ? "failed" : "isolated");
	return 1;
}

/* pending_in_parts: a vertex of partitions [from, to) of split unit u
 * whose group still has work in u, or NONE. */
static size_t
pending_in_parts(const struct bs *b, size_t u, size_t from, size_t to)
{
	json_t *part, *id;
	size_t q, i;
	long v;

	for (q = from; q < to; q++) {
		part = json_array_get(b->in.rg.units[u].partitions, q);
		json_array_foreach(part, i, id)
			if ((v = idmap_find(&b->in.rg.ids,
			    json_string_value(id))) >= 0 &&
			    group_in_unit(&b->in.cg, b->in.cg.group_of[v], u))
				return (size_t)v;
	}
	return NONE;
}

static size_t
earlier_pending(const struct bs *b, size_t u, size_t p)
{
	return pending_in_parts(b, u, 0, p);
}

static size_t
later_pending(const struct bs *b, size_t u, size_t p)
{
	return pending_in_parts(b, u, p + 1,
	    json_array_size(b->in.rg.units[u].partitions));
}

/*
 * rule_method_order: split mode upgrades one partition at a time, in
 * order, and keeps the upgraded ones deactivated until the last one is
 * taken out (only one version active).  A deactivated partition waiting
 * for that switch stays a candidate, marked waiting.
 */
static int
rule_method_order(struct bs *b, size_t g, struct verdict *v)
{
	const struct cg_group *grp = &b->in.cg.groups[g];
	size_t m, x, u, e;

	for (m = 0; m < grp->nmembers; m++) {
		x = grp->members[m];
		if ((u = b->split_unit[x]) == NONE)
			continue;
		if (group_in_unit(&b->in.cg, g, u)) {
			e = earlier_pending(b, u, b->split_part[x]);

			if (e == NONE)
				continue;
			verdict(v, "upgrade-method-order", -1, -1, "split mode "
			    "%s: partition %zu waits until partition %zu (%s) "
			    "is upgraded", b->in.rg.units[u].id,
			    b->split_part[x] + 1, b->split_part[e] + 1,
			    vid(b, e));
			return 1;
		}
		if (grp->deactivated && (e = later_pending(b, u,
		    b->split_part[x])) != NONE) {
			b->waiting[g] = 1;
			b->paired[b->in.cg.group_of[e]] = 1;
		}
	}
	return 0;
}

static int
rule_sponsor_compat(struct bs *b, size_t g, struct verdict *v)
{
	const size_t *out;
	size_t n, i;

	out = digraph_out(&b->cgd, g, &n);
	for (i = 0; i < n; i++) {
		const struct cg_edge *e = &b->in.cg.edges[out[i]];

		if (!e->incompatible || e->type == DEP_PEER || e->to == g ||
		    !group_pending(b, e->to) || share_first_unit(b, g, e->to))
			continue;
		verdict(v, "sponsor-compatibility", -1, -1, "%s depends on %s "
		    "along an incompatible %s dependency; the sponsor goes "
		    "first", b->in.cg.groups[g].id, b->in.cg.groups[e->to].id,
		    dep_type_names[e->type]);
		return 1;
	}
	return 0;
}

/* created_product: the product the first level of vertex v creates. */
static const struct cat_product *
created_product(const struct bs *b, size_t v)
{
	const struct rg_vertex *vx = &b->in.rg.v[v];
	const struct rg_level *l;
	size_t a;

	if (vx->nlevels == 0)
		return NULL;
	l = &b->in.rg.levels[vx->first_level];
	for (a = l->first; a < l->first + l->count; a++) {
		const struct rg_action *act = &b->in.rg.act[a];

		if (strcmp(act->op, "create") == 0)
			return catalog_find(&b->in.cat, act->product,
			    act->version);
	}
	return NULL;
}

static long
min_hosts(const struct cat_product *p)
{
	if (p == NULL)
		return 0;
	return p->min_hosts_config > p->min_hosts_capacity ?
	    p->min_hosts_config : p->min_hosts_capacity;
}

/* storage_hosts_free: |M_storage - M_usedCompute| of equation (1). */
static long
storage_hosts_free(const struct bs *b)
{
	size_t r, h;
	long n = 0, v;

	for (r = 0; r < b->in.sc.nresources; r++) {
		const struct resource *res = &b->in.sc.resources[r];

		if (!(res->roles & ROLE_STORAGE) || res->status != STATUS_ACTIVE)
			continue;
		v = idmap_find(&b->in.rg.ids, res->id);
		if (v >= 0 && (b->in.rg.v[v].isolated || b->in.rg.v[v].failed))
			continue;
		h = b->cl.host_of[r];
		if (h == CLOUD_NONE || b->cl.load[h] == 0)
			n++;
	}
	return n;
}

/* old_vms: VMs still on old-partition hosts of partitioning cause c. */
static long
old_vms(const struct bs *b, size_t c)
{
	size_t h;
	long n = 0;

	for (h = 0; h < b->cl.nhosts; h++)
		if (b->cl.part[h] == PART_OLD && b->cl.domain[h] == c)
			n += b->cl.load[h];
	return n;
}

/*
 * equation1: equation (1) for every PPU of a VM-supporting storage or
 * controller, once: a verdict for those it fails, else an empty rule.
 * Both configurations must be kept "until the completion of the VM
 * migrations" (III.A): once no VM is left on the old partition, the old
 * configuration supports nothing and the equation no longer applies.
 */
static void
equation1(struct bs *b)
{
	const struct cat_product *po, *pn;
	size_t c;
	long old, nw, avail = storage_hosts_free(b), need;

	b->eq1 = xcalloc(b->cl.ncauses, sizeof *b->eq1);
	for (c = 0; c < b->cl.ncauses; c++) {
		const struct part_cause *pc = &b->cl.causes[c];

		if (pc->unit < 0 || old_vms(b, c) == 0)
			continue;
		old = idmap_find(&b->in.rg.ids, b->in.rg.units[pc->unit].old_id);
		nw = pc->new_vertex;
		po = old >= 0 && b->res_of[old] != NONE ?
		    product_of_kind(b, b->res_of[old]) : NULL;
		pn = nw >= 0 ? created_product(b, (size_t)nw) : NULL;
		if (pn == NULL && nw >= 0 && b->res_of[nw] != NONE)
			pn = product_of_kind(b, b->res_of[nw]);
		need = min_hosts(po) + min_hosts(pn);
		if (avail >= need)
			continue;
		verdict(&b->eq1[c], "ppu-resources", need, avail, "equation "
		    "(1): %ld storage hosts not in use for compute, but %s@%s "
		    "and %s@%s need max(%ld, %ld) + max(%ld, %ld) = %ld",
		    avail, po ? po->name : "?", po ? po->version : "?",
		    pn ? pn->name : "?", pn ? pn->version : "?",
		    po ? po->min_hosts_config : 0,
		    po ? po->min_hosts_capacity : 0,
		    pn ? pn->min_hosts_config : 0,
		    pn ? pn->min_hosts_capacity : 0, need);
	}
}

/* rule_ppu_resources: equation (1) for the PPUs of g's first level. */
static int
rule_ppu_resources(struct bs *b, size_t g, struct verdict *v)
{
	size_t c;

	for (c = 0; c < b->cl.ncauses; c++) {
		if (b->eq1[c].rule == NULL ||
		    !has_first_unit(b, g, (size_t)b->cl.causes[c].unit))
			continue;
		free(v->reason);
		*v = b->eq1[c];
		v->reason = xstrdup(b->eq1[c].reason);	/* eq1 keeps its own */
		return 1;
	}
	return 0;
}

static int
rule_vm_service(struct bs *b, size_t g, struct verdict *v)
{
	const struct cg_group *grp = &b->in.cg.groups[g];
	size_t m, x;

	for (m = 0; m < grp->nmembers; m++) {
		x = grp->members[m];
		if (b->in.rg.v[x].mod != MOD_REMOVE || b->relying_vms[x] == 0)
			continue;
		verdict(v, "vm-service", 0, b->relying_vms[x], "%s supports VM "
		    "operations of compute hosts that still run %ld VMs",
		    vid(b, x), b->relying_vms[x]);
		return 1;
	}
	return 0;
}

/* not_ready: a sponsor group that still has work or is out of service. */
static int
not_ready(const struct bs *b, size_t g, size_t s)
{
	return s != g && (group_pending(b, s) || b->in.cg.groups[s].deactivated);
}

/*
 * path_now: edge e of a resource to be added is a network path to a
 * switch or router that is in service, already there and compatible
 * with it: a new host may be cabled to it before it is upgraded (its
 * own upgrade keeps the host's other paths, as for any host).
 */
static int
path_now(const struct bs *b, const struct rg_edge *e, size_t s)
{
	return e->type == DEP_COMMUNICATION && !e->incompatible &&
	    !b->in.cg.groups[s].deactivated &&
	    b->in.rg.v[e->sponsor].mod != MOD_ADD;
}

static int
rule_before_add(struct bs *b, size_t g, struct verdict *v)
{
	const struct cg_group *grp = &b->in.cg.groups[g];
	const size_t *out;
	size_t m, x, n, i, s;

	for (m = 0; m < grp->nmembers; m++) {
		x = grp->members[m];
		out = digraph_out(&b->rgd, x, &n);
		for (i = 0; i < n; i++) {
			const struct rg_edge *e = &b->in.rg.e[out[i]];

			if (e->presence == PRES_CURRENT)
				continue;
			s = b->in.cg.group_of[e->sponsor];
			if (b->in.rg.v[x].mod == MOD_ADD && not_ready(b, g, s) &&
			    !path_now(b, e, s)) {
				verdict(v, "dependency-before-add", -1, -1, "%s is "
				    "to be added but its sponsor %s is not ready",
				    vid(b, x), vid(b, e->sponsor));
				return 1;
			}
			if (e->presence == PRES_FUTURE && s != g &&
			    b->in.rg.v[e->sponsor].mod == MOD_ADD &&
			    group_pending(b, s)) {
				verdict(v, "dependency-before-add", -1, -1, "%s "
				    "will rely on %s (%s), which is not added "
				    "yet", vid(b, x), vid(b, e->sponsor),
				    dep_type_names[e->type]);
				return 1;
			}
		}
	}
	return 0;
}

/*
 * abandoned: group d is failed or isolated, so that no automatic action
 * is taken on it any more (seed 000 III.A), and none of its compute
 * hosts runs a VM: nothing it holds needs what it depends on.
 */
static int
abandoned(const struct bs *b, size_t d)
{
	const struct cg_group *grp = &b->in.cg.groups[d];
	size_t m, r, h;

	if (!grp->failed && !grp->isolated)
		return 0;
	for (m = 0; m < grp->nmembers; m++) {
		r = b->res_of[grp->members[m]];
		if (r == NONE)
			continue;
		h = b->cl.host_of[r];
		if (h != NONE && b->cl.load[h] > 0)
			return 0;
	}
	return 1;
}

static int
rule_before_remove(struct bs *b, size_t g, struct verdict *v)
{
	const struct cg_group *grp = &b->in.cg.groups[g];
	const size_t *in;
	size_t m, x, n, i, d;

	for (m = 0; m < grp->nmembers; m++) {
		x = grp->members[m];
		if (b->in.rg.v[x].mod != MOD_REMOVE)
			continue;
		in = digraph_in(&b->rgd, x, &n);
		for (i = 0; i < n; i++) {
			const struct rg_edge *e = &b->in.rg.e[in[i]];

			d = b->in.cg.group_of[e->dependent];
			if (e->presence == PRES_FUTURE || d == g ||
			    !group_pending(b, d) || abandoned(b, d))
				continue;
			verdict(v, "dependency-before-remove", -1, -1, "%s is to "
			    "be removed but %s still depends on it (%s)",
			    vid(b, x), vid(b, e->dependent),
			    dep_type_names[e->type]);
			return 1;
		}
	}
	return 0;
}

typedef int (*rule_fn)(struct bs *, size_t, struct verdict *);

/* The per-group rules, in the order their reasons are preferred. */
static const rule_fn group_rules[] = {
	rule_not_upgradable, rule_method_order, rule_sponsor_compat,
	rule_ppu_resources, rule_vm_service, rule_before_add,
	rule_before_remove, NULL
};

/* in_service: may a group serve as a peer now? */
static int
out_of_service(const struct bs *b, size_t s)
{
	const struct cg_group *grp = &b->in.cg.groups[s];

	return grp->deactivated || grp->failed || grp->isolated;
}

static int
same_split(const struct bs *b, size_t g, size_t s)
{
	size_t u = b->split_unit[b->in.cg.groups[g].members[0]];

	return u != NONE && u == b->split_unit[b->in.cg.groups[s].members[0]];
}

/*
 * peer_availability: a group goes only while its peers serve: none out
 * of service, none earlier in this batch.  Peers in one split-mode unit
 * are ordered by that method instead.
 */
static void
peer_availability(struct bs *b)
{
	struct verdict v = { 0 };
	const size_t *out;
	size_t g, n, i, s;

	for (g = 0; g < b->in.cg.ngroups; g++) {
		if (!b->cand[g] || b->waiting[g])
			continue;
		out = digraph_out(&b->cgd, g, &n);
		for (i = 0; i < n; i++) {
			const struct cg_edge *e = &b->in.cg.edges[out[i]];

			s = e->to;
			/* a peer waiting for g to go is the split mode's doing */
			if (e->type != DEP_PEER || s == g || same_split(b, g, s) ||
			    (b->waiting[s] && split_partner(b, s) == g))
				continue;
			if (out_of_service(b, s) || (b->cand[s] && s < g)) {
				verdict(&v, "peer-availability", -1, -1, "its "
				    "peer %s %s", b->in.cg.groups[s].id,
				    b->cand[s] && s < g ? "goes in this batch" :
				    "is out of service");
				eliminate(b, g, &v);
				break;
			}
		}
	}
	free(v.reason);
}

/* aggregate_needed: must aggregate x keep its minimum now?  Not while
 * it is being added, nor when it is retired and no VM relies on it
 * before this iteration's moves (storage.c). */
static int
aggregate_needed(const struct bs *b, size_t x)
{
	const struct rg_vertex *v = &b->in.rg.v[x];

	if (v->deactivated || v->mod == MOD_ADD)
		return 0;
	return !(v->mod == MOD_REMOVE && b->relying_vms[x] == 0);
}

static long
aggregate_minimum(const struct bs *b, size_t x)
{
	long need = 0, m;

	if (b->res_of[x] != NONE) {
		need = b->in.sc.resources[b->res_of[x]].min_sponsors;
		m = min_hosts(product_of_kind(b, b->res_of[x]));
		if (m > need)
			need = m;
	}
	return need;
}

/* sponsor_out: a sponsor that does not count as working. */
static int
sponsor_out(const struct bs *b, size_t s)
{
	size_t g = b->in.cg.group_of[s];

	return out_of_service(b, g) || b->cand[g];
}

/* working_sponsors: sponsors of aggregate x that stay working and
 * still carry it (storage.c). */
static long
working_sponsors(const struct bs *b, size_t x, long *total)
{
	const char *name = product_on_sponsors(b, x);
	const size_t *out;
	size_t n, i;
	long w = 0;

	*total = 0;
	out = digraph_out(&b->rgd, x, &n);
	for (i = 0; i < n; i++) {
		const struct rg_edge *e = &b->in.rg.e[out[i]];

		if (e->type != DEP_AGGREGATION || e->presence == PRES_FUTURE)
			continue;
		++*total;
		w += !sponsor_out(b, e->sponsor) &&
		    sponsor_serves(b, e->sponsor, name);
	}
	return w;
}

/*
 * short_aggregate: an aggregate that g (already a candidate) sponsors
 * and that taking g out would leave below its minimum, with the verdict
 * in v; else NONE.  A group already out of service counts as out now:
 * taking it changes no count, and its actions may bring it back (a
 * sponsor left deactivated by a failed attempt and the last working one
 * would otherwise hold each other for ever).
 */
static size_t
short_aggregate(struct bs *b, size_t g, struct verdict *v)
{
	const struct cg_group *grp = &b->in.cg.groups[g];
	const size_t *in;
	size_t m, n, i, x;
	long need, work, total;

	if (out_of_service(b, g))
		return NONE;
	for (m = 0; m < grp->nmembers; m++) {
		in = digraph_in(&b->rgd, grp->members[m], &n);
		for (i = 0; i < n; i++) {
			const struct rg_edge *e = &b->in.rg.e[in[i]];

			x = e->dependent;
			if (e->type != DEP_AGGREGATION ||
			    e->presence == PRES_FUTURE || !aggregate_needed(b, x))
				continue;
			need = aggregate_minimum(b, x);
			work = working_sponsors(b, x, &total);
			if (work >= need)
				continue;
			verdict(v, "aggregation-minimum", need, work, "%s needs "
			    "%ld working sponsors of its %ld; with %s out only "
			    "%ld would remain", vid(b, x), need, total,
			    grp->id, work);
			return x;
		}
	}
	return NONE;
}

/*
 * aggregation_minimum: groups are kept in control graph order while
 * every aggregate they sponsor keeps its minimum; checking is done with
 * the group counted out, and a group that breaks it is put back.  The
 * verdict names the aggregate, for the advice.
 */
static void
aggregation_minimum(struct bs *b)
{
	struct verdict v = { 0 };
	size_t g, x;

	for (g = 0; g < b->in.cg.ngroups; g++) {
		if (!b->cand[g] || b->waiting[g])
			continue;
		if ((x = short_aggregate(b, g, &v)) == NONE)
			continue;
		eliminate(b, g, &v);
		json_object_set_new(b->why[g], "aggregate",
		    json_string(vid(b, x)));
	}
	free(v.reason);
}

void
initial_batch(struct bs *b)
{
	struct verdict v = { 0 };
	size_t g, k, n = b->in.cg.ngroups;

	b->cand = xcalloc(n, 1);
	b->waiting = xcalloc(n, 1);
	b->chosen = xcalloc(n, 1);
	b->paired = xcalloc(n, 1);
	b->why = xcalloc(n, sizeof *b->why);
	index_splits(b);
	equation1(b);
	for (g = 0; g < n; g++)
		b->cand[g] = group_pending(b, g) || b->in.cg.groups[g].deactivated;
	for (g = 0; g < n; g++) {
		if (!b->cand[g])
			continue;
		if ((k = peer_partner(b, g)) != NONE) {
			b->waiting[g] = 1;
			b->paired[k] = 1;
		}
		for (k = 0; group_rules[k] != NULL; k++)
			if (group_rules[k](b, g, &v)) {
				eliminate(b, g, &v);
				break;
			}
	}
	free(v.reason);
	peer_availability(b);
	aggregation_minimum(b);
	b->initial = json_array();
	for (g = 0; g < n; g++)
		if (b->cand[g])
			json_array_append_new(b->initial,
			    json_string(b->in.cg.groups[g].id));
}

/* products_clash: do resources x and y run products that may not be
 * peers (an incompatible pair along peer dependencies)? */
static int
products_clash(const struct bs *b, size_t x, size_t y)
{
	const char *ka, *kb;
	json_t *va, *vb;

	if (b->res_of[x] == NONE || b->res_of[y] == NONE)
		return 0;
	json_object_foreach(b->in.sc.resources[b->res_of[x]].products, ka, va)
		json_object_foreach(b->in.sc.resources[b->res_of[y]].products, kb,
		    vb)
			if (!catalog_compatible(&b->in.cat, ka, json_string_value(va),
			    kb, json_string_value(vb), DEP_PEER))
				return 1;
	return 0;
}

/*
 * peer_partner: a deactivated group done with its changes whose peer,
 * still to be upgraded, runs products it may not work with: the first
 * partition of a split mode whose unit the resource graph no longer
 * lists.  It waits for that peer, as a split partition does.
 */
static size_t
peer_partner(const struct bs *b, size_t g)
{
	const struct cg_group *grp = &b->in.cg.groups[g];
	const size_t *out;
	size_t m, n, i, s;

	if (!grp->deactivated || group_pending(b, g))
		return NONE;
	for (m = 0; m < grp->nmembers; m++) {
		out = digraph_out(&b->rgd, grp->members[m], &n);
		for (i = 0; i < n; i++) {
			const struct rg_edge *e = &b->in.rg.e[out[i]];

			s = b->in.cg.group_of[e->sponsor];
			if (e->type == DEP_PEER && s != g && group_pending(b, s) &&
			    products_clash(b, e->dependent, e->sponsor))
				return s;
		}
	}
	return NONE;
}

size_t
split_waits_for(const struct bs *b, size_t g)
{
	const struct cg_group *grp = &b->in.cg.groups[g];
	size_t m, x, u, e;

	for (m = 0; m < grp->nmembers; m++) {
		x = grp->members[m];
		if ((u = b->split_unit[x]) != NONE && group_in_unit(&b->in.cg,
		    g, u) && (e = earlier_pending(b, u, b->split_part[x])) !=
		    NONE)
			return e;
	}
	return NONE;
}

size_t
split_partner(const struct bs *b, size_t g)
{
	const struct cg_group *grp = &b->in.cg.groups[g];
	size_t m, x, u, later;

	for (m = 0; m < grp->nmembers; m++) {
		x = grp->members[m];
		if ((u = b->split_unit[x]) == NONE)
			continue;
		later = later_pending(b, u, b->split_part[x]);
		if (later != NONE && b->in.cg.group_of[later] != g)
			return b->in.cg.group_of[later];
	}
	return peer_partner(b, g);
}
