/*
 * hosts.c: compute hosts from "openstack hypervisor list --long -f
 * json": columns ID, Hypervisor Hostname, Hypervisor Type, Host IP (the
 * host's address, for the inventory's ansible_host), State and, before
 * compute API 2.88, vCPUs Used, vCPUs, Memory MB Used and Memory MB
 * (ignored: capacity in VM slots comes from the site file).  "Status"
 * is read when present (hypervisor show).
 *
 * The hypervisor hostname is often a fully qualified name, while
 * aggregates, availability zones and, before client 6.1, the server
 * list's Host column give the nova-compute service host, often the
 * short name.  A host's id is its short name (up to the first dot);
 * both names lead to it.  Two hypervisors with one short name are
 * refused rather than guessed between.
 */
#include <string.h>

#include "diag.h"
#include "import.h"
#include "xalloc.h"

/* short_name: name up to its first dot (a new string). */
char *
short_name(const char *name)
{
	char *s = xstrdup(name), *dot = strchr(s, '.');

	if (dot != NULL && dot != s)
		*dot = '\0';
	return s;
}

/* column: the member key of row, or alias (the show form of a key). */
json_t *
column(const json_t *row, const char *key, const char *alias)
{
	json_t *v = json_object_get(row, key);

	return v != NULL || alias == NULL ? v : json_object_get(row, alias);
}

const char *
host_id(const struct import *im, const char *name)
{
	const char *id = json_string_value(json_object_get(im->names, name));
	char *s;

	if (id != NULL)
		return id;
	s = short_name(name);
	id = json_string_value(json_object_get(im->names, s));
	free(s);
	return id;
}

static int
text_column(struct access *a, const json_t *row, const char *key,
    const char *alias, int flags, const char **out)
{
	json_t *v = column(row, key, alias);

	if (v == NULL || json_is_null(v)) {
		if (flags == ACC_OPTIONAL)
			return 1;
		return access_fail(a, "missing column \"%s\"", key);
	}
	access_enter_key(a, json_object_get(row, key) ? key : alias);
	if (acc_as_string(a, v, out) < 0)
		return -1;
	access_leave(a);
	return 0;
}

/* host_ip: the optional Host IP column, an address upkit-state(5) takes. */
static int
host_ip(struct access *a, const json_t *row, const char **ip)
{
	static const char allowed[] = "0123456789abcdefABCDEF.:";

	*ip = "";
	if (text_column(a, row, "Host IP", "host_ip", ACC_OPTIONAL, ip) < 0)
		return -1;
	if ((*ip)[strspn(*ip, allowed)] != '\0')
		return access_fail(a, "column \"Host IP\": \"%s\" is not an "
		    "IP address", *ip);
	return 0;
}

static int
add_host(struct import *im, struct access *a, const json_t *row)
{
	const char *name, *type = "", *state = "up", *status = "enabled";
	const char *known, *ip;
	char *id;
	int r = 0;

	if (acc_as_object(a, row) < 0 ||
	    text_column(a, row, "Hypervisor Hostname", "hypervisor_hostname",
	    ACC_REQUIRED, &name) < 0 ||
	    text_column(a, row, "Hypervisor Type", "hypervisor_type",
	    ACC_REQUIRED, &type) < 0 ||
	    text_column(a, row, "State", "state", ACC_OPTIONAL, &state) < 0 ||
	    text_column(a, row, "Status", "status", ACC_OPTIONAL, &status) < 0 ||
	    host_ip(a, row, &ip) < 0)
		return -1;
	id = short_name(name);
	if ((known = json_string_value(json_object_get(im->names, id))) != NULL)
		r = access_fail(a, "hypervisor \"%s\" has the short name of "
		    "\"%s\", listed before: host names must differ before "
		    "the first dot", name,
		    json_string_value(json_object_get(json_object_get(im->hosts,
		    known), "name")));
	else {
		json_object_set_new(im->hosts, id, json_pack(
		    "{s:s,s:s,s:s,s:s,s:s}", "name", name, "type", type,
		    "state", state, "status", status, "address", ip));
		json_object_set_new(im->names, name, json_string(id));
		json_object_set_new(im->names, id, json_string(id));
	}
	free(id);
	return r;
}

int
each_row(struct import *im, struct access *a, const json_t *list, row_fn fn)
{
	const json_t *row;
	size_t i;

	if (acc_as_array(a, list) < 0)
		return -1;
	json_array_foreach(list, i, row) {
		access_enter_index(a, i);
		if (fn(im, a, row) < 0)
			return -1;
		access_leave(a);
	}
	return 0;
}

int
read_hypervisors(struct import *im, struct access *a, const json_t *list)
{
	if (each_row(im, a, list, add_host) < 0)
		return -1;
	if (json_array_size(list) == 0)
		access_warn(a, "no hypervisor listed: the system has no compute "
		    "host");
	return 0;
}
