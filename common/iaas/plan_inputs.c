/* plan_inputs.c: read the sections the planners need (plan_inputs.h). */
#include <string.h>

#include "cgraph_read.h"
#include "plan_inputs.h"
#include "state.h"

/* section: require section s and read it with the path kept. */
#define SECTION(a, doc, s, call)					\
	(state_require(a, doc, s, &sec) == 0 &&				\
	 (access_enter_key(a, section_desc(s)->name), r = (call),	\
	  access_leave(a), r == 0))

int
plan_inputs_load(struct access *a, const json_t *doc, struct plan_inputs *in)
{
	json_t *sec;
	int r;

	memset(in, 0, sizeof *in);
	rgraph_init(&in->rg);
	return state_check(a, doc) == 0 &&
	    SECTION(a, doc, SECTION_SYSTEM, sysconf_load(a, sec, &in->sc)) &&
	    SECTION(a, doc, SECTION_CATALOG, catalog_load(a, sec, &in->cat)) &&
	    SECTION(a, doc, SECTION_RESOURCE_GRAPH,
	    rgraph_load(a, sec, &in->rg)) &&
	    SECTION(a, doc, SECTION_CONTROL_GRAPH,
	    cgraph_load(a, sec, &in->rg, &in->cg)) ? 0 : -1;
}

void
plan_inputs_free(struct plan_inputs *in)
{
	cgraph_free(&in->cg);
	rgraph_free(&in->rg);
	catalog_free(&in->cat);
	sysconf_free(&in->sc);
}
