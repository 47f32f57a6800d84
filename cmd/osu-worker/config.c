/*
 * config.c: the worker's configuration, a JSON or YAML document:
 *
 *	host: h01			optional: default the host name
 *	state-file: /var/lib/osu-worker/state.json
 *	commands:
 *	  prepare: [apt-get, -y, --download-only, dist-upgrade]
 *	  upgrade: [/usr/local/sbin/os-upgrade]
 *	  reboot: [systemctl, reboot]
 *	  versions: [/usr/local/sbin/os-versions]	optional
 *	  upgrade-check: [/usr/local/sbin/os-upgraded]	optional
 *	upgrade-reboots: false		optional: the upgrade may reboot
 *
 * Commands are argv arrays, never shell strings.
 */
#include <stdlib.h>
#include <unistd.h>

#include "access.h"
#include "worker.h"
#include "xalloc.h"

static int
get_argv(struct access *a, const json_t *cmds, const char *key, int flags,
    char ***out)
{
	json_t *arr, *v;
	const char *s;
	size_t i;
	int r = acc_get_array(a, cmds, key, flags, &arr);

	*out = NULL;
	if (r != 0)
		return r < 0 ? -1 : 0;
	access_enter_key(a, key);
	if (json_array_size(arr) == 0) {
		r = access_fail(a, "expected a command: an array of "
		    "arguments, got an empty array");
		access_leave(a);
		return r;
	}
	*out = xcalloc(json_array_size(arr) + 1, sizeof **out);
	json_array_foreach(arr, i, v) {
		access_enter_index(a, i);
		r = acc_as_string(a, v, &s);
		access_leave(a);
		if (r < 0)
			break;
		(*out)[i] = (char *)s;
	}
	access_leave(a);
	return r < 0 ? -1 : 0;
}

static int
load_commands(struct access *a, const json_t *doc, struct config *c)
{
	static const char *const keys[] = { "prepare", "upgrade", "reboot",
		"versions", "upgrade-check", NULL };
	json_t *cmds;
	int r;

	if (acc_get_object(a, doc, "commands", ACC_REQUIRED, &cmds) < 0)
		return -1;
	access_enter_key(a, "commands");
	r = acc_check_keys(a, cmds, keys) < 0 ||
	    get_argv(a, cmds, "prepare", ACC_REQUIRED, &c->prepare) < 0 ||
	    get_argv(a, cmds, "upgrade", ACC_REQUIRED, &c->upgrade) < 0 ||
	    get_argv(a, cmds, "reboot", ACC_REQUIRED, &c->reboot) < 0 ||
	    get_argv(a, cmds, "versions", ACC_OPTIONAL, &c->versions) < 0 ||
	    get_argv(a, cmds, "upgrade-check", ACC_OPTIONAL,
	    &c->upgrade_check) < 0;
	access_leave(a);
	return r ? -1 : 0;
}

int
config_load(const char *file, json_t *doc, struct config *c)
{
	static const char *const keys[] = { "host", "state-file", "commands",
		"upgrade-reboots", NULL };
	struct access a;
	int r;

	access_init(&a, file);
	r = acc_as_object(&a, doc) < 0 || acc_check_keys(&a, doc, keys) < 0 ||
	    acc_get_string(&a, doc, "host", ACC_OPTIONAL, &c->host) < 0 ||
	    acc_get_string(&a, doc, "state-file", ACC_REQUIRED,
	    &c->state_file) < 0 || acc_get_bool(&a, doc, "upgrade-reboots",
	    ACC_OPTIONAL, &c->upgrade_reboots) < 0 ||
	    load_commands(&a, doc, c) < 0;
	if (!r && c->host != NULL && c->host[0] == '\0')
		r = access_fail_at(&a, "host", "empty host name");
	access_free(&a);
	return r ? -1 : 0;
}

void
config_free(struct config *c)
{
	free(c->prepare);
	free(c->upgrade);
	free(c->reboot);
	free(c->versions);
	free(c->upgrade_check);
}
