/*
 * mitigate.c: seed 004 Table V.  An error naming a provider, a region
 * or an offer takes offers out of the model for new nodes while it is
 * recent (within the span before "now"; always, when no time is known):
 *
 *   Authorisation              the whole provider
 *   NotFound                   the offer (or what else was named)
 *   InsufficientResources,     the region: the named location, or the
 *   IllegalRequest,            REGION-scoped location around a named
 *   Unavailable, ServerError   offer, with every zone inside it
 * Running nodes on such offers stay; they are only not added to.
 */
#include <stdlib.h>

#include "plan.h"
#include "xalloc.h"

static int
recent(const struct plan *p, const struct mc_error *e)
{
	int has_now = p->o.has_now || p->j->has_now;
	long long now = p->o.has_now ? p->o.now : p->j->now;

	return !has_now || !e->has_time || (double)(now - e->time) < p->o.span;
}

/* target: what the error removes, by Table V; sets m's scope and id. */
static void
target(const struct plan *p, const struct mc_error *e, struct mitigation *m,
    size_t *cloud, size_t *loc, size_t *offer)
{
	const struct mc_model *md = p->m;

	*cloud = *loc = *offer = MC_NONE;
	if (e->type == ERR_AUTHORISATION || e->cloud != MC_NONE) {
		*cloud = e->cloud != MC_NONE ? e->cloud : e->offer != MC_NONE ?
		    md->offers[e->offer].cloud : md->locs[e->loc].cloud;
		m->scope = "provider";
		m->id = *cloud == MC_NONE ? "?" : md->clouds[*cloud].id;
	} else if (e->type == ERR_NOT_FOUND && e->offer != MC_NONE) {
		*offer = e->offer;
		m->scope = "offer";
		m->id = md->offers[e->offer].id;
	} else {
		*loc = e->loc != MC_NONE ? e->loc :
		    model_region(md, md->offers[e->offer].loc);
		m->scope = "region";
		m->id = md->locs[*loc].id;
	}
}

static void
apply(struct plan *p, size_t i)
{
	const struct mc_error *e = &p->j->errors[i];
	struct mitigation *m = &p->mits[i];
	size_t cloud, loc, offer, o;

	m->error = i;
	target(p, e, m, &cloud, &loc, &offer);
	if (!(m->active = recent(p, e)))
		return;
	for (o = 0; o < p->m->noffers; o++) {
		const struct mc_offer *of = &p->m->offers[o];
		int hit = o == offer || (cloud != MC_NONE && of->cloud == cloud) ||
		    (loc != MC_NONE && model_within(p->m, of->loc, loc));

		if (hit) {
			m->offers += !p->banned[o];
			p->banned[o] = 1;
		}
	}
}

void
mitigate(struct plan *p)
{
	size_t i;

	p->banned = xcalloc(p->m->noffers, 1);
	p->mits = xcalloc(p->j->nerrors, sizeof *p->mits);
	for (i = 0; i < p->j->nerrors; i++)
		apply(p, i);
}
