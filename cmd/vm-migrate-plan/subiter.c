/*
 * subiter.c: V_i by equation (5) and the sub-iterations W_ij of seed
 * 000 IV step 4.  Each sub-iteration moves at most one VM of every
 * anti-affinity group.  By default the old hosts holding fewest VMs go
 * first, all their VMs at once (a host holds at most one VM of a
 * group), so that every VM that moves frees its host; with the paper's
 * order (-O groups), groups of tenants with the most VMs of the old
 * version go first, and within a group the VM on the host holding most
 * VMs of the groups chosen.  Before each
 * sub-iteration the scaling reservation of the new partition is
 * re-evaluated for the tenants that move there for the first time, and
 * the sub-iteration shrinks to what is left of V_i.
 */
#include <stdlib.h>
#include <string.h>

#include "migrate.h"
#include "schedule.h"
#include "sla.h"
#include "vmp.h"
#include "xalloc.h"

#define SCAN_LIMIT 64

struct pick {
	size_t group;		/* anti-affinity group */
	long tenant_old;	/* its tenant's VMs of the old version */
	size_t tenant, vm, from, to;
};

static const struct vmp *sort_p;

/* by_preference: tenants with most old VMs first, then tenant, group. */
static int
by_preference(const void *x, const void *y)
{
	const struct pick *a = x, *b = y;

	if (a->tenant_old != b->tenant_old)
		return a->tenant_old > b->tenant_old ? -1 : 1;
	if (a->tenant != b->tenant)
		return a->tenant < b->tenant ? -1 : 1;
	return a->group < b->group ? -1 : a->group > b->group;
}

static void
index_groups(struct vmp *p)
{
	size_t n = p->cl.ngroups, v, *fill;

	p->group_first = xcalloc(n + 2, sizeof *p->group_first);
	p->group_vms = xmalloc(p->in.sc.nvms * sizeof *p->group_vms);
	for (v = 0; v < p->in.sc.nvms; v++)
		p->group_first[p->cl.vm_group[v] + 1]++;
	for (v = 0; v < n; v++)
		p->group_first[v + 1] += p->group_first[v];
	fill = xmalloc((n + 1) * sizeof *fill);
	memcpy(fill, p->group_first, (n + 1) * sizeof *fill);
	for (v = 0; v < p->in.sc.nvms; v++)
		p->group_vms[fill[p->cl.vm_group[v]]++] = v;
	free(fill);
}

static int
on_new(const struct vmp *p, size_t v)
{
	size_t h = p->cl.vm_host[v];

	return h != CLOUD_NONE && p->cl.part[h] == PART_NEW;
}

/* tenant_counts: VMs of each tenant that can move (unless old is
 * NULL), and whether it has VMs in the new partition already. */
static void
tenant_counts(const struct vmp *p, long *old, unsigned char *has_new)
{
	size_t n, v;
	long movable;

	for (n = 0; n < p->in.sc.ntenants; n++) {
		const struct tenant *t = &p->in.sc.tenants[n];

		movable = 0;
		has_new[n] = 0;
		for (v = t->first_vm; v < t->first_vm + t->nvms; v++) {
			movable += vmp_movable(p, v);
			has_new[n] |= on_new(p, v);
		}
		if (old != NULL)
			old[n] = movable;
	}
}

/* count_A: tenants below max_n with VMs of the new version, counting
 * those in extra[] as having some (first-time movers). */
static long
count_A(const struct vmp *p, const unsigned char *has_new,
    const unsigned char *extra)
{
	size_t n;
	long A = 0;

	for (n = 0; n < p->in.sc.ntenants; n++)
		A += (has_new[n] || (extra && extra[n])) &&
		    (long)p->in.sc.tenants[n].nvms < p->in.sc.tenants[n].max;
	return A;
}

static long
new_capacity(const struct vmp *p)
{
	return p->o->new_capacity > 0 ? p->o->new_capacity :
	    p->in.sc.host_capacity;
}

