/*
 * products.c: the products a resource runs, projected through its
 * transitions.  The system section lists what runs now; transitions
 * that are done, or still to do, move it on.  Replaying a done
 * transition over a refreshed system that already shows it changes
 * nothing, so either kind of system gives the same projection.
 */
#include <stdlib.h>
#include <string.h>

#include "rgb.h"
#include "xalloc.h"

int
product_kind(const struct catalog *c, const char *name)
{
	size_t i;

	for (i = 0; i < c->nproducts; i++)
		if (strcmp(c->products[i].name, name) == 0)
			return c->products[i].kind;
	return -1;
}

static void
pstate_set(struct pstate *s, struct pv p)
{
	size_t i;

	for (i = 0; i < s->n; i++)
		if (strcmp(s->p[i].product, p.product) == 0) {
			s->p[i] = p;
			return;
		}
	if (s->n == s->cap) {
		s->cap = s->cap ? 2 * s->cap : 4;
		s->p = xreallocarray(s->p, s->cap, sizeof *s->p);
	}
	s->p[s->n++] = p;
}

static void
pstate_del(struct pstate *s, const char *product)
{
	size_t i;

	for (i = 0; i < s->n; i++)
		if (strcmp(s->p[i].product, product) == 0) {
			s->p[i] = s->p[--s->n];
			return;
		}
}

void
pstate_from_system(const struct rgb *b, const struct res *r, struct pstate *s)
{
	const char *name;
	json_t *v;

	memset(s, 0, sizeof *s);
	if (r->sys < 0 || b->sc.resources[r->sys].products == NULL)
		return;
	json_object_foreach(b->sc.resources[r->sys].products, name, v) {
		struct pv p = { name, json_string_value(v) };

		pstate_set(s, p);
	}
}

/*
 * pstate_apply: take t's effect.  What it replaces is looked up by slot,
 * so a transition re-evaluated after an undo (its recorded source gone)
 * still replaces what runs in its place.
 */
void
pstate_apply(const struct rgb *b, struct pstate *s, const struct transition *t)
{
	struct pv old = pstate_from(b, s, t);

	if (old.product != NULL)
		pstate_del(s, old.product);
	if (t->to.product != NULL)
		pstate_set(s, t->to);
}

struct pv
pstate_get(const struct pstate *s, const char *product)
{
	struct pv none = { NULL, NULL };
	size_t i;

	for (i = 0; i < s->n; i++)
		if (strcmp(s->p[i].product, product) == 0)
			return s->p[i];
	return none;
}

/*
 * pstate_slot: the product running where product would go: product
 * itself, or another product of the same kind (the ESXi a QEMU would
 * replace), or nothing.
 */
struct pv
pstate_slot(const struct rgb *b, const struct pstate *s, const char *product)
{
	struct pv p = pstate_get(s, product);
	int kind = product_kind(&b->cat, product);
	size_t i;

	if (p.product != NULL || kind < 0)
		return p;
	for (i = 0; i < s->n; i++)
		if (product_kind(&b->cat, s->p[i].product) == kind)
			return s->p[i];
	return p;
}

/* pstate_from: what t will actually replace on a resource in state s. */
struct pv
pstate_from(const struct rgb *b, const struct pstate *s,
    const struct transition *t)
{
	struct pv none = { NULL, NULL };

	if (t->from.product != NULL) {
		struct pv p = pstate_slot(b, s, t->from.product);

		/* a component the system does not list: trust the record */
		return p.product != NULL ? p : t->from;
	}
	if (t->to.product != NULL && t->create < 0)
		return pstate_slot(b, s, t->to.product);
	return none;
}

void
pstate_free(struct pstate *s)
{
	free(s->p);
	memset(s, 0, sizeof *s);
}

/* live: a transition that is, or will be, in effect. */
static int
live(enum tr_status st)
{
	return st == TR_DONE || st == TR_PENDING;
}

void
pstate_projected(const struct rgb *b, const struct res *r, struct pstate *s)
{
	size_t i;

	pstate_from_system(b, r, s);
	for (i = 0; i < r->ntr; i++) {
		const struct transition *t = tref_tr(b, r->tr[i]);

		if (live(t->status))
			pstate_apply(b, s, t);
	}
}

/*
 * A large cloud asks the catalog the same few questions hundreds of
 * thousands of times (what installs esxi 6.7, may ip 6 talk to ip 4),
 * and each catalog_find() formats and hashes a "name@version" key.
 * Small direct-mapped caches, keyed by copies of the strings (so that
 * no lifetime matters), answer the repeats.
 */
#define MEMO_SLOTS 256
#define MEMO_TEXT 48	/* longer names are not cached */

/* memo_key: the texts joined, or 0 if they do not fit a key. */
static int
memo_key(char *key, const char *const *texts, size_t n)
{
	size_t i, used = 0, len;

	for (i = 0; i < n; i++) {
		if (texts[i] == NULL ||
		    (len = strlen(texts[i])) + 1 > MEMO_TEXT - used)
			return 0;
		memcpy(key + used, texts[i], len + 1);
		used += len + 1;
	}
	memset(key + used, 0, MEMO_TEXT - used);
	return 1;
}

static size_t
memo_slot(const char *key)
{
	size_t h = 1469598103934665603ULL, i;

	for (i = 0; i < MEMO_TEXT; i++)
		h = (h ^ (unsigned char)key[i]) * 1099511628211ULL;
	return h % MEMO_SLOTS;
}

const struct cat_product *
rgb_product(const struct rgb *b, const char *name, const char *version)
{
	static struct {
		const struct catalog *cat;
		char key[MEMO_TEXT];
		const struct cat_product *p;
	} memo[MEMO_SLOTS];
	const char *texts[] = { name, version };
	char key[MEMO_TEXT];
	size_t i;

	if (!memo_key(key, texts, 2))
		return catalog_find(&b->cat, name, version);
	i = memo_slot(key);
	if (memo[i].cat != &b->cat || memcmp(memo[i].key, key, MEMO_TEXT) != 0) {
		memo[i].cat = &b->cat;
		memcpy(memo[i].key, key, MEMO_TEXT);
		memo[i].p = catalog_find(&b->cat, name, version);
	}
	return memo[i].p;
}

/* check_described: the catalog describes p; else say so, at a. */
int
check_described(struct rgb *b, struct access *a, struct pv p,
    const char *resource)
{
	if (p.product == NULL || rgb_product(b, p.product, p.version))
		return 0;
	return access_fail(a, "the catalog does not describe %s version "
	    "\"%s\"%s%s%s", p.product, p.version, resource ? " (on \"" : "",
	    resource ? resource : "", resource ? "\")" : "");
}

int
rgb_compatible(const struct rgb *b, struct pv x, struct pv y,
    enum dep_type type)
{
	static struct {
		const struct catalog *cat;
		char key[MEMO_TEXT];
		int yes;
	} memo[MEMO_SLOTS];
	const char *texts[] = { dep_type_names[type], x.product, x.version,
		y.product, y.version };
	char key[MEMO_TEXT];
	size_t i;

	if (!memo_key(key, texts, 5))
		return catalog_compatible(&b->cat, x.product, x.version,
		    y.product, y.version, type);
	i = memo_slot(key);
	if (memo[i].cat != &b->cat || memcmp(memo[i].key, key, MEMO_TEXT) != 0) {
		memo[i].cat = &b->cat;
		memcpy(memo[i].key, key, MEMO_TEXT);
		memo[i].yes = catalog_compatible(&b->cat, x.product, x.version,
		    y.product, y.version, type);
	}
	return memo[i].yes;
}
