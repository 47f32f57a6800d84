/*
 * pods.c: the pods of `kubectl get pods -o json`, a List (or PodList)
 * of items or a single Pod.
 *
 * Ready is the Ready condition's status "True"; a pod with a
 * deletionTimestamp is gone, as if absent; phase "Failed" is kept for
 * fence-first.  Creation times have one-second resolution: ties break
 * on the apps.kubernetes.io/pod-index label, then on the name.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "access.h"
#include "exitcodes.h"
#include "load.h"
#include "timefmt.h"
#include "world.h"
#include "xalloc.h"

#define POD_INDEX_LABEL "apps.kubernetes.io/pod-index"

struct reader {
	struct world *w;
	const struct options *o;
};

/* label: the string value of labels[key], or NULL. */
static int
label(struct access *a, const json_t *labels, const char *key,
    const char **out)
{
	*out = NULL;
	if (labels == NULL)
		return 0;
	return acc_get_string(a, labels, key, ACC_OPTIONAL, out) < 0 ? -1 : 0;
}

static int
read_index(struct access *a, const json_t *labels, long *out)
{
	const char *s;
	char *end;

	*out = -1;
	if (label(a, labels, POD_INDEX_LABEL, &s) < 0)
		return -1;
	if (s == NULL)
		return 0;
	*out = strtol(s, &end, 10);
	if (end == s || *end != '\0' || *out < 0)
		return access_fail_at(a, POD_INDEX_LABEL,
		    "expected a pod index, got \"%s\"", s);
	return 0;
}

static int
condition_ready(struct access *a, const json_t *c, size_t i, void *ctx)
{
	const char *type, *status;

	(void)i;
	if (acc_get_string(a, c, "type", ACC_REQUIRED, &type) < 0 ||
	    acc_get_string(a, c, "status", ACC_REQUIRED, &status) < 0)
		return -1;
	if (strcmp(type, "Ready") == 0)
		*(int *)ctx = strcmp(status, "True") == 0;
	return 0;
}

static int
read_status(struct access *a, const json_t *item, struct pod *p)
{
	json_t *status = NULL;
	const char *phase = NULL;

	if (acc_get_object(a, item, "status", ACC_OPTIONAL, &status) < 0)
		return -1;
	if (status == NULL)
		return 0;
	access_enter_key(a, "status");
	if (acc_get_string(a, status, "phase", ACC_OPTIONAL, &phase) < 0 ||
	    acc_each_element(a, status, "conditions", ACC_OPTIONAL,
	    condition_ready, &p->ready) < 0)
		return -1;
	access_leave(a);
	p->failed = phase != NULL && strcmp(phase, "Failed") == 0;
	return 0;
}

static int
owner_sts(struct access *a, const json_t *ref, size_t i, void *ctx)
{
	const char *kind, *name;

	(void)i;
	if (acc_get_string(a, ref, "kind", ACC_REQUIRED, &kind) < 0 ||
	    acc_get_string(a, ref, "name", ACC_REQUIRED, &name) < 0)
		return -1;
	if (strcmp(kind, "StatefulSet") == 0)
		*(const char **)ctx = name;
	return 0;
}

/* selected: every key=value of the -l selector is among the labels. */
static int
selected(const struct options *o, const json_t *labels)
{
	size_t i;

	for (i = 0; i < o->selector.count; i++) {
		const json_t *v = labels ? json_object_get(labels,
		    o->selector.keys[i]) : NULL;

		if (!json_is_string(v) ||
		    strcmp(json_string_value(v), o->selector.values[i]) != 0)
			return 0;
	}
	return 1;
}

static int
read_role(struct access *a, const struct options *o, const json_t *labels,
    struct pod *p)
{
	if (label(a, labels, o->state_key, &p->state_label) < 0 ||
	    label(a, labels, o->peer_key, &p->peer) < 0)
		return -1;
	if (p->state_label == NULL)
		p->role = ROLE_NONE;
	else if (strcmp(p->state_label, o->active_value) == 0)
		p->role = ROLE_ACTIVE;
	else if (strcmp(p->state_label, o->standby_value) == 0)
		p->role = ROLE_STANDBY;
	else
		p->role = ROLE_OTHER;
	return 0;
}

static int
read_namespace(struct access *a, struct world *w, const json_t *meta)
{
	const char *ns = NULL;

	if (acc_get_string(a, meta, "namespace", ACC_OPTIONAL, &ns) < 0)
		return -1;
	if (w->npods == 0 || (ns == NULL && w->namespace == NULL)) {
		w->namespace = ns;
		return 0;
	}
	if (ns == NULL || w->namespace == NULL || strcmp(ns, w->namespace) != 0)
		return access_fail_at(a, "namespace", "pods of two namespaces "
		    "(\"%s\" and \"%s\"): run once per namespace",
		    w->namespace ? w->namespace : "", ns ? ns : "");
	return 0;
}

static int
read_meta(struct access *a, struct world *w, const json_t *meta,
    struct pod *p)
{
	const char *created, *deleted = NULL;
	json_t *labels = NULL;

