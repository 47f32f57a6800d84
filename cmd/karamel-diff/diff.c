/* diff.c: actions and their reasons for every key (see diff.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "attrs.h"
#include "diff.h"
#include "xalloc.h"

const char *const action_names[] = { "build", "reconcile", "purge", "check" };

/* A reason under construction: parts joined with "; ". */
struct text {
	char *s;
	size_t len, cap;
};

static void
text_add(struct text *t, const char *part)
{
	size_t n = strlen(part), need = t->len + n + 3;

	if (need > t->cap) {
		t->cap = need > 2 * t->cap ? need : 2 * t->cap;
		t->s = xreallocarray(t->s, t->cap, 1);
	}
	if (t->len > 0) {
		memcpy(t->s + t->len, "; ", 2);
		t->len += 2;
	}
	memcpy(t->s + t->len, part, n + 1);
	t->len += n;
}

/*
 * The inputs a key's scope gives it depend on the machine's old group,
 * its new group and the key's cookbook.  Machines of a group share the
 * answer, so it is worked out once per (old group, new group) pair and
 * cookbook, kept in a small hash of pairs.
 */
struct pair_entry {
	size_t old_group, new_group;
	long *by_cookbook;	/* reason id, -1 none, -2 not yet known */
};

struct scope_cache {
	struct pair_entry *entries;
	size_t nentries, cap;
	size_t *slots;		/* entry + 1, 0 empty */
	size_t nslots;
	size_t ncookbooks;
	struct pair_entry *last;	/* most machines repeat the last pair */
};

struct differ {
	struct diff *d;
	const struct world *w;
	const struct keyspace *ks;
	const struct cluster *old, *new;
	struct scope_cache cache;
	long *collect_reason;	/* by recipe: reason id, -1, -2 unknown */
	unsigned char *shared;	/* by cookbook: every recipe reads its attrs */
	struct text text;
};

static size_t
intern(struct diff *d, const char *text)
{
	long id = idmap_add(&d->reasons, text);

	return (size_t)(id < 0 ? -id - 1 : id);
}

static size_t
pair_hash(size_t a, size_t b, size_t mask)
{
	return (a * 0x9e3779b97f4a7c15ULL ^ b * 0xc2b2ae3d27d4eb4fULL) & mask;
}

static void
cache_grow(struct scope_cache *c)
{
	size_t i, h, n = c->nslots ? 2 * c->nslots : 64;

	free(c->slots);
	c->slots = xcalloc(n, sizeof *c->slots);
	c->nslots = n;
	for (i = 0; i < c->nentries; i++) {
		h = pair_hash(c->entries[i].old_group, c->entries[i].new_group,
		    n - 1);
		while (c->slots[h] != 0)
			h = (h + 1) & (n - 1);
		c->slots[h] = i + 1;
	}
}

static struct pair_entry *
cache_pair(struct scope_cache *c, size_t og, size_t ng)
{
	struct pair_entry *e;
	size_t h, i;

	if (c->last && c->last->old_group == og && c->last->new_group == ng)
		return c->last;
	if (2 * (c->nentries + 1) > c->nslots)
		cache_grow(c);
	h = pair_hash(og, ng, c->nslots - 1);
	while (c->slots[h] != 0) {
		e = &c->entries[c->slots[h] - 1];
		if (e->old_group == og && e->new_group == ng)
			return c->last = e;
		h = (h + 1) & (c->nslots - 1);
	}
	if (c->nentries == c->cap) {
		c->cap = c->cap ? 2 * c->cap : 16;
		c->entries = xreallocarray(c->entries, c->cap, sizeof *c->entries);
		c->last = NULL;
	}
	e = &c->entries[c->nentries];
	e->old_group = og;
	e->new_group = ng;
	e->by_cookbook = xcalloc(c->ncookbooks, sizeof *e->by_cookbook);
	for (i = 0; i < c->ncookbooks; i++)
		e->by_cookbook[i] = -2;
	c->slots[h] = ++c->nentries;
	return c->last = e;
}

/*
 * cookbook_source: where c gets cookbook name from.  A cookbook the
 * definition does not list comes with the listed ones (Berkshelf pulls
 * it in as their dependency), so their sources, all of them, are its
 * source: a branch change of the root cookbook changes it too.
 */
