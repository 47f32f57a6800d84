/*
 * reserve.c: the scaling reservation of the compute hosts of the old
 * version (seed 000 IV step 3), two ways.
 *
 * paper  equation (4): S_i * ceil(A_i / K) hosts, as if each of the A_i
 *        tenants with VMs of the old version only, below max_n, scaled
 *        out S_i times.
 * exact  the worst case itself: tenant n adds at most
 *        e_n = min(s_n * ceil(T_i / c_n), max_n - n) VMs.  They go to
 *        hosts not in use (the free slots of hosts in use may be taken
 *        by the batch's evacuations), at most one VM of a tenant per
 *        host, since a new VM may join any anti-affinity group of its
 *        tenant.  The fewest hosts of K slots that hold them all are
 *        max(max_n e_n, ceil(sum_n e_n / K)): no fewer hold the largest
 *        tenant one per host or the sum, and that many hold them by
 *        filling the hosts round robin.  As e_n <= S_i, both terms are
 *        at most S_i * ceil(A_i / K): never more than equation (4).
 *        Only hosts that ran no VM before consolidation count: should
 *        a consolidation move fail (seed 000 III.A), its VM stays where
 *        it was and that host is not empty.  When those hosts cannot
 *        hold the exact reservation and F, equation (4) is used: it is
 *        kept as slots, which no failed move changes.
 */
#include "bs.h"
#include "sla.h"

/* old_only_below_max: tenant n counts in A_i (only VMs of the old
 * version, fewer than max_n). */
static int
old_only_below_max(const struct bs *b, size_t n)
{
	const struct tenant *t = &b->in.sc.tenants[n];
	size_t v;

	for (v = t->first_vm; v < t->first_vm + t->nvms; v++)
		if (b->cl.vm_host[v] != CLOUD_NONE &&
		    b->cl.part[b->cl.vm_host[v]] == PART_NEW)
			return 0;
	return (long)t->nvms < t->max;
}

long
tenant_scale_out_of(const struct bs *b, size_t n)
{
	return old_only_below_max(b, n) ? sla_tenant_scale_out(
	    &b->in.sc.tenants[n], b->res.T) : 0;
}

/* idle_hosts: old hosts in service, without VMs now and before
 * consolidation. */
static long
idle_hosts(const struct bs *b)
{
	long n = 0;
	size_t h;

	for (h = 0; h < b->cl.nhosts; h++)
		n += b->cl.usable[h] && b->cl.part[h] == PART_OLD &&
		    b->cl.load[h] == 0 && b->idle_before[h];
	return n;
}

void
scaling_reservations(const struct bs *b, long T, long F,
    struct reservation *r)
{
	long K = b->in.sc.host_capacity > 0 ? b->in.sc.host_capacity : 1, e;
	size_t n;

	r->T = T;
	r->A = r->sum = r->largest = 0;
	for (n = 0; n < b->in.sc.ntenants; n++) {
		if (!old_only_below_max(b, n))
			continue;
		r->A++;
		e = sla_tenant_scale_out(&b->in.sc.tenants[n], T);
		r->sum += e;
		if (e > r->largest)
			r->largest = e;
	}
	r->S = sla_scaling_adjustment(&b->in.sc, T);
	r->paper = sla_scaling_reservation(r->S, r->A, K);
	r->exact = sla_exact_hosts(r->sum, r->largest, K);
	r->idle = idle_hosts(b);
	/* equal, the paper's needs no idle host: nothing to gain */
	r->exact_applies = b->o->reservation == SLA_RESERVE_EXACT &&
	    r->exact < r->paper && r->idle >= r->exact + F;
	r->used = r->exact_applies ? r->exact : r->paper;
}