/* hv_after: the hypervisor product h runs once step 3 is done. */
static struct hv_product
hv_after(const struct vmp *p, size_t h)
{
	struct hv_product hp = { NULL, NULL };
	const struct rg_vertex *x;
	long v;
	size_t k;

	cloud_hv_product(&p->cl, &p->in.cat, h, &hp.name, &hp.version);
	if (p->cl.hv[h] == CLOUD_NONE ||
	    (v = idmap_find(&p->in.rg.ids, p->in.sc.resources[p->cl.hv[h]].id)) < 0 ||
	    !p->done[p->in.cg.group_of[v]] || (x = &p->in.rg.v[v])->nlevels == 0)
		return hp;
	for (k = p->in.rg.levels[x->first_level].first; k <
	    p->in.rg.levels[x->first_level].first +
	    p->in.rg.levels[x->first_level].count; k++) {
		const struct rg_action *act = &p->in.rg.act[k];
		const struct cat_product *cp = catalog_find(&p->in.cat,
		    act->product, act->version);

		if (cp != NULL && cp->kind == KIND_HYPERVISOR &&
		    strcmp(act->op, "install") == 0) {
			hp.name = cp->name;
			hp.version = cp->version;
		}
	}
	return hp;
}

/*
 * Equation (5) of seed 000 (section IV, step 4), in the paper's symbols:
 *   V_i = (|M_computeForNewVM - M_usedComputeForNewVM|
 *          - ScalingResv_forNewVM - FailoverResv_forNewVM) * K'
 * the VMs that may move in iteration i: hosts of the new partition not
 * in use, less the hosts reserved for the scaling (equations (2) and
 * (4) over the tenants of the new version, A) and the failover of the
 * moved VMs, times K', the VMs a host holds after the upgrade.  T is
 * the time the moves take: one VM of each anti-affinity group per
 * sub-iteration, so as many sub-iterations as the largest group has
 * VMs to move, each as long as the slowest move and its undo.
 */

/* most_moves_in_a_group: the sub-iterations the planned moves need. */
static long
most_moves_in_a_group(const struct vmp *p)
{
	long most = 0, moves;
	size_t g, i;

	for (g = 0; g < p->cl.ngroups; g++) {
		moves = 0;
		for (i = p->group_first[g]; i < p->group_first[g + 1]; i++)
			moves += vmp_movable(p, p->group_vms[i]);
		if (moves > most)
			most = moves;
	}
	return most;
}

/*
 * count_new_partition: the ready hosts of the new partition, in use
 * (*used) and not (p->not_in_use); returns the longest a move and its
 * undo take on one of their hypervisors.
 */
static long
count_new_partition(struct vmp *p, long *used)
{
	long slowest = MIGRATE_DEFAULT_DURATION, round_trip;
	size_t h;

	*used = 0;
	p->not_in_use = 0;
	for (h = 0; h < p->cl.nhosts; h++) {
		if (!p->cl.usable[h] || p->cl.part[h] != PART_NEW ||
		    !p->ready[p->cl.domain[h]])
			continue;
		if (p->cl.load[h] > 0)
			(*used)++;
		else
			p->not_in_use++;
		round_trip = 2 * migration_duration(&p->in.cat, hv_after(p, h));
		if (round_trip > slowest)
			slowest = round_trip;
	}
	return slowest;
}

/* reservation_json: both scaling reservations of the new partition, and
 * the one used. */
static json_t *
reservation_json(const struct vmp *p, long paper)
{
	struct newresv r;
	json_t *o;

	newresv_init(p, &r, NULL);
	o = json_pack("{s:s, s:I, s:I, s:I, s:I}", "mode",
	    p->o->reservation == SLA_RESERVE_EXACT ? "exact" : "paper",
	    "paper", (json_int_t)paper, "exact",
	    (json_int_t)newresv_hosts(&r), "scale_out", (json_int_t)r.sum,
	    "largest_scale_out", (json_int_t)r.top);
	newresv_free(&r);
	return o;
}

/*
 * hold_in_slots: when the empty hosts of the new partition cannot hold
 * the exact reservation and F, hold them in slots (slotresv.c); V_i is
 * then the slots left, if any.  resv says how much it held on hosts in
 * use.
 */
static void
hold_in_slots(struct vmp *p, json_t *resv)
{
	struct slotresv r;

	if (slotresv_init(p, &r) == 0 && r.room > 0) {
		p->V = r.room;
		p->in_slots = 1;
		json_object_set_new(resv, "held_in", json_string("slots"));
		json_object_set_new(resv, "held_on_used",
		    json_integer(r.held_on_used));
	}
	slotresv_free(&r);
}

