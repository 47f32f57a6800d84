/*
 * partition.c: which compute hosts are in the old and which in the new
 * partition (seed 000 III.A and IV step 4).
 *
 * Two upgrades split the compute hosts: a Partial Parallel Universe of
 * a storage or controller that supports VM operations (a ppu upgrade
 * unit whose old resource has vm-storage or vm-controller dependents),
 * and a hypervisor upgrade whose new product the old one's catalog entry
 * does not declare compatible along migration.  A compute host relying
 * on the old resource, or running the old hypervisor, with that change
 * still pending is old; one that relies on the new resource, or runs the
 * new hypervisor, with nothing of it pending is new.
 */
#include <stdlib.h>
#include <string.h>

#include "cloud.h"
#include "xalloc.h"

int
group_in_unit(const struct cgraph *cg, size_t g, size_t u)
{
	const struct rgraph *rg = cg->rg;
	const struct cg_group *grp = &cg->groups[g];
	size_t m, l;

	for (m = 0; m < grp->nmembers; m++) {
		const struct rg_vertex *v = &rg->v[grp->members[m]];

		for (l = v->first_level; l < v->first_level + v->nlevels; l++)
			if (rg->levels[l].unit == u)
				return 1;
	}
	return 0;
}

static size_t
new_cause(struct cloud *cl, const char *name, long unit, long new_vertex)
{
	cl->causes = xreallocarray(cl->causes, cl->ncauses + 1,
	    sizeof *cl->causes);
	cl->causes[cl->ncauses].name = name;
	cl->causes[cl->ncauses].unit = unit;
	cl->causes[cl->ncauses].new_vertex = new_vertex;
	return cl->ncauses++;
}

/* add_cause: the cause called name (few: one per hypervisor target). */
static size_t
add_cause(struct cloud *cl, const char *name)
{
	size_t i;

	for (i = 0; i < cl->ncauses; i++)
		if (strcmp(cl->causes[i].name, name) == 0)
			return i;
	return new_cause(cl, name, -1, -1);
}

/* pending: has the group of vertex v still work in unit u? */
static int
pending(const struct cgraph *cg, size_t v, size_t u, const unsigned char *done)
{
	size_t g = cg->group_of[v];

	return !(done != NULL && done[g]) && group_in_unit(cg, g, u);
}

static size_t
host_of_vertex(const struct cloud *cl, const struct rgraph *rg, size_t v)
{
	long r = idmap_find(&cl->sc->resource_ids, rg->v[v].id);

	return r < 0 ? CLOUD_NONE : cl->host_of[r];
}

/* ppu_ends: for each RG vertex, the PPU unit it is the old (or new)
 * resource of, or -1; so that each edge costs O(1). */
static void
ppu_ends(const struct rgraph *rg, long *old_of, long *new_of)
{
	size_t k;
	long v;

	for (k = 0; k < rg->nv; k++)
		old_of[k] = new_of[k] = -1;
	for (k = 0; k < rg->nunits; k++) {
		const struct rg_unit *u = &rg->units[k];

		if (u->method != METHOD_PPU || u->old_id == NULL ||
		    u->new_id == NULL)
			continue;
		if ((v = idmap_find(&rg->ids, u->old_id)) >= 0)
			old_of[v] = (long)k;
		if ((v = idmap_find(&rg->ids, u->new_id)) >= 0)
			new_of[v] = (long)k;
	}
}

/* unit_cause: the cause of PPU unit k, made on first use. */
static size_t
unit_cause(struct cloud *cl, const struct rgraph *rg, size_t *cause_of,
    size_t k)
{
	if (cause_of[k] == CLOUD_NONE)
		cause_of[k] = new_cause(cl, rg->units[k].id, (long)k,
		    idmap_find(&rg->ids, rg->units[k].new_id));
	return cause_of[k];
}

/* ppu_partitions: hosts split by PPUs of VM-supporting resources. */
static void
ppu_partitions(struct cloud *cl, const struct rgraph *rg,
    const struct cgraph *cg, const unsigned char *done)
{
	long *old_of = xmalloc((rg->nv + 1) * sizeof *old_of);
	long *new_of = xmalloc((rg->nv + 1) * sizeof *new_of);
	size_t *cause_of = xmalloc((rg->nunits + 1) * sizeof *cause_of);
	size_t e, h, c;
	long k;

	ppu_ends(rg, old_of, new_of);
	for (e = 0; e < rg->nunits; e++)
		cause_of[e] = CLOUD_NONE;
	for (e = 0; e < rg->ne; e++) {
		const struct rg_edge *d = &rg->e[e];

		if ((d->type != DEP_VM_STORAGE && d->type != DEP_VM_CONTROLLER) ||
		    (h = host_of_vertex(cl, rg, d->dependent)) == CLOUD_NONE)
			continue;
		if ((k = old_of[d->sponsor]) >= 0) {
			c = unit_cause(cl, rg, cause_of, (size_t)k);
			if (pending(cg, d->dependent, (size_t)k, done)) {
				cl->part[h] = PART_OLD;
				cl->domain[h] = c;
			}
		}
		if ((k = new_of[d->sponsor]) >= 0) {
			c = unit_cause(cl, rg, cause_of, (size_t)k);
			if (!pending(cg, d->dependent, (size_t)k, done) &&
			    cl->part[h] != PART_OLD) {
				cl->part[h] = PART_NEW;
				cl->domain[h] = c;
			}
		}
	}
	free(old_of);
	free(new_of);
	free(cause_of);
}

