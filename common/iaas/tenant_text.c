/*
 * tenant_text.c: a tenant taken straight from its text (tenant_text.h).
 * A tenant's VMs are most of a system section: a million at 100,000
 * hosts.  Building each as a JSON object, only to read three strings
 * from it, was a tenth of batch-select and vm-migrate-plan.
 *
 * Only the plain case is read here: the members sysconf.c knows, each
 * of the one type it accepts, strings without escapes, small integers,
 * every VM on a known compute host.  Anything else, valid or not, is
 * left to sysconf.c's reader of the built tenant, which says what is
 * wrong and where; so that it starts from the same state, a tenant
 * refused here undoes what it added.
 */
#include <limits.h>
#include <string.h>

#include "jwalk.h"
#include "tenant_text.h"
#include "xalloc.h"

/* Long enough for any id seen; a longer one takes the built tenant. */
enum { NAME_MAX_LEN = 255 };

struct span {
	const char *p;
	size_t len;
};

static int
named(struct span key, const char *name)
{
	return key.len == strlen(name) && memcmp(key.p, name, key.len) == 0;
}

/* plain_string: the string value v, unescaped and short, into buf. */
static int
plain_string(struct span v, char buf[NAME_MAX_LEN + 1])
{
	size_t n = v.len - 2;

	if (v.p[0] != '"' || n > NAME_MAX_LEN || memchr(v.p + 1, '\\', n))
		return 0;
	memcpy(buf, v.p + 1, n);
	buf[n] = '\0';
	return 1;
}

/* plain_int: v as a number of at most nine digits, at least min. */
static int
plain_int(struct span v, long min, long *out)
{
	long n = 0;
	size_t i;

	if (v.len == 0 || v.len > 9)
		return 0;
	for (i = 0; i < v.len; i++) {
		if (v.p[i] < '0' || v.p[i] > '9')
			return 0;
		n = n * 10 + (v.p[i] - '0');
	}
	*out = n;
	return n >= min;
}

/* next: the next member of an object walk, as spans. */
static int
next(struct jwalk *w, struct span *key, struct span *value)
{
	return jwalk_next(w, &key->p, &key->len, &value->p, &value->len);
}

/* vm_role: "active" or "standby" as sysconf.c names them, or NULL. */
static const char *
vm_role(const char *s)
{
	size_t i;

	for (i = 0; vm_role_names[i] != NULL; i++)
		if (strcmp(s, vm_role_names[i]) == 0)
			return vm_role_names[i];
	return NULL;
}

/* plain_vm: the VM object at v, added as sc's next VM; 0 if not plain. */
static int
plain_vm(struct sysconf *sc, size_t tenant, struct span v)
{
	char id[NAME_MAX_LEN + 1], host[NAME_MAX_LEN + 1];
	char group[NAME_MAX_LEN + 1], role[NAME_MAX_LEN + 1];
	char status[NAME_MAX_LEN + 1], zone[NAME_MAX_LEN + 1];
	int have_id = 0, have_host = 0, have_group = 0, have_role = 0;
	int have_status = 0, have_zone = 0;
	struct span key, value;
	struct vm *vm;
	struct jwalk w;
	long host_at, at;

	if (v.p[0] != '{')
		return 0;
	jwalk_begin(&w, v.p, v.len);
	while (next(&w, &key, &value)) {
		int plain;

		if (named(key, "id"))
			plain = have_id = plain_string(value, id);
		else if (named(key, "host"))
			plain = have_host = plain_string(value, host);
		else if (named(key, "group"))
			plain = have_group = plain_string(value, group);
		else if (named(key, "role"))
			plain = have_role = plain_string(value, role);
		else if (named(key, "status"))
			plain = have_status = plain_string(value, status);
		else if (named(key, "zone"))
			plain = have_zone = plain_string(value, zone) &&
			    zone[0] != '\0';
		else
			plain = 0;
		if (!plain)
			return 0;
	}
	if (!have_id || !have_host ||
	    (host_at = idmap_find(&sc->resource_ids, host)) < 0 ||
	    !(sc->resources[host_at].roles & ROLE_COMPUTE) ||
	    (have_role && vm_role(role) == NULL) ||
	    (at = idmap_add(&sc->vm_ids, id)) < 0)
		return 0;
	sc->vms = xgrow(sc->vms, sc->nvms, &sc->vms_cap, sizeof *sc->vms);
	vm = &sc->vms[sc->nvms];
	vm->id = idmap_key(&sc->vm_ids, (size_t)at);
	vm->tenant = tenant;
	vm->host = (size_t)host_at;
	vm->group = have_group ? sysconf_name(sc, group) : vm->id;
	vm->role = have_role ? vm_role(role) : NULL;
	vm->status = have_status ? sysconf_name(sc, status) : NULL;
	vm->zone = have_zone ? sysconf_name(sc, zone) : NULL;
	vm->live = vm_live(vm->status);
	sc->nvms++;
	return 1;
}

/* plain_vms: every VM of the array at v added; 0 if one is not plain. */
static int
plain_vms(struct sysconf *sc, size_t tenant, struct span v)
{
	struct span vm;
	struct jwalk w;

	if (v.p[0] != '[')
		return 0;
	jwalk_begin(&w, v.p, v.len);
	while (jwalk_next(&w, NULL, NULL, &vm.p, &vm.len))
		if (!plain_vm(sc, tenant, vm))
			return 0;
	return 1;
}

/* plain_member: one member of a tenant into t or *vms; 0 if not plain. */
static int
plain_member(struct span key, struct span v, struct tenant *t,
    char id[NAME_MAX_LEN + 1], struct span *vms, unsigned *seen)
{
	static const char *const names[] = { "id", "min", "max",
		"scaling_adjustment", "cooldown", "vms", NULL };
	unsigned k;

	for (k = 0; names[k] != NULL && !named(key, names[k]); k++)
		continue;
	*seen |= 1u << k;
	switch (k) {
	case 0: return plain_string(v, id);
	case 1: return plain_int(v, 0, &t->min);
	case 2: return plain_int(v, 0, &t->max);
	case 3: return plain_int(v, 1, &t->scaling_adjustment);
	case 4: return plain_int(v, 0, &t->cooldown);
	case 5: *vms = v; return 1;
	default: return 0;
	}
}

int
tenant_from_text(struct sysconf *sc, struct idmap *tenant_ids, size_t i,
    const char *text, size_t len)
{
	struct tenant t = { .scaling_adjustment = 1, .first_vm = sc->nvms };
	struct span key, value, vms = { NULL, 0 };
	size_t vm_ids = sc->vm_ids.count;
	char id[NAME_MAX_LEN + 1];
	unsigned seen = 0;
	struct jwalk w;

	if (text[0] != '{')
		return 1;
	jwalk_begin(&w, text, len);
	while (next(&w, &key, &value))
		if (!plain_member(key, value, &t, id, &vms, &seen))
			return 1;
	if ((seen & 7) != 7 || idmap_find(tenant_ids, id) >= 0)
		return 1;
	if (vms.p != NULL && !plain_vms(sc, i, vms))
		goto undo;
	t.nvms = sc->nvms - t.first_vm;
	if (t.min > t.max || (long)t.nvms > t.max)
		goto undo;
	t.id = sysconf_name(sc, id);
	idmap_add(tenant_ids, t.id);
	sc->tenants[i] = t;
	return 0;
undo:
	sc->nvms = t.first_vm;
	idmap_truncate(&sc->vm_ids, vm_ids);
	return 1;
}
