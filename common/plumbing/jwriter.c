/* jwriter.c: JSON in jansson's layout, fast (see jwriter.h). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "diag.h"
#include "exitcodes.h"
#include "jscan.h"
#include "jtext.h"
#include "jwriter.h"
#include "sanitized.h"
#include "xalloc.h"

void
jw_init(struct jwriter *w, FILE *fp, int compact)
{
	memset(w, 0, offsetof(struct jwriter, buf));
	w->fp = fp;
	w->compact = compact;
}

void
jw_fresh(struct jwriter *w)
{
	w->fresh = 1;
}

void
jw_jq(struct jwriter *w)
{
	w->jq = 1;
}

size_t
jw_jq_real(double d, char *buf, size_t size)
{
	int prec, n;

	if (d == floor(d) && fabs(d) < 1e17)
		n = snprintf(buf, size, "%.0f", d);
	else {
		for (prec = 15; prec < 17; prec++) {
			snprintf(buf, size, "%.*g", prec, d);
			if (strtod(buf, NULL) == d)
				break;
		}
		n = snprintf(buf, size, "%.*g", prec, d);
	}
	return n < 0 ? 0 : (size_t)n < size ? (size_t)n : size - 1;
}

void
jw_set_hole(struct jwriter *w, const json_t *hole,
    void (*fill)(struct jwriter *, const void *), const void *ctx)
{
	w->hole = hole;
	w->fill = fill;
	w->fill_ctx = ctx;
}

/* flush: after a failed write, the rest is dropped (errno is kept). */
static void
flush(struct jwriter *w)
{
	if (w->len > 0 && !w->failed &&
	    fwrite(w->buf, 1, w->len, w->fp) != w->len)
		w->failed = 1;
	w->len = 0;
}

static void
put(struct jwriter *w, const char *s, size_t n)
{
	while (n > sizeof w->buf - w->len) {
		size_t room = sizeof w->buf - w->len;

		memcpy(w->buf + w->len, s, room);
		w->len += room;
		s += room;
		n -= room;
		flush(w);
	}
	memcpy(w->buf + w->len, s, n);
	w->len += n;
}

static void
put_char(struct jwriter *w, char c)
{
	if (w->len == sizeof w->buf)
		flush(w);
	w->buf[w->len++] = c;
}

/* newline: jansson's dump_indent: nothing when compact. */
static void
newline(struct jwriter *w, size_t depth)
{
	static const char spaces[] = "\n                                "
	    "                                ";
	size_t n = 2 * depth, chunk;

	if (w->compact)
		return;
	chunk = n < sizeof spaces - 2 ? n : sizeof spaces - 2;
	put(w, spaces, 1 + chunk);
	for (n -= chunk; n > 0; n -= chunk) {
		chunk = n < sizeof spaces - 2 ? n : sizeof spaces - 2;
		put(w, spaces + 1, chunk);
	}
}

/* Bytes a JSON string can hold as they are (UTF-8 passes through). */
static const unsigned char escaped[256] = {
	1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
	1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
	0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
	['\\'] = 1,
};

/* The same, as jq has them: DEL too. */
static const unsigned char escaped_jq[256] = {
	1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
	1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
	0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
	['\\'] = 1, [0x7f] = 1,
};

static void
put_escape(struct jwriter *w, unsigned char c)
{
	const char *hex = w->jq ? "0123456789abcdef" : "0123456789ABCDEF";
	char seq[6] = { '\\', 'u', '0', '0', hex[c >> 4], hex[c & 15] };

	switch (c) {
	case '"': put(w, "\\\"", 2); break;
	case '\\': put(w, "\\\\", 2); break;
	case '\b': put(w, "\\b", 2); break;
	case '\f': put(w, "\\f", 2); break;
	case '\n': put(w, "\\n", 2); break;
	case '\r': put(w, "\\r", 2); break;
	case '\t': put(w, "\\t", 2); break;
	default: put(w, seq, sizeof seq); break;
	}
}

