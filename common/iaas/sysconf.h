/*
 * sysconf.h: the "system" section, the IaaS system configuration of
 * seed 000 section II.A, read into checked C structures.
 *
 * Resources carry an id, a kind, roles (membership of M_compute,
 * M_storage, M_network, M_controller), installed products, an
 * activation status and, for compute hosts, the capacity K in VMs.
 * Dependencies are typed and point from the dependent resource to its
 * sponsor (seed 000 II.E).  Tenants carry the elasticity SLA (min_n,
 * max_n, s_n, c_n) and their VMs with placement and anti-affinity
 * group.  See upkit-state(5), section "system".
 *
 * sysconf_load() checks types, unknown fields, unique ids, references
 * between resources, VMs and hosts, and the SLA's own consistency.
 * The strings are the sysconf's own copies (ids in its idmaps, the
 * others in a strpool), and it holds a reference to each resource's
 * products.  Dependencies and tenants kept as text
 * (load_document_reading without "system"; jtext.h) are read one at a
 * time, without the tree: a large cloud's VMs cost ten times their
 * text as jansson values.
 */
#ifndef UPKIT_SYSCONF_H
#define UPKIT_SYSCONF_H

#include <stddef.h>
#include <jansson.h>

#include "access.h"
#include "idmap.h"
#include "strpool.h"

enum resource_kind {
	KIND_HOST, KIND_HYPERVISOR, KIND_VIRTUAL_STORAGE, KIND_STORAGE_DEVICE,
	KIND_SWITCH, KIND_ROUTER, KIND_CONTROLLER, KIND_NETWORK_SERVICE,
	KIND_COUNT
};

enum role {
	ROLE_COMPUTE = 1 << 0, ROLE_STORAGE = 1 << 1, ROLE_NETWORK = 1 << 2,
	ROLE_CONTROLLER = 1 << 3
};

enum activation { STATUS_ACTIVE, STATUS_DEACTIVATED, STATUS_FAILED };

/* Dependency types of seed 000 section II.A and II.E. */
enum dep_type {
	DEP_CONTAINED, DEP_MIGRATION, DEP_COMPOSITION, DEP_AGGREGATION,
	DEP_COMMUNICATION, DEP_STORAGE, DEP_CONTROLLER, DEP_VM_STORAGE,
	DEP_VM_CONTROLLER, DEP_PEER, DEP_COUNT
};

struct resource {
	const char *id;
	enum resource_kind kind;
	unsigned roles;			/* enum role bits */
	enum activation status;
	int disabled;			/* its operator keeps it out of service */
	long capacity;			/* K: VMs it can host (compute hosts) */
	long min_sponsors;		/* aggregates: sponsors needed, else 0 */
	json_t *products;		/* product name -> version string */
	const char *address;		/* where tools reach it, or NULL */
	const char *zone;		/* its availability zone, or NULL */
	const char *service_host;	/* nova's name for it, or NULL */
};

struct dependency {
	enum dep_type type;
	size_t dependent, sponsor;	/* resource indices */
};

struct vm {
	const char *id;
	size_t tenant;			/* tenant index */
	size_t host;			/* resource index of its host */
	const char *group;		/* anti-affinity group */
	const char *role;		/* "active", "standby" or NULL */
	const char *status;		/* nova's server status, or NULL */
	const char *zone;		/* its availability zone, or NULL */
	int live;			/* may be live-migrated (vm_live()) */
};

struct tenant {
	const char *id;
	long min, max;			/* min_n, max_n: VMs agreed in the SLA */
	long scaling_adjustment;	/* s_n: VMs per scaling operation */
	long cooldown;			/* c_n: seconds between two scalings */
	size_t first_vm, nvms;		/* a slice of sysconf.vms */
};

struct sysconf {
	long host_capacity;		/* the default K */
	int across_zones;		/* migrate_across_zones */
	long live_per_host;		/* max_concurrent_live_migrations
					 * out of one host, 0: no limit */
	struct resource *resources;
	size_t nresources, resources_cap;
	struct dependency *deps;
	size_t ndeps, deps_cap;
	struct tenant *tenants;
	size_t ntenants, tenants_cap;
	struct vm *vms;
	size_t nvms, vms_cap;
	struct idmap resource_ids;	/* resource id -> index */
	struct idmap vm_ids;		/* vm id -> index */
	struct strpool strings;		/* the other strings, copied */
};

extern const char *const resource_kind_names[];	/* by enum resource_kind */
extern const char *const role_names[];		/* by bit position */
extern const char *const vm_role_names[];	/* a VM's "role" */
extern const char *const activation_names[];	/* by enum activation */
extern const char *const dep_type_names[];	/* by enum dep_type */

/*
 * vm_live: may a VM of nova server status status (NULL: none given) be
 * live-migrated?  Nova live-migrates ACTIVE and PAUSED servers only.
 */
int vm_live(const char *status);

/*
 * sysconf_load: read section (the "system" object); 0, or -1 with
 * nothing left to free (sysconf_free() is harmless then).
 */
int sysconf_load(struct access *a, const json_t *section, struct sysconf *sc);
/* resource_spec_check: obj is a resource as the section lists it, with
 * the products to install on it; 0 or -1 (diagnosed). */
int resource_spec_check(struct access *a, const json_t *obj);
void sysconf_free(struct sysconf *sc);
/* sysconf_name: a copy of s that lives as long as the sysconf. */
const char *sysconf_name(struct sysconf *sc, const char *s);

#endif
