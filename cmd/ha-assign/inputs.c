/*
 * inputs.c: the optional documents beside the pods: `kubectl get
 * services|nodes|statefulsets -o json`, each a List of its kind.
 */
#include <stdio.h>
#include <string.h>

#include "access.h"
#include "exitcodes.h"
#include "load.h"
#include "timefmt.h"
#include "world.h"
#include "xalloc.h"

#define MANAGED_BY "app.kubernetes.io/managed-by"
#define ACTIVE_POD_ANNOTATION "upkit/active-pod"

typedef int (*item_fn)(struct access *a, struct world *w, const json_t *meta,
    const json_t *item, size_t i);

struct list_reader {
	struct world *w;
	const char *kind;
	item_fn fn;
};

static int
read_item(struct access *a, const json_t *item, size_t i, void *ctx)
{
	struct list_reader *r = ctx;
	const char *kind = NULL;
	json_t *meta;

	if (acc_as_object(a, item) < 0 ||
	    acc_get_string(a, item, "kind", ACC_OPTIONAL, &kind) < 0)
		return -1;
	if (kind != NULL && strcmp(kind, r->kind) != 0)
		return access_fail_at(a, "kind", "expected \"%s\", got \"%s\"",
		    r->kind, kind);
	if (acc_get_object(a, item, "metadata", ACC_REQUIRED, &meta) < 0)
		return -1;
	return r->fn(a, r->w, meta, item, i);
}

/* read_list: load file, a List (or <kind>List) of kind; fn per item. */
static int
read_list(struct world *w, const char *file, int slot, const char *kind,
    item_fn fn, size_t elem, void **out, size_t *count)
{
	struct list_reader r = { w, kind, fn };
	struct access a;
	const char *k;
	json_t *items;
	char listkind[32];
	int status = load_document(file, &w->docs[slot]);

	if (status != EXIT_OK)
		return status;
	snprintf(listkind, sizeof listkind, "%sList", kind);
	access_init(&a, load_name(file));
	if (acc_as_object(&a, w->docs[slot]) < 0 ||
	    acc_get_string(&a, w->docs[slot], "kind", ACC_REQUIRED, &k) < 0)
		status = EXIT_DATAERR;
	else if (strcmp(k, "List") != 0 && strcmp(k, listkind) != 0) {
		access_fail_at(&a, "kind", "expected \"List\" or \"%s\", got "
		    "\"%s\"", listkind, k);
		status = EXIT_DATAERR;
	} else if (acc_get_array(&a, w->docs[slot], "items", ACC_REQUIRED,
	    &items) < 0)
		status = EXIT_DATAERR;
	else {
		*out = xcalloc(json_array_size(items), elem);
		*count = json_array_size(items);
		if (acc_each_element(&a, w->docs[slot], "items", ACC_REQUIRED,
		    read_item, &r) < 0)
			status = EXIT_DATAERR;
	}
	access_free(&a);
	return status;
}

/* in_namespace: the object is in the pods' namespace. */
static int
in_namespace(const struct world *w, const json_t *meta)
{
	const json_t *ns = json_object_get(meta, "namespace");

	if (w->namespace == NULL || !json_is_string(ns))
		return 1;
	return strcmp(json_string_value(ns), w->namespace) == 0;
}

/* managed: labelled managed-by ha-assign, with the -l selector's labels. */
static int
managed(const struct world *w, const json_t *labels)
{
	const struct selector *sel = &w->opt->selector;
	const json_t *v = json_object_get(labels, MANAGED_BY);
	size_t i;

	if (!json_is_string(v) || strcmp(json_string_value(v), "ha-assign") != 0)
		return 0;
	for (i = 0; i < sel->count; i++) {
		v = json_object_get(labels, sel->keys[i]);
		if (!json_is_string(v) ||
		    strcmp(json_string_value(v), sel->values[i]) != 0)
			return 0;
	}
	return 1;
}

