/*
 * answer.c: the result document.  Everything in it is a function of
 * the input, except the "time" member that --timing adds.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "exitcodes.h"
#include "output.h"
#include "answer.h"
#include "xalloc.h"

static const char *const status_names[] = {
	"optimal", "feasible", "timeout", "infeasible", "unknown"
};

/* number: integral values as JSON integers. */
static json_t *
number(double v)
{
	if (v == floor(v) && fabs(v) < 1e15)
		return json_integer((json_int_t)v);
	return json_real(v);
}

static json_t *
node_json(const struct plan *p, const char *id, size_t o, int kept)
{
	const struct mc_model *m = p->m;
	const struct mc_offer *of = &m->offers[o];
	const char *country = m->locs[of->loc].country;

	return json_pack("{s:s, s:s, s:s, s:s, s:s, s:s?, s:s, s:o, s:o, s:f, "
	    "s:b}", "id", id, "offer", of->id, "hardware", m->hws[of->hw].id,
	    "image", m->imgs[of->img].id, "location", m->locs[of->loc].id,
	    "country", country, "cloud", m->clouds[of->cloud].id,
	    "cores", number(m->hws[of->hw].cores), "ram",
	    number(m->hws[of->hw].ram), "price", of->price, "kept", kept);
}

/*
 * nodes_json: running nodes the plan keeps, in running order, then new
 * ones by offer.  A re-plan that picks a running node's offer keeps it.
 */
static json_t *
nodes_json(const struct plan *p, json_t *released)
{
	json_t *out = json_array();
	long *left = xcalloc(p->m->noffers, sizeof *left), k, added = 0;
	char id[32];
	size_t i, o;

	memcpy(left, p->res.count, p->m->noffers * sizeof *left);
	for (i = 0; i < p->j->nrunning; i++) {
		const struct mc_node *n = &p->j->running[i];

		if (!n->failed && left[n->offer] > 0) {
			left[n->offer]--;
			json_array_append_new(out, node_json(p, n->id, n->offer, 1));
		} else {
			json_array_append_new(released, json_string(n->id));
		}
	}
	for (o = 0; o < p->m->noffers; o++)
		for (k = 0; k < left[o]; k++) {
			snprintf(id, sizeof id, "new-%ld", ++added);
			json_array_append_new(out, node_json(p, id, o, 0));
		}
	free(left);
	return out;
}

static json_t *
conflict_json(const struct plan *p)
{
	json_t *out = json_array();
	size_t i;

	for (i = 0; i < p->j->nreqs; i++)
		if (p->conflict[i])
			json_array_append_new(out, json_pack("{s:s, s:s}",
			    "requirement", p->srcs[i].path, "text",
			    p->j->reqs[i]));
	if (p->conflict_running)
		json_array_append_new(out, json_pack("{s:s, s:s}",
		    "requirement", ".running", "text",
		    "keep the running nodes"));
	return out;
}

static json_t *
mitigation_json(const struct plan *p)
{
	json_t *out = json_array();
	char path[48];
	size_t i;

	for (i = 0; i < p->j->nerrors; i++) {
		const struct mitigation *m = &p->mits[i];

		snprintf(path, sizeof path, ".errors[%zu]", i);
		json_array_append_new(out, json_pack("{s:s, s:s, s:b, s:s, s:s, "
		    "s:I}", "error", path, "type",
		    mc_error_names[p->j->errors[i].type], "active", m->active,
		    "removed", m->scope, "id", m->id, "offers",
		    (json_int_t)m->offers));
	}
	return out;
}

static json_t *
stats_json(const struct mc_stats *st, size_t offers)
{
	return json_pack("{s:I, s:I, s:I, s:s, s:I, s:I}", "offers",
	    (json_int_t)offers, "candidates", (json_int_t)st->candidates,
	    "variables", (json_int_t)st->vars, "method",
	    st->method ? st->method : "none", "search_nodes",
	    (json_int_t)st->nodes, "simplex_iterations",
	    (json_int_t)st->iterations);
}

