/*
 * tenants.c: the tenants of the system section.  A tenant is a project,
 * except that a server group with an SLA of its own in the site file is
 * a tenant of its own.  A VM's anti-affinity group is its server group
 * when that group's policy is anti-affinity or soft-anti-affinity.
 *
 * What had to be assumed is said as a warning: a project without an SLA,
 * a soft group whose members already share a host, a policy upkit does
 * not model.  A hard anti-affinity group with two members on one host,
 * a tenant over its max, a host over its capacity: the input contradicts
 * itself, and the error names where.
 */
#include <string.h>

#include "import.h"

/* group_label: a server group's name when no other group has it. */
static const char *
group_label(struct build *b, const char *gid)
{
	const json_t *g = json_object_get(b->im->groups, gid), *other;
	const char *name = json_string_value(json_object_get(g, "name"));
	const char *key;

	if (name == NULL || *name == '\0')
		return gid;
	json_object_foreach(b->im->groups, key, other)
		if (strcmp(key, gid) != 0 && strcmp(name, json_string_value(
		    json_object_get(other, "name"))) == 0)
			return gid;
	return name;
}

/* group_file: the file that listed server group gid last. */
static const char *
group_file(struct build *b, const char *gid)
{
	return json_string_value(json_object_get(json_object_get(
	    b->im->groups, gid), "file"));
}

/* override: the site's SLA entry for server group gid, by name or id. */
static const json_t *
override(struct build *b, const char *gid, const char **key)
{
	const json_t *groups = json_object_get(json_object_get(b->im->site,
	    "sla"), "server_groups");
	const char *name = json_string_value(json_object_get(json_object_get(
	    b->im->groups, gid), "name"));

	if (gid == NULL)
		return NULL;
	*key = gid;
	if (json_object_get(groups, gid) != NULL)
		return json_object_get(groups, gid);
	*key = name;
	return name != NULL ? json_object_get(groups, name) : NULL;
}

/* tenant_of: the tenant (made when new) VM server belongs to. */
static json_t *
tenant_of(struct build *b, json_t *by_key, const json_t *vm)
{
	const char *project = json_string_value(json_object_get(vm, "project"));
	const char *gid = json_string_value(json_object_get(vm, "group"));
	const json_t *sla = json_object_get(b->im->site, "sla");
	const json_t *entry;
	const char *key = NULL;
	char tkey[600], path[600];
	json_t *t;

	if ((entry = override(b, gid, &key)) != NULL) {
		snprintf(tkey, sizeof tkey, "group %s", gid);
		snprintf(path, sizeof path, ".sla.server_groups.%s", key);
	} else {
		entry = json_object_get(json_object_get(sla, "projects"), project);
		snprintf(tkey, sizeof tkey, "project %s", project);
		snprintf(path, sizeof path, entry ? ".sla.projects.%s" :
		    ".sla.default", project);
		if (entry == NULL)
			entry = json_object_get(sla, "default");
	}
	if ((t = json_object_get(by_key, tkey)) != NULL)
		return t;
	t = json_pack("{s:s,s:s,s:O,s:[]}", "name",
	    json_is_string(json_object_get(entry, "name")) ?
	    json_string_value(json_object_get(entry, "name")) :
	    strncmp(tkey, "group ", 6) == 0 ? group_label(b, gid) : project,
	    "path", path, "entry", entry ? entry : json_null(), "vms");
	json_object_set_new(by_key, tkey, t);
	return t;
}

/* place_in_group: the VM's anti-affinity group, or NULL. */
static int
place_in_group(struct build *b, json_t *used, const char *vid,
    const json_t *vm, const char **out)
{
	const char *gid = json_string_value(json_object_get(vm, "group"));
	const char *host = json_string_value(json_object_get(vm, "host"));
	const json_t *g = json_object_get(b->im->groups, gid);
	const char *policy = json_string_value(json_object_get(g, "policy"));
	json_int_t max = json_integer_value(json_object_get(g, "max"));
	char key[600];
	const char *other;

	*out = NULL;
	if (gid == NULL || policy == NULL || strstr(policy, "anti-affinity") == NULL)
		return 0;
	snprintf(key, sizeof key, "%s %s", gid, host);
	if ((other = json_string_value(json_object_get(used, key))) == NULL) {
		json_object_set_new(used, key, json_string(vid));
		*out = group_label(b, gid);
		return 0;
	}
	if (strcmp(policy, "anti-affinity") == 0 && max <= 1) {
		diag_path(group_file(b, gid), ".", "server group \"%s\" "
		    "(anti-affinity) has servers \"%s\" and \"%s\" on host %s%s",
		    group_label(b, gid), other, vid, host,
		    json_is_true(json_object_get(g, "shown")) ? "" : " (when "
		    "its rules allow it, give 'openstack server group show "
		    "-f json' of it with -g: only the show has "
		    "max_server_per_host)");
		return -1;
	}
	import_warn(b->im, group_file(b, gid), ".", "servers taken out of "
	    "their group", "server group \"%s\" (%s, at most %lld per host) has servers \"%s\" and \"%s\" on host %s: \"%s\" "
	    "taken out of the group", group_label(b, gid), policy,
	    (long long)max, other, vid, host, vid);
	return 0;
}

/* add_vm_nova_fields: the server's status and zone, when listed. */
static void
add_vm_nova_fields(const json_t *vm, json_t *out)
{
	if (json_object_get(vm, "status") != NULL)
		json_object_set(out, "status", json_object_get(vm, "status"));
	if (json_object_get(vm, "zone") != NULL)
		json_object_set(out, "zone", json_object_get(vm, "zone"));
}

