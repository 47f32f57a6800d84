/*
 * servers.c: VMs from "openstack server list --long --all-projects
 * -c ID -c Name -c Status -c Host -c 'Project ID' -f json".  --long
 * gives the Host column: the hypervisor hostname from client 6.1, the
 * service host before; either leads to the host (hosts.c).  The list
 * has a Project ID column only when asked for with -c; without it a
 * server's project is its server group's, and a server in no group is
 * refused: its project, and so the SLA it is moved under, is unknown.  A server keeps its Status
 * (ACTIVE, SHUTOFF, ...: nova live-migrates only ACTIVE and PAUSED
 * ones) and its Availability Zone, both columns of --long.
 */
#include <string.h>

#include "import.h"

static const char *
text_of(const json_t *row, const char *key, const char *alias)
{
	return json_string_value(column(row, key, alias));
}

/* project_of: the server's project, from its row or its group. */
static const char *
project_of(const struct import *im, const json_t *row, const char *id)
{
	const char *p = text_of(row, "Project ID", "project_id");
	const char *group = json_string_value(json_object_get(im->member_of, id));

	if (p == NULL && group != NULL)
		p = json_string_value(json_object_get(json_object_get(im->groups,
		    group), "project"));
	return p;
}

static int
add_server(struct import *im, struct access *a, const json_t *row)
{
	const char *id, *host, *hid, *project, *status, *zone;
	json_t *group, *vm;

	if (acc_as_object(a, row) < 0)
		return -1;
	if ((id = text_of(row, "ID", "id")) == NULL)
		return access_fail(a, "missing column \"ID\"");
	if (json_object_get(im->vms, id) != NULL)
		return access_fail(a, "server \"%s\" is listed twice", id);
	host = text_of(row, "Host", "OS-EXT-SRV-ATTR:host");
	status = text_of(row, "Status", "status");
	if (host == NULL || *host == '\0') {
		import_access_warn(im, a, "servers without a host", "server "
		    "\"%s\" (%s) has no host; left out", id,
		    status ? status : "no status");
		return 0;
	}
	if ((hid = host_id(im, host)) == NULL) {
		import_access_warn(im, a, "servers on unlisted hosts", "server "
		    "\"%s\" is on host \"%s\", which no hypervisor lists; "
		    "left out", id, host);
		return 0;
	}
	if ((project = project_of(im, row, id)) == NULL)
		return access_fail(a, "server \"%s\" has no \"Project ID\" "
		    "and no server group: no project's SLA can apply to it "
		    "(list the servers with -c 'Project ID')", id);
	group = json_object_get(im->member_of, id);
	vm = json_pack("{s:s,s:s,s:O}", "host", hid, "project", project,
	    "group", group ? group : json_null());
	if (status != NULL && *status != '\0')
		json_object_set_new(vm, "status", json_string(status));
	zone = text_of(row, "Availability Zone", "OS-EXT-AZ:availability_zone");
	if (zone != NULL && *zone != '\0')
		json_object_set_new(vm, "zone", json_string(zone));
	json_object_set_new(im->vms, id, vm);
	return 0;
}

int
read_servers(struct import *im, struct access *a, const json_t *list)
{
	return each_row(im, a, list, add_server);
}
