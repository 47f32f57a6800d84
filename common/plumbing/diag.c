/* diag.c: one-line, located, escaped diagnostics (see diag.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "diag.h"

static const char *progname = "upkit";

void
diag_init(const char *argv0)
{
	const char *slash;

	if (argv0 == NULL || *argv0 == '\0')
		return;
	slash = strrchr(argv0, '/');
	progname = slash ? slash + 1 : argv0;
}

const char *
diag_progname(void)
{
	return progname;
}

/*
 * A part of a diagnostic (the file name, the path, the message) longer
 * than DIAG_PART_MAX bytes keeps its first and last DIAG_PART_KEEP
 * bytes around "...": a quoted value of megabytes is cut in the middle,
 * and the line stays short.  README.md documents the numbers.
 */
#define DIAG_PART_MAX 300
#define DIAG_PART_KEEP 120

/* struct line: one diagnostic, built whole and written at once. */
struct line {
	char *s;
	size_t len, cap;
	int failed;		/* out of memory: what was built is written */
};

static void
put_bytes(struct line *l, const char *p, size_t n)
{
	char *grown;

	if (l->failed)
		return;
	if (l->len + n + 1 > l->cap) {
		size_t cap = 2 * (l->len + n + 1);

		if ((grown = realloc(l->s, cap)) == NULL) {
			l->failed = 1;
			return;
		}
		l->s = grown;
		l->cap = cap;
	}
	memcpy(l->s + l->len, p, n);
	l->len += n;
}

static void
put_text(struct line *l, const char *s)
{
	put_bytes(l, s, strlen(s));
}

/* put_span: n bytes of s with control characters made visible. */
static void
put_span(struct line *l, const unsigned char *s, size_t n)
{
	static const char hex[] = "0123456789abcdef";
	size_t i, plain = 0;
	char esc[4];

	for (i = 0; i < n; i++) {
		if (s[i] >= 0x20 && s[i] != 0x7f)
			continue;
		put_bytes(l, (const char *)s + plain, i - plain);
		plain = i + 1;
		if (s[i] == '\n' || s[i] == '\t') {
			put_text(l, s[i] == '\n' ? "\\n" : "\\t");
			continue;
		}
		esc[0] = '\\', esc[1] = 'x';
		esc[2] = hex[s[i] >> 4], esc[3] = hex[s[i] & 15];
		put_bytes(l, esc, 4);
	}
	put_bytes(l, (const char *)s + plain, n - plain);
}

/* utf8_start: i moved back to the first byte of its character. */
static size_t
utf8_start(const unsigned char *s, size_t i)
{
	while (i > 0 && (s[i] & 0xc0) == 0x80)
		i--;
	return i;
}

/*
 * put_escaped: s escaped, its middle cut when it is too long, unless
 * whole.
 */
static void
put_escaped(struct line *l, const char *text, int whole)
{
	const unsigned char *s = (const unsigned char *)text;
	size_t n = strlen(text), head, tail;

	if (whole || n <= DIAG_PART_MAX) {
		put_span(l, s, n);
		return;
	}
	head = utf8_start(s, DIAG_PART_KEEP);
	tail = utf8_start(s, n - DIAG_PART_KEEP);
	put_span(l, s, head);
	put_text(l, "...");
	put_span(l, s + tail, n - tail);
}

/*
 * write_line: the line built, in one write, so that it never
 * interleaves with another process's; freed.
 */
static void
write_line(struct line *l)
{
	if (l->s != NULL)
		fwrite(l->s, 1, l->len, stderr);
	if (l->failed)
		fputs("...\n", stderr);
	fflush(stderr);
	free(l->s);
}

/* How a message is laid out beyond "prog: ". */
enum layout {
	CUT,		/* a long part cut in the middle, a newline */
	WHOLE,		/* never cut, a newline */
	LIVE		/* never cut, over the terminal's line, no newline */
};

/* emit: print one diagnostic, built in memory first (write_line). */
static void
emit(const char *file, const char *where, const char *level,
    enum layout layout, const char *fmt, va_list ap)
{
	char small[512], *msg = small;
	struct line l = { NULL, 0, 0, 0 };
	va_list copy;
	int n;

	va_copy(copy, ap);
	n = vsnprintf(small, sizeof small, fmt, copy);
	va_end(copy);
	if (n >= (int)sizeof small && (msg = malloc((size_t)n + 1)) != NULL)
		vsnprintf(msg, (size_t)n + 1, fmt, ap);
	else if (msg == NULL)
		msg = small;	/* truncated, but still said */

	if (layout == LIVE)
		put_text(&l, "\r\033[K");
	put_text(&l, progname);
	put_text(&l, ": ");
	if (file != NULL) {
		put_escaped(&l, file, layout != CUT);
		put_text(&l, where != NULL && *where == ':' ? "" : ": ");
	}
	if (where != NULL && *where != '\0') {
		put_escaped(&l, where, layout != CUT);
		put_text(&l, ": ");
	}
	if (level != NULL) {
		put_text(&l, level);
		put_text(&l, ": ");
	}
	put_escaped(&l, msg, layout != CUT);
	if (layout != LIVE)
		put_bytes(&l, "\n", 1);
	write_line(&l);
	if (msg != small)
		free(msg);
}

void
diag_error(const char *file, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	emit(file, NULL, NULL, CUT, fmt, ap);
	va_end(ap);
}

void
diag_note(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	emit(NULL, NULL, NULL, CUT, fmt, ap);
	va_end(ap);
}

void
diag_at(const char *file, long line, long col, const char *fmt, ...)
{
	char where[64];
	va_list ap;

	snprintf(where, sizeof where, ":%ld:%ld", line, col);
	va_start(ap, fmt);
	emit(file, where, NULL, CUT, fmt, ap);
	va_end(ap);
}

void
diag_vpath(const char *file, const char *path, const char *fmt, va_list ap)
{
	emit(file, path, NULL, CUT, fmt, ap);
}

void
diag_path(const char *file, const char *path, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	emit(file, path, NULL, CUT, fmt, ap);
	va_end(ap);
}

void
diag_warn(const char *file, const char *path, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	emit(file, path, "warning", CUT, fmt, ap);
	va_end(ap);
}

void
diag_fatal(int status, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	emit(NULL, NULL, NULL, CUT, fmt, ap);
	va_end(ap);
	exit(status);
}

void
diag_vnote_whole(const char *fmt, va_list ap)
{
	fflush(stdout);
	emit(NULL, NULL, NULL, WHOLE, fmt, ap);
}

void
diag_note_whole(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	diag_vnote_whole(fmt, ap);
	va_end(ap);
}

void
diag_fatal_whole(int status, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	diag_vnote_whole(fmt, ap);
	va_end(ap);
	exit(status);
}

void
diag_live(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	emit(NULL, NULL, NULL, LIVE, fmt, ap);
	va_end(ap);
}

void
diag_live_clear(void)
{
	fputs("\r\033[K", stderr);
	fflush(stderr);
}

void
diag_relay(const char *text, size_t n)
{
	struct line l = { NULL, 0, 0, 0 };
	const char *nl;
	size_t len;

	while (n > 0) {
		nl = memchr(text, '\n', n);
		len = nl != NULL ? (size_t)(nl - text) : n;
		put_span(&l, (const unsigned char *)text, len);
		put_bytes(&l, "\n", 1);
		len += nl != NULL;
		text += len;
		n -= len;
	}
	write_line(&l);
}
