/* reason.c: why a change is planned, problems found, and clean-up. */
#include <stdarg.h>
#include <stdlib.h>

#include "world.h"
#include "xalloc.h"

/* set_reason: the first reason given for a pod's change is kept. */
void
set_reason(struct pod *p, int phase, const char *source, const char *fmt,
    ...)
{
	va_list ap;

	if (p->reason.phase != 0)
		return;
	va_start(ap, fmt);
	p->reason.why = json_vsprintf(fmt, ap);
	va_end(ap);
	if (p->reason.why == NULL)	/* not UTF-8: cannot come from JSON */
		p->reason.why = json_string("");
	p->reason.phase = phase;
	p->reason.source = source;
}

void
add_problem(struct world *w, const char *kind, json_t *detail)
{
	if (w->nproblems == w->problems_cap) {
		w->problems_cap = w->problems_cap ? 2 * w->problems_cap : 8;
		w->problems = xreallocarray(w->problems, w->problems_cap,
		    sizeof *w->problems);
	}
	w->problems[w->nproblems].kind = kind;
	w->problems[w->nproblems++].detail = detail;
}

void
world_free(struct world *w)
{
	size_t i;

	for (i = 0; i < w->npods; i++)
		json_decref(w->pods[i].reason.why);
	for (i = 0; i < w->nwant_svc; i++) {
		free(w->want_svc[i].name);
		json_decref(w->want_svc[i].reason.why);
	}
	for (i = 0; i < w->nproblems; i++)
		json_decref(w->problems[i].detail);
	for (i = 0; i < sizeof w->docs / sizeof w->docs[0]; i++)
		json_decref(w->docs[i]);
	nameindex_free(&w->live_names);
	nameindex_free(&w->svc_names);
	nameindex_free(&w->node_names);
	nameindex_free(&w->sts_names);
	idmap_free(&w->taken_over);
	free(w->pods);
	free(w->order);
	free(w->services);
	free(w->nodes);
	free(w->sts);
	free(w->want_svc);
	free(w->problems);
}
