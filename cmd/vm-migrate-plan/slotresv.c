/*
 * slotresv.c: the exact scaling and failover reservations of the new
 * partition (seed 000 IV step 4, ScalingResv_forNewVM and
 * FailoverResv_forNewVM of equation (5)) held in slots, for when whole
 * hosts leave no room (newresv.c: its empty hosts cannot hold the
 * scale-out and F while its hosts in use have free slots; issue 41).
 *
 * Failover: the F hosts not in use with the most slots are kept empty,
 * so that the VMs of a host that fails start again on one host, where
 * no two of a group meet.  Scaling: a tenant with VMs in the new
 * partition, below its max_n, adds at most e_n = min(s_n * ceil(T /
 * c_n), max_n - n) VMs there.  A new VM may join any anti-affinity
 * group of its tenant, so its e_n VMs are held one per host, on hosts
 * that run no VM of the tenant: hosts not in use (other than the kept
 * ones) or free slots of hosts in use, the largest e_n first on the
 * hosts with most room.  What is neither held nor kept is the room of
 * the moves, and a move never takes a held slot, a kept host, or a host
 * where its own tenant's scale-out is held.
 */
#include <stdlib.h>

#include "vmp.h"
#include "xalloc.h"

/* new_host: h takes VMs of the new partition now. */
static int
new_host(const struct vmp *p, size_t h)
{
	return p->cl.usable[h] && p->cl.part[h] == PART_NEW &&
	    p->ready[p->cl.domain[h]];
}

static long
free_slots(const struct vmp *p, const struct slotresv *r, size_t h)
{
	return vmp_cap(p, h) - p->cl.load[h] - r->hold[h];
}

static const struct vmp *sort_p;

/* by_free_desc: hosts with most free slots first, then host order. */
static int
by_free_desc(const void *x, const void *y)
{
	size_t a = *(const size_t *)x, b = *(const size_t *)y;
	long fa = vmp_cap(sort_p, a) - sort_p->cl.load[a];
	long fb = vmp_cap(sort_p, b) - sort_p->cl.load[b];

	if (fa != fb)
		return fa > fb ? -1 : 1;
	return a < b ? -1 : a > b;
}

/* keep_for_failover: the F empty hosts with most slots (the first
 * empty ones of r->hosts); 0, or -1 when fewer than F are empty. */
static int
keep_for_failover(const struct vmp *p, struct slotresv *r)
{
	size_t i;

	for (i = 0; i < r->nhosts && r->kept_count < p->failover; i++)
		if (p->cl.load[r->hosts[i]] == 0) {
			r->kept[r->hosts[i]] = 1;
			r->kept_count++;
			r->room -= vmp_cap(p, r->hosts[i]);
		}
	return r->kept_count < p->failover ? -1 : 0;
}

/* hold_present: hold the scale-out of the tenants already in the new
 * partition, largest first (the order that fits most); 0, or -1. */
static int
hold_present(const struct vmp *p, struct slotresv *r)
{
	struct sla_scale_out *t = xmalloc((p->in.sc.ntenants + 1) * sizeof *t);
	size_t n, k = 0;
	int status = 0;

	for (n = 0; n < p->in.sc.ntenants; n++)
		if (r->on_new[n] > 0 && r->e[n] > 0)
			t[k++] = (struct sla_scale_out){ r->e[n], n };
	sla_order(t, k);
	for (n = 0; n < k && status == 0; n++)
		status = slotresv_add(p, r, t[n].tenant);
	free(t);
	return status;
}

/* slotresv_init: the reservations of the new partition as it is now,
 * its tenants held; 0, or -1 when F or their scale-out does not fit
 * (the room is then 0). */
