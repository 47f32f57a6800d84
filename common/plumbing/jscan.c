/*
 * jscan.c: a JSON checker that builds nothing (jscan.h).
 *
 * The rules are jansson's (RFC 8259 plus its own limits): strings of
 * valid UTF-8 with no control character and no \u0000, integers that
 * fit a json_int_t, reals that do not overflow, no duplicate key.
 */
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "jscan.h"
#include "load.h"
#include "xalloc.h"

/* One key of an object being checked: where its text is. */
struct key_span {
	const char *at;
	size_t len;
};

struct scan {
	const unsigned char *p, *end;
	int canonical;
	struct key_span *keys;	/* the keys of every open object */
	size_t nkeys, cap;
	size_t depth;
};

static int value(struct scan *s);

static void
white(struct scan *s)
{
	while (s->p < s->end && (*s->p == ' ' || *s->p == '\t' ||
	    *s->p == '\n' || *s->p == '\r')) {
		s->p++;
		s->canonical = 0;
	}
}

static int
hex4(const unsigned char *p, const unsigned char *end, unsigned *out)
{
	unsigned v = 0;
	int i;

	if (end - p < 4)
		return -1;
	for (i = 0; i < 4; i++) {
		unsigned c = p[i];

		if (c >= '0' && c <= '9')
			v = v * 16 + (c - '0');
		else if ((c | 0x20) >= 'a' && (c | 0x20) <= 'f')
			v = v * 16 + ((c | 0x20) - 'a' + 10);
		else
			return -1;
	}
	*out = v;
	return 0;
}

/* escape: *p is the backslash; a valid escape, as jansson decodes it. */
static int
escape(const unsigned char **pp, const unsigned char *end)
{
	const unsigned char *p = *pp + 1;
	unsigned u, low;

	if (p >= end)
		return -1;
	if (strchr("\"\\/bfnrt", *p) != NULL && *p != '\0') {
		*pp = p + 1;
		return 0;
	}
	if (*p != 'u' || hex4(p + 1, end, &u) < 0 || u == 0 ||
	    (u >= 0xDC00 && u <= 0xDFFF))
		return -1;
	p += 5;
	if (u >= 0xD800 && u <= 0xDBFF) {
		if (end - p < 6 || p[0] != '\\' || p[1] != 'u' ||
		    hex4(p + 2, end, &low) < 0 || low < 0xDC00 || low > 0xDFFF)
			return -1;
		p += 6;
	}
	*pp = p;
	return 0;
}

/* utf8: *p is a byte over 0x7F starting a valid, shortest sequence. */
static int
utf8(const unsigned char **pp, const unsigned char *end)
{
	const unsigned char *p = *pp;
	unsigned c = *p, n, i;

	if (c >= 0xC2 && c <= 0xDF)
		n = 1, c &= 0x1F;
	else if (c >= 0xE0 && c <= 0xEF)
		n = 2, c &= 0x0F;
	else if (c >= 0xF0 && c <= 0xF4)
		n = 3, c &= 0x07;
	else
		return -1;
	if ((size_t)(end - p) <= n)
		return -1;
	for (i = 1; i <= n; i++) {
		if ((p[i] & 0xC0) != 0x80)
			return -1;
		c = (c << 6) | (p[i] & 0x3F);
	}
	if ((n == 2 && c < 0x800) || (n == 3 && c < 0x10000) ||
	    (c >= 0xD800 && c <= 0xDFFF) || c > 0x10FFFF)
		return -1;
	*pp = p + n + 1;
	return 0;
}

/*
 * plain_byte: a byte a string holds as it is, needing no look: printable
 * ASCII but the quote and the backslash.  Most of a document's bytes are
 * these, so string() skips them by table.
 */
static unsigned char plain_byte[256];

static void
plain_bytes_init(void)
{
	int c;

	for (c = 0x20; c < 0x80; c++)
		plain_byte[c] = c != '"' && c != '\\';
}

/*
 * plain_word: the eight bytes at p are all plain, told at once: none has
 * its top bit, none is below 0x20, none is a quote or a backslash (each
 * test is exact for "any byte", the only question asked).
 */
