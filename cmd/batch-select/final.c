/*
 * final.c: the final batch G_Fbatch of seed 000 IV step 3.  T_i, S_i by
 * equation (2), the scaling reservation by (4), the failover reservation
 * F and Z_i by (3); then groups are taken, those that take no compute
 * host out first, then those on hosts not in use, then the rest (section
 * V: not-in-use hosts go first, so no VM moves twice), while the compute
 * hosts they take out stay within Z_i.  Groups that stay deactivated
 * after the iteration are bounded by the hosts the operator dedicates
 * to the upgrade instead.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bs.h"
#include "sla.h"
#include "xalloc.h"

/* The compute hosts a group takes out of service and its place in the
 * order of selection. */
struct take {
	size_t g;
	size_t *hosts, nhosts;
	size_t in_use;
	long vms;
	int cls;	/* 0 no compute host, 1 none in use, 2 some in use */
};

long
group_duration(const struct bs *b, size_t g)
{
	const struct cg_group *grp = &b->in.cg.groups[g];
	long t = group_step_time(b, g);
	size_t m, k;

	for (m = 0; m < grp->nmembers; m++) {
		const struct rg_vertex *v = &b->in.rg.v[grp->members[m]];
		const struct rg_level *l;

		if (v->nlevels == 0)
			continue;
		l = &b->in.rg.levels[v->first_level];
		for (k = l->first; k < l->first + l->count; k++) {
			json_t *act = b->in.rg.actions[k];

			/* the upgrade, and its resource-level undo (III.A) */
			t += (long)json_integer_value(json_object_get(act,
			    "duration"));
			t += (long)json_integer_value(json_object_get(
			    json_object_get(act, "undo"), "duration"));
		}
	}
	return t;
}

static long
count_A(const struct bs *b)
{
	size_t n, v;
	long A = 0;

	for (n = 0; n < b->in.sc.ntenants; n++) {
		const struct tenant *t = &b->in.sc.tenants[n];
		int has_new = 0;

		for (v = t->first_vm; v < t->first_vm + t->nvms; v++)
			if (b->cl.vm_host[v] != CLOUD_NONE &&
			    b->cl.part[b->cl.vm_host[v]] == PART_NEW)
				has_new = 1;
		A += !has_new && (long)t->nvms < t->max;
	}
	return A;
}

/* sla_terms: T_i, S_i, A_i, the reservations and Z_i. */
static void
sla_terms(struct bs *b)
{
	long T = 0, d, S, A, K = b->in.sc.host_capacity, scaling, F;
	long free_hosts = 0, used = 0, all = 0;
	json_t *how;
	size_t g, h;

	for (g = 0; g < b->in.cg.ngroups; g++)
		if (b->cand[g] && (d = group_duration(b, g)) > T)
			T = d;
	for (h = 0; h < b->cl.nhosts; h++) {
		if (!b->cl.usable[h] || b->cl.part[h] != PART_OLD)
			continue;
		all++;
		if (b->cl.load[h] > 0)
			used++;
		else
			free_hosts++;
	}
	S = sla_scaling_adjustment(&b->in.sc, T);
	A = count_A(b);
	scaling = sla_scaling_reservation(S, A, K);
	F = sla_failover(&failover_opts, used, T, &how);
	/* (3); with no VM of the old version every such host may go */
	b->Z = used == 0 ? all : free_hosts - scaling - F;
	b->dedicated_left = b->o->dedicated;
	b->sla = json_pack("{s:I, s:I, s:I, s:I, s:I, s:I, s:o, s:I, s:I, s:I}",
	    "T_i", (json_int_t)T, "S_i", (json_int_t)S, "A_i", (json_int_t)A,
	    "K", (json_int_t)K, "scaling_reservation", (json_int_t)scaling,
	    "failover_reservation", (json_int_t)F, "failover", how,
	    "not_in_use", (json_int_t)free_hosts, "Z_i", (json_int_t)b->Z,
	    "dedicated", (json_int_t)b->o->dedicated);
}

