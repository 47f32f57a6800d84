/*
 * rolling.c: the baseline of seed 000 section V, rolling upgrade with a
 * fixed batch size.  The compute hosts with work in the resource graph
 * are upgraded N at a time, "regardless of their usage state"; before a
 * batch is upgraded its VMs are live-migrated, all at once, to hosts
 * outside the batch.  Every ordered selection of batches is simulated
 * (the paper averages "all possible batch selections"), or a seeded
 * sample of them, and the measures are averaged.
 *
 * Where a VM goes is fixed, not enumerated: the first host, in system
 * order, outside the batch with a free slot, preferring hosts that run
 * no VM of its anti-affinity group, then hosts already in use (an
 * operator packs VMs rather than spreading them onto hosts that are
 * still to be upgraded).
 */
#include <stdlib.h>
#include <string.h>

#include "catalog.h"
#include "diag.h"
#include "exitcodes.h"
#include "migrate.h"
#include "output.h"
#include "rgraph.h"
#include "sim.h"
#include "sysconf.h"
#include "xalloc.h"

#define MAX_SELECTIONS 20000000.0

struct roll {
	const struct options *opt;
	size_t nh, nv, ng, nt;		/* hosts, VMs, groups, tenants */
	long *cap;			/* by host: K */
	ms_t *up_ms, *mig_ms;		/* by host: upgrade, migration to it */
	int *work;			/* by host: has upgrade actions */
	size_t *vm_tenant, *vm_group;	/* by VM */
	long *group_size;		/* by group */
	size_t *todo;			/* hosts to upgrade, in system order */
	size_t ntodo;
	struct agg agg;
};

/* The placement while a selection is simulated. */
struct placement {
	size_t *host_of;		/* by VM */
	long *load;			/* by host */
	long *in_group;			/* by host * ng + group */
	ms_t t;
	struct tenant_totals *tot;
};

static size_t
choose_host(const struct roll *r, const struct placement *p,
    const unsigned char *in_batch, size_t g)
{
	size_t h, best = r->nh;
	int rank, best_rank = 9;

	for (h = 0; h < r->nh; h++) {
		if (in_batch[h] || p->load[h] >= r->cap[h])
			continue;
		rank = 2 * (p->in_group[h * r->ng + g] > 0) + (p->load[h] == 0);
		if (rank < best_rank) {
			best = h;
			best_rank = rank;
		}
	}
	return best;
}

static void
violation(struct roll *r, struct placement *p, size_t t, long n, ms_t d)
{
	struct tenant_totals *x = &p->tot[t];

	(void)r;
	x->violations++;
	x->violation_ms += d;
	x->penalty += d * n * n;
	x->vm_outage_ms += d * n;
	x->outages += n;
	if (x->vms_min == 0 || n < x->vms_min)
		x->vms_min = n;
	if (n > x->vms_max)
		x->vms_max = n;
}

/* How a VM of a batch went out: moved away, or left on its host. */
enum vm_outage { VM_UP = 0, VM_MIGRATED = 1, VM_UPGRADED_IN_PLACE = 2 };

/*
 * app_outage: a group of the batch lost too many VMs at once (two, or
 * its only one), so its tenant's application was out for d.
 */
static void
app_outage(struct roll *r, struct placement *p, size_t g, ms_t d)
{
	size_t v;

	for (v = 0; v < r->nv; v++)
		if (r->vm_group[v] == g) {
			p->tot[r->vm_tenant[v]].app_outage_ms += d;
			return;
		}
}

/*
 * outages_of_kind: the outages of the VMs that went out the same way
 * (how), each lasting d: per tenant, then per anti-affinity group.
 */
static void
outages_of_kind(struct roll *r, struct placement *p,
    const unsigned char *how_out, enum vm_outage how, ms_t d)
{
	long *out_per_tenant = xcalloc(r->nt, sizeof *out_per_tenant);
	long *out_per_group = xcalloc(r->ng, sizeof *out_per_group);
	size_t v, t, g;

	for (v = 0; v < r->nv; v++)
		if (how_out[v] == how) {
			out_per_tenant[r->vm_tenant[v]]++;
			out_per_group[r->vm_group[v]]++;
		}
	for (t = 0; t < r->nt; t++)
		if (out_per_tenant[t] > 0)
			violation(r, p, t, out_per_tenant[t], d);
	for (g = 0; g < r->ng; g++)
		if (out_per_group[g] >= 2 ||
		    (out_per_group[g] == 1 && r->group_size[g] == 1))
			app_outage(r, p, g, d);
	free(out_per_tenant);
	free(out_per_group);
}