static void
put_content(struct jwriter *w, const char *s, size_t n)
{
	const unsigned char *p = (const unsigned char *)s, *end = p + n, *run;
	const unsigned char *esc = w->jq ? escaped_jq : escaped;

	while (p < end) {
		for (run = p; p < end && !esc[*p]; p++)
			;
		put(w, (const char *)run, (size_t)(p - run));
		if (p < end)
			put_escape(w, *p++);
	}
}

static void
put_quoted(struct jwriter *w, const char *s, size_t n)
{
	put_char(w, '"');
	put_content(w, s, n);
	put_char(w, '"');
}

static void
put_int(struct jwriter *w, json_int_t v)
{
	char num[24], *p = num + sizeof num;
	unsigned long long u = v < 0 ? 0ULL - (unsigned long long)v :
	    (unsigned long long)v;

	do
		*--p = (char)('0' + u % 10);
	while ((u /= 10) > 0);
	if (v < 0)
		*--p = '-';
	put(w, p, (size_t)(num + sizeof num - p));
}

/* item: the comma and line break before a streamed value or key. */
static void
item(struct jwriter *w)
{
	if (w->after_key) {
		w->after_key = 0;
		return;
	}
	if (w->level == 0)
		return;
	if (w->has_items[w->level - 1])
		put_char(w, ',');
	w->has_items[w->level - 1] = 1;
	newline(w, w->depth + 1);
}

/* push: a container is open at depth; its members are streamed. */
static void
push(struct jwriter *w, char closer, size_t depth, int has_items)
{
	if (w->level == JW_MAX_LEVELS)
		diag_fatal(EXIT_SOFTWARE, "JSON streamed too deep");
	w->has_items[w->level] = (unsigned char)has_items;
	w->closer[w->level++] = closer;
	w->depth = depth;
}

static void
open_container(struct jwriter *w, char opener, char closer)
{
	size_t depth = w->level > 0 ? w->depth + 1 : w->depth;

	item(w);
	put_char(w, opener);
	push(w, closer, depth, 0);
}

void
jw_object(struct jwriter *w)
{
	open_container(w, '{', '}');
}

void
jw_array(struct jwriter *w)
{
	open_container(w, '[', ']');
}

void
jw_end(struct jwriter *w)
{
	size_t l = --w->level;

	if (w->has_items[l])
		newline(w, w->depth);
	put_char(w, w->closer[l]);
	if (l > 0)
		w->depth--;
}

void
jw_key(struct jwriter *w, const char *key)
{
	item(w);
	put_quoted(w, key, strlen(key));
	put(w, ": ", w->compact ? 1 : 2);
	w->after_key = 1;
}

void
jw_string(struct jwriter *w, const char *s)
{
	item(w);
	put_quoted(w, s, strlen(s));
}

void
jw_stringn(struct jwriter *w, const char *s, size_t n)
{
	item(w);
	put_quoted(w, s, n);
}

void
jw_string_open(struct jwriter *w)
{
	item(w);
	put_char(w, '"');
}

void
jw_string_part(struct jwriter *w, const char *s, size_t n)
{
	put_content(w, s, n);
}

void
jw_string_part_int(struct jwriter *w, json_int_t v)
{
	put_int(w, v);
}

void
jw_string_close(struct jwriter *w)
{
	put_char(w, '"');
}

void
jw_int(struct jwriter *w, json_int_t v)
{
	item(w);
	put_int(w, v);
}

void
jw_bool(struct jwriter *w, int v)
{
	item(w);
	if (v)
		put(w, "true", 4);
	else
		put(w, "false", 5);
}

static void dump(struct jwriter *w, const json_t *v, size_t depth);

/* fill_hole: stream members into the open object at depth. */
static int
fill_hole(struct jwriter *w, size_t depth, int has_items)
{
	size_t saved_depth = w->depth;
	int saved_after_key = w->after_key;

	w->after_key = 0;
	push(w, '}', depth, has_items);
	w->fill(w, w->fill_ctx);
	has_items = w->has_items[--w->level];
	w->depth = saved_depth;
	w->after_key = saved_after_key;
	return has_items;
}

