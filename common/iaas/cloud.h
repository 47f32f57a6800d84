/*
 * cloud.h: the compute side of an IaaS cloud as steps 3 and 4 of seed
 * 000 see it: compute hosts (M_compute) with their capacity K and their
 * load, the VMs placed on them, the anti-affinity groups of those VMs,
 * and, while an upgrade splits them, the old and the new partition.
 *
 * VM placement is mutable: consolidation, evacuation and migration plans
 * move VMs in the model first and write the moves out afterwards.  Every
 * check a move needs (room on the host, no VM of the same anti-affinity
 * group there) costs O(K), so planning is linear in the number of VMs.
 */
#ifndef UPKIT_CLOUD_H
#define UPKIT_CLOUD_H

#include <stddef.h>

#include "catalog.h"
#include "cgraph.h"
#include "idmap.h"
#include "rgraph.h"
#include "sysconf.h"

#define CLOUD_NONE ((size_t)-1)

/*
 * Partitions (seed 000 III.A, Table A): without a partitioning upgrade
 * every compute host is "old" (the equations then count all hosts).
 */
enum partition { PART_NONE, PART_OLD, PART_NEW };

/* A cause of partitioning: a PPU of a VM-supporting storage/controller
 * (its upgrade unit), or an incompatible hypervisor upgrade (its target
 * product@version).  VMs only move between hosts of the same cause. */
struct part_cause {
	const char *name;	/* unit id or "product@version" */
	long unit;		/* PPU: the upgrade unit's index, else -1 */
	long new_vertex;	/* PPU: the new resource's RG vertex, else -1 */
};

struct cloud {
	const struct sysconf *sc;
	size_t nhosts;		/* compute hosts */
	size_t *res;		/* compute host -> resource index */
	size_t *host_of;	/* resource index -> compute host, or NONE */
	size_t *hv;		/* compute host -> its hypervisor, or NONE */
	long *cap, *load;	/* K of the host, VMs on it */
	unsigned char *usable;	/* in service: host and hypervisor active,
				 * neither isolated nor failed */
	unsigned char *part;	/* enum partition */
	size_t *domain;		/* index of its part_cause (0 when none) */
	size_t *vm_host;	/* VM -> compute host */
	size_t *vm_next;	/* next VM on the same host, or NONE */
	size_t *host_first;	/* first VM on a host, or NONE */
	size_t *vm_group;	/* VM -> anti-affinity group */
	size_t *zone;		/* compute host -> its zone's index (0: all
				 * one zone when migrate_across_zones) */
	struct idmap zone_ids;	/* availability zone names ("" for none) */
	size_t ngroups;
	struct idmap group_ids;	/* anti-affinity group names */
	int partitioned;
	struct part_cause *causes;
	size_t ncauses;
};

/* cloud_init: compute hosts and VM placement from the system. */
void cloud_init(struct cloud *cl, const struct sysconf *sc);
void cloud_free(struct cloud *cl);

/* cloud_has_group: does host h run a VM of anti-affinity group g? */
/* cloud_runs_tenant: does host h run a VM of tenant n? */
int cloud_runs_tenant(const struct cloud *cl, size_t h, size_t n);
int cloud_has_group(const struct cloud *cl, size_t h, size_t g);
/*
 * cloud_fits: may VM vm move to host h?  Room, anti-affinity, and what
 * nova allows: the VM may be live-migrated (vm_live()) and h is in the
 * zone of the VM's host, unless the system lets VMs cross zones.
 */
int cloud_fits(const struct cloud *cl, size_t vm, size_t h, long cap);
/* cloud_move: move VM vm to host h. */
void cloud_move(struct cloud *cl, size_t vm, size_t h);
/* cloud_live: may VM vm be live-migrated at all (its nova status)? */
int cloud_live(const struct cloud *cl, size_t vm);
/* cloud_service_host: the name nova knows compute host h by, or NULL
 * when the system gives none (its id then). */
const char *cloud_service_host(const struct cloud *cl, size_t h);
/* cloud_host_id: the resource id of compute host h. */
const char *cloud_host_id(const struct cloud *cl, size_t h);

/*
 * cloud_partition: find what splits the compute hosts, from the pending
 * execution levels of the resource graph, and mark each host old or
 * new.  A group whose done[g] is set counts as upgraded (vm-migrate-plan
 * plans as if step 3 succeeded); done may be NULL.  Also marks hosts
 * whose vertex is isolated or failed as not usable.
 */
void cloud_partition(struct cloud *cl, const struct rgraph *rg,
    const struct cgraph *cg, const struct catalog *cat,
    const unsigned char *done);

/* group_in_unit: has a member of CG group g a level in upgrade unit u? */
int group_in_unit(const struct cgraph *cg, size_t g, size_t u);

/*
 * cloud_hv_product: the hypervisor product compute host h runs now (in
 * the hypervisor it contains), by the system's products and the
 * catalog's kinds.  0, or -1 when it has none.
 */
int cloud_hv_product(const struct cloud *cl, const struct catalog *cat,
    size_t h, const char **name, const char **version);

#endif
