/*
 * consolidate.c: free compute hosts by moving VMs (seed 000 IV step 3,
 * first paragraph), and evacuate the in-use hosts of the final batch.
 *
 * Hosts are packed within their pool (partition, cause and availability
 * zone: VMs never cross partitions here, nor zones, which nova refuses
 * for a server booted into one).  A host either gives VMs away or takes them,
 * never both, and a VM only goes where no VM of its anti-affinity group
 * runs, so at every moment each host holds at most one VM of a group;
 * the schedule then moves at most one VM per group at a time.  Each VM
 * looks at a bounded number of candidate hosts, fullest first, which
 * keeps the work linear in the number of VMs.
 */
#include <stdlib.h>
#include <string.h>

#include "bs.h"
#include "xalloc.h"

/* How many hosts with room a VM tries before giving up. */
#define SCAN_LIMIT 64

static const struct cloud *sort_cl;

/* by_load_desc: fuller hosts first, then host order. */
static int
by_load_desc(const void *x, const void *y)
{
	size_t a = *(const size_t *)x, b = *(const size_t *)y;
	long la = sort_cl->load[a], lb = sort_cl->load[b];

	if (la != lb)
		return la > lb ? -1 : 1;
	return a < b ? -1 : a > b;
}

static void
sort_hosts(const struct cloud *cl, size_t *hosts, size_t n)
{
	sort_cl = cl;
	qsort(hosts, n, sizeof *hosts, by_load_desc);
}

static void
record(struct bs *b, size_t vm, size_t from, size_t to, enum move_kind k)
{
	if (b->nmoves == b->moves_cap) {
		b->moves_cap = b->moves_cap ? 2 * b->moves_cap : 64;
		b->moves = xreallocarray(b->moves, b->moves_cap,
		    sizeof *b->moves);
	}
	b->moves[b->nmoves++] = (struct move){ vm, from, to, k };
	cloud_move(&b->cl, vm, to);
}

void
moves_rollback(struct bs *b, size_t to_count)
{
	while (b->nmoves > to_count) {
		struct move *m = &b->moves[--b->nmoves];

		cloud_move(&b->cl, m->vm, m->from);
	}
}

void
consolidation_undo(struct bs *b)
{
	size_t k;

	moves_rollback(b, 0);
	json_array_clear(b->freed);
	/* sorted by the loads of the moves taken back */
	for (k = 0; k < b->npools; k++) {
		free(b->pools[k].hosts);
		b->pools[k].hosts = NULL;
	}
}

/* excluded: a host that may not take VMs (keep_empty: storage.c). */
static int
excluded(const struct bs *b, const unsigned char *giver, size_t h)
{
	return giver[h] || b->affected[h] || b->keep_empty[h] ||
	    b->cl.load[h] >= b->cl.cap[h];
}

static size_t
find_receiver(struct bs *b, struct pool *p, const unsigned char *giver,
    size_t vm)
{
	size_t i, tried = 0;

	while (p->cursor < p->n && excluded(b, giver, p->hosts[p->cursor]))
		p->cursor++;
	for (i = p->cursor; i < p->n && tried < SCAN_LIMIT; i++) {
		size_t h = p->hosts[i];

		if (excluded(b, giver, h))
			continue;
		tried++;
		if (cloud_fits(&b->cl, vm, h, b->cl.cap[h]))
			return h;
	}
	return NONE;
}

/*
 * first_to_move: the first VM on h that is to move off it, or NONE.  An
 * evacuation leaves the VMs nova cannot live-migrate (stopped, shelved,
 * in error...: cloud_live()) where they are, and the host is upgraded
 * in place with them; consolidation, which frees hosts for good, takes
 * every VM, so a host with such a VM is never freed.
 */