static const json_t *
cookbook_source(const struct cluster *c, const char *name)
{
	const json_t *own = json_object_get(c->cookbooks, name);

	return own != NULL ? own : c->cookbooks;
}

/* same_source: json_equal, but two absent sources are the same. */
static int
same_source(const json_t *a, const json_t *b)
{
	return a == b || (a != NULL && b != NULL && json_equal(a, b));
}

/* scope_reason: what changed for cookbook between two groups, or -1. */
static long
scope_reason(struct differ *x, const struct group *og, const struct group *ng,
    size_t cookbook)
{
	const char *name = idmap_key(&x->w->names.cookbooks, cookbook);
	char *path = NULL, *part;
	size_t size = 0;

	x->text.len = 0;
	if (!same_source(cookbook_source(x->old, name),
	    cookbook_source(x->new, name))) {
		part = xasprintf("cookbook %s: source changed", name);
		text_add(&x->text, part);
		free(part);
	}
	if (!json_equal(og->provider, ng->provider))
		text_add(&x->text, "provider changed");
	if (attrs_seen_change(&x->w->names, x->shared, cookbook, og->attrs,
	    ng->attrs, &path, &size)) {
		part = xasprintf("attribute %s changed", path);
		text_add(&x->text, part);
		free(part);
	}
	free(path);
	return x->text.len ? (long)intern(x->d, x->text.s) : -1;
}

/* collect_reason: members gained or lost by what recipe collects. */
static long
collect_reason(struct differ *x, size_t recipe)
{
	const struct dep_list *g = &world_deps(x->w, recipe)->global;
	char *part;
	size_t i, dep;

	if (x->collect_reason[recipe] != -2)
		return x->collect_reason[recipe];
	x->text.len = 0;
	for (i = 0; i < g->n; i++) {
		dep = g->recipe[i];
		if (x->d->joined[dep] == 0 && x->d->left[dep] == 0)
			continue;
		part = xasprintf("collect %s: %zu joined, %zu left",
		    names_recipe_name(&x->w->names, dep), x->d->joined[dep],
		    x->d->left[dep]);
		text_add(&x->text, part);
		free(part);
	}
	x->collect_reason[recipe] = x->text.len ?
	    (long)intern(x->d, x->text.s) : -1;
	return x->collect_reason[recipe];
}

static void
set_action(struct diff *d, size_t key, enum action a, size_t reason)
{
	d->action[key] = (unsigned char)a;
	d->reason[key] = reason;
	d->count[a]++;
}

/* added_or_removed: build and purge keys, counted per recipe. */
static void
added_or_removed(struct differ *x)
{
	const struct keyspace *ks = x->ks;
	size_t k, m, new_machine = intern(x->d, "new machine");
	size_t added = intern(x->d, "recipe added to the machine");
	size_t gone = intern(x->d, "machine removed");
	size_t removed = intern(x->d, "recipe removed from the machine");

	for (k = 0; k < ks->nkeys; k++) {
		m = ks->machine[k];
		if (ks->in[k] == IN_NEW) {
			set_action(x->d, k, ACTION_BUILD,
			    cluster_group_of(x->old, m) < 0 ? new_machine : added);
			x->d->joined[ks->recipe[k]]++;
		} else if (ks->in[k] == IN_OLD) {
			set_action(x->d, k, ACTION_PURGE,
			    cluster_group_of(x->new, m) < 0 ? gone : removed);
			x->d->left[ks->recipe[k]]++;
		}
	}
}

static long
key_scope_reason(struct differ *x, size_t key)
{
	size_t m = x->ks->machine[key];
	size_t og = (size_t)cluster_group_of(x->old, m);
	size_t ng = (size_t)cluster_group_of(x->new, m);
	size_t cb = x->w->names.cookbook_of[x->ks->recipe[key]];
	struct pair_entry *e = cache_pair(&x->cache, og, ng);

	if (e->by_cookbook[cb] == -2)
		e->by_cookbook[cb] = scope_reason(x, &x->old->groups[og],
		    &x->new->groups[ng], cb);
	return e->by_cookbook[cb];
}

