/* catalog.c: read and query the resource upgrade catalog (catalog.h). */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "catalog.h"
#include "xalloc.h"

const char *const cat_action_names[] = { "install", "remove", "create",
	"delete", "activate", "deactivate", "migrate", NULL };

/* whole_resource: "{resource}", and each host placeholder (sched_hosts.c),
 * is an argument, not part of one. */
static int
whole_resource(struct access *a, const json_t *v, size_t i, void *ctx)
{
	static const char *const names[] = { "{resource}", "{host}",
		"{service_host}", "{address}", "{zone}", NULL };
	const char *s = json_string_value(v);
	size_t k;

	(void)i;
	(void)ctx;
	for (k = 0; names[k] != NULL; k++)
		if (strstr(s, names[k]) != NULL && strcmp(s, names[k]) != 0)
			return access_fail(a, "\"%s\" must be a whole argument, "
			    "not part of \"%s\"", names[k], s);
	return 0;
}

/*
 * load_argv: an argument vector.  "{resource}" must be a whole element:
 * it is replaced by one argument, never spliced into another, so that
 * no resource id can change how a command is split.
 */
static int
load_argv(struct access *a, const json_t *obj, json_t **out)
{
	if (acc_get_string_array(a, obj, "argv", ACC_REQUIRED, out) < 0)
		return -1;
	if (json_array_size(*out) == 0)
		return access_fail_at(a, "argv", "empty argument vector");
	return acc_each_element(a, obj, "argv", ACC_REQUIRED, whole_resource,
	    NULL) < 0 ? -1 : 0;
}

int
catalog_action_load(struct access *a, const json_t *obj, const char *key,
    struct cat_action_def *def)
{
	static const char *const known[] = { "argv", "duration", "run_on",
		NULL };
	static const char *const places[] = { "resource", "control", NULL };
	json_t *act;
	json_int_t d = 0;
	int r, place = 0;

	if ((r = acc_get_object(a, obj, key, ACC_OPTIONAL, &act)) != 0)
		return r;
	access_enter_key(a, key);
	if (acc_check_keys(a, act, known) < 0 ||
	    load_argv(a, act, &def->argv) < 0 ||
	    acc_get_int_range(a, act, "duration", ACC_OPTIONAL, 0, 100000000,
	    &d) < 0 ||
	    acc_get_enum(a, act, "run_on", ACC_OPTIONAL, places, &place) < 0)
		return -1;
	if (place == 1 && strcmp(key, "activate") != 0 &&
	    strcmp(key, "deactivate") != 0 && strcmp(key, "migrate") != 0)
		return access_fail_at(a, "run_on", "only an activate, "
		    "deactivate or migrate action runs on the control node");
	def->duration = (long)d;
	def->on_control = place == 1;
	access_leave(a);
	return 0;
}

static int
load_actions(struct access *a, const json_t *obj, struct cat_product *p)
{
	json_t *actions;
	int k, r;

	if ((r = acc_get_object(a, obj, "actions", ACC_OPTIONAL, &actions)) != 0)
		return r < 0 ? -1 : 0;
	access_enter_key(a, "actions");
	if (acc_check_keys(a, actions, cat_action_names) < 0)
		return -1;
	for (k = 0; k < CAT_ACTION_COUNT; k++)
		if (catalog_action_load(a, actions, cat_action_names[k],
		    &p->actions[k]) < 0)
			return -1;
	access_leave(a);
	return 0;
}

/* load_require: requirement i of product ctx. */
static int
load_require(struct access *a, const json_t *obj, size_t i, void *ctx)
{
	static const char *const known[] = { "product", "on", "version", NULL };
	struct cat_require *q = &((struct cat_product *)ctx)->requires[i];
	int on;

	if (acc_as_object(a, obj) < 0 || acc_check_keys(a, obj, known) < 0 ||
	    acc_get_string(a, obj, "product", ACC_REQUIRED, &q->product) < 0 ||
	    acc_get_enum(a, obj, "on", ACC_REQUIRED, resource_kind_names,
	    &on) < 0 ||
	    acc_get_string(a, obj, "version", ACC_OPTIONAL, &q->version) < 0)
		return -1;
	q->on = (enum resource_kind)on;
	return 0;
}