static size_t
first_to_move(const struct bs *b, size_t h, enum move_kind kind)
{
	size_t vm;

	for (vm = b->cl.host_first[h]; vm != CLOUD_NONE; vm = b->cl.vm_next[vm])
		if (kind != MOVE_EVACUATE || cloud_live(&b->cl, vm))
			return vm;
	return CLOUD_NONE;
}

size_t
pinned_vm(const struct bs *b, size_t h)
{
	size_t vm;

	for (vm = b->cl.host_first[h]; vm != CLOUD_NONE; vm = b->cl.vm_next[vm])
		if (!cloud_live(&b->cl, vm))
			return vm;
	return CLOUD_NONE;
}

/* has_pinned: does h run a VM that nova cannot live-migrate? */
static int
has_pinned(const struct bs *b, size_t h)
{
	return pinned_vm(b, h) != CLOUD_NONE;
}

/* empty_host: move every VM off h into the pool, or nothing at all. */
static int
empty_host(struct bs *b, struct pool *p, unsigned char *giver, size_t h,
    enum move_kind kind)
{
	size_t start = b->nmoves, vm, to;

	giver[h] = 1;
	while ((vm = first_to_move(b, h, kind)) != CLOUD_NONE) {
		if ((to = find_receiver(b, p, giver, vm)) == NONE) {
			moves_rollback(b, start);
			return 0;
		}
		record(b, vm, h, to, kind);
	}
	return 1;
}

/* same_pool: one partition, cause and availability zone (cloud_fits). */
static int
same_pool(const struct cloud *cl, size_t x, size_t y)
{
	return cl->part[x] == cl->part[y] && cl->domain[x] == cl->domain[y] &&
	    cl->zone[x] == cl->zone[y];
}

static int
ppu_pending(const struct cloud *cl)
{
	size_t c;

	for (c = 0; c < cl->ncauses; c++)
		if (cl->causes[c].unit >= 0)
			return 1;
	return 0;
}

static int
is_storage(const struct cloud *cl, size_t h)
{
	return (cl->sc->resources[cl->res[h]].roles & ROLE_STORAGE) != 0;
}

static int
may_free_more(const struct bs *b)
{
	return b->o->max_freed < 0 ||
	    (long)json_array_size(b->freed) < b->o->max_freed;
}

/* pool_of: the usable hosts of h's pool, fullest first; with
 * no_storage, only hosts outside M_storage. */
static void
pool_of(struct bs *b, size_t h, int no_storage, int in_use_only,
    struct pool *p)
{
	size_t x;

	p->n = p->cursor = 0;
	for (x = 0; x < b->cl.nhosts; x++)
		if (b->cl.usable[x] && same_pool(&b->cl, x, h) &&
		    !(no_storage && is_storage(&b->cl, x)) &&
		    !(in_use_only && b->cl.load[x] == 0))
			p->hosts[p->n++] = x;
	sort_hosts(&b->cl, p->hosts, p->n);
}

/*
 * cached_pool: the pool of h (all usable hosts, or those outside
 * M_storage), sorted once.  Hosts only gain VMs or get excluded while
 * it is in use, which find_receiver checks as it goes, so the order
 * stays good enough and the work stays linear.
 */
static struct pool *
cached_pool(struct bs *b, size_t h, int no_storage)
{
	size_t k = ((b->cl.zone[h] * (b->cl.ncauses + 1) + b->cl.domain[h]) *
	    3 + b->cl.part[h]) * 2 + !!no_storage;
	size_t nzones = b->cl.zone_ids.count > 0 ? b->cl.zone_ids.count : 1;
	struct pool *p;

	if (b->pools == NULL) {
		b->npools = nzones * (b->cl.ncauses + 1) * 6;
		b->pools = xcalloc(b->npools, sizeof *b->pools);
	}
	p = &b->pools[k];
	if (p->hosts == NULL) {
		p->hosts = xmalloc(b->cl.nhosts * sizeof *p->hosts);
		pool_of(b, h, no_storage, 0, p);
	}
	return p;
}

