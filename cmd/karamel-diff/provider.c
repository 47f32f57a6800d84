/*
 * provider.c: the provider blocks of a cluster definition (ec2, gce,
 * nova, occi, baremetal, vagrant) and the machines of baremetal groups.
 */
#include <stdio.h>
#include <string.h>

#include "cluster.h"
#include "ipaddr.h"
#include "xalloc.h"

const char *const provider_names[] = {
	"ec2", "gce", "nova", "occi", "baremetal", "vagrant", NULL
};

/* check_block: a provider block is an object (null: empty). */
static int
check_block(struct access *a, int kind, const json_t *block)
{
	static const char *const baremetal_keys[] = { "username", "ip", "ips",
	    "sudoPassword", 0 };
	json_t *v;

	if (json_is_null(block))
		return 0;
	if (acc_as_object(a, block) < 0)
		return -1;
	if (kind != PROVIDER_BAREMETAL)
		return 0;
	if (acc_check_keys(a, block, baremetal_keys) < 0 ||
	    acc_get_string(a, block, "username", ACC_OPTIONAL,
	    &(const char *){ 0 }) < 0 ||
	    acc_get_string(a, block, "ip", ACC_OPTIONAL, &(const char *){ 0 }) < 0)
		return -1;
	v = json_object_get(block, "ips");
	if (v != NULL && !json_is_string(v) &&
	    acc_get_array(a, block, "ips", ACC_REQUIRED, &v) < 0)
		return -1;
	return 0;
}

int
provider_find(struct access *a, const json_t *scope, struct provider *p)
{
	const json_t *block;
	int kind, r = 0;

	p->kind = -1;
	p->block = NULL;
	for (kind = 0; kind < PROVIDER_COUNT && r == 0; kind++) {
		if ((block = json_object_get(scope, provider_names[kind])) == NULL)
			continue;
		if (p->kind >= 0)
			return access_fail_at(a, provider_names[kind],
			    "a second provider ('%s' is given already)",
			    provider_names[p->kind]);
		access_enter_key(a, provider_names[kind]);
		r = check_block(a, kind, block);
		access_leave(a);
		p->kind = kind;
		p->block = json_is_null(block) ? NULL : block;
	}
	return r;
}

/* without_addresses: a copy of block, minus ip and ips (which may be long). */
static json_t *
without_addresses(const json_t *block)
{
	json_t *copy = json_object(), *v;
	const char *key;

	json_object_foreach((json_t *)block, key, v)
		if (strcmp(key, "ip") != 0 && strcmp(key, "ips") != 0)
			json_object_set_new(copy, key, json_deep_copy(v));
	return copy;
}

json_t *
provider_effective(const struct provider *top, const struct provider *own)
{
	const struct provider *p = own->kind >= 0 ? own : top;
	json_t *settings = without_addresses(p->block), *parent, *v;
	const char *key;

	/* A group's block of the global kind inherits what it leaves out. */
	if (p == own && top->kind == own->kind) {
		parent = without_addresses(top->block);
		json_object_foreach(parent, key, v)
			if (json_object_get(settings, key) == NULL)
				json_object_set(settings, key, v);
		json_decref(parent);
	}
	return json_pack("{so}", provider_names[p->kind], settings);
}

/*
 * add_range: the machines of one "ip"/"ips" entry; -1 with the reason
 * in msg.  A bare-metal group may list 100,000 addresses, so the path
 * is only made for a message.
 */
static int
add_range(struct world *w, struct cluster *c, struct group *g,
    const json_t *entry, char *msg, size_t size)
{
	const char *text = json_string_value(entry), *why;
	uint32_t first, last, addr;
	char buf[16];
	long other;

	if (text == NULL) {
		snprintf(msg, size, "expected an address or range (a string)");
		return -1;
	}
	if ((why = ip_range(text, &first, &last)) != NULL) {
		snprintf(msg, size, "'%s' %s", text, why);
		return -1;
	}
	if (g->nmachines + (last - first) >= GROUP_MAX_MACHINES) {
		snprintf(msg, size, "'%s' makes more than %d machines in the "
		    "group", text, GROUP_MAX_MACHINES);
		return -1;
	}
	for (addr = first;; addr++) {
		ip_format(addr, buf);
		if (cluster_add_machine(w, c, g, buf, &other) < 0) {
			snprintf(msg, size, "machine %s is in group '%s' already",
			    buf, c->groups[other].name);
			return -1;
		}
		if (addr == last)
			return 0;
	}
}

/* add_block_addresses: "ip" (one entry) then "ips" (one or a list). */
static int
add_block_addresses(struct world *w, struct cluster *c, struct group *g,
    struct access *a, const json_t *block)
{
	static const char *const keys[] = { "ip", "ips" };
	const json_t *v, *list;
	char msg[256];
	size_t i, n;
	int k;

	for (k = 0; k < 2; k++) {
		if ((list = json_object_get(block, keys[k])) == NULL)
			continue;
		n = json_is_array(list) ? json_array_size(list) : 1;
		for (i = 0; i < n; i++) {
			v = json_is_array(list) ? json_array_get(list, i) : list;
			if (add_range(w, c, g, v, msg, sizeof msg) == 0)
				continue;
			access_enter_key(a, keys[k]);
			if (json_is_array(list))
				access_enter_index(a, i);
			access_fail(a, "%s", msg);
			if (json_is_array(list))
				access_leave(a);
			access_leave(a);
			return -1;
		}
	}
	return 0;
}

static int
has_addresses(const json_t *block)
{
	return json_object_get(block, "ip") || json_object_get(block, "ips");
}

/*
 * provider_addresses: a baremetal group's machines are its addresses,
 * from its own block or else the global one.  a is at the group; a
 * global block is reported at its own (top-level) path.
 */
int
provider_addresses(struct world *w, struct cluster *c, struct group *g,
    const struct provider *top, const struct provider *own, struct access *a)
{
	struct access top_access;
	int r;

	if (own->kind == PROVIDER_BAREMETAL && has_addresses(own->block)) {
		access_enter_key(a, "baremetal");
		r = add_block_addresses(w, c, g, a, own->block);
		access_leave(a);
		return r;
	}
	if ((own->kind < 0 || own->kind == top->kind) &&
	    has_addresses(top->block)) {
		access_init(&top_access, c->file);
		access_enter_key(&top_access, "baremetal");
		r = add_block_addresses(w, c, g, &top_access, top->block);
		access_free(&top_access);
		return r;
	}
	return access_fail(a, "a baremetal group needs the addresses of its "
	    "machines (baremetal: ip or ips)");
}
