/*
 * plan.c: the plan, ha-assign-plan(5): the actions in the order to run
 * them (failovers, then assignments, then clean-up; within a phase the
 * label changes that take a role away first, then the other label
 * changes, the Services to delete and the Services to apply), the
 * pairs with their state, and the problems found.
 */
#include <stdlib.h>
#include <string.h>

#include "output.h"
#include "world.h"
#include "xalloc.h"

#define MANAGED_BY "app.kubernetes.io/managed-by"
#define ACTIVE_POD_ANNOTATION "upkit/active-pod"

static const char *const phase_names[] = { "", "failover", "assignment",
	"cleanup" };

static int
streq(const char *a, const char *b)
{
	return a == b || (a != NULL && b != NULL && strcmp(a, b) == 0);
}

static const char *
role_value(const struct world *w, enum role r)
{
	return r == ROLE_ACTIVE ? w->opt->active_value : w->opt->standby_value;
}

static int
state_changes(const struct pod *p)
{
	return p->want != p->role &&
	    (p->want == ROLE_ACTIVE || p->want == ROLE_STANDBY);
}

static int
labels_change(const struct pod *p)
{
	return state_changes(p) || !streq(p->want_peer, p->peer);
}

static json_t *
action(const char *kind, const struct reason *r)
{
	return json_pack("{s:s,s:s,s:O,s:s}", "action", kind, "phase",
	    phase_names[r->phase], "why", r->why, "source", r->source);
}

static json_t *
label_action(const struct world *w, const struct pod *p)
{
	json_t *a = action("label", &p->reason), *labels = json_object();

	if (state_changes(p))
		json_object_set_new(labels, w->opt->state_key,
		    json_string(role_value(w, p->want)));
	if (!streq(p->want_peer, p->peer))
		json_object_set_new(labels, w->opt->peer_key,
		    p->want_peer ? json_string(p->want_peer) : json_null());
	json_object_set_new(a, "pod", json_string(p->name));
	json_object_set_new(a, "resourceVersion", json_string(p->rv));
	json_object_set_new(a, "labels", labels);
	return a;
}

static json_t *
manifest(const struct world *w, const struct want_service *ws)
{
	json_t *meta = json_pack("{s:s}", "name", ws->name);
	json_t *labels = json_pack("{s:s}", MANAGED_BY, "ha-assign");
	json_t *sel = ws->active_pod ? service_selector(w,
	    w->opt->standby_value, ws->active_pod) :
	    service_selector(w, w->opt->active_value, NULL);
	size_t i;

	if (w->namespace != NULL)
		json_object_set_new(meta, "namespace",
		    json_string(w->namespace));
	for (i = 0; i < w->opt->selector.count; i++)
		json_object_set_new(labels, w->opt->selector.keys[i],
		    json_string(w->opt->selector.values[i]));
	json_object_set_new(meta, "labels", labels);
	if (ws->active_pod != NULL)
		json_object_set_new(meta, "annotations", json_pack("{s:s}",
		    ACTIVE_POD_ANNOTATION, ws->active_pod));
	return json_pack("{s:s,s:s,s:o,s:{s:o,s:[{s:s,s:s,s:I,s:I}]}}",
	    "apiVersion", "v1", "kind", "Service", "metadata", meta, "spec",
	    "selector", sel, "ports", "name", "ha", "protocol", "TCP", "port",
	    (json_int_t)w->opt->port, "targetPort", (json_int_t)w->opt->port);
}

static void
delete_action(json_t *actions, const char *name, int phase,
    const char *source, json_t *why)
{
	struct reason r = { phase, why, source };
	json_t *a = action("delete-service", &r);

	json_object_set_new(a, "service", json_string(name));
	json_array_append_new(actions, a);
	json_decref(why);
}

/* delete_existing: the reason a Service is deleted decides its phase. */
static void
delete_existing(const struct world *w, const struct service *s, int phase,
    json_t *actions)
{
	long q = s->active_pod ? live_pod(w, s->active_pod) : -1;

	if (s->active_pod != NULL && idmap_find(&w->taken_over,
	    s->active_pod) >= 0) {
		if (phase == PH_FAILOVER)
			delete_action(actions, s->name, phase,
			    "Algorithm 1, L14", json_sprintf("%s is gone and its "
			    "standby took over", s->active_pod));
	} else if (q >= 0 && w->pods[q].role == ROLE_ACTIVE &&
	    w->pods[q].want != ROLE_ACTIVE) {
		if (phase == PH_FAILOVER)
			delete_action(actions, s->name, phase,
			    "Algorithm 1, L14", json_sprintf("%s is no longer "
			    "active", s->active_pod));
	} else if (phase != PH_CLEANUP) {
		return;
	} else if (s->active_pod != NULL && q < 0)
		delete_action(actions, s->name, phase,
		    "Algorithm 1, L23-L25 (scale-in)",
		    json_sprintf("%s is gone", s->active_pod));
	else
		delete_action(actions, s->name, phase, "section 4.2",
		    json_string("no pair's active replicates through it"));
}

