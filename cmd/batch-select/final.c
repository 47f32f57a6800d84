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
#include "migrate.h"
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

/*
 * queued_evacuation: with nova's max_concurrent_live_migrations c
 * (sysconf.h), the VMs of a host the group takes out leave it c at a
 * time: ceil(load / c) migrations in a row out of its busiest host,
 * which the batch is out of service for too.  0 without the limit:
 * every move runs at once (section V).
 */
static long
queued_evacuation(const struct bs *b, size_t g)
{
	const struct cg_group *grp = &b->in.cg.groups[g];
	long c = b->in.sc.live_per_host, rounds, worst = 0;
	struct hv_product hv;
	size_t m, h;

	for (m = 0; c > 0 && m < grp->nmembers; m++) {
		if ((h = b->res_of[grp->members[m]]) == NONE ||
		    (h = b->cl.host_of[h]) == CLOUD_NONE || b->cl.load[h] <= 1)
			continue;
		cloud_hv_product(&b->cl, &b->in.cat, h, &hv.name, &hv.version);
		rounds = (b->cl.load[h] + c - 1) / c;
		/* section V counts no migration time: only the queue's wait */
		if ((rounds - 1) * migration_duration(&b->in.cat, hv) > worst)
			worst = (rounds - 1) * migration_duration(&b->in.cat,
			    hv);
	}
	return worst;
}

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
			const struct rg_action *act = &b->in.rg.act[k];

			/* the upgrade, and its resource-level undo (III.A) */
			t += act->duration + act->undo_duration;
		}
	}
	return t + queued_evacuation(b, g);
}

/* old_hosts_not_in_use: old hosts in service without VMs. */
static long
old_hosts_not_in_use(const struct bs *b, long *used, long *all)
{
	long free_hosts = 0;
	size_t h;

	*used = *all = 0;
	for (h = 0; h < b->cl.nhosts; h++) {
		if (!b->cl.usable[h] || b->cl.part[h] != PART_OLD)
			continue;
		++*all;
		if (b->cl.load[h] > 0)
			++*used;
		else
			free_hosts++;
	}
	return free_hosts;
}

static json_t *
reservation_json(const struct bs *b)
{
	const struct reservation *r = &b->res;

	return json_pack("{s:s, s:I, s:I, s:I, s:I, s:I}", "mode",
	    r->exact_applies ? "exact" : "paper",
	    "paper", (json_int_t)r->paper, "exact", (json_int_t)r->exact,
	    "scale_out", (json_int_t)r->sum, "largest_scale_out",
	    (json_int_t)r->largest, "idle", (json_int_t)r->idle);
}