/* equation5: T, S, the reservations and V_i for the new partition. */
static void
equation5(struct vmp *p)
{
	unsigned char *has_new = xcalloc(p->in.sc.ntenants, 1);
	long used, slowest, new_capacity_per_host, tenants_new, paper;
	json_t *how, *resv;

	tenant_counts(p, NULL, has_new);
	slowest = count_new_partition(p, &used);
	new_capacity_per_host = new_capacity(p);
	tenants_new = count_A(p, has_new, NULL);
	p->T = most_moves_in_a_group(p) * slowest;
	p->S = sla_scaling_adjustment(&p->in.sc, p->T);
	paper = sla_scaling_reservation(p->S, tenants_new,
	    new_capacity_per_host);
	resv = reservation_json(p, paper);
	p->scaling = p->o->reservation == SLA_RESERVE_EXACT ?
	    json_integer_value(json_object_get(resv, "exact")) : paper;
	/* the moved VMs need failover too: at least one host's worth */
	p->failover = sla_failover(&p->o->failover, used > 0 ? used : 1, p->T,
	    &how);
	p->V = (p->not_in_use - p->scaling - p->failover) *
	    new_capacity_per_host;
	if (p->o->reservation == SLA_RESERVE_EXACT && p->V <= 0)
		hold_in_slots(p, resv);
	json_object_set_new(p->section, "sla", json_pack("{s:I, s:I, s:I, s:I,"
	    " s:I, s:o, s:I, s:o, s:I, s:I}", "T", (json_int_t)p->T, "S",
	    (json_int_t)p->S, "A", (json_int_t)tenants_new,
	    "K_new", (json_int_t)new_capacity_per_host, "scaling_reservation",
	    (json_int_t)p->scaling, "reservation", resv,
	    "failover_reservation", (json_int_t)p->failover, "failover", how,
	    "not_in_use", (json_int_t)p->not_in_use, "V_i", (json_int_t)p->V));
	free(has_new);
}

static int
role_rank(const struct vmp *p, size_t v)
{
	const char *r = p->in.sc.vms[v].role;

	if (!p->o->standby_first || r == NULL)
		return 1;
	return strcmp(r, "standby") == 0 ? 0 : 2;
}

/* by_load_asc: the old hosts holding fewest VMs first, then host order. */
static int
by_load_asc(const void *x, const void *y)
{
	size_t a = *(const size_t *)x, b = *(const size_t *)y;
	long la = sort_p->cl.load[a], lb = sort_p->cl.load[b];

	if (la != lb)
		return la < lb ? -1 : 1;
	return a < b ? -1 : a > b;
}

/* host_candidates: the VMs of the old hosts holding fewest VMs first,
 * one per anti-affinity group, so that whole hosts empty and no VM moves
 * without freeing its host. */
static size_t
host_candidates(const struct vmp *p, struct pick *c, const long *old)
{
	size_t *hosts = xcalloc(p->cl.nhosts, sizeof *hosts);
	unsigned char *taken = xcalloc(p->cl.ngroups, 1);
	unsigned char *first_rank = xmalloc(p->cl.ngroups);
	size_t nh = 0, h, i, v, n = 0;

	/* with -s, a group's standbys go before its others */
	memset(first_rank, 3, p->cl.ngroups);
	for (v = 0; v < p->in.sc.nvms; v++)
		if (vmp_movable(p, v) && role_rank(p, v) <
		    first_rank[p->cl.vm_group[v]])
			first_rank[p->cl.vm_group[v]] = role_rank(p, v);
	for (h = 0; h < p->cl.nhosts; h++)
		if (p->cl.load[h] > 0 && p->cl.part[h] == PART_OLD &&
		    p->ready[p->cl.domain[h]])
			hosts[nh++] = h;
	sort_p = p;
	qsort(hosts, nh, sizeof *hosts, by_load_asc);
	for (i = 0; i < nh; i++)
		for (v = p->cl.host_first[hosts[i]]; v != CLOUD_NONE;
		    v = p->cl.vm_next[v]) {
			if (!vmp_movable(p, v) || taken[p->cl.vm_group[v]] ||
			    role_rank(p, v) > first_rank[p->cl.vm_group[v]])
				continue;
			taken[p->cl.vm_group[v]] = 1;
			c[n].group = p->cl.vm_group[v];
			c[n].tenant = p->in.sc.vms[v].tenant;
			c[n].tenant_old = old[c[n].tenant];
			c[n].vm = v;
			c[n].to = NONE;
			n++;
		}
	free(hosts);
	free(taken);
	free(first_rank);
	return n;
}

/* candidates: one entry per group with VMs that can move, preferred
 * first. */