static void
add_host(struct take *t, size_t h)
{
	size_t i;

	for (i = 0; i < t->nhosts; i++)
		if (t->hosts[i] == h)
			return;
	t->hosts = xreallocarray(t->hosts, t->nhosts + 1, sizeof *t->hosts);
	t->hosts[t->nhosts++] = h;
}

static size_t
compute_host(const struct bs *b, size_t v)
{
	size_t r = b->res_of[v];

	return r == NONE ? NONE : b->cl.host_of[r];
}

/* sole_sponsor: does dependent d rely on group g alone for type? */
static int
sole_sponsor(const struct bs *b, size_t d, enum dep_type type, size_t g)
{
	const size_t *out;
	size_t n, i;

	out = digraph_out(&b->rgd, d, &n);
	for (i = 0; i < n; i++) {
		const struct rg_edge *e = &b->in.rg.e[out[i]];

		if (e->type == type && e->presence != PRES_FUTURE &&
		    b->in.cg.group_of[e->sponsor] != g)
			return 0;
	}
	return 1;
}

/* affected_hosts: the group's compute hosts, and the compute hosts
 * whose only switch, storage or controller is in it. */
static void
affected_hosts(const struct bs *b, size_t g, struct take *t)
{
	const struct cg_group *grp = &b->in.cg.groups[g];
	const size_t *in;
	size_t m, n, i, h;

	if (grp->deactivated)
		return;		/* already out of service */
	for (m = 0; m < grp->nmembers; m++) {
		if ((h = compute_host(b, grp->members[m])) != NONE &&
		    b->cl.usable[h])
			add_host(t, h);
		in = digraph_in(&b->rgd, grp->members[m], &n);
		for (i = 0; i < n; i++) {
			const struct rg_edge *e = &b->in.rg.e[in[i]];

			if ((e->type != DEP_COMMUNICATION &&
			    e->type != DEP_STORAGE && e->type != DEP_CONTROLLER) ||
			    e->presence == PRES_FUTURE ||
			    (h = compute_host(b, e->dependent)) == NONE ||
			    !b->cl.usable[h] ||
			    !sole_sponsor(b, e->dependent, e->type, g))
				continue;
			add_host(t, h);
		}
	}
	for (i = 0; i < t->nhosts; i++) {
		t->vms += b->cl.load[t->hosts[i]];
		t->in_use += b->cl.load[t->hosts[i]] > 0;
	}
	t->cls = t->nhosts == 0 ? 0 : t->in_use == 0 ? 1 : 2;
}

static int
by_selection_order(const void *x, const void *y)
{
	const struct take *a = x, *b = y;

	if (a->cls != b->cls)
		return a->cls < b->cls ? -1 : 1;
	if (a->vms != b->vms)
		return a->vms < b->vms ? -1 : 1;
	return a->g < b->g ? -1 : a->g > b->g;
}

static json_t *
host_ids(const struct bs *b, const struct take *t)
{
	json_t *ids = json_array();
	size_t i;

	for (i = 0; i < t->nhosts; i++)
		json_array_append_new(ids,
		    json_string(cloud_host_id(&b->cl, t->hosts[i])));
	return ids;
}

static void
choose(struct bs *b, const struct take *t, int returns)
{
	b->chosen[t->g] = 1;
	b->final_g[b->nfinal++] = t->g;
	json_array_append_new(b->final, json_pack("{s:s, s:b, s:o, s:I}",
	    "group", b->in.cg.groups[t->g].id, "returns_to_service", returns,
	    "compute_hosts", host_ids(b, t), "in_use", (json_int_t)t->in_use));
}

static size_t
new_hosts(const struct bs *b, const struct take *t)
{
	size_t i, n = 0;

	for (i = 0; i < t->nhosts; i++)
		n += !b->affected[t->hosts[i]];
	return n;
}

