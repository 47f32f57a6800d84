/*
 * svg_timeline.c: the upgrade as a timeline, a lane per host: each
 * action a mark from its start to its end, coloured by its phase,
 * failed ones red with a cross, those run again after a failed attempt
 * with a ring; the iterations as bands behind; and the time axis that
 * the tenants' charts share.
 */
#include <stdlib.h>
#include <string.h>

#include "picture.h"
#include "xalloc.h"

#define LANE_PITCH 16
#define MARK_HEIGHT 10
#define TOP 40
/* Lane names longer than this many characters are cut, with an ellipsis. */
#define NAME_CHARS 24

void
scale_init(struct scale *s, const struct picture *pic)
{
	size_t i;

	s->left = SVG_LEFT;
	s->width = SVG_WIDTH - SVG_LEFT - 20;
	s->span = 1;
	for (i = 0; i < pic->niterations; i++)
		if (pic->iterations[i].end > s->span)
			s->span = pic->iterations[i].end;
	for (i = 0; i < pic->nmarks; i++)
		if (pic->marks[i].end > s->span)
			s->span = pic->marks[i].end;
}

double
scale_x(const struct scale *s, int64_t t)
{
	return s->left + (double)t * s->width / (double)s->span;
}

/* tick_seconds: a round step giving at most 10 ticks over span ms. */
static int64_t
tick_seconds(int64_t span)
{
	static const int64_t steps[] = {
		1, 2, 5, 10, 30, 60, 120, 300, 600, 900, 1800, 3600, 7200,
		10800, 21600, 43200, 86400,
	};
	int64_t secs = span / 1000 + 1, step;
	size_t i;

	for (i = 0; i < sizeof steps / sizeof steps[0]; i++)
		if (secs / steps[i] <= 10)
			return steps[i];
	for (step = 86400; secs / step > 10; step *= 2)
		;
	return step;
}

/* svg_ticks: vertical lines from top to bottom, labelled above top. */
void
svg_ticks(const struct scale *s, FILE *out, int top, int bottom, int labels)
{
	int64_t step = tick_seconds(s->span), t, secs;
	double x;

	fputs("<g class=\"axis\">", out);
	for (t = 0; t * 1000 <= s->span; t += step) {
		x = scale_x(s, t * 1000);
		fprintf(out, "<line class=\"tick\" x1=\"%.1f\" y1=\"%d\" "
		    "x2=\"%.1f\" y2=\"%d\"/>", x, top, x, bottom);
		if (!labels)
			continue;
		secs = t;
		fprintf(out, "<text x=\"%.1f\" y=\"%d\" text-anchor=\"middle\">"
		    "%lld:%02lld", x, top - 3, (long long)(secs / 3600),
		    (long long)(secs / 60 % 60));
		if (step < 60)
			fprintf(out, ":%02lld", (long long)(secs % 60));
		fputs("</text>", out);
	}
	fputs("</g>\n", out);
}

static void
write_bands(const struct picture *pic, const struct scale *s, FILE *out,
    int height)
{
	const struct iteration *it;
	double x0, x1;
	size_t i;

	fputs("<g class=\"iterations\">", out);
	for (i = 0; i < pic->niterations; i++) {
		it = &pic->iterations[i];
		if (it->end <= it->start)
			continue;
		x0 = scale_x(s, it->start);
		x1 = scale_x(s, it->end);
		fprintf(out, "<rect class=\"band%s\" x=\"%.1f\" y=\"4\" "
		    "width=\"%.1f\" height=\"%d\"><title>iteration %ld</title>"
		    "</rect>", i % 2 ? " odd" : "", x0, x1 - x0, height - 4,
		    it->number);
		if (x1 - x0 >= 14)
			fprintf(out, "<text class=\"iteration\" x=\"%.1f\" "
			    "y=\"16\" text-anchor=\"middle\">%ld</text>",
			    (x0 + x1) / 2, it->number);
	}
	fputs("</g>\n", out);
}

/* name_text: a lane's name, cut to NAME_CHARS characters. */
static void
name_text(FILE *out, const char *name)
{
	const char *p;
	size_t chars = 0;
	char *cut;

	for (p = name; *p != '\0'; p++)
		if (((unsigned char)*p & 0xc0) != 0x80 && ++chars > NAME_CHARS)
			break;
	if (*p == '\0') {
		html_text(out, name);
		return;
	}
	cut = xstrdup(name);
	cut[p - name] = '\0';
	html_text(out, cut);
	fputs("\xe2\x80\xa6<title>", out);
	html_text(out, name);
	fputs("</title>", out);
	free(cut);
}

static void
mark_title(const struct mark *m, FILE *out)
{
	fprintf(out, "<title>iteration %ld", m->iteration);
	if (m->attempt > 1)
		fprintf(out, ", attempt %d", m->attempt);
	fputs(": ", out);
	html_text(out, m->words);
	fputs(" (", out);
	html_text(out, m->id);
	fprintf(out, "): %s, ", result_name(m->result));
	clock_text(out, m->start);
	fputs(" to ", out);
	clock_text(out, m->end);
	fputs("</title>", out);
}