/* sla_terms: T_i, S_i, A_i, the reservations and Z_i. */
static void
sla_terms(struct bs *b)
{
	long T = 0, d, K = b->in.sc.host_capacity, used, all, free_hosts;
	json_t *how;
	size_t g;

	for (g = 0; g < b->in.cg.ngroups; g++)
		if (b->cand[g] && (d = group_duration(b, g)) > T)
			T = d;
	free_hosts = old_hosts_not_in_use(b, &used, &all);
	b->F = sla_failover(&b->o->failover, used, T, &how);
	scaling_reservations(b, T, b->F, &b->res);
	/* (3); with no VM of the old version every such host may go */
	b->Z = used == 0 ? all : free_hosts - b->res.used - b->F;
	b->empty_left = b->res.idle;
	b->guard_idle = b->res.exact_applies && used > 0;
	b->dedicated_left = b->o->dedicated;
	b->sla = json_pack("{s:I, s:I, s:I, s:I, s:I, s:o, s:I, s:o, s:I, "
	    "s:I, s:I}", "T_i", (json_int_t)T, "S_i", (json_int_t)b->res.S,
	    "A_i", (json_int_t)b->res.A, "K", (json_int_t)K,
	    "scaling_reservation", (json_int_t)b->res.used,
	    "reservation", reservation_json(b),
	    "failover_reservation", (json_int_t)b->F, "failover", how,
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

	if (grp->deactivated) {
		/* already out of service; but a host its operator disabled
		 * still runs its VMs, which leave before its upgrade */
		for (m = 0; m < grp->nmembers; m++)
			if ((h = compute_host(b, grp->members[m])) != NONE &&
			    held_out(b, grp->members[m]) && b->cl.load[h] > 0)
				add_host(t, h);
	} else for (m = 0; m < grp->nmembers; m++) {
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

/* moves_into: the moves from the first on that go to host h. */
static size_t
moves_into(const struct bs *b, size_t h, size_t first)
{
	size_t i, n = 0;

	for (i = first; i < b->nmoves; i++)
		n += b->moves[i].to == h;
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

/* empties_taken: idle old hosts (reserve.c) that the take made busy: those
 * it took out (fresh) and those its evacuation moves (from the first
 * move on) filled for the first time. */
static long
empties_taken(const struct bs *b, const unsigned char *was_empty,
    size_t nfresh, size_t first)
{
	long n = 0;
	size_t i, j;

	for (i = 0; i < nfresh; i++)
		n += was_empty[i];
	for (i = first; i < b->nmoves; i++) {
		size_t to = b->moves[i].to;

		for (j = first; j < i && b->moves[j].to != to; j++)
			;
		n += j == i && b->cl.part[to] == PART_OLD && b->idle_before[to] &&
		    b->cl.load[to] == (long)moves_into(b, to, first);
	}
	return n;
}

/* removes_host: does a member of group g remove a host for good? */
static int
removes_host(const struct bs *b, size_t g)
{
	const struct cg_group *grp = &b->in.cg.groups[g];
	size_t m;

	for (m = 0; m < grp->nmembers; m++)
		if (b->in.rg.v[grp->members[m]].mod == MOD_REMOVE &&
		    b->in.rg.v[grp->members[m]].kind == KIND_HOST)
			return 1;
	return 0;
}

/*
 * pinned_blocks: a host that t empties for good (it is removed, or
 * stays out of service past the iteration) and that runs a VM nova
 * cannot live-migrate: upkit does not cold-migrate it (a stopped
 * server would move while nobody watches it, an ERROR or SUSPENDED
 * one cannot), so the group waits and its reason names the VM.
 */
static int
pinned_blocks(const struct bs *b, const struct take *t, int returns,
    struct verdict *v)
{
	size_t i, vm;

	if (returns && !removes_host(b, t->g))
		return 0;
	for (i = 0; i < t->nhosts; i++)
		if ((vm = pinned_vm(b, t->hosts[i])) != CLOUD_NONE) {
			v->by_pinned = 1;
			v->pinned_host = t->hosts[i];
			v->pinned = vm;
			return 1;
		}
	return 0;
}

/* take_out: mark t's hosts and evacuate them, keeping the idle hosts
 * that the exact reservation and F need; NULL, or the rule that failed. */
static const char *
take_out(struct bs *b, const struct take *t, int returns, long *emptied)
{
	size_t *fresh = xmalloc(t->nhosts * sizeof *fresh);
	unsigned char *was_empty = xmalloc(t->nhosts);
	size_t nfresh, i, first = b->nmoves;
	const char *rule = NULL;

	for (i = 0; i < t->nhosts; i++)
		was_empty[i] = 0;
	nfresh = mark(b, t, fresh);
	for (i = 0; i < nfresh; i++)
		was_empty[i] = b->cl.part[fresh[i]] == PART_OLD &&
		    b->cl.load[fresh[i]] == 0 && b->idle_before[fresh[i]];
	if (evacuate(b, fresh, nfresh) < 0)
		rule = "evacuation";
	else if ((*emptied = empties_taken(b, was_empty, nfresh, first)) > 0 &&
	    returns && b->guard_idle &&
	    b->empty_left - *emptied < b->res.used + b->F) {
		moves_rollback(b, first);
		rule = "scaling-reservation";
	}
	if (rule != NULL)
		while (nfresh > 0)
			b->affected[fresh[--nfresh]] = 0;
	free(was_empty);
	free(fresh);
	return rule;
}

/* take_out_verdict: the verdict when take_out found rule broken. */
static void
take_out_verdict(const struct bs *b, const struct take *t, const char *rule,
    long emptied, struct verdict *v)
{
	if (rule == NULL)
		return;
	if (strcmp(rule, "evacuation") == 0 && v->by_pinned) {
		v->rule = rule;
		verdict_say(v, "host %s must be emptied "
		    "for good but runs VM %s, %s, which nova cannot "
		    "live-migrate: cold-migrate it (openstack server migrate) "
		    "or bring it to ACTIVE first",
		    cloud_host_id(&b->cl, v->pinned_host),
		    b->in.sc.vms[v->pinned].id,
		    b->in.sc.vms[v->pinned].status);
		return;
	}
	if (strcmp(rule, "evacuation") == 0) {
		v->rule = rule;
		verdict_say(v, "the %ld VMs on its %zu "
		    "in-use hosts find no place on other hosts of their "
		    "partition without breaking anti-affinity", t->vms,
		    t->in_use);
		return;
	}
	v->rule = "compute-capacity";
	verdict_say(v, "taking it out would leave %ld "
	    "compute hosts that ran no VM before consolidation and run none "
	    "after, but the exact scaling reservation (%ld) and failover "
	    "(%ld) need %ld", b->empty_left - emptied, b->res.used, b->F,
	    b->res.used + b->F);
	v->needed = b->res.used + b->F;
	v->available = b->empty_left - emptied;
}

/* try_take: the capacity rules of the final batch for one group. */
static void
try_take(struct bs *b, const struct take *t, long *taken)
{
	struct verdict v = { NULL, NULL, -1, -1, 0, NONE, NONE };
	long n = (long)new_hosts(b, t), emptied = 0;
	int returns = split_partner(b, t->g) == NONE;

	if (!returns && n > b->dedicated_left) {
		v.rule = "dedicated-resources";
		verdict_say(&v, "the group stays deactivated "
		    "after this iteration and needs %ld compute hosts, but %ld "
		    "of those dedicated to the upgrade are left", n,
		    b->dedicated_left);
		v.needed = n, v.available = b->dedicated_left;
	} else if (returns && n > 0 && *taken + n > b->Z) {
		v.rule = "compute-capacity";
		verdict_say(&v, "Z_i = %ld but the group "
		    "needs %ld compute host%s (%ld already taken)", b->Z, n,
		    n == 1 ? "" : "s", *taken);
		v.needed = n, v.available = b->Z - *taken;
	}
	if (v.rule == NULL && pinned_blocks(b, t, returns, &v))
		take_out_verdict(b, t, "evacuation", 0, &v);
	else if (v.rule == NULL)
		take_out_verdict(b, t, take_out(b, t, returns, &emptied),
		    emptied, &v);
	if (v.rule != NULL) {
		eliminate(b, t->g, &v);
		return;
	}
	if (returns) {
		*taken += n;
		b->empty_left -= emptied;
	} else
		b->dedicated_left -= n;	/* not counted in the capacity */
	choose(b, t, returns);
}

/* switch_waiting: a partition upgraded earlier comes back exactly when
 * the last pending partition of its split unit goes. */
static void
switch_waiting(struct bs *b, struct take *all, size_t n)
{
	struct verdict v = { "upgrade-method-order", NULL, -1, -1, 0, NONE,
		NONE };
	size_t i, p;

	for (i = 0; i < n; i++) {
		if (!b->waiting[all[i].g] || !b->cand[all[i].g])
			continue;
		p = split_partner(b, all[i].g);
		if (p != NONE && b->chosen[p] && split_partner(b, p) == NONE) {
			choose(b, &all[i], 1);
			continue;
		}
		verdict_say(&v, "split mode: stays "
		    "deactivated until the last partition (%s) is taken out "
		    "of service", p != NONE ? b->in.cg.groups[p].id : "?");
		eliminate(b, all[i].g, &v);
	}
}

static void
select_final(struct bs *b)
{
	struct take *all = xcalloc(b->in.cg.ngroups, sizeof *all);
	size_t g, n = 0, i;
	long taken = 0;

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

void
final_batch(struct bs *b)
{
	b->final = json_array();
	b->final_g = xmalloc(b->in.cg.ngroups * sizeof *b->final_g);
	b->ruled_in = xmalloc(b->in.cg.ngroups);
	memcpy(b->ruled_in, b->cand, b->in.cg.ngroups);
	select_final(b);
}

/* final_batch_again: the groups this stage eliminated are candidates
 * again, and the numbers of (2)-(4) are those of the cloud now. */
void
final_batch_again(struct bs *b)
{
	size_t g;

	for (g = 0; g < b->in.cg.ngroups; g++)
		if (b->ruled_in[g] && !b->cand[g]) {
			json_decref(b->why[g]);
			b->why[g] = NULL;
			b->cand[g] = 1;
		}
	json_array_clear(b->final);
	b->nfinal = 0;
	memset(b->chosen, 0, b->in.cg.ngroups);
	memset(b->affected, 0, b->cl.nhosts);
	json_decref(b->sla);
	select_final(b);
}