static size_t
candidates(const struct vmp *p, struct pick *c, const long *old)
{
	size_t g, i, n = 0;

	if (p->o->order == ORDER_HOSTS)
		return host_candidates(p, c, old);

	for (g = 0; g < p->cl.ngroups; g++)
		for (i = p->group_first[g]; i < p->group_first[g + 1]; i++) {
			size_t v = p->group_vms[i];

			if (!vmp_movable(p, v))
				continue;
			c[n].group = g;
			c[n].tenant = p->in.sc.vms[v].tenant;
			c[n].tenant_old = old[c[n].tenant];
			c[n].vm = c[n].to = NONE;
			n++;
			break;
		}
	sort_p = p;
	qsort(c, n, sizeof *c, by_preference);
	return n;
}

/* budget: what V_i allows now, with first-time tenants of c[0..n). */
static long
budget(const struct vmp *p, const struct pick *c, size_t n,
    const unsigned char *has_new, unsigned char *first, long moved,
    long *A)
{
	size_t i;
	long scaling;

	memset(first, 0, p->in.sc.ntenants);
	for (i = 0; i < n; i++)
		if (!has_new[c[i].tenant])
			first[c[i].tenant] = 1;
	*A = count_A(p, has_new, first);
	scaling = sla_scaling_reservation(p->S, *A, new_capacity(p));
	return (p->not_in_use - scaling - p->failover) * new_capacity(p) -
	    moved;
}

/*
 * select_exact: the picks of c[0..n) that the new partition takes while
 * keeping the exact reservation and F, in preference order, moved to
 * the front; their count.  A pick of a tenant new to the partition adds
 * its scale-out to the reservation, so it may not fit where a later
 * pick of a tenant already there, or at its max, still does.  *room is
 * the slots left.
 */
static size_t
select_exact(const struct vmp *p, struct pick *c, size_t n,
    const unsigned char *has_new, unsigned char *first, long *room)
{
	struct newresv r;
	size_t i, k = 0, t;
	int newcomer;

	memset(first, 0, p->in.sc.ntenants);
	newresv_init(p, &r, NULL);
	for (i = 0; i < n; i++) {
		t = c[i].tenant;
		if ((newcomer = !has_new[t] && !first[t]))
			newresv_add(&r, t);
		if (newresv_room(p, &r) < (long)k + 1) {
			if (newcomer)	/* the pick waits */
				newresv_drop(&r, t);
			continue;
		}
		first[t] |= newcomer;
		c[k++] = c[i];
	}
	*room = newresv_room(p, &r) - (long)k;
	newresv_free(&r);
	return k;
}

/*
 * select_in_slots: select_exact with the reservations held in slots, r:
 * a pick of a tenant new to the partition holds its scale-out first.
 */
static size_t
select_in_slots(const struct vmp *p, struct slotresv *r, struct pick *c,
    size_t n, const unsigned char *has_new, unsigned char *first,
    long *room)
{
	size_t i, k = 0, t;
	int newcomer;

	memset(first, 0, p->in.sc.ntenants);
	for (i = 0; i < n; i++) {
		t = c[i].tenant;
		newcomer = !has_new[t] && !first[t];
		if (newcomer && slotresv_add(p, r, t) < 0)
			continue;	/* the pick waits */
		if (r->room < (long)k + 1) {
			if (newcomer)
				slotresv_drop(p, r, t);
			continue;
		}
		first[t] |= newcomer;
		c[k++] = c[i];
	}
	*room = r->room - (long)k;
	return k;
}

/* keep_reservation: undo the last moves of c[0..n) until the empty
 * hosts of the new partition hold the exact reservation and F again
 * (a VM that anti-affinity sends to an empty host costs a whole host);
 * the moves left. */
static size_t
keep_reservation(struct vmp *p, struct pick *c, size_t n, size_t moved,
    const unsigned char *has_new, unsigned char *first)
{
	struct newresv r;
	size_t i = n;

	newresv_init(p, &r, NULL);
	while (newresv_short(p, &r) > 0 && i > 0) {
		if (c[--i].to == NONE)
			continue;
		cloud_move(&p->cl, c[i].vm, c[i].from);
		newresv_unmove(p, &r, c[i].vm, c[i].to);
		c[i].to = NONE;
		moved--;
		p->cursor = 0;	/* the host has room again */
	}
	newresv_free(&r);
	memset(first, 0, p->in.sc.ntenants);
	for (i = 0; i < n; i++)
		if (c[i].to != NONE && !has_new[c[i].tenant])
			first[c[i].tenant] = 1;
	return moved;
}