/* pending_hv_install: the hypervisor product the first level of
 * vertex v installs, or NULL. */
static const struct cat_product *
pending_hv_install(const struct rgraph *rg, const struct catalog *cat,
    size_t v)
{
	const struct rg_vertex *vx = &rg->v[v];
	const struct rg_level *l;
	size_t a;

	if (vx->nlevels == 0)
		return NULL;
	l = &rg->levels[vx->first_level];
	for (a = l->first; a < l->first + l->count; a++) {
		const struct rg_action *act = &rg->act[a];
		const struct cat_product *p = catalog_find(cat, act->product,
		    act->version);

		if (strcmp(act->op, "install") == 0 && p != NULL &&
		    p->kind == KIND_HYPERVISOR)
			return p;
	}
	return NULL;
}

/* hv_target: the catalog key of the incompatible hypervisor product
 * that host h's hypervisor is to get, or NULL. */
static const char *
hv_target(const struct cloud *cl, const struct rgraph *rg,
    const struct catalog *cat, size_t h)
{
	const struct cat_product *np;
	const char *name, *version;
	long v;

	if (cl->hv[h] == CLOUD_NONE ||
	    (v = idmap_find(&rg->ids, cl->sc->resources[cl->hv[h]].id)) < 0 ||
	    (np = pending_hv_install(rg, cat, (size_t)v)) == NULL ||
	    cloud_hv_product(cl, cat, h, &name, &version) < 0)
		return NULL;
	if (catalog_compatible(cat, name, version, np->name, np->version,
	    DEP_MIGRATION))
		return NULL;
	return idmap_key(&cat->keys, (size_t)(np - cat->products));
}

/* hv_partitions: hosts split by incompatible hypervisor upgrades. */
static void
hv_partitions(struct cloud *cl, const struct rgraph *rg,
    const struct cgraph *cg, const struct catalog *cat,
    const unsigned char *done)
{
	const char *key, *name, *version;
	size_t h, c, first = cl->ncauses;
	long v;

	for (h = 0; h < cl->nhosts; h++) {
		if (cl->part[h] != PART_NONE ||
		    (key = hv_target(cl, rg, cat, h)) == NULL)
			continue;
		c = add_cause(cl, key);
		v = idmap_find(&rg->ids, cl->sc->resources[cl->hv[h]].id);
		cl->part[h] = done != NULL && done[cg->group_of[v]] ?
		    PART_NEW : PART_OLD;
		cl->domain[h] = c;
	}
	for (h = 0; h < cl->nhosts; h++) {
		if (cl->part[h] != PART_NONE ||
		    cloud_hv_product(cl, cat, h, &name, &version) < 0)
			continue;
		for (c = first; c < cl->ncauses; c++) {
			const char *at = strchr(cl->causes[c].name, '@');

			if (at != NULL && strncmp(cl->causes[c].name, name,
			    (size_t)(at - cl->causes[c].name)) == 0 &&
			    strlen(name) == (size_t)(at - cl->causes[c].name) &&
			    strcmp(at + 1, version) == 0) {
				cl->part[h] = PART_NEW;
				cl->domain[h] = c;
			}
		}
	}
}

/* mark_unusable: isolated or failed host vertices do not count. */
static void
mark_unusable(struct cloud *cl, const struct rgraph *rg)
{
	size_t h;
	long v;

	for (h = 0; h < cl->nhosts; h++) {
		v = idmap_find(&rg->ids, cloud_host_id(cl, h));
		if (v >= 0 && (rg->v[v].isolated || rg->v[v].failed))
			cl->usable[h] = 0;
	}
}

/*
 * old_in_service: a usable host is still old.  Once none is, the split
 * is over for every host that can be used: what is left of the old
 * version sits on failed or isolated hosts only, on which no automatic
 * action is taken (seed 000 III.A), and the new hosts are counted as
 * one partition again.
 */
static int
old_in_service(const struct cloud *cl)
{
	size_t h;

	for (h = 0; h < cl->nhosts; h++)
		if (cl->usable[h] && cl->part[h] == PART_OLD)
			return 1;
	return 0;
}

void
cloud_partition(struct cloud *cl, const struct rgraph *rg,
    const struct cgraph *cg, const struct catalog *cat,
    const unsigned char *done)
{
	size_t h;

	mark_unusable(cl, rg);
	cl->ncauses = 0;
	memset(cl->part, PART_NONE, cl->nhosts);
	ppu_partitions(cl, rg, cg, done);
	hv_partitions(cl, rg, cg, cat, done);
	cl->partitioned = cl->ncauses > 0 && old_in_service(cl);
	if (cl->partitioned)
		return;
	cl->ncauses = 0;	/* over, or never begun */
	/* nothing splits them: the equations count every compute host */
	for (h = 0; h < cl->nhosts; h++) {
		cl->part[h] = PART_OLD;
		cl->domain[h] = 0;
	}
}