/* kept: keys in both definitions are reconciled or checked. */
static void
kept(struct differ *x)
{
	size_t k, unchanged = intern(x->d, "unchanged");
	long scope, collect;
	char *both;

	for (k = 0; k < x->ks->nkeys; k++) {
		if (x->ks->in[k] != (IN_OLD | IN_NEW))
			continue;
		scope = key_scope_reason(x, k);
		collect = collect_reason(x, x->ks->recipe[k]);
		if (scope < 0 && collect < 0) {
			set_action(x->d, k, ACTION_CHECK, unchanged);
		} else if (scope < 0 || collect < 0) {
			set_action(x->d, k, ACTION_RECONCILE,
			    (size_t)(scope < 0 ? collect : scope));
		} else {
			both = xstrdup(idmap_key(&x->d->reasons, (size_t)scope));
			x->text.len = 0;
			text_add(&x->text, both);
			text_add(&x->text, idmap_key(&x->d->reasons,
			    (size_t)collect));
			set_action(x->d, k, ACTION_RECONCILE,
			    intern(x->d, x->text.s));
			free(both);
		}
	}
}

/* mark_running: the cookbooks of recipes that run on a machine of c. */
static void
mark_running(const struct world *w, const struct cluster *c,
    unsigned char *runs)
{
	size_t i, k;

	for (i = 0; i < c->ngroups; i++)
		for (k = 0; c->groups[i].nmachines > 0 &&
		    k < c->groups[i].nrecipes; k++)
			runs[w->names.cookbook_of[c->groups[i].recipes[k]]] = 1;
}

/*
 * shared_namespaces: by cookbook, whether every recipe may read its
 * attributes.  A recipe reads its own cookbook's namespace; it may also
 * read another's (hops reads ndb/mysql_port), which nothing in the
 * inputs declares.  So the namespace of a cookbook that runs on no
 * machine of either definition (a library or role cookbook), or of
 * which no recipe is declared in a Karamelfile given, counts as read
 * by every recipe: a change there reconciles them all.
 */
static unsigned char *
shared_namespaces(const struct world *w, const struct cluster *old,
    const struct cluster *new)
{
	size_t nc = w->names.cookbooks.count, r, c;
	unsigned char *runs = xcalloc(nc, 1), *declared = xcalloc(nc, 1);
	unsigned char *shared = xcalloc(nc, 1);

	mark_running(w, old, runs);
	mark_running(w, new, runs);
	for (r = 0; r < w->names.recipes.count; r++)
		if (world_deps(w, r)->file != NULL)
			declared[w->names.cookbook_of[r]] = 1;
	for (c = 0; c < nc; c++)
		shared[c] = !runs[c] || !declared[c];
	free(runs);
	free(declared);
	return shared;
}

void
diff_compute(struct diff *d, const struct world *w, const struct keyspace *ks,
    const struct cluster *old, const struct cluster *new)
{
	struct differ x = { d, w, ks, old, new, { 0 }, NULL, NULL, { 0 } };
	size_t i, nrecipes = w->names.recipes.count;

	memset(d, 0, sizeof *d);
	idmap_init(&d->reasons);
	d->action = xcalloc(ks->nkeys, sizeof *d->action);
	d->reason = xcalloc(ks->nkeys, sizeof *d->reason);
	d->joined = xcalloc(nrecipes, sizeof *d->joined);
	d->left = xcalloc(nrecipes, sizeof *d->left);
	x.cache.ncookbooks = w->names.cookbooks.count;
	x.collect_reason = xcalloc(nrecipes, sizeof *x.collect_reason);
	for (i = 0; i < nrecipes; i++)
		x.collect_reason[i] = -2;
	x.shared = shared_namespaces(w, old, new);
	added_or_removed(&x);
	kept(&x);
	for (i = 0; i < x.cache.nentries; i++)
		free(x.cache.entries[i].by_cookbook);
	free(x.cache.entries);
	free(x.cache.slots);
	free(x.collect_reason);
	free(x.shared);
	free(x.text.s);
}

void
diff_free(struct diff *d)
{
	free(d->action);
	free(d->reason);
	free(d->joined);
	free(d->left);
	idmap_free(&d->reasons);
	memset(d, 0, sizeof *d);
}

const char *
diff_reason(const struct diff *d, size_t key)
{
	return idmap_key(&d->reasons, d->reason[key]);
}
