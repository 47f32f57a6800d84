/* access.c: typed getters that report jq-style paths (see access.h). */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "access.h"
#include "idmap.h"
#include "xalloc.h"

void
access_init(struct access *a, const char *file)
{
	memset(a, 0, sizeof *a);
	a->file = file;
	a->cap = 128;
	a->path = xmalloc(a->cap);
	a->path[0] = '\0';
}

void
access_free(struct access *a)
{
	free(a->path);
	free(a->marks);
	memset(a, 0, sizeof *a);
}

static void
append(struct access *a, const char *s, size_t n)
{
	while (a->len + n + 1 > a->cap)
		a->path = xreallocarray(a->path, a->cap *= 2, 1);
	memcpy(a->path + a->len, s, n);
	a->len += n;
	a->path[a->len] = '\0';
}

static void
push_mark(struct access *a)
{
	if (a->depth == a->marks_cap) {
		a->marks_cap = a->marks_cap ? 2 * a->marks_cap : 16;
		a->marks = xreallocarray(a->marks, a->marks_cap,
		    sizeof *a->marks);
	}
	a->marks[a->depth++] = a->len;
}

/*
 * identifier_length: the length of key when jq lets you write it bare,
 * as in .foo_bar (ASCII letters, digits and '_', not first a digit);
 * else 0.  One pass, without the locale's tables: a stage enters
 * millions of keys.
 */
