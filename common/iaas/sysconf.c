/* sysconf.c: read and check the "system" section (see sysconf.h). */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sysconf.h"
#include "tenant_text.h"
#include "xalloc.h"

const char *const resource_kind_names[] = { "host", "hypervisor",
	"virtual-storage", "storage-device", "switch", "router",
	"controller", "network-service", NULL };
const char *const role_names[] = { "compute", "storage", "network",
	"controller", NULL };
const char *const vm_role_names[] = { "active", "standby", NULL };
const char *const activation_names[] = { "active", "deactivated",
	"failed", NULL };
const char *const dep_type_names[] = { "contained", "migration",
	"composition", "aggregation", "communication", "storage",
	"controller", "vm-storage", "vm-controller", "peer", NULL };

static int
load_roles(struct access *a, const json_t *obj, unsigned *roles)
{
	return acc_get_name_bits(a, obj, "roles", role_names, "unknown role "
	    "(expected compute, storage, network or controller)", roles) < 0 ?
	    -1 : 0;
}

/* version_string: a product's version, which YAML must not read as a
 * number. */
static int
version_string(struct access *a, const char *name, const json_t *v,
    void *ctx)
{
	const char *version;

	(void)name;
	(void)ctx;
	if (!json_is_string(v))
		return access_fail(a, "expected a version string, got "
		    "%s (quote versions such as \"6.7\")",
		    json_is_number(v) ? "a number" : "another type");
	return acc_as_string(a, v, &version);
}

static int
load_products(struct access *a, const json_t *obj, json_t **out)
{
	int r;

	if ((r = acc_get_object(a, obj, "products", ACC_OPTIONAL, out)) != 0) {
		*out = NULL;
		return r < 0 ? -1 : 0;
	}
	return acc_each_member(a, obj, "products", ACC_REQUIRED,
	    version_string, NULL);
}

/*
 * load_address: the optional address, a host name or an IPv4 or IPv6
 * address: letters, digits and '.', '-', '_', ':' only, so that no tool
 * that writes it (an inventory's ansible_host) can be told anything else.
 */
static int
load_address(struct access *a, const json_t *obj, const char **out)
{
	static const char allowed[] = "abcdefghijklmnopqrstuvwxyz"
	    "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789.-_:";
	int r = acc_get_string(a, obj, "address", ACC_OPTIONAL, out);

	if (r != 0) {
		*out = NULL;
		return r < 0 ? -1 : 0;
	}
	if (**out == '\0' || **out == '-' || (*out)[strspn(*out, allowed)] != '\0')
		return access_fail_at(a, "address", "\"%s\" is not a host "
		    "name or an IP address", *out);
	return 0;
}

/* load_name_field: the optional key of obj, checked as an address is. */
static int
load_name_field(struct access *a, const json_t *obj, const char *key,
    const char **out)
{
	static const char allowed[] = "abcdefghijklmnopqrstuvwxyz"
	    "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789.-_:";
	int r = acc_get_string(a, obj, key, ACC_OPTIONAL, out);

	if (r != 0) {
		*out = NULL;
		return r < 0 ? -1 : 0;
	}
	if (**out == '\0' || **out == '-' || (*out)[strspn(*out, allowed)] != '\0')
		return access_fail_at(a, key, "\"%s\" is not a host name",
		    *out);
	return 0;
}

/* load_zone: the optional availability zone, any non-empty string. */
static int
load_zone(struct access *a, const json_t *obj, const char **out)
{
	int r = acc_get_string(a, obj, "zone", ACC_OPTIONAL, out);

	if (r != 0) {
		*out = NULL;
		return r < 0 ? -1 : 0;
	}
	if (**out == '\0')
		return access_fail_at(a, "zone", "empty availability zone");
	return 0;
}

static int
load_resource(struct access *a, const json_t *obj, struct sysconf *sc,
    struct resource *res)
{
	static const char *const known[] = { "id", "kind", "roles", "status",
		"capacity", "min_sponsors", "products", "address", "zone",
		"service_host", "disabled", NULL };
	json_int_t capacity = sc->host_capacity, min_sponsors = 0;
	json_t *products = NULL;
	int kind, status = STATUS_ACTIVE, disabled = 0;
	long i;