/*
 * evacuate_storage_hosts: while a PPU of a VM-supporting storage is
 * under way, empty the hosts in both M_storage and M_compute first, so
 * that equation (1) counts them (IV step 3).
 */
static void
evacuate_storage_hosts(struct bs *b, unsigned char *giver)
{
	struct pool *p;
	size_t h;

	for (h = 0; h < b->cl.nhosts && may_free_more(b); h++) {
		if (!b->cl.usable[h] || b->cl.load[h] == 0 ||
		    !is_storage(&b->cl, h) || b->cl.part[h] != PART_OLD)
			continue;
		p = cached_pool(b, h, 1);
		if (empty_host(b, p, giver, h, MOVE_CONSOLIDATE))
			json_array_append_new(b->freed,
			    json_string(cloud_host_id(&b->cl, h)));
		else
			giver[h] = 0;
	}
}

/* pack_pool: empty the least loaded hosts of h's pool into the fullest. */
static void
pack_pool(struct bs *b, size_t h, struct pool *p, unsigned char *giver,
    unsigned char *seen)
{
	size_t lo, d;

	pool_of(b, h, 0, 1, p);
	for (lo = 0; lo < p->n; lo++)
		seen[p->hosts[lo]] = 1;
	for (lo = p->n; lo-- > 1 && may_free_more(b);) {
		d = p->hosts[lo];
		/* a host that took VMs is where the packing has met */
		if (b->cl.load[d] >= b->cl.cap[d] || giver[d])
			break;
		if (has_pinned(b, d))
			continue;	/* never freed: on to fuller ones */
		p->n = lo;	/* only fuller hosts take its VMs */
		if (!empty_host(b, p, giver, d, MOVE_CONSOLIDATE)) {
			giver[d] = 0;
			break;
		}
		json_array_append_new(b->freed,
		    json_string(cloud_host_id(&b->cl, d)));
	}
}

void
consolidate(struct bs *b)
{
	unsigned char *giver = xcalloc(b->cl.nhosts, 1);
	unsigned char *seen = xcalloc(b->cl.nhosts, 1);
	struct pool p;
	size_t h;

	b->freed = json_array();
	b->affected = xcalloc(b->cl.nhosts, 1);
	b->idle_before = xcalloc(b->cl.nhosts, 1);
	for (h = 0; h < b->cl.nhosts; h++)
		b->idle_before[h] = b->cl.load[h] == 0;
	p.hosts = xmalloc(b->cl.nhosts * sizeof *p.hosts);
	if (b->cl.partitioned && ppu_pending(&b->cl))
		evacuate_storage_hosts(b, giver);
	for (h = 0; h < b->cl.nhosts; h++)
		if (b->cl.usable[h] && b->cl.load[h] > 0 && !seen[h] &&
		    b->cl.part[h] != PART_NONE)
			pack_pool(b, h, &p, giver, seen);
	free(p.hosts);
	free(seen);
	free(giver);
}

/*
 * evacuate: move the VMs off hosts (in-use hosts the final batch takes
 * out of service) to hosts of their pool that stay in service.  All or
 * nothing: 0, or -1 with every move taken back.
 */
int
evacuate(struct bs *b, const size_t *hosts, size_t n)
{
	size_t start = b->nmoves, i;
	int r = 0;

	if (b->giver == NULL)
		b->giver = xcalloc(b->cl.nhosts, 1);
	for (i = 0; i < n && r == 0; i++) {
		if (b->cl.load[hosts[i]] == 0)
			continue;
		if (!empty_host(b, cached_pool(b, hosts[i], 0), b->giver,
		    hosts[i], MOVE_EVACUATE))
			r = -1;
	}
	/* hosts taken out are excluded as "affected"; giving is per call */
	for (i = 0; i < n; i++)
		b->giver[hosts[i]] = 0;
	if (r < 0)
		moves_rollback(b, start);
	return r;
}
