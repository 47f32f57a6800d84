/*
 * svg_charts.c: each tenant's VMs out of service over time, against the
 * most its SLA allows out while its application stays up, on the
 * timeline's clock; and the iterations' batches as stacked columns:
 * the groups taken out of service, then those that waited, by rule.
 *
 * A tenant's time is cut at every start and end of one of its outages;
 * in each piece a VM counts once however many outages it has there, and
 * the application is out while a group has two VMs out, or its only
 * VM, as upkit-sim(1) counts it.
 */
#include <stdlib.h>
#include <string.h>

#include "picture.h"
#include "show.h"
#include "xalloc.h"

#define VM_PIXELS 12
#define CHART_TOP 6
#define BATCH_PIXELS 120

/* A stretch of a tenant's time with the same VMs out. */
struct segment {
	int64_t start, end;
	long out;
	int app_out;
};

static int
cmp_clock(const void *a, const void *b)
{
	int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;

	return (x > y) - (x < y);
}

/* active: whether outage o covers all of [t0, t1). */
static int
active(const struct outage *o, int64_t t0, int64_t t1)
{
	return o->start <= t0 && o->end >= t1;
}

/* segment_at: the VMs of mine out throughout [t0, t1). */
static struct segment
segment_at(const struct outage *const *mine, size_t n, int64_t t0, int64_t t1)
{
	struct segment sg = { t0, t1, 0, 0 };
	size_t i, j;
	long in_group;
	int dup;

	for (i = 0; i < n; i++) {
		if (!active(mine[i], t0, t1))
			continue;
		for (dup = 0, j = 0; j < i && !dup; j++)
			dup = active(mine[j], t0, t1) &&
			    strcmp(mine[j]->vm, mine[i]->vm) == 0;
		if (dup)
			continue;
		sg.out++;
		for (in_group = 0, j = 0; j < n; j++)
			in_group += active(mine[j], t0, t1) &&
			    strcmp(mine[j]->group, mine[i]->group) == 0;
		if (in_group >= 2 || mine[i]->group_size <= 1)
			sg.app_out = 1;
	}
	return sg;
}

/* tenant_segments: the stretches with VMs of tenant out, merged. */
static size_t
tenant_segments(const struct picture *pic, size_t tenant,
    struct segment **segsp, int64_t *outage_ms)
{
	const struct outage **mine = xcalloc(pic->noutages + 1, sizeof *mine);
	int64_t *b = xcalloc(2 * pic->noutages + 1, sizeof *b);
	struct segment *segs = xcalloc(2 * pic->noutages + 1, sizeof *segs), sg;
	size_t n = 0, nb = 0, ns = 0, i;

	*outage_ms = 0;
	for (i = 0; i < pic->noutages; i++)
		if (pic->outages[i].tenant == tenant) {
			mine[n++] = &pic->outages[i];
			b[nb++] = pic->outages[i].start;
			b[nb++] = pic->outages[i].end;
			*outage_ms += pic->outages[i].end - pic->outages[i].start;
		}
	qsort(b, nb, sizeof *b, cmp_clock);
	for (i = 0; i + 1 < nb; i++) {
		if (b[i] == b[i + 1])
			continue;
		sg = segment_at(mine, n, b[i], b[i + 1]);
		if (sg.out == 0)
			continue;
		if (ns > 0 && segs[ns - 1].end == sg.start &&
		    segs[ns - 1].out == sg.out &&
		    segs[ns - 1].app_out == sg.app_out)
			segs[ns - 1].end = sg.end;
		else
			segs[ns++] = sg;
	}
	free(b);
	free(mine);
	*segsp = segs;
	return ns;
}

static long
most_allowed(const struct picture *pic, size_t tenant)
{
	long most = 0;
	size_t i;

	for (i = 0; i < pic->nallowances; i++)
		if (pic->allowances[i].tenant == tenant &&
		    pic->allowances[i].allowed > most)
			most = pic->allowances[i].allowed;
	return most;
}

static void
write_allowed(const struct picture *pic, const struct scale *s, FILE *out,
    size_t tenant, int base)
{
	const struct allowance *al;
	size_t i;

	fputs("<path class=\"allowed\" d=\"", out);
	for (i = 0; i < pic->nallowances; i++) {
		al = &pic->allowances[i];
		if (al->tenant != tenant || al->end <= al->start)
			continue;
		fprintf(out, "M%.1f %ld H%.1f ", scale_x(s, al->start),
		    base - al->allowed * VM_PIXELS, scale_x(s, al->end));
	}
	fputs("\"/>", out);
}

static void
write_segment(const struct segment *sg, const struct scale *s, FILE *out,
    int base)
{
	double x = scale_x(s, sg->start), w = scale_x(s, sg->end) - x;

	if (w < 2)
		w = 2;
	fprintf(out, "<rect class=\"%s\" x=\"%.1f\" y=\"%ld\" width=\"%.1f\" "
	    "height=\"%ld\"><title>%ld VM%s out%s, ", sg->app_out ?
	    "out app-out" : "out", x, base - sg->out * VM_PIXELS, w,
	    sg->out * VM_PIXELS, sg->out, sg->out == 1 ? "" : "s",
	    sg->app_out ? ", the application out" : "");
	clock_text(out, sg->start);
	fputs(" to ", out);
	clock_text(out, sg->end);
	fputs("</title></rect>", out);
}

/* tenth_seconds: milliseconds as seconds with one decimal. */
static void
tenth_seconds(FILE *out, int64_t ms)
{
	fprintf(out, "%lld.%lld s", (long long)(ms / 1000),
	    (long long)(ms % 1000 / 100));
}