	if (acc_as_object(a, obj) < 0 || acc_check_keys(a, obj, known) < 0 ||
	    acc_get_string(a, obj, "id", ACC_REQUIRED, &res->id) < 0 ||
	    acc_get_enum(a, obj, "kind", ACC_REQUIRED, resource_kind_names,
	    &kind) < 0 ||
	    acc_get_enum(a, obj, "status", ACC_OPTIONAL, activation_names,
	    &status) < 0 ||
	    acc_get_bool(a, obj, "disabled", ACC_OPTIONAL, &disabled) < 0 ||
	    acc_get_int_range(a, obj, "capacity", ACC_OPTIONAL, 0, 1000000,
	    &capacity) < 0 ||
	    acc_get_int_range(a, obj, "min_sponsors", ACC_OPTIONAL, 0,
	    1000000, &min_sponsors) < 0 ||
	    load_address(a, obj, &res->address) < 0 ||
	    load_zone(a, obj, &res->zone) < 0 ||
	    load_name_field(a, obj, "service_host", &res->service_host) < 0 ||
	    load_roles(a, obj, &res->roles) < 0 ||
	    load_products(a, obj, &products) < 0)
		return -1;
	/* disabled: out of service by its operator's choice (nova: the
	 * compute service is disabled); upgraded like the others, never
	 * brought back into service by a plan */
	if (disabled && status == STATUS_ACTIVE)
		return access_fail_at(a, "disabled", "a disabled resource is "
		    "out of service: give \"status\": \"deactivated\" (or "
		    "\"failed\")");
	res->kind = (enum resource_kind)kind;
	res->status = (enum activation)status;
	res->disabled = disabled;
	res->capacity = (res->roles & ROLE_COMPUTE) ? (long)capacity : 0;
	res->min_sponsors = (long)min_sponsors;
	if ((i = idmap_add(&sc->resource_ids, res->id)) < 0)
		return access_fail_at(a, "id", "duplicate resource id \"%s\"",
		    res->id);
	res->id = idmap_key(&sc->resource_ids, (size_t)i);
	res->address = res->address ? sysconf_name(sc, res->address) : NULL;
	res->zone = res->zone ? sysconf_name(sc, res->zone) : NULL;
	res->service_host = res->service_host ?
	    sysconf_name(sc, res->service_host) : NULL;
	/* held only once loaded: sysconf_free lets go of it */
	res->products = json_incref(products);
	return 0;
}

int
resource_spec_check(struct access *a, const json_t *obj)
{
	struct sysconf sc;
	struct resource res;
	int r;

	memset(&sc, 0, sizeof sc);
	memset(&res, 0, sizeof res);
	idmap_init(&sc.resource_ids);
	r = load_resource(a, obj, &sc, &res);
	if (r == 0 && (res.products == NULL ||
	    json_object_size(res.products) == 0))
		r = access_fail(a, "a new resource needs \"products\": what "
		    "to install on it");
	json_decref(res.products);
	idmap_free(&sc.resource_ids);
	strpool_free(&sc.strings);
	return r;
}

/* load_resource_at: resources keep their products, hence ACC_KEEP. */
static int
load_resource_at(struct access *a, const json_t *v, size_t i,
    const char *text, size_t len, void *ctx)
{
	struct sysconf *sc = ctx;

	(void)text, (void)len;
	sc->resources = xgrow(sc->resources, i, &sc->resources_cap,
	    sizeof *sc->resources);
	sc->nresources = i + 1;
	return load_resource(a, v, sc, &sc->resources[i]);
}

static int
load_resources(struct access *a, const json_t *section, struct sysconf *sc)
{
	return acc_each_kept_element(a, section, "resources", ACC_REQUIRED |
	    ACC_KEEP_ELEMENTS, load_resource_at, sc) < 0 ? -1 : 0;
}

/* resource_ref: field key of obj names a known resource; its index. */
static int
resource_ref(struct access *a, const json_t *obj, const char *key,
    const struct sysconf *sc, size_t *out)
{
	const char *id;
	long i;

	if (acc_get_string(a, obj, key, ACC_REQUIRED, &id) < 0)
		return -1;
	if ((i = idmap_find(&sc->resource_ids, id)) < 0)
		return access_fail_at(a, key, "no resource has id \"%s\"", id);
	*out = (size_t)i;
	return 0;
}

static int
load_dependency(struct access *a, const json_t *obj, const struct sysconf *sc,
    struct dependency *d)
{
	static const char *const known[] = { "type", "dependent", "sponsor",
		NULL };
	int type;