/* mark: take t's hosts out; fresh[] gets those not out before. */
static size_t
mark(struct bs *b, const struct take *t, size_t *fresh)
{
	size_t i, n = 0;

	for (i = 0; i < t->nhosts; i++)
		if (!b->affected[t->hosts[i]]) {
			b->affected[t->hosts[i]] = 1;
			fresh[n++] = t->hosts[i];
		}
	return n;
}

/* try_take: the capacity rules of the final batch for one group. */
static void
try_take(struct bs *b, const struct take *t, long *taken)
{
	struct verdict v = { NULL, "", -1, -1 };
	long n = (long)new_hosts(b, t);
	int returns = split_partner(b, t->g) == NONE;
	size_t *fresh, nfresh;

	if (!returns && n > b->dedicated_left) {
		v.rule = "dedicated-resources";
		snprintf(v.reason, sizeof v.reason, "the group stays deactivated "
		    "after this iteration and needs %ld compute hosts, but %ld "
		    "of those dedicated to the upgrade are left", n,
		    b->dedicated_left);
		v.needed = n, v.available = b->dedicated_left;
	} else if (returns && n > 0 && *taken + n > b->Z) {
		v.rule = "compute-capacity";
		snprintf(v.reason, sizeof v.reason, "Z_i = %ld but the group "
		    "needs %ld compute host%s (%ld already taken)", b->Z, n,
		    n == 1 ? "" : "s", *taken);
		v.needed = n, v.available = b->Z - *taken;
	}
	if (v.rule == NULL) {
		fresh = xmalloc((t->nhosts + 1) * sizeof *fresh);
		nfresh = mark(b, t, fresh);
		if (evacuate(b, fresh, nfresh) < 0) {
			while (nfresh > 0)
				b->affected[fresh[--nfresh]] = 0;
			v.rule = "evacuation";
			snprintf(v.reason, sizeof v.reason, "the %ld VMs on its %zu "
			    "in-use hosts find no place on other hosts of their "
			    "partition without breaking anti-affinity", t->vms,
			    t->in_use);
		}
		free(fresh);
	}
	if (v.rule != NULL) {
		eliminate(b, t->g, &v);
		return;
	}
	if (returns)
		*taken += n;
	else
		b->dedicated_left -= n;
	choose(b, t, returns);
}

/* switch_waiting: a partition upgraded earlier comes back exactly when
 * the last pending partition of its split unit goes. */
static void
switch_waiting(struct bs *b, struct take *all, size_t n)
{
	struct verdict v = { "upgrade-method-order", "", -1, -1 };
	size_t i, p;

	for (i = 0; i < n; i++) {
		if (!b->waiting[all[i].g] || !b->cand[all[i].g])
			continue;
		p = split_partner(b, all[i].g);
		if (p != NONE && b->chosen[p] && split_partner(b, p) == NONE) {
			choose(b, &all[i], 1);
			continue;
		}
		snprintf(v.reason, sizeof v.reason, "split mode: stays "
		    "deactivated until the last partition (%s) is taken out "
		    "of service", p != NONE ? b->in.cg.groups[p].id : "?");
		eliminate(b, all[i].g, &v);
	}
}

void
final_batch(struct bs *b)
{
	struct take *all = xcalloc(b->in.cg.ngroups + 1, sizeof *all);
	size_t g, n = 0, i;
	long taken = 0;

	b->final = json_array();
	b->final_g = xmalloc((b->in.cg.ngroups + 1) * sizeof *b->final_g);
	sla_terms(b);
	for (g = 0; g < b->in.cg.ngroups; g++) {
		if (!b->cand[g])
			continue;
		all[n].g = g;
		affected_hosts(b, g, &all[n]);
		n++;
	}
	qsort(all, n, sizeof *all, by_selection_order);
	for (i = 0; i < n; i++)
		if (!b->waiting[all[i].g])
			try_take(b, &all[i], &taken);
	switch_waiting(b, all, n);
	for (i = 0; i < n; i++)
		free(all[i].hosts);
	free(all);
}
