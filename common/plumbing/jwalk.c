/* jwalk.c: walk checked JSON text (jwalk.h). */
#include <string.h>

#include "jwalk.h"

static void
white(struct jwalk *w)
{
	while (w->p < w->end && (*w->p == ' ' || *w->p == '\t' ||
	    *w->p == '\n' || *w->p == '\r'))
		w->p++;
}

void
jwalk_begin(struct jwalk *w, const char *text, size_t len)
{
	w->p = text + 1;	/* past the bracket or brace */
	w->end = text + len - 1;
}

/* string_end: past the string that opens at p. */
static const char *
string_end(const char *p)
{
	const char *q;

	for (;;) {
		p = strchr(p + 1, '"');
		for (q = p; q[-1] == '\\'; q--)
			continue;
		if ((p - q) % 2 == 0)	/* the quote is not escaped */
			return p + 1;
	}
}

/*
 * skip: past the value at p.  The text was checked, so only strings and
 * brackets need reading: a container ends where its brackets balance, a
 * scalar at the first delimiter.
 */
static const char *
skip(const char *p, const char *end)
{
	size_t depth = 0;

	if (*p != '"' && *p != '{' && *p != '[') {
		p += strcspn(p, ",]} \t\n\r");
		return p < end ? p : end;
	}
	do {
		if (*p == '"')
			p = string_end(p);
		else if (*p == '{' || *p == '[')
			depth++, p++;
		else
			depth--, p++;
		if (depth > 0)
			p += strcspn(p, "\"{}[]");
	} while (depth > 0);
	return p;
}

size_t
jwalk_length(const char *text, const char *end)
{
	return (size_t)(skip(text, end) - text);
}

/* value: the value at w->p, its length, and w->p past it. */
static size_t
value(struct jwalk *w, const char **start)
{
	size_t n;

	white(w);
	*start = w->p;
	n = (size_t)(skip(w->p, w->end) - w->p);
	w->p += n;
	white(w);
	if (w->p < w->end && *w->p == ',')
		w->p++;
	return n;
}

int
jwalk_next(struct jwalk *w, const char **key, size_t *keylen,
    const char **val, size_t *len)
{
	const char *k;
	size_t n;

	white(w);
	if (w->p >= w->end)
		return 0;
	if (*w->p == '"' && key != NULL) {
		k = w->p + 1;
		w->p = strchr(k, '"');
		n = (size_t)(w->p - k);
		w->p++;
		white(w);
		w->p++;		/* the colon */
		*key = k;
		*keylen = n;
	}
	*len = value(w, val);
	return *len > 0;
}

int
jwalk_member(const char *text, size_t len, const char *key,
    const char **val, size_t *vlen)
{
	struct jwalk w;
	const char *k;
	size_t kn, n = strlen(key);

	if (len == 0 || text[0] != '{')
		return 0;
	jwalk_begin(&w, text, len);
	while (jwalk_next(&w, &k, &kn, val, vlen))
		if (kn == n && memcmp(k, key, n) == 0)
			return 1;
	return 0;
}