static size_t
identifier_length(const char *key)
{
	const char *p;

	if (*key >= '0' && *key <= '9')
		return 0;
	for (p = key; *p != '\0'; p++)
		if (!((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') ||
		    (*p >= '0' && *p <= '9') || *p == '_'))
			return 0;
	return (size_t)(p - key);
}

void
access_enter_key(struct access *a, const char *key)
{
	size_t n = identifier_length(key);

	push_mark(a);
	append(a, ".", 1);
	if (n > 0) {
		append(a, key, n);
		return;
	}
	append(a, "\"", 1);
	for (; *key != '\0'; key++) {
		if (*key == '"' || *key == '\\')
			append(a, "\\", 1);
		append(a, key, 1);
	}
	append(a, "\"", 1);
}

/* access_enter_index: "[index]", without snprintf: once per element read. */
void
access_enter_index(struct access *a, size_t index)
{
	char buf[32], *p = buf + sizeof buf;

	*--p = ']';
	do
		*--p = (char)('0' + index % 10);
	while ((index /= 10) != 0);
	*--p = '[';
	push_mark(a);
	append(a, p, (size_t)(buf + sizeof buf - p));
}

void
access_leave(struct access *a)
{
	if (a->depth == 0)
		return;
	a->len = a->marks[--a->depth];
	a->path[a->len] = '\0';
}

const char *
access_path(const struct access *a)
{
	return a->len ? a->path : ".";
}

int
access_fail(struct access *a, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	diag_vpath(a->file, access_path(a), fmt, ap);
	va_end(ap);
	return -1;
}

int
access_fail_at(struct access *a, const char *key, const char *fmt, ...)
{
	va_list ap;

	access_enter_key(a, key);
	va_start(ap, fmt);
	diag_vpath(a->file, access_path(a), fmt, ap);
	va_end(ap);
	access_leave(a);
	return -1;
}

void
access_warn(struct access *a, const char *fmt, ...)
{
	char msg[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	diag_warn(a->file, access_path(a), "%s", msg);
}

const char *
describe_value(const json_t *v, char *buf, size_t size)
{
	switch (json_typeof(v)) {
	case JSON_OBJECT:
		return "an object";
	case JSON_ARRAY:
		return "an array";
	case JSON_STRING:
		if (json_string_length(v) > 40)
			snprintf(buf, size, "\"%.37s...\"", json_string_value(v));
		else
			snprintf(buf, size, "\"%s\"", json_string_value(v));
		return buf;
	case JSON_INTEGER:
		snprintf(buf, size, "%" JSON_INTEGER_FORMAT, json_integer_value(v));
		return buf;
	case JSON_REAL:
		snprintf(buf, size, "%.17g", json_real_value(v));
		return buf;
	case JSON_TRUE:
		return "true";
	case JSON_FALSE:
		return "false";
	default:
		return "null";
	}
}

static int
wrong_type(struct access *a, const char *want, const json_t *v)
{
	char buf[64];

	return access_fail(a, "expected %s, got %s", want,
	    describe_value(v, buf, sizeof buf));
}

int
acc_as_object(struct access *a, const json_t *v)
{
	return json_is_object(v) ? 0 : wrong_type(a, "object", v);
}

int
acc_as_array(struct access *a, const json_t *v)
{
	return json_is_array(v) ? 0 : wrong_type(a, "array", v);
}

int
acc_as_string(struct access *a, const json_t *v, const char **out)
{
	if (!json_is_string(v))
		return wrong_type(a, "string", v);
	*out = json_string_value(v);
	return 0;
}

int
acc_as_int(struct access *a, const json_t *v, json_int_t *out)
{
	if (!json_is_integer(v))
		return wrong_type(a, "integer", v);
	*out = json_integer_value(v);
	return 0;
}

int
acc_as_number(struct access *a, const json_t *v, double *out)
{
	if (!json_is_number(v))
		return wrong_type(a, "number", v);
	*out = json_number_value(v);
	return 0;
}

int
acc_get(struct access *a, const json_t *obj, const char *key, int flags,
    json_t **out)
{
	json_t *v = json_object_get(obj, key);

	if (v == NULL) {
		if (flags & ACC_OPTIONAL)
			return 1;
		return access_fail(a, "missing required field \"%s\"", key);
	}
	*out = v;
	return 0;
}

/*
 * GETTER: the common shape of the typed getters: look the member up;
 * when it is of the type (is), take it (take); else enter its path and
 * let the acc_as_ function (check) say what is wrong.  The path is only
 * entered for the diagnostic: a stage reads millions of members.
 */
#define GETTER(name, type, is, take, check)				\
int									\
name(struct access *a, const json_t *obj, const char *key, int flags,	\
    type out)								\
{									\
	json_t *v = NULL;						\
	int r = acc_get(a, obj, key, flags, &v);			\
									\
	if (r != 0)							\
		return r;						\
	if (is(v)) {							\
		*out = take(v);						\
		return 0;						\
	}								\
	access_enter_key(a, key);					\
	r = check;							\
	access_leave(a);						\
	return r;							\
}

/* the value itself, for the getters of objects and arrays */
#define AS_IS(v) (v)

GETTER(acc_get_string, const char **, json_is_string, json_string_value,
    acc_as_string(a, v, out))
GETTER(acc_get_int, json_int_t *, json_is_integer, json_integer_value,
    acc_as_int(a, v, out))
GETTER(acc_get_number, double *, json_is_number, json_number_value,
    acc_as_number(a, v, out))
GETTER(acc_get_object, json_t **, json_is_object, AS_IS,
    (*out = v, acc_as_object(a, v)))
GETTER(acc_get_array, json_t **, json_is_array, AS_IS,
    (*out = v, acc_as_array(a, v)))

int
acc_get_int_range(struct access *a, const json_t *obj, const char *key,
    int flags, json_int_t min, json_int_t max, json_int_t *out)
{
	json_int_t v;
	int r = acc_get_int(a, obj, key, flags, &v);

	if (r != 0)
		return r;
	if (v < min || v > max)
		return access_fail_at(a, key, "%" JSON_INTEGER_FORMAT
		    " is out of range [%" JSON_INTEGER_FORMAT ", %"
		    JSON_INTEGER_FORMAT "]", v, min, max);
	*out = v;
	return 0;
}

int
acc_get_bool(struct access *a, const json_t *obj, const char *key,
    int flags, int *out)
{
	json_t *v = NULL;
	int r = acc_get(a, obj, key, flags, &v);

	if (r != 0)
		return r;
	if (!json_is_boolean(v)) {
		access_enter_key(a, key);
		r = wrong_type(a, "true or false", v);
		access_leave(a);
		return r;
	}
	*out = json_is_true(v);
	return 0;
}

static void
join_names(const char *const *names, char *buf, size_t size)
{
	size_t len = 0;

	buf[0] = '\0';
	for (; *names != NULL && len < size; names++)
		len += (size_t)snprintf(buf + len, size - len, "%s%s",
		    len ? ", " : "", *names);
}

int
acc_get_enum(struct access *a, const json_t *obj, const char *key, int flags,
    const char *const *names, int *out)
{
	const char *s;
	char list[512];
	int i, r = acc_get_string(a, obj, key, flags, &s);

	if (r != 0)
		return r;
	for (i = 0; names[i] != NULL; i++)
		if (strcmp(s, names[i]) == 0) {
			*out = i;
			return 0;
		}
	join_names(names, list, sizeof list);
	return access_fail_at(a, key, "unknown value \"%s\" (expected one of: %s)",
	    s, list);
}

/*
 * is_known: key is one of known, or an extension ("x-").  The first
 * letters are compared before calling strcmp: an action of a schedule
 * has a dozen keys, each looked for among fifteen names.
 */
static int
is_known(const char *key, const char *const *known)
{
	for (; *known != NULL; known++)
		if (**known == *key && strcmp(key, *known) == 0)
			return 1;
	return strncmp(key, "x-", 2) == 0;
}

int
acc_check_keys(struct access *a, const json_t *obj, const char *const *known)
{
	const char *key;
	json_t *v;

	json_object_foreach((json_t *)obj, key, v) {
		(void)v;
		if (!is_known(key, known))
			return access_fail_at(a, key, "unknown field \"%s\"", key);
	}
	return 0;
}

int
acc_each_element(struct access *a, const json_t *obj, const char *key,
    int flags, acc_element_fn fn, void *ctx)
{
	json_t *list, *v;
	size_t i;
	int r = acc_get_array(a, obj, key, flags, &list);

	if (r != 0)
		return r;
	access_enter_key(a, key);
	json_array_foreach(list, i, v) {
		access_enter_index(a, i);
		r = fn(a, v, i, ctx);
		access_leave(a);
		if (r < 0)
			break;
	}
	access_leave(a);
	return r < 0 ? -1 : 0;
}

int
acc_each_member(struct access *a, const json_t *obj, const char *key,
    int flags, acc_member_fn fn, void *ctx)
{
	const char *name;
	json_t *map, *v;
	int r = acc_get_object(a, obj, key, flags, &map);

	if (r != 0)
		return r;
	access_enter_key(a, key);
	json_object_foreach(map, name, v) {
		access_enter_key(a, name);
		r = fn(a, name, v, ctx);
		access_leave(a);
		if (r < 0)
			break;
	}
	access_leave(a);
	return r < 0 ? -1 : 0;
}

static int
element_is_string(struct access *a, const json_t *v, size_t i, void *ctx)
{
	const char *s;

	(void)i;
	(void)ctx;
	return acc_as_string(a, v, &s);
}

int
acc_get_string_array(struct access *a, const json_t *obj, const char *key,
    int flags, json_t **out)
{
	int r = acc_each_element(a, obj, key, flags, element_is_string, NULL);

	if (r == 0)
		*out = json_object_get(obj, key);
	return r;
}

int
acc_get_ref(struct access *a, const json_t *obj, const char *key,
    const struct idmap *ids, const char *what, size_t *out)
{
	const char *id;
	long i;

	if (acc_get_string(a, obj, key, ACC_REQUIRED, &id) < 0)
		return -1;
	if ((i = idmap_find(ids, id)) < 0)
		return access_fail_at(a, key, "no %s has id \"%s\"", what, id);
	*out = (size_t)i;
	return 0;
}

int
json_strings_have(const json_t *list, const char *s)
{
	json_t *v;
	size_t i;

	json_array_foreach(list, i, v)
		if (json_is_string(v) && strcmp(json_string_value(v), s) == 0)
			return 1;
	return 0;
}

/* The names an array may hold, and the bits of those it holds. */
struct name_bits {
	const char *const *names;
	const char *unknown;
	unsigned *bits;
};

static int
name_bit(struct access *a, const json_t *v, size_t i, void *ctx)
{
	struct name_bits *nb = ctx;
	char buf[64];
	int k;

	(void)i;
	for (k = 0; nb->names[k] != NULL; k++)
		if (json_is_string(v) &&
		    strcmp(json_string_value(v), nb->names[k]) == 0) {
			*nb->bits |= 1u << k;
			return 0;
		}
	if (nb->unknown != NULL)
		return access_fail(a, "%s", nb->unknown);
	return access_fail(a, "unknown value %s",
	    describe_value(v, buf, sizeof buf));
}

int
acc_get_name_bits(struct access *a, const json_t *obj, const char *key,
    const char *const *names, const char *unknown, unsigned *bits)
{
	struct name_bits nb = { names, unknown, bits };

	return acc_each_element(a, obj, key, ACC_OPTIONAL, name_bit, &nb) < 0 ?
	    -1 : 0;
}