	if (acc_as_object(a, obj) < 0 || acc_check_keys(a, obj, known) < 0 ||
	    acc_get_enum(a, obj, "type", ACC_REQUIRED, dep_type_names,
	    &type) < 0 ||
	    resource_ref(a, obj, "dependent", sc, &d->dependent) < 0 ||
	    resource_ref(a, obj, "sponsor", sc, &d->sponsor) < 0)
		return -1;
	d->type = (enum dep_type)type;
	if (d->dependent == d->sponsor)
		return access_fail(a, "\"%s\" cannot depend on itself",
		    sc->resources[d->dependent].id);
	return 0;
}

static int
load_dependency_at(struct access *a, const json_t *v, size_t i,
    const char *text, size_t len, void *ctx)
{
	struct sysconf *sc = ctx;

	(void)text, (void)len;
	sc->deps = xgrow(sc->deps, i, &sc->deps_cap, sizeof *sc->deps);
	sc->ndeps = i + 1;
	return load_dependency(a, v, sc, &sc->deps[i]);
}

static int
load_dependencies(struct access *a, const json_t *section, struct sysconf *sc)
{
	return acc_each_kept_element(a, section, "dependencies", ACC_OPTIONAL,
	    load_dependency_at, sc) < 0 ? -1 : 0;
}

static int
load_vm(struct access *a, const json_t *obj, struct sysconf *sc,
    struct vm *vm)
{
	static const char *const known[] = { "id", "host", "group", "role",
		"status", "zone", NULL };
	int role = -1;
	long i;

	if (acc_as_object(a, obj) < 0 || acc_check_keys(a, obj, known) < 0 ||
	    acc_get_string(a, obj, "id", ACC_REQUIRED, &vm->id) < 0 ||
	    resource_ref(a, obj, "host", sc, &vm->host) < 0 ||
	    acc_get_string(a, obj, "group", ACC_OPTIONAL, &vm->group) < 0 ||
	    acc_get_enum(a, obj, "role", ACC_OPTIONAL, vm_role_names,
	    &role) < 0 ||
	    acc_get_string(a, obj, "status", ACC_OPTIONAL, &vm->status) < 0 ||
	    load_zone(a, obj, &vm->zone) < 0)
		return -1;
	vm->role = role < 0 ? NULL : vm_role_names[role];
	vm->live = vm_live(vm->status);
	vm->status = vm->status ? sysconf_name(sc, vm->status) : NULL;
	vm->zone = vm->zone ? sysconf_name(sc, vm->zone) : NULL;
	if (!(sc->resources[vm->host].roles & ROLE_COMPUTE))
		return access_fail_at(a, "host", "\"%s\" is not a compute host",
		    sc->resources[vm->host].id);
	if ((i = idmap_add(&sc->vm_ids, vm->id)) < 0)
		return access_fail_at(a, "id", "duplicate VM id \"%s\"", vm->id);
	vm->id = idmap_key(&sc->vm_ids, (size_t)i);
	/* with no group, alone in its own */
	vm->group = vm->group ? sysconf_name(sc, vm->group) : vm->id;
	return 0;
}

/* The tenant whose VMs are being read. */
struct tenant_ctx {
	struct sysconf *sc;
	size_t tenant;
};

static int
load_vm_at(struct access *a, const json_t *v, size_t i, void *ctx)
{
	struct tenant_ctx *t = ctx;
	struct sysconf *sc = t->sc;
	struct vm *vm;

	(void)i;
	sc->vms = xgrow(sc->vms, sc->nvms, &sc->vms_cap, sizeof *sc->vms);
	vm = &sc->vms[sc->nvms];
	memset(vm, 0, sizeof *vm);
	vm->tenant = t->tenant;
	if (load_vm(a, v, t->sc, vm) < 0)
		return -1;
	t->sc->nvms++;
	return 0;
}

static int
load_tenant_vms(struct access *a, const json_t *obj, struct sysconf *sc,
    size_t tenant)
{
	struct tenant_ctx t = { sc, tenant };

	sc->tenants[tenant].first_vm = sc->nvms;
	if (acc_each_element(a, obj, "vms", ACC_OPTIONAL, load_vm_at, &t) < 0)
		return -1;
	sc->tenants[tenant].nvms = sc->nvms - sc->tenants[tenant].first_vm;
	return 0;
}

/* check_sla: the elasticity SLA must be satisfiable as written. */
static int
check_sla(struct access *a, const struct tenant *t)
{
	if (t->min > t->max)
		return access_fail(a, "min %ld is greater than max %ld",
		    t->min, t->max);
	if ((long)t->nvms > t->max)
		return access_fail(a, "tenant \"%s\" has %zu VMs, more than "
		    "its max %ld", t->id, t->nvms, t->max);
	return 0;
}