static void
dump_object(struct jwriter *w, const json_t *v, size_t depth)
{
	void *it = json_object_iter((json_t *)v), *next;
	int has_items = it != NULL;

	put_char(w, '{');
	if (it != NULL)
		newline(w, depth + 1);
	for (; it != NULL; it = next) {
		next = json_object_iter_next((json_t *)v, it);
		put_quoted(w, json_object_iter_key(it),
		    json_object_iter_key_len(it));
		put(w, ": ", w->compact ? 1 : 2);
		dump(w, json_object_iter_value(it), depth + 1);
		if (next != NULL) {
			put_char(w, ',');
			newline(w, depth + 1);
		}
	}
	if (v == w->hole)
		has_items = fill_hole(w, depth, has_items);
	if (has_items)
		newline(w, depth);
	put_char(w, '}');
}

static void
dump_array(struct jwriter *w, const json_t *v, size_t depth)
{
	size_t i, n = json_array_size(v);

	put_char(w, '[');
	for (i = 0; i < n; i++) {
		if (i > 0)
			put_char(w, ',');
		newline(w, depth + 1);
		dump(w, json_array_get(v, i), depth + 1);
	}
	if (n > 0)
		newline(w, depth);
	put_char(w, ']');
}

/* dump_real: rare enough to leave to jansson's own formatting. */
static void
dump_real(struct jwriter *w, const json_t *v)
{
	char num[128];
	size_t n = w->jq ? jw_jq_real(json_real_value(v), num, sizeof num) :
	    json_dumpb(v, num, sizeof num, JSON_ENCODE_ANY);

	if (n == 0 || n > sizeof num)
		diag_fatal(EXIT_SOFTWARE, "cannot format a real number");
	put(w, num, n);
}


/*
 * Kept text (jtext.h), written as dump() would write the values it
 * stands for.  The text was checked by jscan_value, so the walk below
 * need not check again.
 */
static void relay_value(struct jwriter *w, const char **pp, size_t depth);

static void
relay_white(const char **pp)
{
	while (**pp == ' ' || **pp == '\t' || **pp == '\n' || **pp == '\r')
		(*pp)++;
}

/* relay_string: **pp opens a string; jansson would write it so. */
static void
relay_string(struct jwriter *w, const char **pp)
{
	const char *start = *pp + 1, *p = start;
	int escaped = 0;
	char *plain;

	while (*p != '"') {
		if (*p == '\\')
			escaped = 1, p++;
		p++;
	}
	*pp = p + 1;
	if (!escaped) {
		put(w, start - 1, (size_t)(p - start) + 2);
		return;
	}
	plain = xmalloc((size_t)(p - start));	/* decoding only shrinks */
	put_quoted(w, plain, jscan_unescape(start, p, plain));
	free(plain);
}

/* relay_scalar: a number or a literal; reals as jansson writes them. */
static void
relay_scalar(struct jwriter *w, const char **pp)
{
	const char *p = *pp;
	char num[72];
	json_t *real;
	size_t n;

	while (*p != '\0' && strchr(",]} \t\n\r", *p) == NULL)
		p++;
	n = (size_t)(p - *pp);
	if (strchr("-0123456789", **pp) != NULL && n < sizeof num &&
	    (memchr(*pp, '.', n) != NULL || memchr(*pp, 'e', n) != NULL ||
	    memchr(*pp, 'E', n) != NULL)) {
		memcpy(num, *pp, n);
		num[n] = '\0';
		real = json_real(strtod(num, NULL));
		dump_real(w, real);
		json_decref(real);
	} else if (n == 2 && memcmp(*pp, "-0", 2) == 0) {
		put_char(w, '0');
	} else {
		put(w, *pp, n);
	}
	*pp = p;
}

/* relay_container: dump_object and dump_array, over text. */
static void
relay_container(struct jwriter *w, const char **pp, size_t depth)
{
	char closer = **pp == '{' ? '}' : ']';

	int empty;

	put_char(w, *(*pp)++);
	relay_white(pp);
	empty = **pp == closer;
	if (!empty)
		for (;;) {
			newline(w, depth + 1);
			if (closer == '}') {
				relay_string(w, pp);
				relay_white(pp);
				(*pp)++;	/* the colon */
				put(w, ": ", w->compact ? 1 : 2);
			}
			relay_value(w, pp, depth + 1);
			relay_white(pp);
			if (**pp != ',')
				break;
			(*pp)++;
			put_char(w, ',');
			relay_white(pp);
		}
	if (!empty)
		newline(w, depth);
	(*pp)++;
	put_char(w, closer);
}