	if (acc_get_string(a, meta, "name", ACC_REQUIRED, &p->name) < 0 ||
	    acc_get_string(a, meta, "resourceVersion", ACC_REQUIRED,
	    &p->rv) < 0 ||
	    acc_get_string(a, meta, "creationTimestamp", ACC_REQUIRED,
	    &created) < 0 ||
	    acc_get_string(a, meta, "deletionTimestamp", ACC_OPTIONAL,
	    &deleted) < 0 ||
	    acc_get_object(a, meta, "labels", ACC_OPTIONAL, &labels) < 0 ||
	    read_namespace(a, w, meta) < 0 ||
	    acc_each_element(a, meta, "ownerReferences", ACC_OPTIONAL,
	    owner_sts, &p->owner_sts) < 0)
		return -1;
	if (time_parse(created, &p->created) < 0)
		return access_fail_at(a, "creationTimestamp",
		    "expected an RFC 3339 time, got \"%s\"", created);
	p->gone = deleted != NULL;
	p->selected = selected(w->opt, labels);
	if (labels != NULL)
		access_enter_key(a, "labels");
	if (read_index(a, labels, &p->index) < 0 ||
	    read_role(a, w->opt, labels, p) < 0)
		return -1;
	if (labels != NULL)
		access_leave(a);
	return 0;
}

/*
 * refuse_bad_name: a live pod whose name cannot be a peer label value
 * (4.1) cannot be paired.  Its name may be a DNS subdomain of up to 253
 * characters, a label value holds at most 63: it is left out of the
 * plan, with a located warning and a problem, and the rest is planned.
 */
static void
refuse_bad_name(struct access *a, struct world *w, struct pod *p)
{
	size_t n = strlen(p->name);
	char why[160];

	if (p->gone || !p->selected || valid_label_value(p->name))
		return;
	if (n > 63)
		snprintf(why, sizeof why, "its name has %zu characters, but a "
		    "peer label value holds at most 63", n);
	else
		snprintf(why, sizeof why, "its name is not a valid label "
		    "value");
	access_enter_key(a, "metadata");
	access_enter_key(a, "name");
	access_warn(a, "pod \"%s\" left out of the plan: %s", p->name, why);
	access_leave(a);
	access_leave(a);
	p->refused = 1;
	add_problem(w, "pod-name-not-a-label-value", json_pack("{s:s,s:s,s:s}",
	    "pod", p->name, "why", why, "source", "section 4.1"));
}

static int
read_pod(struct access *a, const json_t *item, size_t i, void *ctx)
{
	struct reader *r = ctx;
	struct pod *p = &r->w->pods[i];
	const char *kind = NULL;
	json_t *meta, *spec = NULL;

	memset(p, 0, sizeof *p);
	p->item = i;
	p->partner = -1;
	if (acc_as_object(a, item) < 0 ||
	    acc_get_string(a, item, "kind", ACC_OPTIONAL, &kind) < 0)
		return -1;
	if (kind != NULL && strcmp(kind, "Pod") != 0)
		return access_fail_at(a, "kind", "expected \"Pod\", got \"%s\"",
		    kind);
	if (acc_get_object(a, item, "metadata", ACC_REQUIRED, &meta) < 0 ||
	    acc_get_object(a, item, "spec", ACC_OPTIONAL, &spec) < 0)
		return -1;
	access_enter_key(a, "metadata");
	if (read_meta(a, r->w, meta, p) < 0)
		return -1;
	access_leave(a);
	if (spec != NULL) {
		access_enter_key(a, "spec");
		if (acc_get_string(a, spec, "nodeName", ACC_OPTIONAL,
		    &p->node) < 0)
			return -1;
		access_leave(a);
	}
	if (read_status(a, item, p) < 0)
		return -1;
	refuse_bad_name(a, r->w, p);
	r->w->npods = i + 1;
	return 0;
}

static int
read_list(struct access *a, struct world *w, json_t *doc)
{
	struct reader r = { w, w->opt };
	const char *kind;
	json_t *items;

	if (acc_as_object(a, doc) < 0 ||
	    acc_get_string(a, doc, "kind", ACC_REQUIRED, &kind) < 0)
		return -1;
	if (strcmp(kind, "Pod") == 0) {
		w->pods = xcalloc(1, sizeof *w->pods);
		return read_pod(a, doc, 0, &r);
	}
	if (strcmp(kind, "List") != 0 && strcmp(kind, "PodList") != 0)
		return access_fail_at(a, "kind", "expected \"List\", \"PodList\" "
		    "or \"Pod\", got \"%s\"", kind);
	if (acc_get_array(a, doc, "items", ACC_REQUIRED, &items) < 0)
		return -1;
	w->pods = xcalloc(json_array_size(items), sizeof *w->pods);
	return acc_each_element(a, doc, "items", ACC_REQUIRED, read_pod, &r);
}

int
read_pods(struct world *w, const char *file)
{
	struct access a;
	int status = load_document(file, &w->docs[0]);

	if (status != EXIT_OK)
		return status;
	access_init(&a, load_name(file));
	if (read_list(&a, w, w->docs[0]) < 0)
		status = EXIT_DATAERR;
	access_free(&a);
	return status;
}