static int
plain_word(const unsigned char *p)
{
	const uint64_t ones = 0x0101010101010101ULL, tops = ones << 7;
	uint64_t x, q, b;

	memcpy(&x, p, sizeof x);
	q = x ^ (ones * '"');
	b = x ^ (ones * '\\');
	return ((x & tops) | ((x - ones * 0x20) & ~x & tops) |
	    ((q - ones) & ~q & tops) | ((b - ones) & ~b & tops)) == 0;
}

/* string: *s->p is the opening quote; *escaped tells a backslash. */
static int
string(struct scan *s, int *escaped)
{
	const unsigned char *p = s->p + 1;

	*escaped = 0;
	for (;;) {
		while (s->end - p >= 8 && plain_word(p))
			p += 8;
		while (p < s->end && plain_byte[*p])
			p++;
		if (p >= s->end || *p == '"')
			break;
		if (*p < 0x20)
			return -1;
		if (*p == '\\') {
			*escaped = 1;
			if (escape(&p, s->end) < 0)
				return -1;
		} else if (utf8(&p, s->end) < 0) {	/* *p >= 0x80 */
			return -1;
		}
	}
	if (p >= s->end)
		return -1;
	s->p = p + 1;
	return 0;
}

static const unsigned char *
digits(const unsigned char *p, const unsigned char *end)
{
	while (p < end && *p >= '0' && *p <= '9')
		p++;
	return p;
}

/* in_range: the number text fits what jansson makes of it. */
static int
in_range(const unsigned char *at, size_t n, int real)
{
	char num[65];

	if (n >= sizeof num)
		return 0;	/* not sure: let jansson decide */
	if (!real && n - (*at == '-') <= 18)
		return 1;
	memcpy(num, at, n);
	num[n] = '\0';
	errno = 0;
	if (real) {
		double d = strtod(num, NULL);

		return !(errno == ERANGE && (d == HUGE_VAL || d == -HUGE_VAL));
	}
	(void)strtoll(num, NULL, 10);
	return errno != ERANGE;
}

static int
number(struct scan *s)
{
	const unsigned char *at = s->p, *p = at, *q;
	int real = 0;

	if (p < s->end && *p == '-')
		p++;
	if (p < s->end && *p == '0')
		p++;
	else if ((q = digits(p, s->end)) > p)
		p = q;
	else
		return -1;
	if (p < s->end && *p == '.') {
		if ((q = digits(p + 1, s->end)) == p + 1)
			return -1;
		p = q, real = 1;
	}
	if (p < s->end && (*p == 'e' || *p == 'E')) {
		p++;
		if (p < s->end && (*p == '+' || *p == '-'))
			p++;
		if ((q = digits(p, s->end)) == p)
			return -1;
		p = q, real = 1;
	}
	if (!in_range(at, (size_t)(p - at), real))
		return -1;
	if (real || (p - at == 2 && at[0] == '-'))
		s->canonical = 0;	/* jansson writes these otherwise */
	s->p = p;
	return 0;
}

static int
literal(struct scan *s, const char *word)
{
	size_t n = strlen(word);

	if ((size_t)(s->end - s->p) < n || memcmp(s->p, word, n) != 0)
		return -1;
	s->p += n;
	return 0;
}

static int
key_cmp(const void *a, const void *b)
{
	const struct key_span *x = a, *y = b;

	if (x->len != y->len)
		return x->len < y->len ? -1 : 1;
	return memcmp(x->at, y->at, x->len);
}

/* unique: the keys from first on, those of one object, differ. */
static int
unique(struct scan *s, size_t first)
{
	struct key_span *k = s->keys + first;
	size_t n = s->nkeys - first, i, j;

	if (n <= 8) {
		for (i = 1; i < n; i++)
			for (j = 0; j < i; j++)
				if (key_cmp(k + i, k + j) == 0)
					return 0;
		return 1;
	}
	qsort(k, n, sizeof *k, key_cmp);
	for (i = 1; i < n; i++)
		if (key_cmp(k + i, k + i - 1) == 0)
			return 0;
	return 1;
}