static void
relay_value(struct jwriter *w, const char **pp, size_t depth)
{
	relay_white(pp);
	if (**pp == '{' || **pp == '[')
		relay_container(w, pp, depth);
	else if (**pp == '"')
		relay_string(w, pp);
	else
		relay_scalar(w, pp);
}

#if UPKIT_SANITIZED
static void dump_object(struct jwriter *w, const json_t *v, size_t depth);
static void dump_array(struct jwriter *w, const json_t *v, size_t depth);

/* written: what write() puts in a compact jwriter, as a string. */
static char *
written(const void *what, void (*write)(struct jwriter *, const void *))
{
	struct jwriter *w = xcalloc(1, sizeof *w);
	char *text = NULL;
	size_t size = 0;
	FILE *fp = open_memstream(&text, &size);

	if (fp == NULL)
		diag_fatal(EXIT_OSERR, "out of memory");
	jw_init(w, fp, 1);
	write(w, what);
	flush(w);
	fclose(fp);
	free(w);
	return text;
}

static void
write_text(struct jwriter *w, const void *t)
{
	const char *p = ((const struct jtext *)t)->text;

	relay_value(w, &p, 0);
}

static void
write_value(struct jwriter *w, const void *v)
{
	if (json_is_object((const json_t *)v))
		dump_object(w, v, 0);
	else
		dump_array(w, v, 0);
}

/*
 * check_kept: the sanitized suite checks jtext's contract: a value that
 * was read and kept is still what its text says, or a tool edited it
 * in place and writing the text would hide the edit.
 */
static void
check_kept(const struct jtext *t)
{
	char *a, *b;

	if (t->stand_in)
		return;
	a = written(t, write_text);
	b = written(t->value, write_value);
	if (strcmp(a, b) != 0)
		diag_fatal(EXIT_SOFTWARE, "a value read as text was edited in "
		    "place (jtext.h)");
	free(a);
	free(b);
}
#endif

/* relay: kept text t in place of the value it stands for. */
static void
relay(struct jwriter *w, const struct jtext *t, size_t depth)
{
	const char *p = t->text;

#if UPKIT_SANITIZED
	check_kept(t);
#endif
	if (w->compact && t->canonical)
		put(w, t->text, t->len);
	else
		relay_value(w, &p, depth);
}

static void
dump(struct jwriter *w, const json_t *v, size_t depth)
{
	const struct jtext *kept;

	/* kept parts are sections and their members, or anywhere when a
	 * stage kept parts of its output (jtext.h) */
#if UPKIT_SANITIZED
	if (w->fresh && jtext_find(v) != NULL)
		diag_fatal(EXIT_SOFTWARE, "a kept part in a value written as "
		    "fresh (jw_fresh)");
#endif
	if (!w->fresh && (depth <= 2 || (jtext_deep() && json_is_object(v))) &&
	    (kept = jtext_find(v)) != NULL) {
		relay(w, kept, depth);
		return;
	}
	switch (json_typeof(v)) {
	case JSON_OBJECT:
		dump_object(w, v, depth);
		break;
	case JSON_ARRAY:
		dump_array(w, v, depth);
		break;
	case JSON_STRING:
		put_quoted(w, json_string_value(v), json_string_length(v));
		break;
	case JSON_INTEGER:
		put_int(w, json_integer_value(v));
		break;
	case JSON_REAL:
		dump_real(w, v);
		break;
	case JSON_TRUE:
		put(w, "true", 4);
		break;
	case JSON_FALSE:
		put(w, "false", 5);
		break;
	default:
		put(w, "null", 4);
		break;
	}
}

void
jw_value(struct jwriter *w, const json_t *v)
{
	size_t depth = w->level > 0 ? w->depth + 1 : w->depth;

	item(w);
	dump(w, v, depth);
}

int
jw_finish(struct jwriter *w)
{
	put_char(w, '\n');
	flush(w);
	return w->failed ? -1 : 0;
}