static void
write_caption(FILE *out, const char *name, long most, long allowed,
    int64_t outage_ms, int64_t app_ms)
{
	fputs("<figcaption><b>", out);
	html_text(out, name);
	fprintf(out, "</b>: at most %ld VM%s out at once (its SLA allows "
	    "%ld); VMs out ", most, most == 1 ? "" : "s", allowed);
	tenth_seconds(out, outage_ms);
	fputs(" in all, its application out ", out);
	tenth_seconds(out, app_ms);
	fputs("</figcaption>\n", out);
}

static void
write_tenant(const struct picture *pic, const struct scale *s, FILE *out,
    size_t tenant)
{
	struct segment *segs;
	int64_t outage_ms, app_ms = 0;
	size_t n = tenant_segments(pic, tenant, &segs, &outage_ms), i;
	long most = 0, allowed = most_allowed(pic, tenant), top;
	int base, height;

	for (i = 0; i < n; i++) {
		most = segs[i].out > most ? segs[i].out : most;
		app_ms += segs[i].app_out ? segs[i].end - segs[i].start : 0;
	}
	top = most > allowed ? most : allowed;
	base = CHART_TOP + (int)(top > 0 ? top : 1) * VM_PIXELS;
	height = base + 4;
	fputs("<figure class=\"tenant\" data-tenant=\"", out);
	html_text(out, idmap_key(&pic->tenants, tenant));
	fputs("\">", out);
	write_caption(out, idmap_key(&pic->tenants, tenant), most, allowed,
	    outage_ms, app_ms);
	fprintf(out, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" "
	    "height=\"%d\" viewBox=\"0 0 %d %d\">", SVG_WIDTH, height,
	    SVG_WIDTH, height);
	svg_ticks(s, out, CHART_TOP, base, 0);
	fprintf(out, "<line class=\"base\" x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" "
	    "y2=\"%d\"/>", s->left, base, s->left + s->width, base);
	for (i = 0; i < n; i++)
		write_segment(&segs[i], s, out, base);
	write_allowed(pic, s, out, tenant, base);
	fputs("</svg></figure>\n", out);
	free(segs);
}

/* svg_tenants: a chart per tenant, on the timeline's clock. */
void
svg_tenants(const struct picture *pic, FILE *out)
{
	struct scale s;
	size_t t;

	scale_init(&s, pic);
	for (t = 0; t < pic->tenants.count; t++)
		write_tenant(pic, &s, out, t);
}

static size_t
waited(const struct iteration *it)
{
	const char *rule;
	const json_t *bucket;
	size_t n = 0;

	json_object_foreach((json_t *)it->waits, rule, bucket)
		n += json_array_size(json_object_get(bucket, "groups"));
	return n;
}

/* bar: one block of a column, from the top of the one below. */
static double
bar(FILE *out, const char *class, double x, double w, double y, double h,
    long number, size_t count, const char *what)
{
	fprintf(out, "<rect class=\"%s\" x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" "
	    "height=\"%.1f\"><title>iteration %ld: %zu ", class, x, y - h, w, h,
	    number, count);
	html_text(out, what);
	fputs("</title></rect>", out);
	return y - h;
}

static void
write_column(const struct iteration *it, FILE *out, double x, double w,
    double unit)
{
	const char *rule;
	const json_t *bucket;
	double y = CHART_TOP + BATCH_PIXELS;
	size_t n, k = 0;

	n = json_array_size(it->taken);
	y = bar(out, "taken", x, w, y, (double)n * unit, it->number, n,
	    "taken out of service");
	json_object_foreach((json_t *)it->waits, rule, bucket) {
		n = json_array_size(json_object_get(bucket, "groups"));
		y = bar(out, k++ % 2 ? "wait odd" : "wait", x, w, y,
		    (double)n * unit, it->number, n, rule);
	}
	fprintf(out, "<text x=\"%.1f\" y=\"%d\" text-anchor=\"middle\">%ld"
	    "</text>", x + w / 2, CHART_TOP + BATCH_PIXELS + 14, it->number);
}

/* svg_batches: a column per iteration, groups taken and waiting. */
void
svg_batches(const struct picture *pic, FILE *out)
{
	double col, unit;
	size_t most = 1, i, n;
	int height = CHART_TOP + BATCH_PIXELS + 20;

	for (i = 0; i < pic->niterations; i++) {
		n = json_array_size(pic->iterations[i].taken) +
		    waited(&pic->iterations[i]);
		most = n > most ? n : most;
	}
	col = (SVG_WIDTH - SVG_LEFT - 20) / (double)(pic->niterations + 1);
	col = col > 48 ? 48 : col;
	unit = BATCH_PIXELS / (double)most;
	fprintf(out, "<svg id=\"batches\" xmlns=\"http://www.w3.org/2000/svg\" "
	    "width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\">"
	    "<text x=\"%d\" y=\"%d\" text-anchor=\"end\">%zu groups</text>"
	    "<text x=\"%d\" y=\"%d\" text-anchor=\"end\">iteration</text>",
	    SVG_WIDTH, height, SVG_WIDTH, height, SVG_LEFT - 6, CHART_TOP + 10,
	    most, SVG_LEFT - 6, CHART_TOP + BATCH_PIXELS + 14);
	for (i = 0; i < pic->niterations; i++)
		write_column(&pic->iterations[i], out, SVG_LEFT + (double)i * col,
		    col * 0.7, unit);
	fputs("</svg>\n", out);
}
