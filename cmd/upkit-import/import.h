/*
 * import.h: upkit-import, the system section from what the OpenStack
 * client prints, plus a short site file for what OpenStack does not
 * hold.
 *
 * Everything is gathered into jansson objects used as ordered maps
 * (hash lookups, so the work stays near-linear in the input) and
 * written out sorted by id, so the same input always gives the same
 * bytes whatever order the cloud listed things in.
 */
#ifndef UPKIT_IMPORT_H
#define UPKIT_IMPORT_H

#include <jansson.h>

#include "access.h"
#include "diag.h"
#include "output.h"

struct import_files {
	const char *hypervisors;	/* openstack hypervisor list --long */
	const char *servers;		/* openstack server list --long ... */
	const char **groups;		/* openstack server group list --long */
	size_t ngroups;
	const char **shows;		/* openstack server group show, each */
	size_t nshows;
	const char **aggregates;	/* openstack aggregate list --long */
	size_t naggregates;
	const char **zones;		/* openstack availability zone list */
	size_t nzones;
	const char **services;		/* openstack compute service list */
	size_t nservices;
	const char *site;		/* the site file */
	struct output_opts output;	/* -c */
};

struct import {
	struct import_files files;
	json_t *site;		/* the site file, loaded */
	json_t *hosts;		/* host id -> {"name", "type", "state", ...} */
	json_t *names;		/* full and short host names -> host id */
	json_t *groups;		/* server group id -> {"name", "policy", ...} */
	json_t *member_of;	/* server id -> server group id */
	json_t *vms;		/* server id -> {"host", "project", "group"} */
	json_t *sets;		/* "aggregate:NAME", "zone:NAME" -> [host ids] */
	json_t *set_members;	/* "SET HOST-ID" -> true, for each member */
	json_t *warnings;	/* [{"kind", "count"}], in first-seen order */
};

/* warn.c: warnings grouped by kind, with a summary line at the end. */
void import_warn(struct import *im, const char *file, const char *path,
    const char *kind, const char *fmt, ...) DIAG_PRINTF(5, 6);
/* import_access_warn: import_warn() at a's file and path. */
#define import_access_warn(im, a, ...) \
	import_warn((im), (a)->file, access_path(a), __VA_ARGS__)
void import_warn_summary(struct import *im);

/* services.c: nova-compute services (disabled, forced down, zone). */
int read_services(struct import *im, struct access *a, const json_t *list);
/* host_service_status: "failed", "deactivated" or NULL, as services.c
 * and the hypervisor list say for host id (warned once). */
const char *host_service_status(struct import *im, const char *id);
/* host_disabled: compute host id's service was disabled by its operator
 * (not by upkit's own "upkit:" reason): no plan enables it again. */
int host_disabled(struct import *im, const char *id);

/* hosts.c */
int read_hypervisors(struct import *im, struct access *a, const json_t *list);
/* host_id: the host id a name from any OpenStack output stands for. */
const char *host_id(const struct import *im, const char *name);
char *short_name(const char *name);

/* groups.c */
int read_group_list(struct import *im, struct access *a, const json_t *list);
int read_group_show(struct import *im, struct access *a, const json_t *show);

/* each_item: fn on every string of an array or a "a, b" string. */
int each_item(struct access *a, const json_t *v,
    int (*fn)(struct import *, struct access *, const char *, const char *),
    struct import *im, const char *group);

/*
 * members.c: groups_listed_once: -1 (diagnosed at the second row) when
 * a group list names a group twice; members_are_servers: -1 (diagnosed
 * at the group) when a group has a member no server list holds.
 */
int groups_listed_once(struct access *a, const json_t *list);
int members_are_servers(const struct import *im);

/* zones.c: host aggregates and availability zones, as sets of hosts. */
int read_aggregates(struct import *im, struct access *a, const json_t *doc);
int read_zones(struct import *im, struct access *a, const json_t *list);
/*
 * set_hosts: when name is "aggregate:NAME" or "zone:NAME", point hosts
 * at the set's host ids and return 1; 0 for any other name; -1 (with
 * a's path) for a set no input gave.
 */
int set_hosts(const struct import *im, struct access *a, const char *name,
    const json_t **hosts);

/* servers.c */
int read_servers(struct import *im, struct access *a, const json_t *list);

/* each_row: fn on every row of a client's list output (an array). */
typedef int (*row_fn)(struct import *, struct access *, const json_t *);
int each_row(struct import *im, struct access *a, const json_t *list,
    row_fn fn);

/* column: member key of row, or its lower-case/underscore alias. */
json_t *column(const json_t *row, const char *key, const char *alias);

/* site.c: checks the site file's shape. */
int check_site(struct import *im, struct access *a);

/* What emit.c and tenants.c build, a (the site file's access) at hand. */
struct build {
	struct import *im;
	struct access *a;
	json_t *resources, *deps, *tenants;
	json_t *all_hosts;	/* host id -> {"compute": b, "storage": b} */
	json_t *storage_of;	/* storage id -> [host ids] */
	json_t *vm_count;	/* host id -> VMs it runs */
	json_t *capacity;	/* host id -> its capacity, when not the default */
};

/* emit.c */
int build_system(struct import *im, struct access *a, json_t **out);
/* keys.c: obj's keys, sorted, as a new array of strings. */
json_t *sorted_keys(const json_t *obj);
/* site_host: the host id a name of the site file stands for, or NULL. */
const char *site_host(struct build *b, const char *name);

/* tenants.c */
int read_capacity(struct build *b);
int build_tenants(struct build *b);

#endif