/* host_score: VMs on host h of the groups chosen this sub-iteration. */
static long
host_score(const struct vmp *p, size_t h, const unsigned char *chosen)
{
	size_t v;
	long s = 0;

	for (v = p->cl.host_first[h]; v != CLOUD_NONE; v = p->cl.vm_next[v])
		s += chosen[p->cl.vm_group[v]];
	return s;
}

static size_t
choose_vm(const struct vmp *p, size_t g, const unsigned char *chosen)
{
	size_t i, v, best = NONE;
	long s, best_s = -1;
	int r, best_r = 3;

	for (i = p->group_first[g]; i < p->group_first[g + 1]; i++) {
		v = p->group_vms[i];
		if (!vmp_movable(p, v))
			continue;
		r = role_rank(p, v);
		s = host_score(p, p->cl.vm_host[v], chosen);
		if (r < best_r || (r == best_r && s > best_s)) {
			best = v;
			best_r = r;
			best_s = s;
		}
	}
	return best;
}

/* by_load_desc: in-use hosts first, fuller first, then host order. */
static int
by_load_desc(const void *x, const void *y)
{
	size_t a = *(const size_t *)x, b = *(const size_t *)y;
	long la = sort_p->cl.load[a], lb = sort_p->cl.load[b];

	if (la != lb)
		return la > lb ? -1 : 1;
	return a < b ? -1 : a > b;
}

/* index_new_hosts: the hosts VMs may move to, in-use and fuller first;
 * they only gain VMs, so those full at the front stay full. */
static void
index_new_hosts(struct vmp *p)
{
	size_t h;

	p->new_hosts = xmalloc(p->cl.nhosts * sizeof *p->new_hosts);
	for (h = 0; h < p->cl.nhosts; h++)
		if (p->cl.part[h] == PART_NEW && p->cl.usable[h] &&
		    p->ready[p->cl.domain[h]])
			p->new_hosts[p->nnew++] = h;
	sort_p = p;
	qsort(p->new_hosts, p->nnew, sizeof *p->new_hosts, by_load_desc);
}

/* destination: a host of v's new partition with room and no VM of its
 * group, that keeps the slots held in r (NULL: none); a bounded number
 * of hosts with room is tried. */
static size_t
destination(struct vmp *p, size_t v, const struct slotresv *r)
{
	size_t dom = p->cl.domain[p->cl.vm_host[v]], i, h, tried = 0;

	while (p->cursor < p->nnew && p->cl.load[p->new_hosts[p->cursor]] >=
	    vmp_cap(p, p->new_hosts[p->cursor]))
		p->cursor++;
	for (i = p->cursor; i < p->nnew && tried < SCAN_LIMIT; i++) {
		h = p->new_hosts[i];
		if (p->cl.domain[h] != dom || p->cl.load[h] >= vmp_cap(p, h) ||
		    (r != NULL && !slotresv_takes(p, r, v, h)))
			continue;
		tried++;
		if (cloud_fits(&p->cl, v, h, vmp_cap(p, h)))
			return h;
	}
	return NONE;
}

static int
note_action(const json_t *action, size_t stage, size_t group, void *ctx)
{
	(void)stage;
	(void)group;
	conditions_note(ctx, action);
	return 0;
}

static json_t *
subiter_schedule(struct vmp *p, size_t j, const struct pick *c, size_t n,
    const struct hv_product *src)
{
	char *id = sched_format("i%ld.s%zu", p->in.rg.iteration, j);
	json_t *sched = sched_new(id), *groups;
	size_t i;

	groups = sched_stage(sched, "migrate", "migration");
	for (i = 0; i < n; i++) {
		struct migration m;
		char *aid;

		if (c[i].to == NONE)
			continue;
		m.vm = p->in.sc.vms[c[i].vm].id;
		m.source = cloud_host_id(&p->cl, c[i].from);
		m.destination = cloud_host_id(&p->cl, c[i].to);
		m.source_name = cloud_service_host(&p->cl, c[i].from);
		m.destination_name = cloud_service_host(&p->cl, c[i].to);
		m.from = src[i];
		m.to = hv_after(p, c[i].to);
		m.phase = "migration";
		m.replaceable = 1;
		aid = sched_format("%s/migrate:%s:%s:%s", id, m.vm, m.source,
		    m.destination);
		m.id = aid;
		json_array_append_new(sched_group(groups, m.vm),
		    migration_action(&p->in.cat, &m));
		conditions_require(&p->cond, groups, m.vm, m.destination);
		free(aid);
	}
	schedule_each_action(sched, note_action, &p->cond);
	sched_finish(sched, 0);
	free(id);
	return sched;
}