static int
add_vm(struct build *b, json_t *by_key, json_t *used, const char *vid)
{
	const json_t *vm = json_object_get(b->im->vms, vid);
	const char *host = json_string_value(json_object_get(vm, "host"));
	json_t *t = tenant_of(b, by_key, vm), *out;
	const char *group;

	if (place_in_group(b, used, vid, vm, &group) < 0)
		return -1;
	out = json_pack("{s:s,s:s}", "id", vid, "host", host);
	if (group != NULL)
		json_object_set_new(out, "group", json_string(group));
	add_vm_nova_fields(vm, out);
	json_array_append_new(json_object_get(t, "vms"), out);
	json_object_set_new(b->vm_count, host, json_integer(1 +
	    json_integer_value(json_object_get(b->vm_count, host))));
	return 0;
}

/* sla_term: the entry's term, else the site's default one, else dflt. */
static json_int_t
sla_term(const struct build *b, const json_t *entry, const char *key,
    json_int_t dflt)
{
	const json_t *v = json_object_get(entry, key);

	if (!json_is_integer(v))
		v = json_object_get(json_object_get(json_object_get(b->im->site,
		    "sla"), "default"), key);
	return json_is_integer(v) ? json_integer_value(v) : dflt;
}

/* finish_tenant: the SLA of tenant t; a max below its VMs is refused. */
static json_t *
finish_tenant(struct build *b, const json_t *t)
{
	const json_t *entry = json_object_get(t, "entry");
	const char *name = json_string_value(json_object_get(t, "name"));
	json_int_t n = (json_int_t)json_array_size(json_object_get(t, "vms"));
	json_int_t max = sla_term(b, entry, "max", n);

	if (json_is_null(entry))
		import_warn(b->im, b->im->files.site, ".sla", "tenants without "
		    "an SLA", "tenant \"%s\" has no SLA and there is no default: assumed min 1, max %lld (its VMs "
		    "now), no scaling", name, (long long)n);
	else if (strcmp(json_string_value(json_object_get(t, "path")),
	    ".sla.default") == 0)
		import_warn(b->im, b->im->files.site, ".sla.default", "tenants "
		    "on the default SLA", "tenant \"%s\" has no SLA of its "
		    "own: the default applies", name);
	if (max < n) {
		diag_path(b->im->files.site, json_string_value(json_object_get(t,
		    "path")), "tenant \"%s\" runs %lld VMs, more than its max "
		    "%lld", name, (long long)n, (long long)max);
		return NULL;
	}
	return json_pack("{s:s,s:I,s:I,s:I,s:I,s:O}", "id", name,
	    "min", sla_term(b, entry, "min", n < 1 ? n : 1), "max", max,
	    "scaling_adjustment", sla_term(b, entry, "scaling_adjustment", 1),
	    "cooldown", sla_term(b, entry, "cooldown", 0),
	    "vms", json_object_get(t, "vms"));
}

/* capacity_of: one host's capacity, kept under its id. */
static int
capacity_of(struct access *a, const char *name, const json_t *v, void *ctx)
{
	struct build *b = ctx;
	const char *id;
	json_int_t k;

	if (acc_as_int(a, v, &k) < 0)
		return -1;
	if (k < 1)
		return access_fail(a, "capacity below 1");
	if ((id = host_id(b->im, name)) == NULL)
		import_access_warn(b->im, a, "capacities of no hypervisor",
		    "no hypervisor \"%s\"; ignored", name);
	else
		json_object_set(b->capacity, id, (json_t *)v);
	return 0;
}

/* read_capacity: the site's capacity per host, by any of its names. */
int
read_capacity(struct build *b)
{
	return acc_each_member(b->a, b->im->site, "capacity", ACC_OPTIONAL,
	    capacity_of, b) < 0 ? -1 : 0;
}

/* check_capacity: no host runs more VMs than its slots. */
static int
check_capacity(struct build *b)
{
	const char *host;
	json_t *n;
	json_int_t cap;

	json_object_foreach(b->vm_count, host, n) {
		cap = json_integer_value(json_object_get(b->capacity, host));
		if (cap == 0)
			cap = json_integer_value(json_object_get(b->im->site,
			    "host_capacity"));
		if (json_integer_value(n) > cap) {
			diag_path(b->im->files.site, json_object_get(b->capacity,
			    host) ? ".capacity" : ".host_capacity", "host %s runs "
			    "%lld VMs, more than its %lld slots", host,
			    (long long)json_integer_value(n), (long long)cap);
			return -1;
		}
	}
	return 0;
}

static void
warn_unmodelled(struct build *b)
{
	const char *gid, *policy;
	json_t *g;

	json_object_foreach(b->im->groups, gid, g) {
		policy = json_string_value(json_object_get(g, "policy"));
		if (policy != NULL && strstr(policy, "anti-affinity") == NULL)
			import_warn(b->im, group_file(b, gid), ".", "groups not "
			    "kept", "server group \"%s\" has policy \"%s\", which upkit does not keep",
			    group_label(b, gid), policy);
	}
}

int
build_tenants(struct build *b)
{
	json_t *ids = sorted_keys(b->im->vms), *by_key = json_object();
	json_t *used = json_object(), *v, *keys, *t;
	size_t i;
	int r = 0;

	warn_unmodelled(b);
	json_array_foreach(ids, i, v)
		if (r == 0)
			r = add_vm(b, by_key, used, json_string_value(v));
	keys = sorted_keys(by_key);
	json_array_foreach(keys, i, v) {
		if (r < 0)
			break;
		t = finish_tenant(b, json_object_get(by_key, json_string_value(v)));
		if (t == NULL)
			r = -1;
		else
			json_array_append_new(b->tenants, t);
	}
	if (r == 0)
		r = check_capacity(b);
	json_decref(keys);
	json_decref(ids);
	json_decref(by_key);
	json_decref(used);
	return r;
}
