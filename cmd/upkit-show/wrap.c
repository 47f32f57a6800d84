/*
 * wrap.c: paragraphs wrapped to SHOW_WIDTH columns, and durations in
 * words.
 */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "show.h"
#include "xalloc.h"

/* next_break: the length of the longest prefix of text that fits. */
static size_t
next_break(const char *text, size_t room)
{
	size_t len = strlen(text), cut, i;

	if (len <= room)
		return len;
	cut = 0;
	for (i = 0; i <= room && i < len; i++)
		if (text[i] == ' ')
			cut = i;
	if (cut > 0)
		return cut;
	/* one word longer than the line: let it overflow */
	for (i = 0; i < len && text[i] != ' '; i++)
		;
	return i;
}

static void
wrap(FILE *out, int indent, int hang, const char *text)
{
	int margin = indent;
	size_t n;

	for (;;) {
		n = next_break(text, (size_t)(SHOW_WIDTH - margin));
		fprintf(out, "%*s%.*s\n", margin, "", (int)n, text);
		text += n;
		while (*text == ' ')
			text++;
		if (*text == '\0')
			return;
		margin = hang;
	}
}

/* say: one paragraph; the first line at indent, the rest at hang. */
void
say(struct show *s, int indent, int hang, const char *fmt, ...)
{
	va_list ap;
	char *buf;
	int len;

	va_start(ap, fmt);
	len = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	if (len < 0)
		return;
	buf = xmalloc((size_t)len + 1);
	va_start(ap, fmt);
	vsnprintf(buf, (size_t)len + 1, fmt, ap);
	va_end(ap);
	wrap(s->out, indent, hang, buf);
	free(buf);
}

/* say_list: the strings of array ids, comma-separated, wrapped. */
void
say_list(struct show *s, int indent, const json_t *ids)
{
	char *buf = NULL;
	size_t size = 0, i;
	FILE *fp = open_memstream(&buf, &size);
	const json_t *v;

	json_array_foreach(ids, i, v)
		fprintf(fp, "%s%s", i > 0 ? ", " : "", json_string_value(v));
	fclose(fp);
	if (size > 0)
		wrap(s->out, indent, indent, buf);
	free(buf);
}

/* seconds_text: "45s", "12m", "12m3s", "2h5m": no space to wrap at. */
const char *
seconds_text(json_int_t secs, char *buf, size_t size)
{
	long long t = (long long)secs, minutes = (t + 30) / 60;

	if (t < 60)
		snprintf(buf, size, "%llds", t);
	else if (t < 3600 && t % 60 == 0)
		snprintf(buf, size, "%lldm", t / 60);
	else if (t < 3600)
		snprintf(buf, size, "%lldm%llds", t / 60, t % 60);
	else if (minutes % 60 == 0)
		snprintf(buf, size, "%lldh", minutes / 60);
	else
		snprintf(buf, size, "%lldh%lldm", minutes / 60, minutes % 60);
	return buf;
}
