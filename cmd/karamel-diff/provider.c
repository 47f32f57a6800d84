/*
 * provider.c: the provider blocks of a cluster definition (ec2, gce,
 * nova, occi, baremetal, vagrant) and the machines of baremetal groups.
 */
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

/* without_addresses: a copy of block, minus ip and ips. */
static json_t *
without_addresses(const json_t *block)
{
	json_t *copy = block ? json_deep_copy(block) : json_object();

	json_object_del(copy, "ip");
	json_object_del(copy, "ips");
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

struct range_ctx {
	struct world *w;
	struct cluster *c;
	struct group *g;
};

/* add_range: the machines of one "ip"/"ips" entry, at its path. */
static int
add_range(struct access *a, const json_t *entry, size_t i, void *ctx)
{
	struct range_ctx *x = ctx;
	const char *text, *why;
	uint32_t first, last, addr;
	char buf[16];

	(void)i;
	if (acc_as_string(a, entry, &text) < 0)
		return -1;
	if ((why = ip_range(text, &first, &last)) != NULL)
		return access_fail(a, "'%s' %s", text, why);
	for (addr = first;; addr++) {
		ip_format(addr, buf);
		if (cluster_add_machine(x->w, x->c, x->g, a, buf) < 0)
			return -1;
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
	struct range_ctx x = { w, c, g };
	const json_t *v;
	int i, r = 0;

	for (i = 0; i < 2 && r == 0; i++) {
		if ((v = json_object_get(block, keys[i])) == NULL)
			continue;
		if (json_is_array(v)) {
			r = acc_each_element(a, block, keys[i], ACC_REQUIRED,
			    add_range, &x);
			continue;
		}
		access_enter_key(a, keys[i]);
		r = add_range(a, v, 0, &x);
		access_leave(a);
	}
	return r < 0 ? -1 : 0;
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
