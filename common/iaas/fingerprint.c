/*
 * fingerprint.c: a digest of what an iteration plans on which system,
 * for upgrade-loop(1) to tell an iteration that would only repeat the
 * one before (III.B: nothing changed, nothing failed in between, so
 * nothing would change).  It covers the system, the failed attempts of
 * the resource graph's vertices and the stages of the schedule and of
 * the planned sub-iterations, with the iteration taken out of the ids:
 * "i3/..." reads "i/...", "i3.s2/..." "i.s2/...".  The loop used to
 * compute it with jq, which at 1,000 hosts took half of the loop's own
 * time per iteration.  The sections it covers, but the small
 * migrations, are fed from their text (jtext.h), nothing of them built:
 * at 10,000 hosts building them took most of the time.  A section fed
 * from its text and the same section built feed alike.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fingerprint.h"
#include "jtext.h"
#include "jwalk.h"

/* Two 64-bit hashes of different kinds, so that 128 bits differ. */
struct digest {
	uint64_t fnv, mix;
};

static void
feed(struct digest *d, const char *s, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		d->fnv = (d->fnv ^ (unsigned char)s[i]) * 1099511628211ULL;
		d->mix = (d->mix << 5) + d->mix + (unsigned char)s[i] +
		    (d->mix >> 59);
	}
}

/* iteration_prefix: the length of "i<digits>" that starts an id. */
static size_t
iteration_prefix(const char *s, size_t n)
{
	size_t i = 1;

	if (n < 3 || s[0] != 'i' || s[1] < '0' || s[1] > '9')
		return 0;
	while (i < n && s[i] >= '0' && s[i] <= '9')
		i++;
	if (i + 1 < n && s[i] == '.' && s[i + 1] == 's') {
		size_t j = i + 2;

		while (j < n && s[j] >= '0' && s[j] <= '9')
			j++;
		if (j > i + 2 && j < n && s[j] == '/')
			return i;
	}
	return i < n && s[i] == '/' ? i : 0;
}

/* feed_text: a string or key, quoted, its iteration number left out. */
static void
feed_text(struct digest *d, const char *s, size_t n)
{
	size_t cut = iteration_prefix(s, n);

	feed(d, "\"", 1);
	if (cut > 0) {
		feed(d, "i", 1);
		s += cut;
		n -= cut;
	}
	feed(d, s, n);
	feed(d, "\"", 1);
}

static void feed_value(struct digest *d, const json_t *v);

/* feed_number: a number's text as feed_value feeds what it parses to. */
static void
feed_number(struct digest *d, const char *p, size_t n)
{
	char text[64], num[40];

	if (n >= sizeof text) {
		feed(d, p, n);	/* jscan lets no number this long be kept */
		return;
	}
	memcpy(text, p, n);
	text[n] = '\0';
	if (strpbrk(text, ".eE") != NULL)
		snprintf(num, sizeof num, "%.17g", strtod(text, NULL));
	else
		snprintf(num, sizeof num, "%lld", strtoll(text, NULL, 10));
	feed(d, num, strlen(num));
}

/* feed_built: the value at p[0 .. n) built, for a string with escapes. */
static void
feed_built(struct digest *d, const char *p, size_t n)
{
	json_t *v = json_loadb(p, n, JSON_DECODE_ANY, NULL);

	feed_value(d, v != NULL ? v : json_null());
	json_decref(v);
}

static const char *
white(const char *p)
{
	return p + strspn(p, " \t\r\n");
}

/* string_end: past the string that opens at p; *escaped if it has a
 * backslash. */
static const char *
string_end(const char *p, int *escaped)
{
	*escaped = 0;
	for (p++; *p != '"'; p++)
		if (*p == '\\') {
			*escaped = 1;
			p++;
		}
	return p + 1;
}

/*
 * feed_kept: the value of checked JSON text at *pp, fed as feed_value
 * feeds it built, in one pass; *pp goes past it.  Keys of kept text
 * have no escapes (jscan).
 */
