/*
 * services.c: what nova decides with, from "openstack compute service
 * list --long -f json": columns ID, Binary, Host, Zone, Status
 * ("enabled" or "disabled"), State ("up" or "down"), Updated At,
 * Disabled Reason and, from compute API 2.11, Forced Down (a boolean).
 * Only nova-compute rows are read.  Host is the compute service host,
 * the name nova's --host options take, which may differ from the
 * hypervisor hostname (a short name beside an FQDN, or the other way
 * round); it leads to its hypervisor as every other name does
 * (hosts.c), and the host keeps it as its service_host.
 *
 * nova schedules nothing to a disabled service, and a service that is
 * down or forced down runs nothing: such a host is out of service, as
 * the hypervisor list's State and Status say too when it has them.
 * A down host is written failed: in seed 000 (III.A) no plan takes an
 * action on it, and the loop takes it up again once it is back.  A
 * disabled one is deactivated: it is upgraded like the others, its
 * VMs counted where they are and none sent to it.  Unless the reason
 * its service was disabled with starts with "upkit:" (what upkit's own
 * catalogs give --disable-reason, so that a refresh in the middle of
 * an upgrade knows its own work), the operator disabled it: host and
 * hypervisor are also "disabled", and no plan enables it again.
 */
#include <string.h>

#include "import.h"

static const char *
text(const json_t *row, const char *key, const char *alias)
{
	return json_string_value(column(row, key, alias));
}

/* forced_down: the Forced Down column, a boolean or, from older
 * clients, the text "True". */
static int
forced_down(const json_t *row)
{
	const json_t *v = column(row, "Forced Down", "forced_down");

	return json_is_true(v) || (json_is_string(v) &&
	    strcmp(json_string_value(v), "True") == 0);
}

static int
add_service(struct import *im, struct access *a, const json_t *row)
{
	const char *binary, *host, *zone, *status, *state, *id;
	json_t *h;

	if (acc_as_object(a, row) < 0)
		return -1;
	if ((binary = text(row, "Binary", "binary")) == NULL)
		return access_fail(a, "missing column \"Binary\"");
	if (strcmp(binary, "nova-compute") != 0)
		return 0;
	if ((host = text(row, "Host", "host")) == NULL || *host == '\0')
		return access_fail(a, "missing column \"Host\"");
	if ((id = host_id(im, host)) == NULL) {
		import_access_warn(im, a, "services without a hypervisor",
		    "nova-compute service host \"%s\" has no hypervisor in "
		    "the hypervisor list; ignored", host);
		return 0;
	}
	h = json_object_get(im->hosts, id);
	if (json_object_get(h, "service_host") != NULL)
		return access_fail(a, "host %s has a second nova-compute "
		    "service, \"%s\"", id, host);
	zone = text(row, "Zone", "zone");
	status = text(row, "Status", "status");
	state = text(row, "State", "state");
	json_object_set_new(h, "service_host", json_string(host));
	json_object_set_new(h, "service_file", json_string(a->file));
	if (zone != NULL && *zone != '\0')
		json_object_set_new(h, "zone", json_string(zone));
	json_object_set_new(h, "service_disabled", json_boolean(status &&
	    strcmp(status, "disabled") == 0));
	json_object_set_new(h, "service_down", json_boolean(state &&
	    strcmp(state, "down") == 0));
	json_object_set_new(h, "forced_down", json_boolean(forced_down(row)));
	if (text(row, "Disabled Reason", "disabled_reason") != NULL)
		json_object_set_new(h, "disabled_reason", json_string(text(row,
		    "Disabled Reason", "disabled_reason")));
	/* the service host names this host in every other input too */
	json_object_set_new(im->names, host, json_string(id));
	return 0;
}

int
read_services(struct import *im, struct access *a, const json_t *list)
{
	return each_row(im, a, list, add_service);
}

const char *
host_service_status(struct import *im, const char *id)
{
	const json_t *h = json_object_get(im->hosts, id);
	const char *name = json_string_value(json_object_get(h, "name"));
	const char *state = json_string_value(json_object_get(h, "state"));
	const char *status = json_string_value(json_object_get(h, "status"));
	const char *reason, *svc = json_string_value(json_object_get(h, "service_file"));

	if (json_is_true(json_object_get(h, "forced_down"))) {
		import_warn(im, svc, ".", "hosts forced down", "nova-compute "
		    "of \"%s\" is forced down: host %s taken as failed", name, id);
		return "failed";
	}
	if (json_is_true(json_object_get(h, "service_down"))) {
		import_warn(im, svc, ".", "hosts down", "nova-compute of "
		    "\"%s\" is down: host %s taken as failed", name, id);
		return "failed";
	}
	if (state != NULL && strcmp(state, "down") == 0) {
		import_warn(im, im->files.hypervisors, ".", "hosts down",
		    "hypervisor \"%s\" is down: host %s taken as failed",
		    name, id);
		return "failed";
	}
	if (json_is_true(json_object_get(h, "service_disabled"))) {
		reason = json_string_value(json_object_get(h,
		    "disabled_reason"));
		if (!host_disabled(im, id))
			return "deactivated";
		import_warn(im, svc, ".", "hosts disabled", "nova-compute of "
		    "\"%s\" is disabled%s%s%s: host %s upgraded out of "
		    "service and left disabled", name, reason ? " (\"" : "",
		    reason ? reason : "", reason ? "\")" : "", id);
		return "deactivated";
	}
	if (status != NULL && strcmp(status, "disabled") == 0) {
		import_warn(im, im->files.hypervisors, ".", "hosts disabled",
		    "hypervisor \"%s\" is disabled: host %s upgraded out of "
		    "service and left disabled", name, id);
		return "deactivated";
	}
	return NULL;
}

int
host_disabled(struct import *im, const char *id)
{
	const json_t *h = json_object_get(im->hosts, id);
	const char *status = json_string_value(json_object_get(h, "status"));
	const char *reason = json_string_value(json_object_get(h,
	    "disabled_reason"));

	if (json_is_true(json_object_get(h, "service_disabled")))
		return reason == NULL || strncmp(reason, "upkit:", 6) != 0;
	return status != NULL && strcmp(status, "disabled") == 0;
}