static int
member(struct scan *s)
{
	const unsigned char *at = s->p;
	int escaped;

	if (s->p >= s->end || *s->p != '"' || string(s, &escaped) < 0 ||
	    escaped)
		return -1;	/* an escaped key: not sure it is unique */
	if (s->nkeys == s->cap)
		s->keys = xreallocarray(s->keys, s->cap = s->cap * 2 + 16,
		    sizeof *s->keys);
	s->keys[s->nkeys].at = (const char *)at + 1;
	s->keys[s->nkeys++].len = (size_t)(s->p - at) - 2;
	white(s);
	if (s->p >= s->end || *s->p != ':')
		return -1;
	s->p++;
	white(s);
	return value(s);
}

/* container: *s->p opens an object or an array. */
static int
container(struct scan *s, unsigned char closer)
{
	size_t first = s->nkeys;
	int r = 0;

	if (++s->depth > LOAD_MAX_DEPTH - 2)	/* inside a section */
		return -1;
	s->p++;
	white(s);
	if (s->p < s->end && *s->p == closer) {
		s->p++;
		s->depth--;
		return 0;
	}
	for (;;) {
		r = closer == '}' ? member(s) : value(s);
		if (r < 0)
			return -1;
		white(s);
		if (s->p < s->end && *s->p == ',') {
			s->p++;
			white(s);
			continue;
		}
		if (s->p >= s->end || *s->p != closer)
			return -1;
		break;
	}
	s->p++;
	s->depth--;
	if (closer == '}' && !unique(s, first))
		return -1;
	s->nkeys = first;
	return 0;
}

static int
value(struct scan *s)
{
	int escaped;

	if (s->p >= s->end)
		return -1;
	switch (*s->p) {
	case '{':
		return container(s, '}');
	case '[':
		return container(s, ']');
	case '"':
		if (string(s, &escaped) < 0)
			return -1;
		if (escaped)
			s->canonical = 0;
		return 0;
	case 't':
		return literal(s, "true");
	case 'f':
		return literal(s, "false");
	case 'n':
		return literal(s, "null");
	default:
		return number(s);
	}
}

size_t
jscan_value(const char *text, size_t len, int *canonical)
{
	struct scan s = { (const unsigned char *)text,
	    (const unsigned char *)text + len, 1, NULL, 0, 0, 0 };
	int r;

	if (!plain_byte['a'])
		plain_bytes_init();
	r = value(&s);
	free(s.keys);
	*canonical = s.canonical;
	return r < 0 ? 0 : (size_t)(s.p - (const unsigned char *)text);
}

/* utf8_put: code point u as UTF-8 at out; the bytes written. */
static size_t
utf8_put(char *out, unsigned u)
{
	if (u < 0x80) {
		out[0] = (char)u;
		return 1;
	}
	if (u < 0x800) {
		out[0] = (char)(0xC0 | u >> 6);
		out[1] = (char)(0x80 | (u & 0x3F));
		return 2;
	}
	if (u < 0x10000) {
		out[0] = (char)(0xE0 | u >> 12);
		out[1] = (char)(0x80 | (u >> 6 & 0x3F));
		out[2] = (char)(0x80 | (u & 0x3F));
		return 3;
	}
	out[0] = (char)(0xF0 | u >> 18);
	out[1] = (char)(0x80 | (u >> 12 & 0x3F));
	out[2] = (char)(0x80 | (u >> 6 & 0x3F));
	out[3] = (char)(0x80 | (u & 0x3F));
	return 4;
}

size_t
jscan_unescape(const char *p, const char *end, char *out)
{
	static const char from[] = "\"\\/bfnrt", to[] = "\"\\/\b\f\n\r\t";
	size_t n = 0;
	unsigned u, low;

	while (p < end) {
		if (*p != '\\') {
			out[n++] = *p++;
		} else if (p[1] != 'u') {
			out[n++] = to[strchr(from, p[1]) - from];
			p += 2;
		} else {
			/* checked by jscan_value: four hex digits, pairs */
			(void)hex4((const unsigned char *)p + 2,
			    (const unsigned char *)end, &u);
			p += 6;
			if (u >= 0xD800 && u <= 0xDBFF) {
				(void)hex4((const unsigned char *)p + 2,
				    (const unsigned char *)end, &low);
				u = 0x10000 + ((u - 0xD800) << 10) + (low - 0xDC00);
				p += 6;
			}
			n += utf8_put(out + n, u);
		}
	}
	return n;
}
