/*
 * site.c: the site file, what OpenStack does not hold (upkit-import(1),
 * SITE FILE): VM slots per host, the products every host runs, the
 * product and version of each hypervisor type, the storage back ends
 * and their hosts, the switches and routers and the hosts behind them,
 * and the tenants' elasticity SLAs, with a default, per project and per
 * server group.  This file checks its shape; emit.c uses it.
 */
#include "import.h"

static const char *const top_keys[] = { "version", "host_capacity",
	"capacity", "host_products", "hypervisor_types", "storage", "network",
	"sla", "migrate_across_zones", "max_concurrent_live_migrations",
	NULL };
static const char *const storage_keys[] = { "id", "products",
	"min_sponsors", "hosts", "serves", NULL };
static const char *const network_keys[] = { "id", "kind", "products",
	"hosts", "uplinks", "peer", NULL };
static const char *const sla_keys[] = { "default", "projects",
	"server_groups", NULL };
static const char *const sla_entry_keys[] = { "name", "min", "max",
	"scaling_adjustment", "cooldown", NULL };

static int
check_entry(struct access *a, const json_t *v, const char *const *keys)
{
	const char *id;
	json_t *products;

	return acc_as_object(a, v) < 0 || acc_check_keys(a, v, keys) < 0 ||
	    acc_get_string(a, v, "id", ACC_REQUIRED, &id) < 0 ||
	    acc_get_object(a, v, "products", ACC_REQUIRED, &products) < 0 ?
	    -1 : 0;
}

static int
storage_entry(struct access *a, const json_t *v, size_t i, void *ctx)
{
	json_t *hosts;

	(void)i;
	(void)ctx;
	return check_entry(a, v, storage_keys) < 0 ||
	    acc_get_array(a, v, "hosts", ACC_REQUIRED, &hosts) < 0 ? -1 : 0;
}

static int
network_entry(struct access *a, const json_t *v, size_t i, void *ctx)
{
	static const char *const kinds[] = { "switch", "router", NULL };
	int kind;

	(void)i;
	(void)ctx;
	return check_entry(a, v, network_keys) < 0 ||
	    acc_get_enum(a, v, "kind", ACC_REQUIRED, kinds, &kind) < 0 ? -1 : 0;
}

static int
sla_entry(struct access *a, const char *name, const json_t *v, void *ctx)
{
	json_int_t n;
	const char *s;

	(void)name;
	(void)ctx;
	return acc_as_object(a, v) < 0 ||
	    acc_check_keys(a, v, sla_entry_keys) < 0 ||
	    acc_get_string(a, v, "name", ACC_OPTIONAL, &s) < 0 ||
	    acc_get_int_range(a, v, "min", ACC_OPTIONAL, 0, 1000000, &n) < 0 ||
	    acc_get_int_range(a, v, "max", ACC_OPTIONAL, 0, 1000000, &n) < 0 ||
	    acc_get_int_range(a, v, "scaling_adjustment", ACC_OPTIONAL, 1,
	    1000000, &n) < 0 ||
	    acc_get_int_range(a, v, "cooldown", ACC_OPTIONAL, 0, 100000000,
	    &n) < 0 ? -1 : 0;
}

static int
check_sla(struct access *a, const json_t *site)
{
	json_t *sla = NULL, *def = NULL;
	int r;

	if (acc_get_object(a, site, "sla", ACC_OPTIONAL, &sla) < 0)
		return -1;
	if (sla == NULL)
		return 0;
	access_enter_key(a, "sla");
	if (acc_check_keys(a, sla, sla_keys) < 0 ||
	    acc_get_object(a, sla, "default", ACC_OPTIONAL, &def) < 0)
		return -1;
	if (def != NULL) {
		access_enter_key(a, "default");
		r = sla_entry(a, "default", def, NULL);
		access_leave(a);
		if (r < 0)
			return -1;
	}
	if (acc_each_member(a, sla, "projects", ACC_OPTIONAL, sla_entry,
	    NULL) < 0 ||
	    acc_each_member(a, sla, "server_groups", ACC_OPTIONAL, sla_entry,
	    NULL) < 0)
		return -1;
	access_leave(a);
	return 0;
}

int
check_site(struct import *im, struct access *a)
{
	const json_t *site = im->site;
	json_int_t n;
	json_t *o;
	int across;

	if (acc_as_object(a, site) < 0 || acc_check_keys(a, site, top_keys) < 0 ||
	    acc_get_int_range(a, site, "version", ACC_REQUIRED, 1, 1, &n) < 0 ||
	    acc_get_int_range(a, site, "host_capacity", ACC_REQUIRED, 1,
	    1000000, &n) < 0 ||
	    acc_get_object(a, site, "capacity", ACC_OPTIONAL, &o) < 0 ||
	    acc_get_object(a, site, "host_products", ACC_OPTIONAL, &o) < 0 ||
	    acc_get_object(a, site, "hypervisor_types", ACC_REQUIRED, &o) < 0 ||
	    acc_get_bool(a, site, "migrate_across_zones", ACC_OPTIONAL,
	    &across) < 0 ||
	    acc_get_int_range(a, site, "max_concurrent_live_migrations",
	    ACC_OPTIONAL, 1, 1000, &n) < 0 ||
	    acc_each_element(a, site, "storage", ACC_OPTIONAL, storage_entry,
	    NULL) < 0 ||
	    acc_each_element(a, site, "network", ACC_OPTIONAL, network_entry,
	    NULL) < 0)
		return -1;
	return check_sla(a, site);
}