static void
feed_kept(struct digest *d, const char **pp)
{
	const char *p = *pp, *end;
	int escaped;

	if (*p == '{' || *p == '[') {
		char close = *p == '{' ? '}' : ']';

		feed(d, p, 1);
		for (p = white(p + 1); *p != close; p = white(p)) {
			if (close == '}') {
				end = strchr(p + 1, '"');
				feed_text(d, p + 1, (size_t)(end - p - 1));
				p = white(end + 1) + 1;	/* the colon */
				p = white(p);
			}
			feed_kept(d, &p);
			p = white(p);
			if (*p == ',')
				p++;
		}
		feed(d, p, 1);
		*pp = p + 1;
		return;
	}
	if (*p == '"') {
		end = string_end(p, &escaped);
		if (escaped)
			feed_built(d, p, (size_t)(end - p));
		else
			feed_text(d, p + 1, (size_t)(end - p - 2));
	} else if (*p == 't' || *p == 'f' || *p == 'n') {
		feed(d, p, 1);
		end = p + (*p == 'f' ? 5 : 4);
	} else {
		end = p + strcspn(p, ",]} \t\r\n");
		feed_number(d, p, (size_t)(end - p));
	}
	*pp = end;
}

static void
feed_value(struct digest *d, const json_t *v)
{
	const struct jtext *kept = jtext_stand_in(v);
	char num[40];
	const char *key;
	json_t *x;
	size_t i;

	if (kept != NULL) {
		const char *p = kept->text;

		feed_kept(d, &p);
		return;
	}
	switch (json_typeof(v)) {
	case JSON_OBJECT:
		feed(d, "{", 1);
		json_object_foreach((json_t *)v, key, x) {
			feed_text(d, key, strlen(key));
			feed_value(d, x);
		}
		feed(d, "}", 1);
		break;
	case JSON_ARRAY:
		feed(d, "[", 1);
		json_array_foreach(v, i, x)
			feed_value(d, x);
		feed(d, "]", 1);
		break;
	case JSON_STRING:
		feed_text(d, json_string_value(v), json_string_length(v));
		break;
	case JSON_INTEGER:
		snprintf(num, sizeof num, "%" JSON_INTEGER_FORMAT,
		    json_integer_value(v));
		feed(d, num, strlen(num));
		break;
	case JSON_REAL:
		snprintf(num, sizeof num, "%.17g", json_real_value(v));
		feed(d, num, strlen(num));
		break;
	default:
		feed(d, json_is_true(v) ? "t" : json_is_false(v) ? "f" : "n",
		    1);
		break;
	}
}

/* feed_each: member key of every element of array, null when absent. */
static void
feed_each(struct digest *d, const json_t *array, const char *key)
{
	const struct jtext *kept = jtext_stand_in(array);
	const char *e, *v;
	size_t n, vn;
	struct jwalk w;
	json_t *x;
	size_t i;

	feed(d, "[", 1);
	if (kept != NULL) {
		jwalk_begin(&w, kept->text, kept->len);
		while (jwalk_next(&w, NULL, NULL, &e, &n)) {
			if (jwalk_member(e, n, key, &v, &vn))
				feed_kept(d, &v);
			else
				feed(d, "n", 1);
		}
		feed(d, "]", 1);
		return;
	}
	json_array_foreach(array, i, x)
		feed_value(d, json_object_get(x, key) != NULL ?
		    json_object_get(x, key) : json_null());
	feed(d, "]", 1);
}

void
state_fingerprint(const json_t *doc, char out[STATE_FINGERPRINT_SIZE])
{
	struct digest d = { 14695981039346656037ULL, 5381 };
	const json_t *mig = json_object_get(doc, "migrations"), *sub;
	size_t i;

	feed_value(&d, json_object_get(doc, "system") != NULL ?
	    json_object_get(doc, "system") : json_null());
	feed_each(&d, json_object_get(json_object_get(doc, "resource_graph"),
	    "vertices"), "failed_attempts");
	feed_value(&d, json_object_get(json_object_get(doc, "schedule"),
	    "stages") != NULL ? json_object_get(json_object_get(doc,
	    "schedule"), "stages") : json_null());
	feed(&d, "[", 1);
	json_array_foreach(json_object_get(mig, "sub_iterations"), i, sub)
		feed_value(&d, json_object_get(json_object_get(sub, "schedule"),
		    "stages") != NULL ? json_object_get(json_object_get(sub,
		    "schedule"), "stages") : json_null());
	feed(&d, "]", 1);
	snprintf(out, STATE_FINGERPRINT_SIZE, "%016llx%016llx",
	    (unsigned long long)d.fnv, (unsigned long long)d.mix);
}
