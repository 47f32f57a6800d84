/*
 * newresv.c: the exact scaling reservation of the new partition (seed
 * 000 IV step 4, ScalingResv_forNewVM of equation (5), counted as
 * batch-select counts the old partition's).  A tenant with VMs in the
 * new partition, below its max_n, scales out there: at most e_n =
 * min(s_n * ceil(T / c_n), max_n - n) VMs, one per host, on hosts not in
 * use.  Those must number at least F + max(max_n e_n, ceil(sum_n e_n /
 * K)), K the smallest capacity of the new partition's hosts.
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

static void
count_tenant(struct newresv *r, long e, long sign)
{
	if (e <= 0)
		return;
	r->hist[e] += sign;
	r->sum += sign * e;
	if (sign > 0 && e > r->top)
		r->top = e;
	while (r->top > 0 && r->hist[r->top] == 0)
		r->top--;
}

/* newresv_init: the tally of the cloud as it is now; extra[n] counts
 * tenant n as if it had VMs in the new partition (NULL: none). */
void
newresv_init(const struct vmp *p, struct newresv *r,
    const unsigned char *extra)
{
	size_t n, h, v;

	r->e = xcalloc(p->in.sc.ntenants, sizeof *r->e);
	r->on_new = xcalloc(p->in.sc.ntenants, sizeof *r->on_new);
	r->sum = r->top = r->empty = r->free_used = 0;
	r->K = 0;
	for (n = 0, r->maxe = 0; n < p->in.sc.ntenants; n++) {
		r->e[n] = sla_tenant_scale_out(&p->in.sc.tenants[n], p->T);
		if (r->e[n] > r->maxe)
			r->maxe = r->e[n];
	}
	r->hist = xcalloc((size_t)r->maxe + 1, sizeof *r->hist);
	for (h = 0; h < p->cl.nhosts; h++) {
		if (!new_host(p, h))
			continue;
		if (r->K == 0 || vmp_cap(p, h) < r->K)
			r->K = vmp_cap(p, h);
		if (p->cl.load[h] == 0)
			r->empty++;
		else if (vmp_cap(p, h) > p->cl.load[h])
			r->free_used += vmp_cap(p, h) - p->cl.load[h];
		for (v = p->cl.host_first[h]; v != CLOUD_NONE; v = p->cl.vm_next[v])
			r->on_new[p->in.sc.vms[v].tenant]++;
	}
	for (n = 0; n < p->in.sc.ntenants; n++)
		if (r->on_new[n] > 0 || (extra != NULL && extra[n]))
			count_tenant(r, r->e[n], 1);
}

void
newresv_free(struct newresv *r)
{
	free(r->e);
	free(r->on_new);
	free(r->hist);
}

/* newresv_add: count tenant n, which has no VM in the new partition yet
 * and is about to move one there. */
void
newresv_add(struct newresv *r, size_t n)
{
	count_tenant(r, r->e[n], 1);
}

/* newresv_drop: take back newresv_add(r, n). */
void
newresv_drop(struct newresv *r, size_t n)
{
	count_tenant(r, r->e[n], -1);
}

/* newresv_room: the VMs the new partition takes beyond the reservation
 * and F: free slots of hosts in use, and the empty hosts left over. */
long
newresv_room(const struct vmp *p, const struct newresv *r)
{
	long spare = r->empty - newresv_hosts(r) - p->failover;

	return r->free_used + (spare > 0 ? spare * r->K : 0);
}

/* newresv_hosts: the hosts the reservation holds now. */
long
newresv_hosts(const struct newresv *r)
{
	return sla_exact_hosts(r->sum, r->top, r->K);
}

/* newresv_short: the empty hosts missing for the reservation and F. */
long
newresv_short(const struct vmp *p, const struct newresv *r)
{
	return newresv_hosts(r) + p->failover - r->empty;
}

/* newresv_unmove: VM v of the tally goes back from new host h. */
void
newresv_unmove(const struct vmp *p, struct newresv *r, size_t v, size_t h)
{
	size_t n = p->in.sc.vms[v].tenant;

	if (--r->on_new[n] == 0)
		count_tenant(r, r->e[n], -1);
	if (p->cl.load[h] == 0)
		r->empty++;
}
