/*
 * zones.c: host aggregates from "openstack aggregate list --long -f
 * json" (columns ID, Name, Availability Zone, Properties and, from
 * newer clients, Hosts) or "openstack aggregate show -f json" (id,
 * name, availability_zone, hosts, properties), and availability zones
 * from "openstack availability zone list --long --compute -f json"
 * (one row per zone, host and service: Zone Name, Zone Status, Zone
 * Resource, Host Name, Service Name, Service Status).
 *
 * Each becomes a named set of compute hosts, "aggregate:NAME" and
 * "zone:NAME", that the site file may name wherever it lists hosts, so
 * that a rack's switch or a storage's clients are written once (see
 * upkit-import(1)).  The names these outputs give are nova-compute
 * service hosts, matched to hypervisors as every other name is; one
 * that no hypervisor has is left out of the set, with a warning.
 */
#include <stdlib.h>
#include <string.h>

#include "import.h"
#include "xalloc.h"

/* add_to_set: host name joins set key (once), if a hypervisor has it. */
static int
add_to_set(struct import *im, struct access *a, const char *name,
    const char *key)
{
	const char *id = host_id(im, name);
	json_t *set = json_object_get(im->sets, key);
	char *member;

	if (set == NULL) {
		set = json_array();
		json_object_set_new(im->sets, key, set);
	}
	if (id == NULL) {
		import_access_warn(im, a, "set members without a hypervisor",
		    "\"%s\" of %s is no hypervisor: left out", name, key);
		return 0;
	}
	member = xasprintf("%s %s", key, id);	/* a set's members, once */
	if (json_object_get(im->set_members, member) == NULL) {
		json_object_set_new(im->set_members, member, json_true());
		json_array_append_new(set, json_string(id));
	}
	free(member);
	return 0;
}

static int
add_aggregate(struct import *im, struct access *a, const json_t *row)
{
	const char *name;
	json_t *hosts;
	char *key;
	int r;

	if (acc_as_object(a, row) < 0)
		return -1;
	if ((name = json_string_value(column(row, "Name", "name"))) == NULL)
		return access_fail(a, "missing column \"Name\"");
	if ((hosts = column(row, "Hosts", "hosts")) == NULL)
		return access_fail(a, "missing column \"Hosts\" (clients before "
		    "it was added to --long: give \"openstack aggregate show -f "
		    "json\" of each aggregate)");
	key = xasprintf("aggregate:%s", name);
	if (json_object_get(im->sets, key) == NULL)	/* even with no host */
		json_object_set_new(im->sets, key, json_array());
	access_enter_key(a, json_object_get(row, "Hosts") ? "Hosts" : "hosts");
	r = each_item(a, hosts, add_to_set, im, key);
	access_leave(a);
	free(key);
	return r;
}

/* read_aggregates: a list, or one aggregate's show output. */
int
read_aggregates(struct import *im, struct access *a, const json_t *doc)
{
	if (json_is_object(doc))
		return add_aggregate(im, a, doc);
	return each_row(im, a, doc, add_aggregate);
}

static int
add_zone_host(struct import *im, struct access *a, const json_t *row)
{
	const char *zone, *host = "", *service = "";
	char *key;
	int r;

	if (acc_as_object(a, row) < 0)
		return -1;
	if ((zone = json_string_value(column(row, "Zone Name",
	    "zone_name"))) == NULL)
		return access_fail(a, "missing column \"Zone Name\"");
	if (json_is_string(column(row, "Host Name", "host_name")))
		host = json_string_value(column(row, "Host Name", "host_name"));
	if (json_is_string(column(row, "Service Name", "service_name")))
		service = json_string_value(column(row, "Service Name",
		    "service_name"));
	if (*host == '\0' && column(row, "Host Name", "host_name") == NULL)
		return access_fail(a, "missing column \"Host Name\" (list the "
		    "zones with --long)");
	/* Only compute services place VMs; the rest are the control plane,
	 * and network or volume zones list no host. */
	if (*host == '\0' || strcmp(service, "nova-compute") != 0)
		return 0;
	key = xasprintf("zone:%s", zone);
	r = add_to_set(im, a, host, key);
	free(key);
	return r;
}

int
read_zones(struct import *im, struct access *a, const json_t *list)
{
	return each_row(im, a, list, add_zone_host);
}

int
set_hosts(const struct import *im, struct access *a, const char *name,
    const json_t **hosts)
{
	*hosts = NULL;
	if (strncmp(name, "aggregate:", 10) != 0 &&
	    strncmp(name, "zone:", 5) != 0)
		return 0;
	if ((*hosts = json_object_get(im->sets, name)) == NULL)
		return access_fail(a, "no %s \"%s\" in the %s given",
		    name[0] == 'a' ? "aggregate" : "availability zone",
		    strchr(name, ':') + 1, name[0] == 'a' ?
		    "aggregate lists (-A)" : "zone lists (-Z)");
	return 1;
}