static json_t *
tenant_ids(const struct vmp *p, const unsigned char *first)
{
	json_t *ids = json_array();
	size_t n;

	for (n = 0; n < p->in.sc.ntenants; n++)
		if (first[n])
			json_array_append_new(ids,
			    json_string(p->in.sc.tenants[n].id));
	return ids;
}

/* move_picks: choose and move the VMs of c[0..n), keeping the slots
 * held in r (NULL: none); the moved count.  The source products are
 * kept for the schedule. */
static size_t
move_picks(struct vmp *p, struct pick *c, size_t n, struct hv_product *src,
    struct slotresv *r)
{
	unsigned char *chosen = xcalloc(p->cl.ngroups, 1);
	size_t i, moved = 0;

	for (i = 0; i < n; i++)
		chosen[c[i].group] = 1;
	/* all chosen first, so that the scores see one placement */
	for (i = 0; i < n; i++)
		if (c[i].vm == NONE)
			c[i].vm = choose_vm(p, c[i].group, chosen);
	for (i = 0; i < n; i++) {
		c[i].from = p->cl.vm_host[c[i].vm];
		src[i] = hv_after(p, c[i].from);
		c[i].to = destination(p, c[i].vm, r);
		if (c[i].to != NONE) {
			cloud_move(&p->cl, c[i].vm, c[i].to);
			if (r != NULL)
				slotresv_moved(r);
			moved++;
		}
	}
	free(chosen);
	return moved;
}

/* sub_iteration_budget: the picks of c[0..n) this sub-iteration takes,
 * moved to the front, and *n their count; the budget they were given,
 * within what is left of V_i.  r: the slots held, or NULL. */
static long
sub_iteration_budget(struct vmp *p, struct pick *c, size_t *n,
    const unsigned char *has_new, unsigned char *first, long moved,
    struct slotresv *r)
{
	long b, A;

	if (r != NULL) {
		*n = select_in_slots(p, r, c, *n, has_new, first, &b);
		b += (long)*n;	/* the budget these picks were given */
	} else if (p->o->reservation == SLA_RESERVE_EXACT) {
		*n = select_exact(p, c, *n, has_new, first, &b);
		b += (long)*n;
	} else {
		b = budget(p, c, *n, has_new, first, moved, &A);
		if (b < (long)*n)   /* fewer first-timers can only help */
			b = budget(p, c, *n = b > 0 ? (size_t)b : 0,
			    has_new, first, moved, &A);
	}
	/*
	 * equation (5) bounds the iteration: the exact room also
	 * counts free slots of new hosts in use and is the room
	 * left now, not what is left of V_i; the last picks wait
	 * (fewer newcomers only leave more room)
	 */
	if (b > p->V - moved)
		b = p->V - moved;
	if ((long)*n > b)
		*n = b > 0 ? (size_t)b : 0;
	return b;
}

/* How many times a sub-iteration whose picks all found no destination,
 * or were all taken back, is selected again from the other candidates. */
#define RETRY_LIMIT 64

/* without_picks: the candidates all[0..*nall) less the groups of the n
 * picks c[0..n), which found no destination; copied to c, their count. */
static size_t
without_picks(const struct vmp *p, struct pick *all, size_t *nall,
    struct pick *c, size_t n)
{
	unsigned char *failed = xcalloc(p->cl.ngroups, 1);
	size_t i, k = 0;

	for (i = 0; i < n; i++)
		failed[c[i].group] = 1;
	for (i = 0; i < *nall; i++)
		if (!failed[all[i].group])
			all[k++] = all[i];
	*nall = k;
	free(failed);
	memcpy(c, all, k * sizeof *c);
	return k;
}

/*
 * plan_sub_iteration: select the picks of c[0..n) and move them; the
 * moves made, *b the budget.  When none of the picks finds a host that
 * keeps the reservation (its group or its tenant's held scale-out fills
 * those with room, or only a host kept empty would take it), the other
 * candidates are tried: a budget that the first VMs in the order cannot
 * use must not end step 4 (issue 41).
 */
