/*
 * groups.c: server groups from "openstack server group list --long
 * --all-projects -f json" (columns ID, Name, Policies or, from compute
 * API 2.64, Policy, then Members, Project Id, User Id) and from
 * "openstack server group show -f json" (id, name, policy or policies,
 * members, project_id, rules), the only place max_server_per_host is.
 *
 * Older clients print a list column as one string, "a, b"; newer ones
 * as a JSON array: both are read.  A server in two groups contradicts
 * nova, which keeps a server in one group at most, and is refused.
 */
#include <string.h>

#include "import.h"
#include "xalloc.h"

int
each_item(struct access *a, const json_t *v,
    int (*fn)(struct import *, struct access *, const char *, const char *),
    struct import *im, const char *group)
{
	const json_t *item;
	char *copy, *p, *end;
	size_t i;
	int r = 0;

	if (json_is_array(v)) {
		json_array_foreach(v, i, item) {
			access_enter_index(a, i);
			if (!json_is_string(item))
				return access_fail(a, "expected string");
			if (fn(im, a, json_string_value(item), group) < 0)
				return -1;
			access_leave(a);
		}
		return 0;
	}
	if (!json_is_string(v))
		return access_fail(a, "expected array or string");
	copy = xstrdup(json_string_value(v));
	for (p = copy; r == 0 && *p != '\0'; p = end) {
		end = p + strcspn(p, ",");
		if (*end == ',')
			*end++ = '\0';
		while (*p == ' ')
			p++;
		if (*p != '\0')
			r = fn(im, a, p, group);
		while (*end == ' ')
			end++;
	}
	free(copy);
	return r;
}

static int
add_member(struct import *im, struct access *a, const char *server,
    const char *group)
{
	const char *other = json_string_value(json_object_get(im->member_of,
	    server));

	if (other != NULL && strcmp(other, group) != 0)
		return access_fail(a, "server \"%s\" is a member of server "
		    "groups \"%s\" and \"%s\"; nova keeps it in one", server,
		    other, group);
	json_object_set_new(im->member_of, server, json_string(group));
	return 0;
}

static int
set_policy(struct import *im, struct access *a, const char *policy,
    const char *group)
{
	json_object_set_new(json_object_get(im->groups, group), "policy",
	    json_string(policy));
	(void)a;
	return 0;
}

/* group_entry: the entry of server group id, made when new. */
static json_t *
group_entry(struct import *im, const char *id, const char *name)
{
	json_t *g = json_object_get(im->groups, id);

	if (g == NULL) {
		g = json_pack("{s:s,s:s,s:I}", "name", name, "policy", "",
		    "max", (json_int_t)1);
		json_object_set_new(im->groups, id, g);
	}
	return g;
}

static int
read_rules(struct access *a, const json_t *row, json_t *g)
{
	json_t *rules = column(row, "rules", "Rules");
	json_int_t max = 1;

	if (rules == NULL || json_is_null(rules))
		return 0;	/* a list row: no rules, not shown */
	access_enter_key(a, "rules");
	if (acc_get_int_range(a, rules, "max_server_per_host", ACC_OPTIONAL, 1,
	    1000000, &max) < 0)
		return -1;
	access_leave(a);
	json_object_set_new(g, "max", json_integer(max));
	json_object_set_new(g, "shown", json_true());
	return 0;
}

static int
read_group(struct import *im, struct access *a, const json_t *row)
{
	const char *id, *name = "";
	json_t *g, *v;

	if (acc_as_object(a, row) < 0)
		return -1;
	if (!json_is_string(column(row, "ID", "id")))
		return access_fail(a, "missing column \"ID\"");
	id = json_string_value(column(row, "ID", "id"));
	if (json_is_string(column(row, "Name", "name")))
		name = json_string_value(column(row, "Name", "name"));
	g = group_entry(im, id, name);
	json_object_set_new(g, "file", json_string(a->file));
	json_object_set_new(g, "at", json_string(access_path(a)));
	if (json_is_string(v = column(row, "Project Id", "project_id")))
		json_object_set(g, "project", v);
	if ((v = column(row, "Policy", "policy")) != NULL && !json_is_null(v)) {
		access_enter_key(a, json_object_get(row, "Policy") ? "Policy" :
		    "policy");
		if (each_item(a, v, set_policy, im, id) < 0)
			return -1;
		access_leave(a);
	}
	if ((v = column(row, "Policies", "policies")) != NULL) {
		access_enter_key(a, json_object_get(row, "Policies") ?
		    "Policies" : "policies");
		if (each_item(a, v, set_policy, im, id) < 0)
			return -1;
		access_leave(a);
	}
	if ((v = column(row, "Members", "members")) != NULL) {
		access_enter_key(a, json_object_get(row, "Members") ?
		    "Members" : "members");
		if (each_item(a, v, add_member, im, id) < 0)
			return -1;
		access_leave(a);
	}
	return read_rules(a, row, g);
}

int
read_group_list(struct import *im, struct access *a, const json_t *list)
{
	return each_row(im, a, list, read_group) < 0 ||
	    groups_listed_once(a, list) < 0 ? -1 : 0;
}

/* read_group_show: one group's show, or an array of them (jq -s). */
int
read_group_show(struct import *im, struct access *a, const json_t *show)
{
	if (json_is_array(show))
		return each_row(im, a, show, read_group);
	return read_group(im, a, show);
}
