/*
 * index.c: the live pods in creation order, and lookups by name.
 */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "world.h"
#include "xalloc.h"

static const struct pod *sorting;

/* by_age: creation time, then apps.kubernetes.io/pod-index, then name. */
static int
by_age(const void *x, const void *y)
{
	const struct pod *a = &sorting[*(const size_t *)x];
	const struct pod *b = &sorting[*(const size_t *)y];

	if (a->created != b->created)
		return a->created < b->created ? -1 : 1;
	if (a->index != b->index) {
		if (a->index < 0 || b->index < 0)
			return a->index < 0 ? 1 : -1;
		return a->index < b->index ? -1 : 1;
	}
	return strcmp(a->name, b->name);
}

/* name_all: index the names; the first of duplicates wins. */
static void
name_all(struct nameindex *x, const void *base, size_t count, size_t elem,
    const size_t *order)
{
	size_t i;

	idmap_init(&x->ids);
	x->pos = xcalloc(count, sizeof *x->pos);
	for (i = 0; i < count; i++) {
		size_t at = order ? order[i] : i;
		const char *name = *(const char *const *)(const void *)
		    ((const char *)base + at * elem);
		long k;

		if (*name != '\0' && (k = idmap_add(&x->ids, name)) >= 0)
			x->pos[k] = at;
	}
}

void
nameindex_free(struct nameindex *x)
{
	idmap_free(&x->ids);
	free(x->pos);
}

void
index_pods(struct world *w)
{
	size_t i, n = 0;

	w->order = xcalloc(w->npods, sizeof *w->order);
	for (i = 0; i < w->npods; i++)
		if (!w->pods[i].gone && w->pods[i].selected &&
		    !w->pods[i].refused)
			w->order[n++] = i;
	sorting = w->pods;
	qsort(w->order, n, sizeof *w->order, by_age);
	w->nlive = n;
	name_all(&w->live_names, w->pods, n, sizeof *w->pods, w->order);
	name_all(&w->svc_names, w->services, w->nservices, sizeof *w->services,
	    NULL);
	name_all(&w->node_names, w->nodes, w->nnodes, sizeof *w->nodes, NULL);
	name_all(&w->sts_names, w->sts, w->nsts, sizeof *w->sts, NULL);
}

/* find: the position named name, or -1. */
static long
find(const struct nameindex *x, const char *name)
{
	long k = idmap_find(&x->ids, name);

	return k < 0 ? -1 : (long)x->pos[k];
}

long
live_pod(const struct world *w, const char *name)
{
	return find(&w->live_names, name);
}

const struct service *
find_service(const struct world *w, const char *name)
{
	long k = find(&w->svc_names, name);

	return k < 0 ? NULL : &w->services[k];
}

const struct node *
find_node(const struct world *w, const char *name)
{
	long k = find(&w->node_names, name);

	return k < 0 ? NULL : &w->nodes[k];
}

const struct statefulset *
find_sts(const struct world *w, const char *name)
{
	long k = find(&w->sts_names, name);

	return k < 0 ? NULL : &w->sts[k];
}
