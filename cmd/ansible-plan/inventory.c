/*
 * inventory.c: an Ansible inventory in YAML from the system section:
 * every resource that is itself an inventory host (a host, switch,
 * router or controller; see upkit-state(5), the schedule section's
 * "host"), in system order, with its address as ansible_host when the
 * system gives one, then grouped by role (compute, storage, network,
 * controller) and, for the devices that are not servers, by kind
 * (switch, router; a controller is in "controller" either way), for
 * the operator's group_vars and --limit.  Group names are fixed, never
 * from the input, and no host may take one, so that no host pattern
 * names a host and a group at once.
 */
#include <string.h>

#include "ap.h"
#include "state.h"
#include "sysconf.h"

static int
is_inventory_host(enum resource_kind k)
{
	return k == KIND_HOST || k == KIND_SWITCH || k == KIND_ROUTER ||
	    k == KIND_CONTROLLER;
}

/* The groups: fixed names, never from the input. */
static const struct inventory_group {
	const char *name;
	int kind;		/* its members' kind, or -1 */
	unsigned roles;		/* or one of these roles */
} inventory_groups[] = {
	{ "compute", -1, ROLE_COMPUTE },
	{ "storage", -1, ROLE_STORAGE },
	{ "network", -1, ROLE_NETWORK },
	{ "controller", KIND_CONTROLLER, ROLE_CONTROLLER },
	{ "switch", KIND_SWITCH, 0 },
	{ "router", KIND_ROUTER, 0 },
};
#define NGROUPS (sizeof inventory_groups / sizeof inventory_groups[0])

int
inventory_group_name(const char *s)
{
	size_t g;

	for (g = 0; g < NGROUPS; g++)
		if (strcmp(s, inventory_groups[g].name) == 0)
			return 1;
	return 0;
}

static int
check_names(struct access *a, const struct sysconf *sc)
{
	size_t i;
	int r = 0;

	access_enter_key(a, "resources");
	for (i = 0; i < sc->nresources && r == 0; i++) {
		if (!is_inventory_host(sc->resources[i].kind))
			continue;
		if (!host_name_ok(sc->resources[i].id)) {
			access_enter_index(a, i);
			r = access_fail_at(a, "id", "\"%s\" is not a plain "
			    "Ansible host name (letters, digits, '.', '-', "
			    "'_')", sc->resources[i].id);
		} else if (inventory_group_name(sc->resources[i].id)) {
			access_enter_index(a, i);
			r = access_fail_at(a, "id", "\"%s\" is the name of one "
			    "of the inventory's groups (compute, storage, "
			    "network, controller, switch, router)",
			    sc->resources[i].id);
		}
	}
	return r;
}

static int
in_group(const struct resource *r, const struct inventory_group *g)
{
	return (g->kind >= 0 && (int)r->kind == g->kind) ||
	    (r->roles & g->roles) != 0;
}

/* group: the inventory hosts of g, if any. */
static void
group(struct yamlw *w, const struct sysconf *sc,
    const struct inventory_group *g)
{
	size_t i;
	int any = 0;

	for (i = 0; i < sc->nresources; i++) {
		const struct resource *r = &sc->resources[i];

		if (!is_inventory_host(r->kind) || !in_group(r, g))
			continue;
		if (!any) {
			yw_plain(w, g->name);
			yw_map(w, 0);
			yw_plain(w, "hosts");
			yw_map(w, 0);
			any = 1;
		}
		yw_quoted(w, r->id);
		yw_map(w, 1);
		yw_end_map(w);
	}
	if (any) {
		yw_end_map(w);
		yw_end_map(w);
	}
}

static void
write_hosts(struct yamlw *w, const struct sysconf *sc)
{
	size_t i;

	yw_map(w, 0);
	yw_plain(w, "all");
	yw_map(w, 0);
	yw_plain(w, "hosts");
	yw_map(w, 0);
	for (i = 0; i < sc->nresources; i++) {
		if (!is_inventory_host(sc->resources[i].kind))
			continue;
		yw_quoted(w, sc->resources[i].id);
		yw_map(w, 1);
		if (sc->resources[i].address != NULL) {
			yw_plain(w, "ansible_host");
			yw_unsafe(w, sc->resources[i].address);
		}
		yw_end_map(w);
	}
	yw_end_map(w);
	yw_plain(w, "children");
	yw_map(w, 0);
	for (i = 0; i < NGROUPS; i++)
		group(w, sc, &inventory_groups[i]);
	yw_end_map(w);
	yw_end_map(w);
	yw_end_map(w);
}

/* known: the system's resources already hold one with id. */
static int
known(const json_t *resources, const char *id)
{
	const json_t *r;
	size_t i;

	json_array_foreach(resources, i, r)
		if (strcmp(json_string_value(json_object_get(r, "id")), id) == 0)
			return 1;
	return 0;
}

/*
 * with_added: the system with the resources the plan's create actions
 * bring in (their new_resource), so that a host an add change brings is
 * in the inventory before its first action runs on it.  A new object
 * that shares the system's values.
 */
static json_t *
with_added(const json_t *doc, const json_t *sys)
{
	json_t *out = json_copy((json_t *)sys), *list, *v, *lvl, *act, *nr;
	const json_t *rg = json_object_get(doc, "resource_graph");
	size_t i, j, k;

	list = json_copy(json_object_get(sys, "resources"));
	json_object_set_new(out, "resources", list);
	json_array_foreach(json_object_get(rg, "vertices"), i, v)
		json_array_foreach(json_object_get(v, "actions_to_execute"), j,
		    lvl)
			json_array_foreach(json_object_get(lvl, "actions"), k,
			    act)
				if ((nr = json_object_get(act,
				    "new_resource")) != NULL &&
				    json_is_string(json_object_get(nr, "id")) &&
				    !known(list, json_string_value(
				    json_object_get(nr, "id"))))
					json_array_append(list, nr);
	return out;
}

int
inventory_write(struct access *a, const json_t *doc, struct yamlw *w)
{
	struct sysconf sc;
	json_t *sys;
	int r = -1;

	if (state_check(a, doc) < 0 ||
	    state_require(a, doc, SECTION_SYSTEM, &sys) < 0)
		return -1;
	access_enter_key(a, "system");
	sys = with_added(doc, sys);
	if (sysconf_load(a, sys, &sc) == 0) {
		r = check_names(a, &sc);
		if (r == 0)
			write_hosts(w, &sc);
		sysconf_free(&sc);
	}
	json_decref(sys);
	return r;
}
