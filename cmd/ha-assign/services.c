/*
 * services.c: the Services the plan wants (seed 003, 4.1 and 4.2).
 *
 * One replication Service per pair, "replicate-<active pod>" (or its
 * hashed form, see kname.c), selecting that pair's standby: state label
 * = standby and peer label = the active pod.  A pod waiting for its
 * peer to return keeps its Service.  With --service NAME, the
 * application Service NAME selects the active pods.  Both also select
 * the -l labels, so two applications in a namespace stay apart.
 */
#include <string.h>

#include "world.h"
#include "xalloc.h"

#define SRC_NEW_ACTIVE "Algorithm 1, L15"
#define SRC_CREATE "Algorithm 1, L38; section 4.2"
#define SRC_APP "section 4.1: the application Service selects the actives"

/* selector: the -l labels and the given state (and peer, if any). */
json_t *
service_selector(const struct world *w, const char *state, const char *peer)
{
	const struct options *o = w->opt;
	json_t *sel = json_object();
	size_t i;

	for (i = 0; i < o->selector.count; i++)
		json_object_set_new(sel, o->selector.keys[i],
		    json_string(o->selector.values[i]));
	json_object_set_new(sel, o->state_key, json_string(state));
	if (peer != NULL)
		json_object_set_new(sel, o->peer_key, json_string(peer));
	return sel;
}

/* same_selector: an existing Service named name selects what sel does. */
static int
same_selector(const struct world *w, const char *name, json_t *sel)
{
	const struct service *s = find_service(w, name);
	int same = s != NULL && s->selector != NULL &&
	    json_equal((json_t *)s->selector, sel);

	json_decref(sel);
	return same;
}

static struct want_service *
add_want(struct world *w, char *name, const char *active_pod)
{
	struct want_service *ws;

	if (w->nwant_svc == w->want_svc_cap) {
		w->want_svc_cap = w->want_svc_cap ? 2 * w->want_svc_cap : 16;
		w->want_svc = xreallocarray(w->want_svc, w->want_svc_cap,
		    sizeof *w->want_svc);
	}
	ws = &w->want_svc[w->nwant_svc++];
	memset(ws, 0, sizeof *ws);
	ws->name = name;
	ws->active_pod = active_pod;
	if (find_service(w, name) != NULL)
		((struct service *)find_service(w, name))->wanted = 1;
	return ws;
}

static void
want_replication(struct world *w, const struct pod *p)
{
	struct want_service *ws = add_want(w, replicate_name(p->name), p->name);
	int promoted = p->role != ROLE_ACTIVE && p->reason.phase == PH_FAILOVER;

	ws->exists = same_selector(w, ws->name, service_selector(w,
	    w->opt->standby_value, p->name));
	ws->reason.phase = promoted ? PH_FAILOVER : PH_ASSIGN;
	ws->reason.source = promoted ? SRC_NEW_ACTIVE : SRC_CREATE;
	ws->reason.why = json_sprintf("%s replicates its state to its "
	    "standby", p->name);
}

void
want_services(struct world *w)
{
	size_t k;

	if (w->opt->app_service != NULL) {
		struct want_service *ws = add_want(w,
		    xstrdup(w->opt->app_service), NULL);

		ws->exists = same_selector(w, ws->name, service_selector(w,
		    w->opt->active_value, NULL));
		ws->reason.phase = PH_ASSIGN;
		ws->reason.source = SRC_APP;
		ws->reason.why = json_string("the application Service");
	}
	for (k = 0; k < w->nlive; k++) {
		const struct pod *p = &w->pods[w->order[k]];

		if (p->want == ROLE_ACTIVE && (p->partner >= 0 ||
		    (p->orphan && p->waiting)))
			want_replication(w, p);
	}
}