int
slotresv_init(const struct vmp *p, struct slotresv *r)
{
	size_t n, h, v, off = 0;
	int fits;

	r->e = xcalloc(p->in.sc.ntenants, sizeof *r->e);
	r->on_new = xcalloc(p->in.sc.ntenants, sizeof *r->on_new);
	r->nheld = xcalloc(p->in.sc.ntenants, sizeof *r->nheld);
	r->first_hold = xcalloc(p->in.sc.ntenants, sizeof *r->first_hold);
	r->hold = xcalloc(p->cl.nhosts, sizeof *r->hold);
	r->kept = xcalloc(p->cl.nhosts, 1);
	r->hosts = xmalloc(p->cl.nhosts * sizeof *r->hosts);
	r->nhosts = 0;
	r->room = r->sum = r->top = r->held_on_used = r->kept_count = 0;
	r->cursor = 0;
	for (n = 0; n < p->in.sc.ntenants; n++) {
		r->e[n] = sla_tenant_scale_out(&p->in.sc.tenants[n], p->T);
		r->first_hold[n] = off;
		off += (size_t)r->e[n];
	}
	r->held = xcalloc(off + 1, sizeof *r->held);
	for (h = 0; h < p->cl.nhosts; h++) {
		if (!new_host(p, h))
			continue;
		r->hosts[r->nhosts++] = h;
		r->room += vmp_cap(p, h) - p->cl.load[h];
		for (v = p->cl.host_first[h]; v != CLOUD_NONE; v = p->cl.vm_next[v])
			r->on_new[p->in.sc.vms[v].tenant]++;
	}
	sort_p = p;
	qsort(r->hosts, r->nhosts, sizeof *r->hosts, by_free_desc);
	fits = keep_for_failover(p, r) == 0 && hold_present(p, r) == 0;
	if (!fits)
		r->room = 0;
	return fits ? 0 : -1;
}

void
slotresv_free(struct slotresv *r)
{
	free(r->e);
	free(r->on_new);
	free(r->nheld);
	free(r->first_hold);
	free(r->held);
	free(r->hold);
	free(r->kept);
	free(r->hosts);
}

static void
hold_on(const struct vmp *p, struct slotresv *r, size_t n, size_t h)
{
	r->held[r->first_hold[n] + (size_t)r->nheld[n]++] = h;
	r->hold[h]++;
	r->room--;
	r->held_on_used += p->cl.load[h] > 0;
}

/* slotresv_add: hold tenant n's scale-out, one VM per host; 0, or -1
 * with nothing held when the partition has not the room. */
int
slotresv_add(const struct vmp *p, struct slotresv *r, size_t n)
{
	size_t i, h;

	if (r->e[n] <= 0 || r->nheld[n] > 0)
		return 0;
	while (r->cursor < r->nhosts &&
	    (r->kept[r->hosts[r->cursor]] ||
	    free_slots(p, r, r->hosts[r->cursor]) <= 0))
		r->cursor++;
	for (i = r->cursor; i < r->nhosts && r->nheld[n] < r->e[n]; i++) {
		h = r->hosts[i];
		if (!r->kept[h] && free_slots(p, r, h) > 0 &&
		    !cloud_runs_tenant(&p->cl, h, n))
			hold_on(p, r, n, h);
	}
	if (r->nheld[n] < r->e[n]) {
		slotresv_drop(p, r, n);
		return -1;
	}
	r->sum += r->e[n];
	if (r->e[n] > r->top)
		r->top = r->e[n];
	return 0;
}

/* slotresv_drop: take back what slotresv_add(r, n) held. */
void
slotresv_drop(const struct vmp *p, struct slotresv *r, size_t n)
{
	size_t h;

	if (r->nheld[n] == r->e[n] && r->e[n] > 0)
		r->sum -= r->e[n];	/* r->top stays: it only reports */
	while (r->nheld[n] > 0) {
		h = r->held[r->first_hold[n] + (size_t)--r->nheld[n]];
		r->hold[h]--;
		r->room++;
		r->held_on_used -= p->cl.load[h] > 0;
	}
	r->cursor = 0;		/* those hosts have room again */
}

/* slotresv_takes: may VM v move to new host h, keeping the holds? */
int
slotresv_takes(const struct vmp *p, const struct slotresv *r, size_t v,
    size_t h)
{
	size_t n = p->in.sc.vms[v].tenant, i;

	if (r->kept[h] || free_slots(p, r, h) <= 0)
		return 0;
	for (i = 0; i < (size_t)r->nheld[n]; i++)
		if (r->held[r->first_hold[n] + i] == h)
			return 0;	/* its scale-out is held there */
	return 1;
}

/* slotresv_moved: a VM moved onto a new host, taking a free slot. */
void
slotresv_moved(struct slotresv *r)
{
	r->room--;
}