static void
deletes(const struct world *w, int phase, json_t *actions)
{
	size_t k;

	if (w->have_services) {
		for (k = 0; k < w->nservices; k++)
			if (w->services[k].managed && !w->services[k].wanted)
				delete_existing(w, &w->services[k], phase,
				    actions);
		return;
	}
	for (k = 0; phase == PH_FAILOVER && k < w->nlive; k++) {
		const struct pod *p = &w->pods[w->order[k]];

		char *name;

		if (p->role != ROLE_ACTIVE || p->want == ROLE_ACTIVE)
			continue;
		name = replicate_name(p->name);
		delete_action(actions, name, phase, "Algorithm 1, L14",
		    json_sprintf("%s is no longer active", p->name));
		free(name);
	}
}

static void
labels(const struct world *w, int phase, int demotions, json_t *actions)
{
	size_t k;

	for (k = 0; k < w->nlive; k++) {
		struct pod *p = &w->pods[w->order[k]];

		if (!labels_change(p))
			continue;
		if (p->reason.phase == 0) {
			p->reason.phase = PH_ASSIGN;
			p->reason.source = "Algorithm 1, L36-L37; section 4.1";
			p->reason.why = json_string("assign the HA state and "
			    "peer labels");
		}
		if (p->reason.phase == phase &&
		    demotions == (p->role == ROLE_ACTIVE &&
		    p->want != ROLE_ACTIVE))
			json_array_append_new(actions, label_action(w, p));
	}
}

static void
applies(const struct world *w, int phase, json_t *actions)
{
	size_t k;

	for (k = 0; k < w->nwant_svc; k++) {
		const struct want_service *ws = &w->want_svc[k];
		json_t *a;

		if (ws->exists || ws->reason.phase != phase)
			continue;
		a = action("apply-service", &ws->reason);
		json_object_set_new(a, "service", json_string(ws->name));
		json_object_set_new(a, "manifest", manifest(w, ws));
		json_array_append_new(actions, a);
	}
}

static json_t *
actions(const struct world *w)
{
	json_t *list = json_array();
	int ph;

	for (ph = PH_FAILOVER; ph <= PH_CLEANUP; ph++) {
		labels(w, ph, 1, list);
		labels(w, ph, 0, list);
		deletes(w, ph, list);
		applies(w, ph, list);
	}
	return list;
}

static json_t *
pair_entry(const struct world *w, const struct pod *p)
{
	const struct pod *q = &w->pods[p->partner];
	const struct pod *act = p->want == ROLE_ACTIVE ? p : q;
	const struct pod *sb = act == p ? q : p;
	char *name = replicate_name(act->name);
	json_t *e = json_pack("{s:s,s:s,s:s,s:s}", "state", !act->ready ?
	    "down" : sb->ready ? "protected" : "unprotected", "active",
	    act->name, "standby", sb->name, "replication", name);

	free(name);
	return e;
}

static json_t *
single_entry(const struct pod *p)
{
	if (p->orphan && p->waiting)
		return json_pack("{s:s,s:s,s:s}", "state", "orphan", "pod",
		    p->name, "waiting-for", p->peer);
	return json_pack("{s:s,s:s}", "state", "unpaired", "pod", p->name);
}

static json_t *
pairs(const struct world *w)
{
	json_t *list = json_array();
	unsigned char *seen = xcalloc(w->npods, 1);
	size_t k;

	for (k = 0; k < w->nlive; k++) {
		size_t i = w->order[k];
		const struct pod *p = &w->pods[i];

		if (seen[i])
			continue;
		if (p->partner >= 0) {
			seen[p->partner] = 1;
			json_array_append_new(list, pair_entry(w, p));
		} else
			json_array_append_new(list, single_entry(p));
	}
	free(seen);
	return list;
}

static json_t *
problems(const struct world *w)
{
	json_t *list = json_array();
	size_t k;

	for (k = 0; k < w->nproblems; k++) {
		json_t *e = json_pack("{s:s}", "problem", w->problems[k].kind);

		json_object_update(e, w->problems[k].detail);
		json_array_append_new(list, e);
	}
	return list;
}

int
write_plan(struct world *w)
{
	json_t *doc = json_pack("{s:s,s:i}", "format", "ha-assign-plan",
	    "version", 1);
	int status;

	if (w->namespace != NULL)
		json_object_set_new(doc, "namespace",
		    json_string(w->namespace));
	json_object_set_new(doc, "actions", actions(w));
	json_object_set_new(doc, "pairs", pairs(w));
	json_object_set_new(doc, "problems", problems(w));
	status = output_json(doc, &w->opt->output);
	json_decref(doc);
	return status;
}
