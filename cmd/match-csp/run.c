/*
 * run.c: load the job and the model, parse the requirements, plan and
 * report.  Nothing reaches stdout before the whole answer is known.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "exitcodes.h"
#include "load.h"
#include "answer.h"
#include "monotonic.h"
#include "run.h"
#include "sanitized.h"
#include "xalloc.h"

/* The documents and what was read from them. */
struct input {
	json_t *doc, *mdoc;
	struct access a, ma;
	struct mc_job job;
	struct mc_model model;
	struct arena *ar;
	struct src *srcs;
	struct expr **reqs;
};

/* load_model_file: --model FILE, through the fast path when it can. */
static int
load_model_file(struct input *in, const char *file)
{
	char *buf;
	size_t len;
	int st;

	if ((st = load_read(file, &buf, &len)) != EXIT_OK)
		return st;
	switch (model_load_fast(&in->ma, buf, len, &in->mdoc, &in->model)) {
	case 0: st = EXIT_OK; break;
	case -1: st = EXIT_DATAERR; break;
	default:
		st = load_buffer(load_name(file), buf, len, &in->mdoc);
		if (st == EXIT_OK && model_load(&in->ma, in->mdoc,
		    &in->model) < 0)
			st = EXIT_DATAERR;
	}
	free(buf);
	return st;
}

static int
load_model(struct input *in, const struct options *o, json_t *disc)
{
	int st;

	if (o->model != NULL) {
		if (disc != NULL)
			return access_fail_at(&in->a, "discovery", "a model is "
			    "given both here and with --model") < 0 ?
			    EXIT_DATAERR : EXIT_OK;
		return load_model_file(in, o->model);
	}
	if (disc == NULL)
		return access_fail(&in->a, "no discovery model: give --model "
		    "FILE or a \"discovery\" member") < 0 ? EXIT_DATAERR :
		    EXIT_OK;
	access_enter_key(&in->a, "discovery");
	st = model_load(&in->a, disc, &in->model);
	access_leave(&in->a);
	return st < 0 ? EXIT_DATAERR : EXIT_OK;
}

static int
parse_all(struct input *in)
{
	size_t i, n = in->job.nreqs;
	char path[48];

	in->ar = arena_new();
	in->srcs = xcalloc(n, sizeof *in->srcs);
	in->reqs = xcalloc(n, sizeof *in->reqs);
	for (i = 0; i < n; i++) {
		snprintf(path, sizeof path, ".requirements[%zu]", i);
		in->srcs[i].file = in->a.file;
		in->srcs[i].path = arena_strndup(in->ar, path, strlen(path));
		in->srcs[i].text = in->job.reqs[i];
		if ((in->reqs[i] = parse_requirement(in->ar, &in->srcs[i])) ==
		    NULL)
			return EXIT_DATAERR;
	}
	return EXIT_OK;
}

static int
read_input(struct input *in, const struct options *o)
{
	json_t *disc;
	int st;

	if ((st = load_document(o->job, &in->doc)) != EXIT_OK)
		return st;
	access_init(&in->a, load_name(o->job));
	access_init(&in->ma, o->model ? load_name(o->model) : "");
	if (job_load(&in->a, in->doc, &in->job, &disc) < 0)
		return EXIT_DATAERR;
	if ((st = load_model(in, o, disc)) != EXIT_OK)
		return st;
	if (job_bind(&in->a, in->doc, &in->model, &in->job) < 0)
		return EXIT_DATAERR;
	return parse_all(in);
}

static void
free_input(struct input *in)
{
	job_free(&in->job);
	model_free(&in->model);
	arena_free(in->ar);
	free(in->srcs);
	free(in->reqs);
	access_free(&in->a);
	access_free(&in->ma);
	json_decref(in->doc);
	json_decref(in->mdoc);
}

static void
setup_plan(struct plan *p, const struct input *in, const struct options *o)
{
	size_t i;

	memset(p, 0, sizeof *p);
	p->m = &in->model;
	p->j = &in->job;
	p->reqs = in->reqs;
	p->srcs = in->srcs;
	p->o = o->plan;
	p->o.label = in->a.file;
	p->N = o->plan.nodes >= 0 ? o->plan.nodes : in->job.nodes;
	p->kept = xcalloc(in->model.noffers, sizeof *p->kept);
	for (i = 0; i < in->job.nrunning; i++)
		if (!in->job.running[i].failed) {
			p->kept[in->job.running[i].offer]++;
			p->nkept++;
		}
	if (o->plan.time_limit > 0)
		p->deadline = monotonic_seconds() + o->plan.time_limit;
	mitigate(p);
}

/* tell: one line on stderr when the answer is no answer. */
static void
tell(const struct plan *p)
{
	char list[512];
	size_t i, len = 0;

	list[0] = '\0';
	for (i = 0; p->conflict && i < p->j->nreqs && len < sizeof list; i++)
		if (p->conflict[i])
			len += (size_t)snprintf(list + len, sizeof list - len,
			    "%s%s", len ? ", " : "", p->srcs[i].path);
	if (p->conflict_running && len < sizeof list)
		snprintf(list + len, sizeof list - len, "%s.running",
		    len ? ", " : "");
	if (p->res.status == ST_INFEASIBLE)
		diag_error(p->o.label, "no plan for %ld node%s: %s", p->N,
		    p->N == 1 ? "" : "s", list[0] ? list : "not enough offers "
		    "left");
	else if (p->res.status == ST_TIMEOUT && !p->res.found)
		diag_error(p->o.label, "time limit reached before any plan "
		    "was found");
}

static int
answer(struct plan *p, const struct options *o, double t0)
{
	json_t *doc;
	int st;

	if (o->export_lp) {
		if (problem_compile(&p->prob, p->m, p->reqs, p->srcs,
		    p->j->nreqs, p->N) < 0)
			return EXIT_DATAERR;
		return lp_export(p);
	}
	if (plan_run(p) < 0)
		return EXIT_DATAERR;
	doc = report_build(p, o->timing, monotonic_seconds() - t0);
	st = report_write(doc, &o->output);
	json_decref(doc);
	tell(p);
	return st != EXIT_OK ? st : report_status(p);
}

int
match_csp_run(const struct options *o)
{
	struct input in;
	struct plan p;
	double t0 = monotonic_seconds();
	int st, planned = 0;

	memset(&in, 0, sizeof in);
	memset(&p, 0, sizeof p);
	if ((st = read_input(&in, o)) == EXIT_OK) {
		setup_plan(&p, &in, o);
		planned = 1;
		st = answer(&p, o, t0);
	}
	/*
	 * The process exits next: freeing 20,000 offers and their trees
	 * one by one was a tenth of a run on set H.  Sanitized builds free
	 * everything, so that their leak check still sees every block.
	 */
	if (UPKIT_SANITIZED) {
		if (planned)
			plan_free(&p);
		free_input(&in);
	}
	return st;
}