/* load_compat: compatibility i of product ctx. */
static int
load_compat(struct access *a, const json_t *obj, size_t i, void *ctx)
{
	static const char *const known[] = { "product", "versions", "along",
		NULL };
	struct cat_compat *q = &((struct cat_product *)ctx)->compat[i];

	if (acc_as_object(a, obj) < 0 || acc_check_keys(a, obj, known) < 0 ||
	    acc_get_string(a, obj, "product", ACC_REQUIRED, &q->product) < 0 ||
	    acc_get_string_array(a, obj, "versions", ACC_REQUIRED,
	    &q->versions) < 0 ||
	    acc_get_name_bits(a, obj, "along", dep_type_names, NULL,
	    &q->along) < 0)
		return -1;
	if (q->along == 0)
		return access_fail_at(a, "along", "missing or empty: name the "
		    "dependency types the versions are compatible along");
	return 0;
}

/*
 * load_lists: the optional requires and compatible arrays, each into
 * an array of its size (a member that is no array fails when read).
 */
static int
load_lists(struct access *a, const json_t *obj, struct cat_product *p)
{
	p->nrequires = json_array_size(json_object_get(obj, "requires"));
	p->requires = xcalloc(p->nrequires, sizeof *p->requires);
	if (acc_each_element(a, obj, "requires", ACC_OPTIONAL, load_require,
	    p) < 0)
		return -1;
	p->ncompat = json_array_size(json_object_get(obj, "compatible"));
	p->compat = xcalloc(p->ncompat, sizeof *p->compat);
	return acc_each_element(a, obj, "compatible", ACC_OPTIONAL,
	    load_compat, p) < 0 ? -1 : 0;
}

static int
load_sizes(struct access *a, const json_t *obj, struct cat_product *p)
{
	json_int_t conf = 0, cap = 0;

	if (acc_get_int_range(a, obj, "min_hosts_config", ACC_OPTIONAL, 0,
	    1000000, &conf) < 0 ||
	    acc_get_int_range(a, obj, "min_hosts_capacity", ACC_OPTIONAL, 0,
	    1000000, &cap) < 0)
		return -1;
	p->min_hosts_config = (long)conf;
	p->min_hosts_capacity = (long)cap;
	return 0;
}

static int
load_product(struct access *a, const json_t *obj, struct cat_product *p)
{
	static const char *const known[] = { "name", "version", "kind",
		"installs_on", "requires", "compatible", "min_hosts_config",
		"min_hosts_capacity", "actions", NULL };

	p->kind = -1;
	if (acc_as_object(a, obj) < 0 || acc_check_keys(a, obj, known) < 0 ||
	    acc_get_string(a, obj, "name", ACC_REQUIRED, &p->name) < 0 ||
	    acc_get_string(a, obj, "version", ACC_REQUIRED, &p->version) < 0 ||
	    acc_get_enum(a, obj, "kind", ACC_OPTIONAL, resource_kind_names,
	    &p->kind) < 0 ||
	    acc_get_name_bits(a, obj, "installs_on", resource_kind_names, NULL,
	    &p->installs_on) < 0 ||
	    load_sizes(a, obj, p) < 0 || load_actions(a, obj, p) < 0)
		return -1;
	if (*p->name == '\0' || strchr(p->name, '@') != NULL)
		return access_fail_at(a, "name", "product name \"%s\" is empty "
		    "or holds '@'", p->name);
	return load_lists(a, obj, p);
}

static char *
product_key(const char *name, const char *version)
{
	size_t n = strlen(name) + strlen(version) + 2;
	char *key = xmalloc(n);

	snprintf(key, n, "%s@%s", name, version);
	return key;
}

/* check_requires: every required product is described. */
static int
check_requires(struct access *a, const struct catalog *c)
{
	size_t i, j;

	for (i = 0; i < c->nproducts; i++)
		for (j = 0; j < c->products[i].nrequires; j++) {
			const struct cat_require *q = &c->products[i].requires[j];

			if (q->version ? catalog_find(c, q->product, q->version)
			    : catalog_newest(c, q->product))
				continue;
			access_enter_key(a, "products");
			access_enter_index(a, i);
			access_enter_key(a, "requires");
			access_enter_index(a, j);
			return access_fail(a, "requires \"%s%s%s\", which the "
			    "catalog does not describe", q->product,
			    q->version ? "@" : "", q->version ? q->version : "");
		}
	return 0;
}

/* load_product_at: product i, whose name and version must be new. */
static int
load_product_at(struct access *a, const json_t *v, size_t i, void *ctx)
{
	struct catalog *c = ctx;
	char *key;
	int r;

	if (load_product(a, v, &c->products[i]) < 0)
		return -1;
	key = product_key(c->products[i].name, c->products[i].version);
	r = idmap_add(&c->keys, key) < 0;
	free(key);
	if (r)
		return access_fail(a, "duplicate description of %s version "
		    "\"%s\"", c->products[i].name, c->products[i].version);
	return 0;
}

