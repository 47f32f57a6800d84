/*
 * request_add.c: the resources an "add" change brings into the system
 * (seed 000 II.D: "the addition ... of some resources themselves").
 *
 * The change carries a piece of the system section,
 *
 *	{"op": "add", "system": {"resources": [...], "dependencies": [...]}}
 *
 * each resource as the system section lists one, with the products to
 * install on it, and the dependencies that tie the new resources to
 * each other and to the system.  The dependencies become the change's
 * dependency changes: rg-build records them as the resource graph's
 * future edges until the system shows them.
 */
#include "request.h"
#include "xalloc.h"

static int
resource_at(struct access *a, const json_t *v, size_t i, void *ctx)
{
	(void)i;
	(void)ctx;
	return resource_spec_check(a, v);
}

static int
dependency_at(struct access *a, const json_t *v, size_t i, void *ctx)
{
	static const char *const known[] = { "type", "dependent", "sponsor",
		NULL };
	struct change *c = ctx;
	struct dep_change d;
	int type;

	(void)i;
	if (acc_as_object(a, v) < 0 || acc_check_keys(a, v, known) < 0 ||
	    acc_get_enum(a, v, "type", ACC_REQUIRED, dep_type_names,
	    &type) < 0 ||
	    acc_get_string(a, v, "dependent", ACC_REQUIRED, &d.dependent) < 0 ||
	    acc_get_string(a, v, "sponsor", ACC_REQUIRED, &d.sponsor) < 0)
		return -1;
	d.type = (enum dep_type)type;
	c->deps = xreallocarray(c->deps, c->ndeps + 1, sizeof *c->deps);
	c->deps[c->ndeps++] = d;
	return 0;
}

int
add_spec_check(struct access *a, const json_t *spec, struct change *c)
{
	static const char *const known[] = { "resources", "dependencies",
		NULL };
	json_t *sys, *list;
	int r;

	if ((r = acc_get_object(a, spec, "system", ACC_OPTIONAL, &sys)) != 0)
		return r < 0 ? -1 : 0;
	access_enter_key(a, "system");
	r = acc_check_keys(a, sys, known) < 0 ||
	    acc_get_array(a, sys, "resources", ACC_REQUIRED, &list) < 0 ||
	    (json_array_size(list) == 0 &&
	    access_fail_at(a, "resources", "no resource to add") < 0) ||
	    acc_each_element(a, sys, "resources", ACC_REQUIRED, resource_at,
	    NULL) < 0 ||
	    acc_each_element(a, sys, "dependencies", ACC_OPTIONAL,
	    dependency_at, c) < 0 ? -1 : 0;
	access_leave(a);
	return r;
}