/*
 * batch_outages: the VMs of one batch went out together (how_out[v]):
 * a migrated VM for the outage of a live migration, a VM left on its
 * host for the host's upgrade (up).
 */
static void
batch_outages(struct roll *r, struct placement *p,
    const unsigned char *how_out, ms_t up)
{
	outages_of_kind(r, p, how_out, VM_MIGRATED, r->opt->outage_ms);
	outages_of_kind(r, p, how_out, VM_UPGRADED_IN_PLACE, up);
}

/* run_batch: evacuate the batch's hosts, then upgrade them together. */
static void
run_batch(struct roll *r, struct placement *p, const size_t *batch, size_t n)
{
	unsigned char *in_batch = xcalloc(r->nh, 1);
	unsigned char *how_out = xcalloc(r->nv, 1);	/* enum vm_outage */
	ms_t mig = 0, up = 0;
	size_t i, v, h;

	for (i = 0; i < n; i++) {
		in_batch[batch[i]] = 1;
		if (r->up_ms[batch[i]] > up)
			up = r->up_ms[batch[i]];
	}
	for (v = 0; v < r->nv; v++) {
		if (!in_batch[p->host_of[v]])
			continue;
		h = choose_host(r, p, in_batch, r->vm_group[v]);
		if (h == r->nh) {
			how_out[v] = VM_UPGRADED_IN_PLACE;
			continue;
		}
		how_out[v] = VM_MIGRATED;
		p->load[p->host_of[v]]--;
		p->in_group[p->host_of[v] * r->ng + r->vm_group[v]]--;
		p->host_of[v] = h;
		p->load[h]++;
		p->in_group[h * r->ng + r->vm_group[v]]++;
		if (r->mig_ms[h] > mig)
			mig = r->mig_ms[h];
	}
	batch_outages(r, p, how_out, up);
	p->t += mig + up;
	free(in_batch);
	free(how_out);
}

static void
copy_placement(const struct roll *r, struct placement *to,
    const struct placement *from)
{
	memcpy(to->host_of, from->host_of, r->nv * sizeof *to->host_of);
	memcpy(to->load, from->load, r->nh * sizeof *to->load);
	memcpy(to->in_group, from->in_group, r->nh * r->ng *
	    sizeof *to->in_group);
	memcpy(to->tot, from->tot, r->nt * sizeof *to->tot);
	to->t = from->t;
}

static void
placement_alloc(const struct roll *r, struct placement *p)
{
	p->host_of = xcalloc(r->nv, sizeof *p->host_of);
	p->load = xcalloc(r->nh, sizeof *p->load);
	p->in_group = xcalloc(r->nh * r->ng, sizeof *p->in_group);
	p->tot = xcalloc(r->nt, sizeof *p->tot);
	p->t = 0;
}

static void
placement_free(struct placement *p)
{
	free(p->host_of);
	free(p->load);
	free(p->in_group);
	free(p->tot);
}

static void
finish_run(struct roll *r, const struct placement *p)
{
	agg_add(&r->agg, p->tot, r->nt, p->t, (long)((r->ntodo +
	    (size_t)r->opt->rolling - 1) / (size_t)r->opt->rolling),
	    (long)r->nv);
}

static void enumerate(struct roll *r, struct placement *level, size_t depth,
    uint64_t left, size_t *batch);

/* choose: the members of the batch at depth, in increasing index order. */
static void
choose(struct roll *r, struct placement *level, size_t depth, uint64_t left,
    size_t first, size_t *batch, size_t nb, size_t want)
{
	size_t i;

	if (nb == want) {
		uint64_t rest = left;
		size_t *hosts = xcalloc(nb, sizeof *hosts);

		for (i = 0; i < nb; i++) {
			hosts[i] = r->todo[batch[i]];
			rest &= ~((uint64_t)1 << batch[i]);
		}
		copy_placement(r, &level[depth + 1], &level[depth]);
		run_batch(r, &level[depth + 1], hosts, nb);
		free(hosts);
		enumerate(r, level, depth + 1, rest, batch + nb);
		return;
	}
	for (i = first; i < r->ntodo; i++)
		if ((left >> i) & 1) {
			batch[nb] = i;
			choose(r, level, depth, left, i + 1, batch, nb + 1, want);
		}
}

/*
 * enumerate: every ordered selection of batches from the hosts left (a
 * bit set over todo), depth first; level[d] is the placement after d
 * batches, so each batch is simulated once per prefix.
 */
