/*
 * slots.c: the exact scaling reservation of the old partition held in
 * slots, for when whole hosts leave no room (issue 41).  Equation (3)
 * counts the hosts not in use; when the scaling reservation and F leave
 * too few of them for any group to go while the hosts in use have free
 * slots, the upgrade would wait for good.  Each tenant of A_i then holds its e_n
 * VMs one per host on hosts in use that run no VM of it (a new VM may
 * join any of its anti-affinity groups), the largest e_n first on the
 * hosts with most room, and a held slot is taken off its host's
 * capacity, so no consolidation or evacuation fills it.  What of a
 * tenant's scale-out does not fit there is held as reserve.c holds it,
 * in whole hosts not in use, one VM per host again.  The hosts not in use, less those and the
 * F kept for failover, may go; a group that takes a host in use out may
 * not, since its evacuation would need the slots held and the host it
 * empties may hold some.
 */
#include <stdlib.h>

#include "bs.h"
#include "sla.h"
#include "xalloc.h"

static const struct cloud *sort_cl;

static int
by_room_desc(const void *x, const void *y)
{
	size_t a = *(const size_t *)x, b = *(const size_t *)y;
	long ra = sort_cl->cap[a] - sort_cl->load[a];
	long rb = sort_cl->cap[b] - sort_cl->load[b];

	if (ra != rb)
		return ra > rb ? -1 : 1;
	return a < b ? -1 : a > b;
}

/* hold_tenant: up to e free slots on distinct hosts[] that run no VM
 * of tenant n; the VMs left to hold on hosts not in use. */
static long
hold_tenant(struct bs *b, const size_t *hosts, size_t nh, size_t n, long e)
{
	size_t i;

	for (i = 0; i < nh && e > 0; i++) {
		size_t h = hosts[i];

		if (b->cl.cap[h] - b->cl.load[h] - b->slot_hold[h] > 0 &&
		    !cloud_runs_tenant(&b->cl, h, n)) {
			b->slot_hold[h]++;
			e--;
		}
	}
	return e;
}

/* release_slots: give the held slots back to their hosts' capacity. */
void
release_slots(struct bs *b)
{
	size_t h;

	if (b->slot_hold == NULL)
		return;
	for (h = 0; h < b->cl.nhosts; h++)
		b->cl.cap[h] += b->slot_hold[h];
	free(b->slot_hold);
	b->slot_hold = NULL;
	b->held_on_used = 0;
}

/* hold_in_slots: hold the scale-out of A_i in free slots of the old
 * hosts in use, as much as fits (their capacity is then cut by what
 * they hold); the hosts not in use the rest needs, K slots each. */
long
hold_in_slots(struct bs *b, long K)
{
	struct sla_scale_out *t = xmalloc((b->in.sc.ntenants + 1) * sizeof *t);
	size_t *hosts = xmalloc((b->cl.nhosts + 1) * sizeof *hosts);
	size_t nt = 0, nh = 0, n, h;
	long e, rest = 0, largest = 0;

	release_slots(b);
	b->slot_hold = xcalloc(b->cl.nhosts, sizeof *b->slot_hold);
	for (n = 0; n < b->in.sc.ntenants; n++)
		if ((e = tenant_scale_out_of(b, n)) > 0)
			t[nt++] = (struct sla_scale_out){ e, n };
	sla_order(t, nt);
	for (h = 0; h < b->cl.nhosts; h++)
		if (b->cl.usable[h] && b->cl.part[h] == PART_OLD &&
		    b->cl.load[h] > 0)
			hosts[nh++] = h;
	sort_cl = &b->cl;
	qsort(hosts, nh, sizeof *hosts, by_room_desc);
	for (n = 0; n < nt; n++)
		if ((e = hold_tenant(b, hosts, nh, t[n].tenant, t[n].e)) > 0) {
			rest += e;	/* one per host there too */
			if (e > largest)
				largest = e;
		}
	for (h = 0; h < b->cl.nhosts; h++) {
		b->cl.cap[h] -= b->slot_hold[h];
		b->held_on_used += b->slot_hold[h];
	}
	free(hosts);
	free(t);
	return sla_exact_hosts(rest, largest, K);
}

void
select_in_slots(struct bs *b)
{
	if (b->nfinal > 0 || b->o->reservation != SLA_RESERVE_EXACT)
		return;
	b->slots_wanted = 1;
	final_batch_again(b);
	if (b->nfinal > 0)
		return;
	b->slots_wanted = 0;	/* the whole hosts explain the wait */
	final_batch_again(b);
}
