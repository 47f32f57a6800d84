/* jsonw.c: a streaming JSON writer in jansson's layout (see jsonw.h). */
#include <stdio.h>
#include <string.h>

#include "diag.h"
#include "exitcodes.h"
#include "jsonw.h"

void
jsonw_init(struct jsonw *j, FILE *fp, int compact)
{
	j->fp = fp;
	j->compact = compact;
	j->depth = 0;
	j->after_key = 0;
	j->has_items[0] = 0;
	j->len = 0;
}

static void
flush(struct jsonw *j)
{
	fwrite(j->buf, 1, j->len, j->fp);
	j->len = 0;
}

static void
put(struct jsonw *j, const char *s, size_t n)
{
	if (j->len + n > sizeof j->buf) {
		flush(j);
		if (n > sizeof j->buf) {
			fwrite(s, 1, n, j->fp);
			return;
		}
	}
	memcpy(j->buf + j->len, s, n);
	j->len += n;
}

static void
put_char(struct jsonw *j, char c)
{
	if (j->len == sizeof j->buf)
		flush(j);
	j->buf[j->len++] = c;
}

static void
newline(struct jsonw *j)
{
	static const char spaces[2 * JSONW_MAX_DEPTH + 1] = "\n"
	    "                                ";

	if (!j->compact)
		put(j, spaces, 1 + 2 * (size_t)j->depth);
}

/* item: the comma and line break before a value or a member's key. */
static void
item(struct jsonw *j)
{
	if (j->after_key) {
		j->after_key = 0;
		return;
	}
	if (j->depth == 0)
		return;
	if (j->has_items[j->depth])
		put_char(j, ',');
	j->has_items[j->depth] = 1;
	newline(j);
}

static void
open_container(struct jsonw *j, char c)
{
	if (j->depth + 1 >= JSONW_MAX_DEPTH)
		diag_fatal(EXIT_SOFTWARE, "JSON nested too deeply");
	item(j);
	put_char(j, c);
	j->has_items[++j->depth] = 0;
	j->closer[j->depth] = c == '{' ? '}' : ']';
}

void
jsonw_object(struct jsonw *j)
{
	open_container(j, '{');
}

void
jsonw_array(struct jsonw *j)
{
	open_container(j, '[');
}

void
jsonw_end(struct jsonw *j)
{
	char c = j->closer[j->depth];
	int had = j->has_items[j->depth--];

	if (had)
		newline(j);
	put_char(j, c);
}

static int
plain(unsigned char c)
{
	return c >= 0x20 && c != '"' && c != '\\';
}

/* put_escape: one character JSON cannot hold as it is. */
static void
put_escape(struct jsonw *j, unsigned char c)
{
	char seq[8];

	if (c == '"' || c == '\\')
		snprintf(seq, sizeof seq, "\\%c", c);
	else if (c >= '\b' && c <= '\r' && c != '\v')
		snprintf(seq, sizeof seq, "\\%c", "btnvfr"[c - '\b']);
	else
		snprintf(seq, sizeof seq, "\\u%04X", c);
	put(j, seq, strlen(seq));
}

static void
put_string(struct jsonw *j, const char *s)
{
	const unsigned char *p = (const unsigned char *)s, *run;

	put_char(j, '"');
	while (*p != '\0') {
		for (run = p; *p != '\0' && plain(*p); p++)
			;
		put(j, (const char *)run, (size_t)(p - run));
		if (*p != '\0')
			put_escape(j, *p++);
	}
	put_char(j, '"');
}

void
jsonw_key(struct jsonw *j, const char *key)
{
	item(j);
	put_string(j, key);
	put(j, ": ", j->compact ? 1 : 2);
	j->after_key = 1;
}

void
jsonw_string(struct jsonw *j, const char *s)
{
	item(j);
	put_string(j, s);
}

void
jsonw_plain(struct jsonw *j, const char *s, size_t len)
{
	item(j);
	put_char(j, '"');
	put(j, s, len);
	put_char(j, '"');
}

void
jsonw_int(struct jsonw *j, long long v)
{
	char num[24];
	int n = snprintf(num, sizeof num, "%lld", v);

	item(j);
	put(j, num, (size_t)n);
}

void
jsonw_finish(struct jsonw *j)
{
	put_char(j, '\n');
	flush(j);
}
