/*
 * served.c: which replacement of a Partial Parallel Universe each
 * resource takes part in.  A change that replaces several storages
 * (one per pod) is one PPU per storage; a host belongs to the one whose
 * old or new storage it sponsors or relies on.  Asking that of every
 * host's level by scanning each replacement's dependencies was
 * quadratic in the hosts (32 s at 4,000), so the answer is built once
 * per root change: resource id -> the first replacement it serves.
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

/* note_replacement: the sponsors and VM hosts of transition k (old) of
 * root and of k + 1 (new). */
static void
note_replacement(const struct rgb *b, struct served *s, uint32_t k)
{
	const struct change *root = s->root;
	const char *new = k + 1 < root->ntr ? root->tr[k + 1].resource : "";
	long old = res_find(b, root->tr[k].resource);
	struct idlist l = { 0 };
	size_t i;

	for (i = 0; i < root->ndeps; i++) {
		if (strcmp(root->deps[i].dependent, new) == 0)
			note(s, root->deps[i].sponsor, k);
		if (strcmp(root->deps[i].sponsor, new) == 0)
			note(s, root->deps[i].dependent, k);
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
	for (k = 0; k < root->ntr; k++)
		if (root->tr[k].destroy)
			note_replacement(b, s, k);
	return s;
}

long
served_by(struct rgb *b, const struct change *root, const char *resource)
{
	struct served *s = served_of(b, root);
	long i = idmap_find(&s->ids, resource);

	return i < 0 ? -1 : (long)s->k[i];
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
