/*
 * lpfile.c: --export lp.  The integer program of milp.h over every
 * candidate offer (no dominance reduction, so CBC or GLPK check the
 * reduction too), in CPLEX LP format.  Columns are x<k> for offer k of
 * the price list (counting from 1) and y<r>_<c> for class c of the
 * partition of requirement r; rows are named r<r>_<kind><row>.  Comments
 * map offers back to ids and requirements to their text.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "exitcodes.h"
#include "milp.h"
#include "output.h"
#include "answer.h"
#include "xalloc.h"

#define TERMS_PER_LINE 8

static void
column(FILE *fp, const struct inst *in, const struct milp *mp, size_t j)
{
	if (j < mp->nx)
		fprintf(fp, "x%zu", in->offer[j] + 1);
	else
		fprintf(fp, "y%zu_%zu", in->part[mp->ypart[j - mp->nx]]->req + 1,
		    mp->ycls[j - mp->nx] + 1);
}

/* terms: a linear form; "0 x1" when empty, as the format needs a term. */
static void
terms(FILE *fp, const struct inst *in, const struct milp *mp,
    const double *a, double scale)
{
	size_t j, n = 0;

	for (j = 0; j < mp->n; j++) {
		double v = scale * a[j];

		if (v == 0)
			continue;
		if (n > 0 && n % TERMS_PER_LINE == 0)
			fputs("\n   ", fp);
		fprintf(fp, " %s %.15g ", v < 0 ? "-" : "+", v < 0 ? -v : v);
		column(fp, in, mp, j);
		n++;
	}
	if (n == 0)
		fputs(mp->n > 0 ? " 0 " : " 0 dummy", fp);
	if (n == 0 && mp->n > 0)
		column(fp, in, mp, 0);
	fputc('\n', fp);
}

static void
header(FILE *fp, const struct plan *p, const struct inst *in)
{
	size_t v, i;

	fprintf(fp, "\\ match-csp: %s, %ld nodes, %s\n", p->o.label, p->N,
	    p->keep ? "keeping the running nodes" : "full plan");
	if (p->prob.obj_const != 0)
		fprintf(fp, "\\ the objective has a constant %.15g\n",
		    p->prob.obj_const);
	for (i = 0; i < p->j->nreqs; i++)
		fprintf(fp, "\\ requirement %zu: %s\n", i + 1, p->j->reqs[i]);
	for (v = 0; v < in->n; v++)
		fprintf(fp, "\\ x%zu: %s\n", in->offer[v] + 1,
		    p->m->offers[in->offer[v]].id);
}

static void
rows(FILE *fp, const struct inst *in, const struct milp *mp)
{
	size_t i, req;

	fputs("Subject To\n", fp);
	for (i = 0; i < mp->m; i++) {
		req = strcmp(mp->rowname[i], "row") == 0 ?
		    in->rowreq[mp->rowpart[i]] :
		    strcmp(mp->rowname[i], "nodes") == 0 ? MC_NONE :
		    in->part[mp->rowpart[i]]->req;
		if (req == MC_NONE)
			fprintf(fp, " %s:", mp->rowname[i]);
		else
			fprintf(fp, " r%zu_%s%zu:", req + 1, mp->rowname[i], i);
		terms(fp, in, mp, &mp->A[i * mp->n], 1);
		fprintf(fp, "    %s %.15g\n", mp->sense[i] == 'L' ? "<=" :
		    mp->sense[i] == 'G' ? ">=" : "=", mp->b[i]);
	}
	if (!in->infeasible)
		return;
	fputs("\\ a running node is on an offer the requirements exclude\n"
	    " excluded:", fp);
	terms(fp, in, mp, mp->A, 0);
	fputs("    >= 1\n", fp);
}

static void
bounds(FILE *fp, const struct inst *in, const struct milp *mp)
{
	size_t j;

	fputs("Bounds\n", fp);
	for (j = 0; j < mp->nx; j++) {
		fputc(' ', fp);
		if (mp->lo[j] == mp->up[j]) {
			column(fp, in, mp, j);
			fprintf(fp, " = %.15g\n", mp->lo[j]);
			continue;
		}
		fprintf(fp, "%.15g <= ", mp->lo[j]);
		column(fp, in, mp, j);
		fprintf(fp, " <= %.15g\n", mp->up[j]);
	}
	if (mp->n == 0)
		fputs(" dummy = 0\n", fp);
}

static void
kinds(FILE *fp, const struct inst *in, const struct milp *mp)
{
	size_t j;

	if (mp->nx > 0)
		fputs("General\n", fp);
	for (j = 0; j < mp->nx; j++) {
		fputc(' ', fp);
		column(fp, in, mp, j);
		fputc('\n', fp);
	}
	if (mp->n > mp->nx)
		fputs("Binary\n", fp);
	for (j = mp->nx; j < mp->n; j++) {
		fputc(' ', fp);
		column(fp, in, mp, j);
		fputc('\n', fp);
	}
}

static void
write_lp(FILE *fp, const struct plan *p, const struct inst *in,
    const struct milp *mp)
{
	header(fp, p, in);
	fputs(p->prob.maximise ? "Maximize\n obj:" : "Minimize\n obj:", fp);
	terms(fp, in, mp, mp->c, p->prob.maximise ? -1 : 1);
	rows(fp, in, mp);
	bounds(fp, in, mp);
	kinds(fp, in, mp);
	fputs("End\n", fp);
}

int
lp_export(struct plan *p)
{
	unsigned char *active = xcalloc(p->j->nreqs, 1);
	long *lo = xcalloc(p->m->noffers, sizeof *lo);
	long *hi = xcalloc(p->m->noffers, sizeof *hi);
	struct mc_stats st;
	struct inst in;
	struct milp mp;
	FILE *fp;
	size_t i;

	for (i = 0; i < p->j->nreqs; i++)
		active[i] = 1;
	p->keep = p->nkept > 0 && !p->o.replan;
	plan_bounds(p, p->keep, lo, hi);
	inst_build(&in, &p->prob, active, lo, hi, 0, &st);
	milp_build(&mp, &in);
	fp = output_text_begin();
	write_lp(fp, p, &in, &mp);
	milp_free(&mp);
	inst_free(&in);
	free(active);
	free(lo);
	free(hi);
	return output_text_commit(fp);
}