static int
service_item(struct access *a, struct world *w, const json_t *meta,
    const json_t *item, size_t i)
{
	struct service *s = &w->services[i];
	json_t *labels = NULL, *ann = NULL, *spec = NULL, *sel = NULL;

	if (acc_get_string(a, meta, "name", ACC_REQUIRED, &s->name) < 0 ||
	    acc_get_object(a, meta, "labels", ACC_OPTIONAL, &labels) < 0 ||
	    acc_get_object(a, meta, "annotations", ACC_OPTIONAL, &ann) < 0 ||
	    acc_get_object(a, item, "spec", ACC_OPTIONAL, &spec) < 0)
		return -1;
	if (spec != NULL) {
		access_enter_key(a, "spec");
		if (acc_get_object(a, spec, "selector", ACC_OPTIONAL, &sel) < 0)
			return -1;
		access_leave(a);
	}
	s->selector = sel;
	if (!in_namespace(w, meta)) {
		s->name = "";
		return 0;
	}
	if (ann != NULL && json_is_string(json_object_get(ann,
	    ACTIVE_POD_ANNOTATION)))
		s->active_pod = json_string_value(json_object_get(ann,
		    ACTIVE_POD_ANNOTATION));
	/* Only replication Services are ever deleted, never the app's. */
	s->managed = s->active_pod != NULL && managed(w, labels);
	return 0;
}

static int
node_condition(struct access *a, const json_t *c, size_t i, void *ctx)
{
	struct node *n = ctx;
	const char *type, *status, *since = NULL;

	(void)i;
	if (acc_get_string(a, c, "type", ACC_REQUIRED, &type) < 0 ||
	    acc_get_string(a, c, "status", ACC_REQUIRED, &status) < 0 ||
	    acc_get_string(a, c, "lastTransitionTime", ACC_OPTIONAL,
	    &since) < 0)
		return -1;
	if (strcmp(type, "Ready") != 0)
		return 0;
	n->ready = strcmp(status, "True") == 0;
	n->has_since = since != NULL;
	if (since != NULL && time_parse(since, &n->since) < 0)
		return access_fail_at(a, "lastTransitionTime",
		    "expected an RFC 3339 time, got \"%s\"", since);
	return 0;
}

static int
node_item(struct access *a, struct world *w, const json_t *meta,
    const json_t *item, size_t i)
{
	struct node *n = &w->nodes[i];
	json_t *status = NULL;

	if (acc_get_string(a, meta, "name", ACC_REQUIRED, &n->name) < 0 ||
	    acc_get_object(a, item, "status", ACC_OPTIONAL, &status) < 0)
		return -1;
	if (status == NULL)
		return 0;
	access_enter_key(a, "status");
	if (acc_each_element(a, status, "conditions", ACC_OPTIONAL,
	    node_condition, n) < 0)
		return -1;
	access_leave(a);
	return 0;
}

static int
sts_item(struct access *a, struct world *w, const json_t *meta,
    const json_t *item, size_t i)
{
	struct statefulset *s = &w->sts[i];
	json_t *spec = NULL;
	json_int_t replicas = 1;

	if (acc_get_string(a, meta, "name", ACC_REQUIRED, &s->name) < 0 ||
	    acc_get_object(a, item, "spec", ACC_OPTIONAL, &spec) < 0)
		return -1;
	if (spec != NULL) {
		access_enter_key(a, "spec");
		if (acc_get_int_range(a, spec, "replicas", ACC_OPTIONAL, 0,
		    1000000000, &replicas) < 0)
			return -1;
		access_leave(a);
	}
	s->replicas = (long)replicas;
	if (!in_namespace(w, meta))
		s->name = "";
	return 0;
}

int
read_services(struct world *w, const char *file)
{
	w->have_services = 1;
	return read_list(w, file, 1, "Service", service_item,
	    sizeof *w->services, (void **)&w->services, &w->nservices);
}

int
read_nodes(struct world *w, const char *file)
{
	w->have_nodes = 1;
	return read_list(w, file, 2, "Node", node_item, sizeof *w->nodes,
	    (void **)&w->nodes, &w->nnodes);
}

int
read_statefulsets(struct world *w, const char *file)
{
	w->have_sts = 1;
	return read_list(w, file, 3, "StatefulSet", sts_item, sizeof *w->sts,
	    (void **)&w->sts, &w->nsts);
}