static void
enumerate(struct roll *r, struct placement *level, size_t depth,
    uint64_t left, size_t *batch)
{
	size_t want = (size_t)r->opt->rolling, nleft = 0, i;

	for (i = 0; i < r->ntodo; i++)
		nleft += (left >> i) & 1;
	if (nleft == 0) {
		finish_run(r, &level[depth]);
		return;
	}
	choose(r, level, depth, left, 0, batch, 0, want < nleft ? want : nleft);
}

/* sample: one random order of the hosts, cut into batches. */
static void
sample(struct roll *r, struct placement *p, const struct placement *start,
    struct prng *g)
{
	size_t *order = xcalloc(r->ntodo, sizeof *order), i, j, t;

	for (i = 0; i < r->ntodo; i++)
		order[i] = r->todo[i];
	for (i = r->ntodo; i > 1; i--) {
		j = (size_t)prng_below(g, i);
		t = order[i - 1];
		order[i - 1] = order[j];
		order[j] = t;
	}
	copy_placement(r, p, start);
	for (i = 0; i < r->ntodo; i += (size_t)r->opt->rolling)
		run_batch(r, p, order + i, r->ntodo - i < (size_t)r->opt->rolling ?
		    r->ntodo - i : (size_t)r->opt->rolling);
	finish_run(r, p);
	free(order);
}

/* selections: how many ordered batch selections there are. */
static double
selections(size_t n, size_t k)
{
	double c = 1;
	size_t i, left = n;

	while (left > 0) {
		size_t b = left < k ? left : k;

		for (i = 0; i < b; i++)
			c = c * (double)(left - i) / (double)(i + 1);
		left -= b;
	}
	return c;
}

static int
simulate_all(struct roll *r, const struct placement *start)
{
	struct placement *level;
	struct prng g;
	size_t *batch, d;
	long k;

	if (r->opt->samples == 0 && (r->ntodo > 63 ||
	    selections(r->ntodo, (size_t)r->opt->rolling) > MAX_SELECTIONS)) {
		diag_error(NULL, "%.0f batch selections are too many to try "
		    "them all: give --samples", selections(r->ntodo,
		    (size_t)r->opt->rolling));
		return EXIT_USAGE;
	}
	level = xcalloc(r->ntodo + 2, sizeof *level);
	for (d = 0; d < r->ntodo + 2; d++)
		placement_alloc(r, &level[d]);
	copy_placement(r, &level[0], start);
	if (r->opt->samples == 0) {
		batch = xcalloc(r->ntodo, sizeof *batch);
		enumerate(r, level, 0, r->ntodo == 64 ? UINT64_MAX :
		    ((uint64_t)1 << r->ntodo) - 1, batch);
		free(batch);
	} else {
		prng_seed(&g, r->opt->seed, 0);
		for (k = 0; k < r->opt->samples; k++)
			sample(r, &level[1], start, &g);
	}
	for (d = 0; d < r->ntodo + 2; d++)
		placement_free(&level[d]);
	free(level);
	return EXIT_OK;
}

/*
 * hypervisor_migration: how long moving a VM onto host r takes: the
 * migrate action of the first product of a hypervisor it contains that
 * has one, else section V's live migration (migrate.h).
 */
static ms_t
hypervisor_migration(const struct sysconf *sc, const struct catalog *cat,
    size_t host)
{
	const struct cat_action_def *def;
	const char *name;
	json_t *ver;
	size_t d;

	for (d = 0; d < sc->ndeps; d++) {
		const struct resource *hv = &sc->resources[sc->deps[d].dependent];

		if (sc->deps[d].type != DEP_CONTAINED || sc->deps[d].sponsor !=
		    host || hv->kind != KIND_HYPERVISOR)
			continue;
		json_object_foreach(hv->products, name, ver)
			if ((def = migration_def(cat, (struct hv_product){ name,
			    json_string_value(ver) })) != NULL)
				return def->duration * 1000;
	}
	return (ms_t)MIGRATE_DEFAULT_DURATION * 1000;
}

/* first_level_ms: the first execution level of vertex id, in ms. */
static ms_t
first_level_ms(const struct rgraph *rg, const char *id, int *work)
{
	long v = idmap_find(&rg->ids, id);
	const struct rg_level *lv;
	ms_t sum = 0;
	size_t k;

	if (v < 0 || rg->v[v].nlevels == 0)
		return 0;
	*work = 1;
	lv = &rg->levels[rg->v[v].first_level];
	for (k = lv->first; k < lv->first + lv->count; k++)
		sum += (ms_t)rg->act[k].duration * 1000;
	return sum;
}

