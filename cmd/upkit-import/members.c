/*
 * members.c: server groups that contradict the rest of the input are
 * refused with their place (issue 38): a group listed twice in one list,
 * and a member that is not among the servers (nova drops a deleted
 * server from its group, so such a member is a stale or partial input).
 */
#include <string.h>

#include "diag.h"
#include "import.h"
#include "load.h"

int
groups_listed_once(struct access *a, const json_t *list)
{
	json_t *seen = json_object(), *v;
	const json_t *row;
	const char *id;
	size_t i;
	int r = 0;

	json_array_foreach(list, i, row) {
		id = json_string_value(column(row, "ID", "id"));
		if (id == NULL)
			continue;
		if ((v = json_object_get(seen, id)) != NULL) {
			access_enter_index(a, i);
			r = access_fail(a, "server group \"%s\" is listed twice "
			    "(also at [%" JSON_INTEGER_FORMAT "])", id,
			    json_integer_value(v));
			access_leave(a);
			break;
		}
		json_object_set_new(seen, id, json_integer((json_int_t)i));
	}
	json_decref(seen);
	return r;
}

int
members_are_servers(const struct import *im)
{
	const char *server, *first = NULL, *group, *file, *at;
	const json_t *v, *g;

	json_object_foreach(im->member_of, server, v)
		if (json_object_get(im->vms, server) == NULL &&
		    (first == NULL || strcmp(server, first) < 0))
			first = server;
	if (first == NULL)
		return 0;
	group = json_string_value(json_object_get(im->member_of, first));
	g = json_object_get(im->groups, group);
	file = json_string_value(json_object_get(g, "file"));
	at = json_string_value(json_object_get(g, "at"));
	diag_path(file, at != NULL ? at : "", "server group \"%s\" has "
	    "member \"%s\", which is not among the servers of %s", group,
	    first, load_name(im->files.servers));
	return -1;
}