static int
load_tenant(struct access *a, const json_t *obj, struct sysconf *sc,
    size_t i)
{
	static const char *const known[] = { "id", "min", "max",
		"scaling_adjustment", "cooldown", "vms", NULL };
	struct tenant *t = &sc->tenants[i];
	json_int_t min, max, s = 1, c = 0;

	if (acc_as_object(a, obj) < 0 || acc_check_keys(a, obj, known) < 0 ||
	    acc_get_string(a, obj, "id", ACC_REQUIRED, &t->id) < 0 ||
	    (t->id = sysconf_name(sc, t->id)) == NULL ||
	    acc_get_int_range(a, obj, "min", ACC_REQUIRED, 0, INT_MAX,
	    &min) < 0 ||
	    acc_get_int_range(a, obj, "max", ACC_REQUIRED, 0, INT_MAX,
	    &max) < 0 ||
	    acc_get_int_range(a, obj, "scaling_adjustment", ACC_OPTIONAL, 1,
	    INT_MAX, &s) < 0 ||
	    acc_get_int_range(a, obj, "cooldown", ACC_OPTIONAL, 0, INT_MAX,
	    &c) < 0 ||
	    load_tenant_vms(a, obj, sc, i) < 0)
		return -1;
	t->min = (long)min;
	t->max = (long)max;
	t->scaling_adjustment = (long)s;
	t->cooldown = (long)c;
	return check_sla(a, t);
}

/* The tenants read so far, whose ids must differ. */
struct tenants_ctx {
	struct sysconf *sc;
	struct idmap ids;
};

static int
load_tenant_at(struct access *a, const json_t *v, size_t i,
    const char *text, size_t len, void *ctx)
{
	struct tenants_ctx *t = ctx;
	struct sysconf *sc = t->sc;

	sc->tenants = xgrow(sc->tenants, i, &sc->tenants_cap,
	    sizeof *sc->tenants);
	sc->ntenants = i + 1;
	if (v == NULL)
		return tenant_from_text(sc, &t->ids, i, text, len);
	if (load_tenant(a, v, t->sc, i) < 0)
		return -1;
	if (idmap_add(&t->ids, t->sc->tenants[i].id) < 0)
		return access_fail_at(a, "id", "duplicate tenant id \"%s\"",
		    t->sc->tenants[i].id);
	return 0;
}

/* load_tenants: the tenants, their SLAs and VMs; tenant ids are unique. */
static int
load_tenants(struct access *a, const json_t *section, struct sysconf *sc)
{
	struct tenants_ctx t = { sc, { 0 } };
	int r;

	idmap_init(&t.ids);
	r = acc_each_kept_element(a, section, "tenants",
	    ACC_OPTIONAL | ACC_TEXT_FIRST, load_tenant_at, &t);
	idmap_free(&t.ids);
	return r < 0 ? -1 : 0;
}

/* check_capacity: no compute host holds more VMs than its capacity K. */
static int
check_capacity(struct access *a, const struct sysconf *sc)
{
	size_t *load = xcalloc(sc->nresources, sizeof *load), i;
	int r = 0;

	for (i = 0; i < sc->nvms; i++)
		load[sc->vms[i].host]++;
	for (i = 0; i < sc->nresources && r == 0; i++)
		if ((long)load[i] > sc->resources[i].capacity) {
			access_enter_key(a, "resources");
			access_enter_index(a, i);
			r = access_fail(a, "host \"%s\" holds %zu VMs but its "
			    "capacity is %ld", sc->resources[i].id, load[i],
			    sc->resources[i].capacity);
			access_leave(a);
			access_leave(a);
		}
	free(load);
	return r;
}

/* VM vm of anti-affinity group group runs on host. */
struct placed {
	size_t host;
	const char *group;
	size_t vm;
};

static int
placed_cmp(const void *x, const void *y)
{
	const struct placed *a = x, *b = y;
	int c;

	if (a->host != b->host)
		return a->host < b->host ? -1 : 1;
	if ((c = strcmp(a->group, b->group)) != 0)
		return c;
	return a->vm < b->vm ? -1 : a->vm > b->vm;
}

/*
 * first_shared: among the VMs of tenant t, the first (in order) that
 * shares host and group with an earlier one, and that earlier one in
 * *earlier; or (size_t)-1.  p has room for the tenant's VMs.
 */
static size_t
first_shared(const struct sysconf *sc, const struct tenant *t,
    struct placed *p, size_t *earlier)
{
	size_t i, n = 0, best = (size_t)-1;