/* host_work: the host's own actions and those of what it contains. */
static void
host_work(struct roll *r, const struct sysconf *sc, const struct rgraph *rg,
    size_t res, size_t h)
{
	size_t d;

	r->up_ms[h] = first_level_ms(rg, sc->resources[res].id, &r->work[h]);
	for (d = 0; d < sc->ndeps; d++)
		if (sc->deps[d].type == DEP_CONTAINED && sc->deps[d].sponsor == res)
			r->up_ms[h] += first_level_ms(rg,
			    sc->resources[sc->deps[d].dependent].id, &r->work[h]);
}

static void
setup_hosts(struct roll *r, const struct sysconf *sc, const struct rgraph *rg,
    const struct catalog *cat, long *host_of_res)
{
	size_t i;

	r->cap = xcalloc(sc->nresources, sizeof *r->cap);
	r->up_ms = xcalloc(sc->nresources, sizeof *r->up_ms);
	r->mig_ms = xcalloc(sc->nresources, sizeof *r->mig_ms);
	r->work = xcalloc(sc->nresources, sizeof *r->work);
	r->todo = xcalloc(sc->nresources, sizeof *r->todo);
	for (i = 0; i < sc->nresources; i++) {
		const struct resource *x = &sc->resources[i];

		host_of_res[i] = -1;
		if (!(x->roles & ROLE_COMPUTE) || x->status != STATUS_ACTIVE)
			continue;
		host_of_res[i] = (long)r->nh;
		r->cap[r->nh] = x->capacity > 0 ? x->capacity : sc->host_capacity;
		r->mig_ms[r->nh] = hypervisor_migration(sc, cat, i);
		host_work(r, sc, rg, i, r->nh);
		if (r->work[r->nh])
			r->todo[r->ntodo++] = r->nh;
		r->nh++;
	}
}

static void
setup_vms(struct roll *r, const struct sysconf *sc, const long *host_of_res,
    struct placement *p)
{
	struct idmap groups;
	size_t i;
	long g;

	idmap_init(&groups);
	r->vm_tenant = xcalloc(sc->nvms, sizeof *r->vm_tenant);
	r->vm_group = xcalloc(sc->nvms, sizeof *r->vm_group);
	r->group_size = xcalloc(sc->nvms, sizeof *r->group_size);
	r->nt = sc->ntenants;
	for (i = 0; i < sc->nvms; i++)
		if (host_of_res[sc->vms[i].host] >= 0) {
			g = idmap_find(&groups, sc->vms[i].group);
			if (g < 0)
				g = idmap_add(&groups, sc->vms[i].group);
			r->vm_tenant[r->nv] = sc->vms[i].tenant;
			r->vm_group[r->nv] = (size_t)g;
			r->group_size[g]++;
			r->nv++;
		}
	r->ng = groups.count;
	placement_alloc(r, p);
	for (i = 0, r->nv = 0; i < sc->nvms; i++)
		if (host_of_res[sc->vms[i].host] >= 0) {
			size_t h = (size_t)host_of_res[sc->vms[i].host];

			p->host_of[r->nv] = h;
			p->load[h]++;
			p->in_group[h * r->ng + r->vm_group[r->nv]]++;
			r->nv++;
		}
	idmap_free(&groups);
}

static void
roll_free(struct roll *r)
{
	free(r->cap);
	free(r->up_ms);
	free(r->mig_ms);
	free(r->work);
	free(r->todo);
	free(r->vm_tenant);
	free(r->vm_group);
	free(r->group_size);
}

static int
write_summary(const struct roll *r)
{
	char method[64];

	snprintf(method, sizeof method, "rolling, batch size %ld",
	    r->opt->rolling);
	return summary_write(r->opt, agg_json(&r->agg, method));
}

/* rolling_run: the baseline over the system and RG of doc. */
int
rolling_run(const struct options *o, const struct sysconf *sc,
    const struct rgraph *rg, const struct catalog *cat)
{
	struct roll r = { 0 };
	struct placement start;
	long *host_of_res = xcalloc(sc->nresources, sizeof *host_of_res);
	int status;

	r.opt = o;
	setup_hosts(&r, sc, rg, cat, host_of_res);
	setup_vms(&r, sc, host_of_res, &start);
	free(host_of_res);
	status = simulate_all(&r, &start);
	if (status == EXIT_OK)
		status = write_summary(&r);
	placement_free(&start);
	roll_free(&r);
	return status;
}