static size_t
plan_sub_iteration(struct vmp *p, struct pick *c, size_t n,
    struct hv_product *src, const unsigned char *has_new,
    unsigned char *first, long moved, struct slotresv *r, long *b,
    size_t *npicks)
{
	struct pick *all = xmalloc((n + 1) * sizeof *all);
	size_t nall = n, w = 0, tries;

	memcpy(all, c, n * sizeof *c);
	/* r is held when this returns: the caller frees it */
	for (tries = 1;; tries++) {
		if (r != NULL)
			slotresv_init(p, r);	/* room 0 when it fails */
		*b = sub_iteration_budget(p, c, &n, has_new, first, moved, r);
		w = *b > 0 && n > 0 ? move_picks(p, c, n, src, r) : 0;
		/* whole hosts: take back what filled an empty host the
		 * reservation needs (in slots no move takes what is held) */
		if (w > 0 && r == NULL &&
		    p->o->reservation == SLA_RESERVE_EXACT)
			w = keep_reservation(p, c, n, w, has_new, first);
		if (w > 0 || *b <= 0 || n == 0 || tries == RETRY_LIMIT)
			break;
		if ((n = without_picks(p, all, &nall, c, n)) == 0)
			break;
		if (r != NULL)
			slotresv_free(r);
	}
	free(all);
	*npicks = n;
	return w;
}

static void
sub_iterations(struct vmp *p)
{
	struct pick *c = xcalloc(p->cl.ngroups, sizeof *c);
	struct hv_product *src = xcalloc(p->cl.ngroups, sizeof *src);
	long *old = xcalloc(p->in.sc.ntenants, sizeof *old), moved = 0, b;
	unsigned char *has_new = xcalloc(p->in.sc.ntenants, 1);
	unsigned char *first = xcalloc(p->in.sc.ntenants, 1);
	json_t *list = json_array();
	struct slotresv slots, *r = p->in_slots ? &slots : NULL;
	size_t n, w, j;

	for (j = 1; moved < p->V; j++) {
		tenant_counts(p, old, has_new);
		if ((n = candidates(p, c, old)) == 0)
			break;
		w = plan_sub_iteration(p, c, n, src, has_new, first, moved, r,
		    &b, &n);
		if (r != NULL)
			slotresv_free(r);
		if (w == 0)
			break;
		moved += (long)w;
		json_array_append_new(list, json_pack("{s:I, s:I, s:I, s:o, "
		    "s:o}", "index", (json_int_t)j, "W", (json_int_t)w,
		    "budget", (json_int_t)b, "new_tenants", tenant_ids(p,
		    first), "schedule", subiter_schedule(p, j, c, n, src)));
	}
	json_object_set_new(p->section, "sub_iterations", list);
	free(c);
	free(src);
	free(old);
	free(has_new);
	free(first);
}

static int
any_movable(const struct vmp *p)
{
	size_t v;

	for (v = 0; v < p->in.sc.nvms; v++)
		if (vmp_movable(p, v))
			return 1;
	return 0;
}

static void
status(struct vmp *p, const char *s, const char *note)
{
	json_object_set_new(p->section, "status", json_string(s));
	if (note != NULL)
		json_object_set_new(p->section, "note", json_string(note));
}

void
plan_migrations(struct vmp *p)
{
	size_t c;
	int ready = 0;
	char *note;

	for (c = 0; c < p->cl.ncauses; c++)
		ready |= p->ready[c];
	if (!p->cl.partitioned)
		return status(p, "not-partitioned", "compute hosts are not "
		    "partitioned into old and new: no VM needs to move (step "
		    "4 skipped)");
	if (!ready)
		return status(p, "waiting", "the new storage or controller is "
		    "not complete and no host runs the new hypervisor yet: VMs "
		    "move in a later iteration");
	if (!any_movable(p))
		return status(p, "done", "no VM of the old version is left");
	index_groups(p);
	index_new_hosts(p);
	equation5(p);
	if (p->V <= 0) {
		note = sched_format("V_i = %ld: (%ld hosts of the new partition "
		    "not in use - %ld scaling - %ld failover) * K'; no VM can "
		    "move", p->V, p->not_in_use, p->scaling, p->failover);
		status(p, "suspended", note);
		free(note);
		json_object_set_new(p->section, "sub_iterations", json_array());
		return;
	}
	sub_iterations(p);
	status(p, "planned", NULL);
}