int
catalog_load(struct access *a, const json_t *section, struct catalog *c)
{
	static const char *const known[] = { "version", "products", NULL };
	json_t *list;

	memset(c, 0, sizeof *c);
	idmap_init(&c->keys);
	if (acc_as_object(a, section) < 0 ||
	    acc_check_keys(a, section, known) < 0 ||
	    acc_get_array(a, section, "products", ACC_REQUIRED, &list) < 0)
		return -1;
	c->nproducts = json_array_size(list);
	c->products = xcalloc(c->nproducts, sizeof *c->products);
	if (acc_each_element(a, section, "products", ACC_REQUIRED,
	    load_product_at, c) < 0)
		return -1;
	return check_requires(a, c);
}

void
catalog_free(struct catalog *c)
{
	size_t i;

	for (i = 0; i < c->nproducts; i++) {
		free(c->products[i].requires);
		free(c->products[i].compat);
	}
	free(c->products);
	idmap_free(&c->keys);
	memset(c, 0, sizeof *c);
}

const struct cat_product *
catalog_find(const struct catalog *c, const char *name, const char *version)
{
	char *key;
	long i;

	if (name == NULL || version == NULL)	/* no product: none found */
		return NULL;
	key = product_key(name, version);
	i = idmap_find(&c->keys, key);

	free(key);
	return i < 0 ? NULL : &c->products[i];
}

const struct cat_product *
catalog_newest(const struct catalog *c, const char *name)
{
	const struct cat_product *best = NULL;
	size_t i;

	for (i = 0; i < c->nproducts; i++)
		if (strcmp(c->products[i].name, name) == 0 && (best == NULL ||
		    version_cmp(c->products[i].version, best->version) > 0))
			best = &c->products[i];
	return best;
}

/* restricts: a@av's verdict on b@bv along type: -1 none, 0 no, 1 yes. */
static int
restricts(const struct catalog *c, const char *a, const char *av,
    const char *b, const char *bv, enum dep_type type)
{
	const struct cat_product *p = catalog_find(c, a, av);
	int verdict = -1;
	size_t i;

	for (i = 0; p != NULL && i < p->ncompat; i++) {
		const struct cat_compat *q = &p->compat[i];

		if (strcmp(q->product, b) != 0 || !(q->along & (1u << type)))
			continue;
		if (json_strings_have(q->versions, bv))
			return 1;
		verdict = 0;
	}
	return verdict;
}

int
catalog_compatible(const struct catalog *c, const char *a, const char *av,
    const char *b, const char *bv, enum dep_type type)
{
	return restricts(c, a, av, b, bv, type) != 0 &&
	    restricts(c, b, bv, a, av, type) != 0;
}

int
catalog_declares(const struct catalog *c, const char *a, const char *av,
    const char *b, const char *bv, enum dep_type type)
{
	return restricts(c, a, av, b, bv, type) == 1 ||
	    restricts(c, b, bv, a, av, type) == 1;
}

/* segment: the length of the segment at s (up to '.' or the end). */
static size_t
segment(const char *s, int *numeric)
{
	size_t n;

	*numeric = 1;
	for (n = 0; s[n] != '\0' && s[n] != '.'; n++)
		if (!isdigit((unsigned char)s[n]))
			*numeric = 0;
	return n;
}

static int
compare_segment(const char *a, size_t na, int numa, const char *b,
    size_t nb, int numb)
{
	int r;

	if (numa && numb) {
		while (na > 1 && *a == '0')
			a++, na--;
		while (nb > 1 && *b == '0')
			b++, nb--;
		if (na != nb)
			return na < nb ? -1 : 1;
	}
	r = memcmp(a, b, na < nb ? na : nb);
	if (r != 0)
		return r < 0 ? -1 : 1;
	return na == nb ? 0 : na < nb ? -1 : 1;
}

int
version_cmp(const char *a, const char *b)
{
	while (*a != '\0' || *b != '\0') {
		int numa, numb, r;
		size_t na = segment(a, &numa), nb = segment(b, &numb);

		if ((r = compare_segment(a, na, numa, b, nb, numb)) != 0)
			return r;
		a += na + (a[na] == '.');
		b += nb + (b[nb] == '.');
	}
	return 0;
}