static double
gap(const struct mc_result *r)
{
	double d = r->objective - r->bound, s = r->objective < 0 ?
	    -r->objective : r->objective;

	d = d < 0 ? -d : d;
	return s > 1e-9 ? d / s : d;
}

static void
add_result(json_t *doc, const struct mc_result *r)
{
	json_object_set_new(doc, "status", json_string(status_names[r->status]));
	if (!r->found)
		return;
	json_object_set_new(doc, "objective", json_real(r->objective));
	json_object_set_new(doc, "bound", json_real(r->bound));
	json_object_set_new(doc, "gap", json_real(gap(r)));
}

static json_t *
replan_json(const struct plan *p)
{
	json_t *out = json_object();

	add_result(out, &p->full);
	if (p->full.found && p->res.found)
		json_object_set_new(out, "price_of_keeping",
		    json_real(p->res.objective - p->full.objective));
	return out;
}

static json_t *
grow_json(const struct plan *p)
{
	json_t *out = json_array(), *s;
	size_t i;

	for (i = 0; i < p->nsteps; i++) {
		s = json_pack("{s:I, s:s}", "nodes", (json_int_t)p->steps[i].nodes,
		    "status", status_names[p->steps[i].status]);
		if (p->steps[i].found)
			json_object_set_new(s, "objective",
			    json_real(p->steps[i].objective));
		json_array_append_new(out, s);
	}
	return out;
}

static void
add_objective(json_t *doc, const struct plan *p)
{
	json_object_set_new(doc, "sense", json_string(p->prob.maximise ?
	    "maximise" : "minimise"));
	json_object_set_new(doc, "objective_from", json_string(
	    p->prob.obj_req == MC_NONE ? "total price" :
	    p->srcs[p->prob.obj_req].path));
}

json_t *
report_build(const struct plan *p, int timing, double total)
{
	json_t *doc = json_object(), *released = json_array();

	if (p->j->name != NULL)
		json_object_set_new(doc, "name", json_string(p->j->name));
	json_object_set_new(doc, "nodes", json_integer(p->N));
	add_result(doc, &p->res);
	add_objective(doc, p);
	if (p->res.found)
		json_object_set_new(doc, "plan", nodes_json(p, released));
	if (p->res.found)
		json_object_set_new(doc, "released", released);
	else
		json_decref(released);
	if (p->conflict != NULL) {
		json_object_set_new(doc, "conflict", conflict_json(p));
		json_object_set_new(doc, "conflict_minimal",
		    json_boolean(p->conflict_minimal));
	}
	if (p->keep || p->o.grow)
		json_object_set_new(doc, "replan", replan_json(p));
	if (p->o.grow)
		json_object_set_new(doc, "grow", grow_json(p));
	if (p->j->nerrors > 0)
		json_object_set_new(doc, "mitigation", mitigation_json(p));
	json_object_set_new(doc, "statistics", stats_json(&p->res.st,
	    p->m->noffers));
	if (timing)
		json_object_set_new(doc, "time", json_pack("{s:f, s:f}",
		    "solve_ms", p->solve_seconds * 1e3, "total_ms", total * 1e3));
	return doc;
}

int
report_write(const json_t *doc, const struct output_opts *how)
{
	FILE *fp = output_text_begin();
	size_t flags = JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(12);

	flags |= how->compact ? JSON_COMPACT : JSON_INDENT(2);
	if (json_dumpf(doc, fp, flags) != 0 || fputc('\n', fp) == EOF) {
		output_text_discard(fp);
		return EXIT_OSERR;
	}
	return output_text_commit(fp);
}

int
report_status(const struct plan *p)
{
	switch (p->res.status) {
	case ST_INFEASIBLE:
		return EXIT_INFEASIBLE;
	case ST_TIMEOUT:
		return p->res.found ? EXIT_OK : EXIT_TEMPFAIL;
	default:
		return EXIT_OK;
	}
}
