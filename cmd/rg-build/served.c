/*
 * served.c: which replacement of a Partial Parallel Universe each
 * resource takes part in.  A change that replaces several storages
 * (one per pod) is one PPU per storage; a host belongs to the one whose
 * old or new storage it sponsors or relies on.  Asking that of every
 * host's level by scanning each replacement's dependencies was
 * quadratic in the hosts (32 s at 4,000), so the answer is built once
 * per root change: resource id -> the first replacement it serves.
 * The change's dependencies are filed once by the new resource they
 * name, so each replacement reads only its own (scanning them all for
 * each of 100 pods' storages took a tenth of rg-build at 100,000 hosts).
 */
#include <stdlib.h>
#include <string.h>

#include "rgb.h"
#include "xalloc.h"

struct served {
	const struct change *root;
	struct idmap ids;	/* resource id -> index into k */
	uint32_t *k;
	size_t cap;
	size_t replacements;	/* root's transitions that destroy */
};

/*
 * The dependencies of a change that name each new resource, in order:
 * those of news index j are at[first[j] .. first[j + 1]), an index into
 * root->deps, doubled, plus one when the new resource is the sponsor.
 */
struct deps_by_new {
	struct idmap news;
	size_t *first;
	size_t *at;
};

static void
note(struct served *s, const char *id, uint32_t k)
{
	long i = idmap_add(&s->ids, id);

	if (i < 0)
		return;		/* an earlier replacement has it */
	if ((size_t)i >= s->cap) {
		s->cap = s->cap ? 2 * s->cap : 64;
		s->k = xreallocarray(s->k, s->cap, sizeof *s->k);
	}
	s->k[i] = k;
}

static const char *
new_of(const struct change *root, uint32_t k)
{
	return k + 1 < root->ntr ? root->tr[k + 1].resource : "";
}

/* file_dep: count (at == NULL) or file dependency i under new j. */
static void
file_dep(struct deps_by_new *d, size_t *fill, long j, size_t entry)
{
	if (j < 0)
		return;
	if (d->at == NULL)
		d->first[j + 1]++;
	else
		d->at[fill[j]++] = entry;
}

static void
deps_by_new_build(struct deps_by_new *d, const struct change *root)
{
	size_t i, j, pass, *fill;

	idmap_init(&d->news);
	d->at = NULL;
	for (i = 0; i < root->ntr; i++)
		if (root->tr[i].destroy)
			idmap_add(&d->news, new_of(root, (uint32_t)i));
	d->first = xcalloc(d->news.count + 1, sizeof *d->first);
	fill = xcalloc(d->news.count + 1, sizeof *fill);
	for (pass = 0; pass < 2; pass++) {
		for (i = 0; i < root->ndeps; i++) {
			file_dep(d, fill, idmap_find(&d->news,
			    root->deps[i].dependent), 2 * i);
			file_dep(d, fill, idmap_find(&d->news,
			    root->deps[i].sponsor), 2 * i + 1);
		}
		if (pass == 0) {
			for (j = 0; j < d->news.count; j++)
				d->first[j + 1] += d->first[j];
			memcpy(fill, d->first, d->news.count * sizeof *fill);
			d->at = xcalloc(d->first[d->news.count] + 1,
			    sizeof *d->at);
		}
	}
	free(fill);
}

static void
deps_by_new_free(struct deps_by_new *d)
{
	idmap_free(&d->news);
	free(d->first);
	free(d->at);
}

/* note_replacement: the sponsors and VM hosts of transition k (old) of
 * root and of k + 1 (new). */
static void
note_replacement(const struct rgb *b, struct served *s,
    const struct deps_by_new *d, uint32_t k)
{
	const struct change *root = s->root;
	long old = res_find(b, root->tr[k].resource);
	long j = idmap_find(&d->news, new_of(root, k));
	struct idlist l = { 0 };
	const struct dep_change *dep;
	size_t i;

	for (i = d->first[j]; i < d->first[j + 1]; i++) {
		dep = &root->deps[d->at[i] / 2];
		note(s, d->at[i] % 2 ? dep->dependent : dep->sponsor, k);
	}
	if (old >= 0) {
		neighbours(b, (size_t)old, DEP_AGGREGATION, 1, &l);
		neighbours(b, (size_t)old, DEP_VM_STORAGE, 0, &l);
		neighbours(b, (size_t)old, DEP_VM_CONTROLLER, 0, &l);
		for (i = 0; i < l.n; i++)
			note(s, b->res[l.v[i]].id, k);
	}
	free(l.v);
}

static struct served *
served_of(struct rgb *b, const struct change *root)
{
	struct deps_by_new d;
	struct served *s;
	uint32_t k;
	size_t i;

	for (i = 0; i < b->nserved; i++)
		if (b->served[i].root == root)
			return &b->served[i];
	b->served = xreallocarray(b->served, b->nserved + 1,
	    sizeof *b->served);
	s = &b->served[b->nserved++];
	memset(s, 0, sizeof *s);
	s->root = root;
	idmap_init(&s->ids);
	deps_by_new_build(&d, root);
	for (k = 0; k < root->ntr; k++)
		if (root->tr[k].destroy) {
			note_replacement(b, s, &d, k);
			s->replacements++;
		}
	deps_by_new_free(&d);
	return s;
}

long
served_by(struct rgb *b, const struct change *root, const char *resource)
{
	struct served *s = served_of(b, root);
	long i = idmap_find(&s->ids, resource);

	return i < 0 ? -1 : (long)s->k[i];
}

size_t
served_replacements(struct rgb *b, const struct change *root)
{
	return served_of(b, root)->replacements;
}

void
served_free(struct rgb *b)
{
	size_t i;

	for (i = 0; i < b->nserved; i++) {
		idmap_free(&b->served[i].ids);
		free(b->served[i].k);
	}
	free(b->served);
}