	for (i = t->first_vm; i < t->first_vm + t->nvms; i++)
		p[n++] = (struct placed){ sc->vms[i].host, sc->vms[i].group, i };
	qsort(p, n, sizeof *p, placed_cmp);
	for (i = 1; i < n; i++)
		if (p[i].host == p[i - 1].host &&
		    strcmp(p[i].group, p[i - 1].group) == 0 &&
		    p[i].vm < best &&
		    (i < 2 || p[i - 2].host != p[i].host ||
		    strcmp(p[i - 2].group, p[i].group) != 0)) {
			best = p[i].vm;	/* the second of its run */
			*earlier = p[i - 1].vm;
		}
	return best;
}

/*
 * check_anti_affinity: no two VMs of one anti-affinity group on one host
 * (II.A).  A system that breaks it already is refused rather than
 * planned for: every guarantee of the upgrade starts from it.  Groups
 * belong to their tenant, so each tenant's VMs are sorted by host and
 * group on their own: no string is built per VM.
 */
static int
check_anti_affinity(struct access *a, const struct sysconf *sc)
{
	struct placed *p;
	size_t t, most = 0, i = (size_t)-1, earlier = 0;

	for (t = 0; t < sc->ntenants; t++)
		if (sc->tenants[t].nvms > most)
			most = sc->tenants[t].nvms;
	p = xcalloc(most + 1, sizeof *p);
	for (t = 0; t < sc->ntenants && i == (size_t)-1; t++)
		i = first_shared(sc, &sc->tenants[t], p, &earlier);
	free(p);
	if (i == (size_t)-1)
		return 0;
	access_enter_key(a, "tenants");
	access_enter_index(a, sc->vms[i].tenant);
	access_enter_key(a, "vms");
	access_enter_index(a, i - sc->tenants[sc->vms[i].tenant].first_vm);
	return access_fail_at(a, "host", "VM \"%s\" shares host \"%s\" "
	    "with \"%s\" of its anti-affinity group \"%s\"", sc->vms[i].id,
	    sc->resources[sc->vms[i].host].id, sc->vms[earlier].id,
	    sc->vms[i].group);
}

static int
load_sections(struct access *a, const json_t *section, struct sysconf *sc)
{
	static const char *const known[] = { "version", "host_capacity",
		"resources", "dependencies", "tenants", "migrate_across_zones",
		"max_concurrent_live_migrations", NULL };
	json_int_t k = 1, live = 0;
	int across = 0;

	if (acc_as_object(a, section) < 0 ||
	    acc_check_keys(a, section, known) < 0 ||
	    acc_get_int_range(a, section, "host_capacity", ACC_OPTIONAL, 0,
	    1000000, &k) < 0 ||
	    acc_get_bool(a, section, "migrate_across_zones", ACC_OPTIONAL,
	    &across) < 0 ||
	    acc_get_int_range(a, section, "max_concurrent_live_migrations",
	    ACC_OPTIONAL, 1, 1000, &live) < 0)
		return -1;
	sc->host_capacity = (long)k;
	sc->across_zones = across;
	sc->live_per_host = (long)live;
	if (load_resources(a, section, sc) < 0 ||
	    load_dependencies(a, section, sc) < 0 ||
	    load_tenants(a, section, sc) < 0)
		return -1;
	return check_capacity(a, sc) < 0 ? -1 : check_anti_affinity(a, sc);
}

/* sysconf_load: on -1, what was loaded is freed already. */
int
sysconf_load(struct access *a, const json_t *section, struct sysconf *sc)
{
	memset(sc, 0, sizeof *sc);
	idmap_init(&sc->resource_ids);
	idmap_init(&sc->vm_ids);
	if (load_sections(a, section, sc) == 0)
		return 0;
	sysconf_free(sc);
	return -1;
}

int
vm_live(const char *status)
{
	return status == NULL || strcmp(status, "ACTIVE") == 0 ||
	    strcmp(status, "PAUSED") == 0;
}

const char *
sysconf_name(struct sysconf *sc, const char *s)
{
	return strpool_copy(&sc->strings, s);
}

void
sysconf_free(struct sysconf *sc)
{
	size_t i;

	for (i = 0; i < sc->nresources; i++)
		json_decref(sc->resources[i].products);
	free(sc->resources);
	free(sc->deps);
	free(sc->tenants);
	free(sc->vms);
	idmap_free(&sc->resource_ids);
	idmap_free(&sc->vm_ids);
	strpool_free(&sc->strings);
	memset(sc, 0, sizeof *sc);
}
