/* jbuild.c: build checked JSON text into jansson values (jbuild.h). */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "decimal.h"
#include "idmap.h"
#include "jbuild.h"
#include "jscan.h"
#include "xalloc.h"

/* Strings this short are looked up in the shared table first. */
#define SHARED_LEN 24
#define SHARED_SLOTS 4096	/* a power of two; a miss replaces */
#define SMALL_INTS 1024		/* 0 .. SMALL_INTS - 1 are shared */

struct jbuild {
	json_t *strings[SHARED_SLOTS];
	json_t *ints[SMALL_INTS];
	int unshared;		/* jbuild_unshared */
	char *plain;		/* decoded escaped strings */
	size_t plain_cap;
};

struct jbuild *
jbuild_new(void)
{
	return xcalloc(1, sizeof(struct jbuild));
}

struct jbuild *
jbuild_unshared(void)
{
	struct jbuild *b = xmalloc(sizeof *b);

	b->unshared = 1;
	b->plain = NULL;
	b->plain_cap = 0;
	return b;
}

void
jbuild_free(struct jbuild *b)
{
	size_t i;

	if (b == NULL)
		return;
	for (i = 0; i < SHARED_SLOTS && !b->unshared; i++)
		json_decref(b->strings[i]);
	for (i = 0; i < SMALL_INTS && !b->unshared; i++)
		json_decref(b->ints[i]);
	free(b->plain);
	free(b);
}

static json_t *build(struct jbuild *b, const char **pp);

static void
white(const char **pp)
{
	while (**pp == ' ' || **pp == '\t' || **pp == '\n' || **pp == '\r')
		(*pp)++;
}

/* shared_string: s[0 .. n), from the table when it is short. */
static json_t *
shared_string(struct jbuild *b, const char *s, size_t n)
{
	json_t **slot;
	uint64_t h = 1469598103934665603ULL;
	size_t i;

	if (n > SHARED_LEN || b->unshared)
		return json_stringn_nocheck(s, n);
	for (i = 0; i < n; i++)
		h = (h ^ (unsigned char)s[i]) * 1099511628211ULL;
	slot = &b->strings[h & (SHARED_SLOTS - 1)];
	if (*slot == NULL || json_string_length(*slot) != n ||
	    memcmp(json_string_value(*slot), s, n) != 0) {
		json_decref(*slot);
		*slot = json_stringn_nocheck(s, n);
	}
	return json_incref(*slot);
}

/* string: **pp opens a string; its content, unescaped. */
static const char *
string(struct jbuild *b, const char **pp, size_t *n)
{
	const char *start = *pp + 1, *p = start;
	int escaped = 0;

	while (*p != '"') {
		if (*p == '\\')
			escaped = 1, p++;
		p++;
	}
	*pp = p + 1;
	if (!escaped) {
		*n = (size_t)(p - start);
		return start;
	}
	xreserve(&b->plain, &b->plain_cap, (size_t)(p - start) + 1);
	*n = jscan_unescape(start, p, b->plain);
	return b->plain;
}

static json_t *
number(struct jbuild *b, const char **pp)
{
	const char *p = *pp;
	char num[72];
	size_t n;
	long long v = 0;

	while (strchr("+-0123456789.eE", *p) != NULL && *p != '\0')
		p++;
	n = (size_t)(p - *pp);
	memcpy(num, *pp, n);	/* jscan: at most 64 bytes */
	num[n] = '\0';
	*pp = p;
	if (strpbrk(num, ".eE") != NULL)
		return json_real(decimal_to_double(num));
	v = strtoll(num, NULL, 10);
	if (v >= 0 && v < SMALL_INTS && !b->unshared) {
		if (b->ints[v] == NULL)
			b->ints[v] = json_integer(v);
		return json_incref(b->ints[v]);
	}
	return json_integer(v);
}

static json_t *
object(struct jbuild *b, const char **pp)
{
	json_t *o = json_object();
	const char *key;
	size_t n;

	(*pp)++;
	white(pp);
	while (**pp != '}') {
		key = *pp + 1;	/* jscan: keys have no escapes */
		*pp = strchr(key, '"');
		n = (size_t)(*pp - key);
		(*pp)++;
		white(pp);
		(*pp)++;	/* the colon */
		json_object_setn_new_nocheck(o, key, n, build(b, pp));
		white(pp);
		if (**pp == ',')
			(*pp)++;
		white(pp);
	}
	(*pp)++;
	return o;
}

static json_t *
array(struct jbuild *b, const char **pp)
{
	json_t *a = json_array();

	(*pp)++;
	white(pp);
	while (**pp != ']') {
		json_array_append_new(a, build(b, pp));
		white(pp);
		if (**pp == ',')
			(*pp)++;
		white(pp);
	}
	(*pp)++;
	return a;
}

static json_t *
build(struct jbuild *b, const char **pp)
{
	const char *s;
	size_t n;

	white(pp);
	switch (**pp) {
	case '{':
		return object(b, pp);
	case '[':
		return array(b, pp);
	case '"':
		s = string(b, pp, &n);
		return shared_string(b, s, n);
	case 't':
		*pp += 4;
		return json_true();
	case 'f':
		*pp += 5;
		return json_false();
	case 'n':
		*pp += 4;
		return json_null();
	default:
		return number(b, pp);
	}
}

json_t *
jbuild_value(struct jbuild *b, const char *text, size_t len)
{
	const char *p = text;

	(void)len;	/* checked text ends itself */
	return build(b, &p);
}

json_t *
jbuild_next(struct jbuild *b, const char **pp)
{
	return build(b, pp);
}
