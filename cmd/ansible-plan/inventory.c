/*
 * inventory.c: an Ansible inventory in YAML from the system section:
 * every resource that is itself an inventory host (a host, switch,
 * router or controller; see upkit-state(5), the schedule section's
 * "host"), in system order, with its address as ansible_host when the
 * system gives one, then grouped by kind (upkit_hosts,
 * upkit_switches, upkit_routers, upkit_controllers) and by role
 * (upkit_role_compute, ...): fixed names, never from the input, and no
 * host may be called upkit_*, so that no group name can capture a
 * play's host pattern.
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
		} else if (strncmp(sc->resources[i].id, "upkit_", 6) == 0) {
			access_enter_index(a, i);
			r = access_fail_at(a, "id", "\"%s\": host names starting "
			    "with \"upkit_\" are kept for the inventory's groups",
			    sc->resources[i].id);
		}
	}
	return r;
}

/* group: the inventory hosts of kind (or, kind < 0, of role), if any. */
static void
group(struct yamlw *w, const struct sysconf *sc, const char *name, int kind,
    unsigned role)
{
	size_t i;
	int any = 0;

	for (i = 0; i < sc->nresources; i++) {
		const struct resource *r = &sc->resources[i];

		if (!is_inventory_host(r->kind) ||
		    (kind >= 0 ? (int)r->kind != kind : !(r->roles & role)))
			continue;
		if (!any) {
			yw_plain(w, name);
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
	group(w, sc, "upkit_hosts", KIND_HOST, 0);
	group(w, sc, "upkit_switches", KIND_SWITCH, 0);
	group(w, sc, "upkit_routers", KIND_ROUTER, 0);
	group(w, sc, "upkit_controllers", KIND_CONTROLLER, 0);
	group(w, sc, "upkit_role_compute", -1, ROLE_COMPUTE);
	group(w, sc, "upkit_role_storage", -1, ROLE_STORAGE);
	group(w, sc, "upkit_role_network", -1, ROLE_NETWORK);
	group(w, sc, "upkit_role_controller", -1, ROLE_CONTROLLER);
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