static void
write_mark(const struct mark *m, const struct scale *s, FILE *out, int y)
{
	double x = scale_x(s, m->start), w = scale_x(s, m->end) - x;

	if (w < 2)
		w = 2;
	fprintf(out, "<rect class=\"mark %s %s%s\" data-iteration=\"%ld\" "
	    "data-attempt=\"%d\" x=\"%.1f\" y=\"%d\" width=\"%.1f\" "
	    "height=\"%d\">", phase_name(m->phase), result_name(m->result),
	    m->attempt > 1 ? " retry" : "", m->iteration, m->attempt, x, y, w,
	    MARK_HEIGHT);
	mark_title(m, out);
	fputs("</rect>", out);
	if (m->result == RESULT_FAILED || m->result == RESULT_UNDO_FAILED)
		fprintf(out, "<path class=\"x\" d=\"M%.1f %d l7 %d m0 -%d "
		    "l-7 %d\"/>", x + w - 3.5, y, MARK_HEIGHT, MARK_HEIGHT,
		    MARK_HEIGHT);
	if (m->attempt > 1)
		fprintf(out, "<circle class=\"retry\" cx=\"%.1f\" cy=\"%d\" "
		    "r=\"3\"/>", x, y + MARK_HEIGHT / 2);
	fputc('\n', out);
}

/* by_lane: mark indexes sorted by lane, each lane's in mark order. */
static size_t *
by_lane(const struct picture *pic, size_t **firstp)
{
	size_t *first = xcalloc(pic->lanes.count + 2, sizeof *first);
	size_t *order = xcalloc(pic->nmarks + 1, sizeof *order), i, *fill;

	for (i = 0; i < pic->nmarks; i++)
		first[pic->marks[i].lane + 2]++;
	for (i = 2; i < pic->lanes.count + 2; i++)
		first[i] += first[i - 1];
	fill = first + 1;
	for (i = 0; i < pic->nmarks; i++)
		order[fill[pic->marks[i].lane]++] = i;
	*firstp = first;
	return order;
}

static void
write_lane(const struct picture *pic, const struct scale *s, FILE *out,
    size_t lane, const size_t *marks, size_t n)
{
	const char *name = idmap_key(&pic->lanes, lane);
	int y = TOP + (int)lane * LANE_PITCH;
	size_t i;

	fprintf(out, "<g class=\"lane%s\" data-lane=\"",
	    pic->lane_failed[lane] ? " failed" : "");
	html_text(out, name);
	fprintf(out, "\"><rect class=\"lane-bg%s\" x=\"0\" y=\"%d\" "
	    "width=\"%.1f\" height=\"%d\"/>", lane % 2 ? " odd" : "", y,
	    s->left, LANE_PITCH);
	if (pic->lane_failed[lane])
		fprintf(out, "<text class=\"verdict\" x=\"2\" y=\"%d\">"
		    "\xe2\x9c\x95 failed</text>", y + 11);
	fprintf(out, "<text class=\"name\" x=\"%.1f\" y=\"%d\" "
	    "text-anchor=\"end\">", s->left - 6, y + 11);
	name_text(out, name);
	fputs("</text>\n", out);
	for (i = 0; i < n; i++)
		write_mark(&pic->marks[marks[i]], s, out, y + 3);
	fputs("</g>\n", out);
}

/* svg_legend: what the marks' colours and signs mean. */
void
svg_legend(FILE *out)
{
	static const char *const keys[][2] = {
		{ "mark prerequisite succeeded", "out of service" },
		{ "mark upgrade succeeded", "upgrade" },
		{ "mark wrap-up succeeded", "back in service" },
		{ "mark migration succeeded", "VM move" },
		{ "mark undo succeeded", "undo" },
		{ "mark upgrade undone", "undone" },
		{ "mark upgrade failed", "failed" },
		{ "mark upgrade blocked", "blocked or not run" },
	};
	size_t i;
	int x = SVG_LEFT;

	fputs("<svg class=\"legend\" xmlns=\"http://www.w3.org/2000/svg\" "
	    "width=\"1200\" height=\"18\" viewBox=\"0 0 1200 18\">", out);
	/* each key as wide as its words, at about 6 pixels a letter */
	for (i = 0; i < sizeof keys / sizeof keys[0];
	    x += 36 + 6 * (int)strlen(keys[i][1]), i++)
		fprintf(out, "<rect class=\"%s\" x=\"%d\" y=\"4\" width=\"14\" "
		    "height=\"10\"/><text x=\"%d\" y=\"13\">%s</text>", keys[i][0],
		    x, x + 18, keys[i][1]);
	fprintf(out, "<circle class=\"retry\" cx=\"%d\" cy=\"9\" r=\"3\"/>"
	    "<text x=\"%d\" y=\"13\">run again</text></svg>\n", x + 7, x + 18);
}

/* svg_timeline: the lanes and their marks over the iterations. */
void
svg_timeline(const struct picture *pic, FILE *out)
{
	struct scale s;
	size_t *first, *order, lane;
	int height = TOP + (int)pic->lanes.count * LANE_PITCH + 6;

	scale_init(&s, pic);
	fprintf(out, "<svg id=\"timeline\" xmlns=\"http://www.w3.org/2000/svg\" "
	    "width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\" role=\"img\" "
	    "aria-label=\"the upgrade, a lane per host\">\n", SVG_WIDTH, height,
	    SVG_WIDTH, height);
	write_bands(pic, &s, out, height);
	svg_ticks(&s, out, TOP - 12, height, 1);
	order = by_lane(pic, &first);
	for (lane = 0; lane < pic->lanes.count; lane++)
		write_lane(pic, &s, out, lane, order + first[lane],
		    first[lane + 1] - first[lane]);
	free(order);
	free(first);
	fputs("</svg>\n", out);
}
