/*
 * describe.c: an action of a schedule in words, such as "install
 * ceph@17.2 on host1" or "move t3-vm1 from host6 to host11".
 */
#include <string.h>

#include "show.h"

/* index_action: remember one resource graph action's product@version. */
static void
index_action(struct show *s, const json_t *act)
{
	const char *id = json_string_value(json_object_get(act, "id"));
	const char *product = json_string_value(json_object_get(act, "product"));
	const char *version = json_string_value(json_object_get(act, "version"));

	if (id != NULL && product != NULL && version != NULL)
		json_object_set_new(s->what, id,
		    json_sprintf("%s@%s", product, version));
}

/*
 * index_products: the products of the upgrade actions, from the resource
 * graph when the document holds it; only a help for the words, so
 * anything unexpected there is skipped rather than refused.
 */
void
index_products(struct show *s, const json_t *doc)
{
	const json_t *rg = json_object_get(doc, "resource_graph");
	const json_t *vertex, *level, *act;
	size_t i, j, k;

	json_array_foreach(json_object_get(rg, "vertices"), i, vertex)
		json_array_foreach(json_object_get(vertex, "actions_to_execute"),
		    j, level)
			json_array_foreach(json_object_get(level, "actions"), k,
			    act)
				index_action(s, act);
}

/* product_of: "esxi@6.7" from "i1/deactivate:hv1:esxi@6.7", or NULL. */
static const char *
product_of(struct show *s, const char *id)
{
	const char *known = json_string_value(json_object_get(s->what, id));
	const char *last = strrchr(id, ':');

	if (known != NULL)
		return known;
	if (last != NULL && strchr(last, '@') != NULL)
		return last + 1;
	return NULL;
}

static int
describe_migration(struct show *s, const json_t *act, FILE *fp)
{
	const char *vm, *from, *to;
	int upgrade = 0;

	if (acc_get_string(s->a, act, "vm", ACC_REQUIRED, &vm) < 0 ||
	    acc_get_string(s->a, act, "source", ACC_REQUIRED, &from) < 0 ||
	    acc_get_string(s->a, act, "destination", ACC_REQUIRED, &to) < 0 ||
	    acc_get_bool(s->a, act, "vm_upgrade", ACC_OPTIONAL, &upgrade) < 0)
		return -1;
	fprintf(fp, "move %s from %s to %s%s", vm, from, to,
	    upgrade ? ", converted to the new version" : "");
	return 0;
}

/* describe_action: act in words on fp; -1 (diagnosed) on bad input. */
int
describe_action(struct show *s, const json_t *act, FILE *fp)
{
	const char *id, *op = "run", *resource = NULL, *manual = NULL;
	const char *product;

	if (acc_get_string(s->a, act, "id", ACC_REQUIRED, &id) < 0 ||
	    acc_get_string(s->a, act, "op", ACC_OPTIONAL, &op) < 0 ||
	    acc_get_string(s->a, act, "resource", ACC_OPTIONAL, &resource) < 0 ||
	    acc_get_string(s->a, act, "manual", ACC_OPTIONAL, &manual) < 0)
		return -1;
	if (manual != NULL) {
		fprintf(fp, "BY HAND: %s", manual);
		return 0;
	}
	if (strcmp(op, "migrate") == 0)
		return describe_migration(s, act, fp);
	product = product_of(s, id);
	if (product != NULL && resource != NULL)
		fprintf(fp, "%s %s on %s", op, product, resource);
	else if (resource != NULL)
		fprintf(fp, "%s %s", op, resource);
	else
		fprintf(fp, "%s (%s)", op, id);
	return 0;
}
