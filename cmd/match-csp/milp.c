/* milp.c: an instance as an integer program (see milp.h). */
#include <stdlib.h>
#include <string.h>

#include "milp.h"
#include "xalloc.h"

/* count_y: binary columns needed by allEqual and distinct partitions. */
static size_t
count_y(const struct inst *in)
{
	size_t k, n = 0;

	for (k = 0; k < in->nparts; k++)
		if (in->part[k]->kind != P_UNIQUE)
			n += in->part[k]->ncls;
	return n;
}

/* class_size: candidate offers in class c of partition k. */
static size_t
class_size(const struct inst *in, size_t k, size_t c)
{
	size_t v, n = 0;

	for (v = 0; v < in->n; v++)
		n += in->cls[k][v] == c;
	return n;
}

static size_t
count_rows(const struct inst *in)
{
	size_t k, c, m = 1 + in->nrows;

	for (k = 0; k < in->nparts; k++) {
		if (in->part[k]->kind != P_UNIQUE) {
			m += in->part[k]->ncls * (in->part[k]->kind ==
			    P_DISTINCT ? 2 : 1) + 1;
			continue;
		}
		for (c = 0; c < in->part[k]->ncls; c++)
			m += class_size(in, k, c) > 1;
	}
	return m;
}

static double *
new_row(struct milp *mp, char sense, double b, const char *name, size_t k)
{
	mp->sense[mp->m] = sense;
	mp->b[mp->m] = b;
	mp->rowname[mp->m] = name;
	mp->rowpart[mp->m] = k;
	return &mp->A[mp->m++ * mp->n];
}

static char
sense_char(enum sense s)
{
	return s == S_LE ? 'L' : s == S_GE ? 'G' : 'E';
}

static void
class_rows(struct milp *mp, const struct inst *in, size_t k, size_t *y)
{
	const struct mc_part *pt = in->part[k];
	double *row, N = (double)in->N;
	size_t c, v, first = *y;

	for (c = 0; c < pt->ncls; c++, (*y)++) {
		mp->ypart[*y - mp->nx] = k;
		mp->ycls[*y - mp->nx] = c;
		mp->up[*y] = 1;
		row = new_row(mp, 'L', 0, "use", k);
		for (v = 0; v < in->n; v++)
			row[v] = in->cls[k][v] == c;
		row[*y] = -N;
		if (pt->kind != P_DISTINCT)
			continue;
		row = new_row(mp, 'L', 0, "used", k);
		for (v = 0; v < in->n; v++)
			row[v] = -(double)(in->cls[k][v] == c);
		row[*y] = 1;
	}
	row = pt->kind == P_DISTINCT ? new_row(mp, sense_char(pt->sense),
	    pt->rhs, "classes", k) : new_row(mp, 'L', 1, "one", k);
	for (c = first; c < *y; c++)
		row[c] = 1;
}

static void
unique_rows(struct milp *mp, const struct inst *in, size_t k)
{
	double *row;
	size_t c, v;

	for (c = 0; c < in->part[k]->ncls; c++) {
		if (class_size(in, k, c) < 2)
			continue;
		row = new_row(mp, 'L', 1, "unique", k);
		for (v = 0; v < in->n; v++)
			row[v] = in->cls[k][v] == c;
	}
}

static void
alloc_milp(struct milp *mp, const struct inst *in)
{
	size_t m = count_rows(in), ny = count_y(in);

	memset(mp, 0, sizeof *mp);
	mp->nx = in->n;
	mp->n = in->n + ny;
	mp->A = xcalloc(m * mp->n, sizeof *mp->A);
	mp->b = xcalloc(m, sizeof *mp->b);
	mp->sense = xcalloc(m, 1);
	mp->rowname = xcalloc(m, sizeof *mp->rowname);
	mp->rowpart = xcalloc(m, sizeof *mp->rowpart);
	mp->c = xcalloc(mp->n, sizeof *mp->c);
	mp->lo = xcalloc(mp->n, sizeof *mp->lo);
	mp->up = xcalloc(mp->n, sizeof *mp->up);
	mp->ypart = xcalloc(ny, sizeof *mp->ypart);
	mp->ycls = xcalloc(ny, sizeof *mp->ycls);
}

void
milp_build(struct milp *mp, const struct inst *in)
{
	double *row;
	size_t v, r, k, y;

	alloc_milp(mp, in);
	for (v = 0; v < in->n; v++) {
		mp->c[v] = in->cost[v];
		mp->lo[v] = (double)in->lo[v];
		mp->up[v] = (double)in->hi[v];
	}
	row = new_row(mp, 'E', (double)in->N, "nodes", 0);
	for (v = 0; v < in->n; v++)
		row[v] = 1;
	for (r = 0; r < in->nrows; r++) {
		row = new_row(mp, sense_char(in->s[r]), in->b[r], "row", r);
		for (v = 0; v < in->n; v++)
			row[v] = in->a[r][v];
	}
	for (k = 0, y = in->n; k < in->nparts; k++) {
		if (in->part[k]->kind == P_UNIQUE)
			unique_rows(mp, in, k);
		else
			class_rows(mp, in, k, &y);
	}
}

void
milp_free(struct milp *mp)
{
	free(mp->A);
	free(mp->b);
	free(mp->sense);
	free(mp->rowname);
	free(mp->rowpart);
	free(mp->c);
	free(mp->lo);
	free(mp->up);
	free(mp->ypart);
	free(mp->ycls);
	memset(mp, 0, sizeof *mp);
}
