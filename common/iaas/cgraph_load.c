/*
 * cgraph_load.c: read the control graph section (see cgraph_read.h).
 * Groups and edges kept as text are read one at a time
 * (acc_each_kept_element): nothing of them is kept but copies.
 */
#include <stdlib.h>
#include <string.h>

#include "cgraph_read.h"
#include "xalloc.h"

struct load_ctx {
	const struct rgraph *rg;
	struct cgraph *cg;
};

static int
load_member(struct access *a, const json_t *v, size_t i, void *p)
{
	struct load_ctx *c = p;
	size_t gi = c->cg->ngroups - 1;
	struct cg_group *g = &c->cg->groups[gi];
	const char *id;
	long x;

	(void)i;
	if (acc_as_string(a, v, &id) < 0)
		return -1;
	if ((x = idmap_find(&c->rg->ids, id)) < 0)
		return access_fail(a, "no vertex of the resource graph has id "
		    "\"%s\"", id);
	if (c->cg->group_of[x] != (size_t)-1)
		return access_fail(a, "vertex \"%s\" is in two groups", id);
	c->cg->group_of[x] = gi;
	g->members[g->nmembers++] = (size_t)x;
	return 0;
}

static int
load_group(struct access *a, const json_t *v, size_t i, const char *text,
    size_t len, void *p)
{
	static const char *const known[] = { "id", "members",
		"modification_type", "activation_status", "undo_unit_ids",
		"actions_to_execute", "failed_attempts", "is_isolated",
		"is_failed", NULL };
	static const char *const statuses[] = { "active", "deactivated", NULL };
	struct load_ctx *c = p;
	struct cg_group *g;
	json_t *members;
	long x;
	int mod, status;

	(void)text, (void)len;
	c->cg->groups = xgrow(c->cg->groups, i, &c->cg->groups_cap,
	    sizeof *c->cg->groups);
	g = &c->cg->groups[i];
	if (acc_as_object(a, v) < 0 || acc_check_keys(a, v, known) < 0 ||
	    acc_get_string(a, v, "id", ACC_REQUIRED, &g->id) < 0 ||
	    acc_get_array(a, v, "members", ACC_REQUIRED, &members) < 0 ||
	    acc_get_enum(a, v, "modification_type", ACC_REQUIRED,
	    modification_names, &mod) < 0 ||
	    acc_get_enum(a, v, "activation_status", ACC_REQUIRED, statuses,
	    &status) < 0 ||
	    acc_get_bool(a, v, "is_isolated", ACC_OPTIONAL, &g->isolated) < 0 ||
	    acc_get_bool(a, v, "is_failed", ACC_OPTIONAL, &g->failed) < 0)
		return -1;
	if ((x = idmap_add(&c->cg->ids, g->id)) < 0)
		return access_fail_at(a, "id", "duplicate group id \"%s\"", g->id);
	g->id = idmap_key(&c->cg->ids, (size_t)x);
	g->mod = (enum modification)mod;
	g->deactivated = status == 1;
	/* counted before its members load, so cgraph_free frees them */
	g->members = xcalloc(json_array_size(members), sizeof *g->members);
	c->cg->ngroups++;
	if (acc_each_element(a, v, "members", ACC_REQUIRED, load_member, c) < 0)
		return -1;
	if (g->nmembers == 0)
		return access_fail_at(a, "members", "a group needs members");
	return 0;
}

static int
load_edge(struct access *a, const json_t *v, size_t i, const char *text,
    size_t len, void *p)
{
	static const char *const known[] = { "type", "dependent", "sponsor",
		"presence", "incompatibility_factor", NULL };
	struct load_ctx *c = p;
	struct cg_edge *e;
	int type, presence;

	(void)text, (void)len;
	c->cg->edges = xgrow(c->cg->edges, i, &c->cg->edges_cap,
	    sizeof *c->cg->edges);
	e = &c->cg->edges[i];
	e->incompatible = 0;
	if (acc_as_object(a, v) < 0 || acc_check_keys(a, v, known) < 0 ||
	    acc_get_enum(a, v, "type", ACC_REQUIRED, dep_type_names,
	    &type) < 0 ||
	    acc_get_ref(a, v, "dependent", &c->cg->ids, "group", &e->from) < 0 ||
	    acc_get_ref(a, v, "sponsor", &c->cg->ids, "group", &e->to) < 0 ||
	    acc_get_enum(a, v, "presence", ACC_REQUIRED, presence_names,
	    &presence) < 0 ||
	    acc_get_bool(a, v, "incompatibility_factor", ACC_OPTIONAL,
	    &e->incompatible) < 0)
		return -1;
	e->type = (enum dep_type)type;
	e->presence = (enum presence)presence;
	c->cg->nedges++;
	return 0;
}

/* every_vertex_grouped: a vertex outside every group is an error. */
static int
every_vertex_grouped(struct access *a, const struct rgraph *rg,
    const struct cgraph *cg)
{
	size_t v;

	for (v = 0; v < rg->nv; v++)
		if (cg->group_of[v] == (size_t)-1)
			return access_fail_at(a, "groups", "vertex \"%s\" of the "
			    "resource graph is in no group (run cg-coarsen "
			    "again)", rg->v[v].id);
	return 0;
}

int
cgraph_load(struct access *a, const json_t *section, const struct rgraph *rg,
    struct cgraph *cg)
{
	static const char *const known[] = { "version", "iteration", "groups",
		"edges", NULL };
	struct load_ctx c = { rg, cg };
	json_int_t iteration;

	memset(cg, 0, sizeof *cg);
	cg->rg = rg;
	idmap_init(&cg->ids);
	if (acc_as_object(a, section) < 0 ||
	    acc_check_keys(a, section, known) < 0 ||
	    acc_get_int(a, section, "iteration", ACC_REQUIRED, &iteration) < 0 ||
	    acc_has_array(a, section, "groups", ACC_REQUIRED) < 0 ||
	    acc_has_array(a, section, "edges", ACC_REQUIRED) < 0)
		return -1;
	if (iteration != rg->iteration)
		return access_fail_at(a, "iteration", "control graph of "
		    "iteration %" JSON_INTEGER_FORMAT " but resource graph of "
		    "iteration %ld (run cg-coarsen again)", iteration,
		    rg->iteration);
	cg->group_of = xmalloc((rg->nv + 1) * sizeof *cg->group_of);
	memset(cg->group_of, 0xff, (rg->nv + 1) * sizeof *cg->group_of);
	if (acc_each_kept_element(a, section, "groups", ACC_REQUIRED,
	    load_group, &c) < 0 || every_vertex_grouped(a, rg, cg) < 0 ||
	    acc_each_kept_element(a, section, "edges", ACC_REQUIRED, load_edge,
	    &c) < 0)
		return -1;
	return 0;
}
