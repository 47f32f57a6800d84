/*
 * check.c: gather the schedules a playbook runs (sched_list_collect()
 * checks their form, that no string holds a NUL, which would cut it
 * short, and that action ids are unique over the whole playbook, since
 * a task's name is how ansible-report finds an action's result again)
 * and check, before a byte is written, what Ansible would otherwise
 * misread: hosts must be plain names, since in a play's "hosts" Ansible
 * reads "a,b", "a:b", "h1; rm -rf /" (split at blanks), "web*", "~re",
 * "!a" and "all" as patterns, and has no way to escape them; nor may a
 * host take the name of one of the inventory's groups (inventory.c).
 */
#include <string.h>

#include "ap.h"
#include "state.h"

static const char plain_chars[] = "abcdefghijklmnopqrstuvwxyz"
    "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._-";

int
host_name_ok(const char *s)
{
	return *s != '\0' && *s != '-' && s[strspn(s, plain_chars)] == '\0' &&
	    strcmp(s, "all") != 0 && strcmp(s, "ungrouped") != 0;
}

int
run_id_ok(const char *s)
{
	size_t n = strspn(s, plain_chars);

	return n > 0 && n <= 64 && s[n] == '\0' && strchr("._-", s[0]) == NULL;
}

/* plain_host: an action, an undo step or a replacement. */
static int
plain_host(struct access *a, const json_t *step, void *ctx)
{
	const char *host = json_string_value(json_object_get(step, "host"));

	(void)ctx;
	if (!host_name_ok(host))
		return access_fail_at(a, "host", "\"%s\" is not a plain Ansible "
		    "host name (letters, digits, '.', '-', '_'): Ansible would "
		    "read it as a host pattern", host);
	if (inventory_group_name(host))
		return access_fail_at(a, "host", "\"%s\" is the name of one of "
		    "the inventory's groups: Ansible would run the play on the "
		    "whole group", host);
	return 0;
}

int
plan_collect(struct access *a, const json_t *doc, struct sched_list *p)
{
	if (state_check(a, doc) < 0)
		return -1;
	return sched_list_collect(a, doc, plain_host, NULL, p);
}
