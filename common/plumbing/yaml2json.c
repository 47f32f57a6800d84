/*
 * yaml2json.c: turn a YAML document into jansson values.
 *
 * libyaml's event parser drives an explicit stack (never recursion),
 * so deep input cannot overflow the C stack.  Plain scalars are typed
 * with the YAML 1.2 core schema; quoted scalars are always strings.
 * Aliases are expanded by copy, within a budget (LOAD_ALIAS_ALLOWANCE
 * plus the size of the document as written) that stops alias bombs.
 * Duplicate mapping keys and merge keys are errors, never resolved.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <yaml.h>

#include "diag.h"
#include "exitcodes.h"
#include "load.h"
#include "xalloc.h"

struct frame {
	json_t *node;		/* the mapping (object) or sequence (array) */
	char *key;		/* in a mapping: the key awaiting its value */
	char *anchor;		/* the anchor to register when it closes */
	size_t size;		/* nodes in this subtree so far */
};

struct anchor {
	char *name;
	json_t *node;
	size_t size;
};

struct builder {
	const char *name;	/* file name for diagnostics */
	struct frame stack[LOAD_MAX_DEPTH + 1];
	size_t depth;
	struct anchor *anchors;
	size_t nanchors, anchors_cap;
	size_t written;		/* nodes written out in the document */
	size_t expanded;	/* nodes added by alias expansion */
	json_t *root;
	int documents;
};

static int fail(struct builder *, const yaml_mark_t *, const char *, ...)
    DIAG_PRINTF(3, 4);

static int last_key_wins;

void
load_duplicate_keys_win(void)
{
	last_key_wins = 1;
}

/* duplicate_key: the error, or with last_key_wins a warning. */
static int
duplicate_key(struct builder *b, const yaml_mark_t *m, const char *key)
{
	char where[64];

	if (!last_key_wins)
		return fail(b, m, "duplicate key '%s'", key);
	snprintf(where, sizeof where, ":%ld:%ld", (long)m->line + 1,
	    (long)m->column + 1);
	diag_warn(b->name, where, "duplicate key '%s': the last one wins", key);
	return EXIT_OK;
}

/* fail: report at a libyaml mark (0-based) as line:col (1-based). */
static int
fail(struct builder *b, const yaml_mark_t *m, const char *fmt, ...)
{
	char msg[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	diag_at(b->name, (long)m->line + 1, (long)m->column + 1, "%s", msg);
	return EXIT_DATAERR;
}

static const struct anchor *
find_anchor(const struct builder *b, const char *name)
{
	size_t i;

	/* The latest definition wins: YAML allows redefining an anchor. */
	for (i = b->nanchors; i > 0; i--)
		if (strcmp(b->anchors[i - 1].name, name) == 0)
			return &b->anchors[i - 1];
	return NULL;
}

static void
add_anchor(struct builder *b, char *name, json_t *node, size_t size)
{
	if (b->nanchors == b->anchors_cap) {
		b->anchors_cap = b->anchors_cap ? 2 * b->anchors_cap : 16;
		b->anchors = xreallocarray(b->anchors, b->anchors_cap,
		    sizeof *b->anchors);
	}
	b->anchors[b->nanchors].name = name;
	b->anchors[b->nanchors].node = json_incref(node);
	b->anchors[b->nanchors].size = size;
	b->nanchors++;
}

static int
match_all(const char *s, const char *set)
{
	return *s != '\0' && s[strspn(s, set)] == '\0';
}

/* plain_float: the core schema's float syntax, without .inf/.nan. */
static int
plain_float(const char *s)
{
	char *end;

	const char *dot = strchr(s, '.');

	/* Cheap rejections first: IP addresses and versions like 1.2.3. */
	if (dot != NULL && strchr(dot + 1, '.') != NULL)
		return 0;
	if (strpbrk(s, "0123456789") == NULL || strpbrk(s, "xXoO_ ") != NULL)
		return 0;
	if (!match_all(s + (*s == '-' || *s == '+'), "0123456789.eE+-"))
		return 0;
	errno = 0;
	(void)strtod(s, &end);
	return *end == '\0';
}

/* plain_int: decimal, 0o octal or 0x hex that fits in json_int_t. */
static int
plain_int(const char *s, json_int_t *v)
{
	const char *digits = s + (*s == '-' || *s == '+');
	int base = 10;
	char *end;

	if (strncmp(s, "0o", 2) == 0 && match_all(s + 2, "01234567")) {
		base = 8;
		digits = s + 2;
	} else if (strncmp(s, "0x", 2) == 0 &&
	    match_all(s + 2, "0123456789abcdefABCDEF")) {
		base = 16;
		digits = s + 2;
	} else if (!match_all(digits, "0123456789")) {
		return 0;
	}
	errno = 0;
	*v = strtoll(base == 10 ? s : digits, &end, base);
	return errno == 0 && *end == '\0';
}

static int
is_one_of(const char *s, const char *const *list)
{
	for (; *list != NULL; list++)
		if (strcmp(s, *list) == 0)
			return 1;
	return 0;
}

/* plain_scalar: resolve an untagged plain scalar (YAML 1.2 core). */
static json_t *
plain_scalar(struct builder *b, const yaml_event_t *ev, const char *s,
    size_t len, int *err)
{
	static const char *const nulls[] = { "", "~", "null", "Null", "NULL", 0 };
	static const char *const trues[] = { "true", "True", "TRUE", 0 };
	static const char *const falses[] = { "false", "False", "FALSE", 0 };
	static const char *const odd[] = { ".inf", ".Inf", ".INF", "+.inf",
	    "-.inf", "+.Inf", "-.Inf", ".nan", ".NaN", ".NAN", 0 };
	json_int_t iv;

	if (is_one_of(s, nulls))
		return json_null();
	if (is_one_of(s, trues))
		return json_true();
	if (is_one_of(s, falses))
		return json_false();
	if (is_one_of(s, odd)) {
		*err = fail(b, &ev->start_mark,
		    "'%s' (infinity or NaN) has no JSON form", s);
		return NULL;
	}
	if (plain_int(s, &iv))
		return json_integer(iv);
	if (plain_float(s))
		return json_real(strtod(s, NULL));
	return json_stringn(s, len);
}

static json_t *
tagged_scalar(struct builder *b, const yaml_event_t *ev, const char *tag,
    const char *s, size_t len, int *err)
{
	json_t *v = NULL;

	if (strcmp(tag, "!") == 0 || strcmp(tag, YAML_STR_TAG) == 0)
		return json_stringn(s, len);
	if (strcmp(tag, YAML_NULL_TAG) == 0 || strcmp(tag, YAML_BOOL_TAG) == 0 ||
	    strcmp(tag, YAML_INT_TAG) == 0 || strcmp(tag, YAML_FLOAT_TAG) == 0) {
		v = plain_scalar(b, ev, s, len, err);
		if (v == NULL)
			return NULL;
		if ((strcmp(tag, YAML_NULL_TAG) == 0 && !json_is_null(v)) ||
		    (strcmp(tag, YAML_BOOL_TAG) == 0 && !json_is_boolean(v)) ||
		    (strcmp(tag, YAML_INT_TAG) == 0 && !json_is_integer(v)) ||
		    (strcmp(tag, YAML_FLOAT_TAG) == 0 && !json_is_number(v))) {
			json_decref(v);
			*err = fail(b, &ev->start_mark,
			    "'%s' does not match its tag", s);
			return NULL;
		}
		return v;
	}
	*err = fail(b, &ev->start_mark, "unsupported tag '%s'", tag);
	return NULL;
}

/*
 * scalar_failed: jansson made no string of s: bad UTF-8, or no memory.
 * The same bytes without the UTF-8 check tell which: made, they were
 * bad (65); not made either, memory ran out (71, as xalloc.h says).
 */
static int
scalar_failed(struct builder *b, const yaml_event_t *ev, const char *s,
    size_t len)
{
	json_t *probe = json_stringn_nocheck(s, len);

	if (probe == NULL)
		diag_fatal(EXIT_OSERR, "out of memory");
	json_decref(probe);
	return fail(b, &ev->start_mark, "invalid UTF-8 in scalar");
}

static json_t *
make_scalar(struct builder *b, const yaml_event_t *ev, int *err)
{
	const char *s = (const char *)ev->data.scalar.value;
	size_t len = ev->data.scalar.length;
	const char *tag = (const char *)ev->data.scalar.tag;
	json_t *v;

	if (memchr(s, '\0', len) != NULL) {
		*err = fail(b, &ev->start_mark, "NUL character in scalar");
		return NULL;
	}
	if (tag != NULL)
		v = tagged_scalar(b, ev, tag, s, len, err);
	else if (ev->data.scalar.style != YAML_PLAIN_SCALAR_STYLE)
		v = json_stringn(s, len);
	else
		v = plain_scalar(b, ev, s, len, err);
	if (v == NULL && *err == 0)
		*err = scalar_failed(b, ev, s, len);
	return v;
}

/*
 * attach: put a finished node (of size nodes) into the open container,
 * or make it the root.  Takes the reference to v.
 */
static int
attach(struct builder *b, const yaml_event_t *ev, json_t *v, size_t size,
    int is_scalar)
{
	struct frame *f;

	if (b->depth == 0) {
		b->root = v;
		return EXIT_OK;
	}
	f = &b->stack[b->depth - 1];
	f->size += size;
	if (json_is_array(f->node)) {
		json_array_append_new(f->node, v);
		return EXIT_OK;
	}
	if (f->key == NULL) {
		if (!is_scalar && !json_is_string(v)) {
			json_decref(v);
			return fail(b, &ev->start_mark,
			    "a mapping key must be a scalar");
		}
		f->key = xstrdup(json_is_string(v) ? json_string_value(v) :
		    (const char *)ev->data.scalar.value);
		json_decref(v);
		if (strcmp(f->key, "<<") == 0)
			return fail(b, &ev->start_mark,
			    "merge keys ('<<') are not supported");
		if (json_object_get(f->node, f->key) != NULL)
			return duplicate_key(b, &ev->start_mark, f->key);
		return EXIT_OK;
	}
	json_object_set_new(f->node, f->key, v);
	free(f->key);
	f->key = NULL;
	return EXIT_OK;
}

static int
on_scalar(struct builder *b, const yaml_event_t *ev)
{
	int err = 0;
	json_t *v = make_scalar(b, ev, &err);

	if (v == NULL)
		return err;
	b->written++;
	if (ev->data.scalar.anchor != NULL)
		add_anchor(b, xstrdup((const char *)ev->data.scalar.anchor), v, 1);
	return attach(b, ev, v, 1, 1);
}

static int
on_alias(struct builder *b, const yaml_event_t *ev)
{
	const char *name = (const char *)ev->data.alias.anchor;
	const struct anchor *a = find_anchor(b, name);

	if (a == NULL)
		return fail(b, &ev->start_mark, "undefined alias '%s'", name);
	b->expanded += a->size;
	if (b->expanded > b->written + LOAD_ALIAS_ALLOWANCE)
		return fail(b, &ev->start_mark,
		    "alias '%s' expands the document beyond its limit "
		    "(an alias bomb?)", name);
	return attach(b, ev, json_deep_copy(a->node), a->size,
	    json_is_string(a->node));
}

static int
on_open(struct builder *b, const yaml_event_t *ev, int is_map)
{
	const yaml_char_t *anchor = is_map ? ev->data.mapping_start.anchor :
	    ev->data.sequence_start.anchor;
	struct frame *f;

	if (b->depth == LOAD_MAX_DEPTH)
		return fail(b, &ev->start_mark,
		    "nesting deeper than %d levels", LOAD_MAX_DEPTH);
	if (b->depth > 0 && json_is_object(b->stack[b->depth - 1].node) &&
	    b->stack[b->depth - 1].key == NULL)
		return fail(b, &ev->start_mark,
		    "a mapping key must be a scalar");
	b->written++;
	f = &b->stack[b->depth++];
	f->node = is_map ? json_object() : json_array();
	f->key = NULL;
	f->anchor = anchor ? xstrdup((const char *)anchor) : NULL;
	f->size = 1;
	return EXIT_OK;
}

static int
on_close(struct builder *b, const yaml_event_t *ev)
{
	struct frame f = b->stack[--b->depth];

	if (f.anchor != NULL)
		add_anchor(b, f.anchor, f.node, f.size);
	return attach(b, ev, f.node, f.size, 0);
}

static int
on_event(struct builder *b, const yaml_event_t *ev)
{
	switch (ev->type) {
	case YAML_DOCUMENT_START_EVENT:
		if (++b->documents > 1)
			return fail(b, &ev->start_mark,
			    "more than one document in the stream");
		return EXIT_OK;
	case YAML_SCALAR_EVENT:
		return on_scalar(b, ev);
	case YAML_ALIAS_EVENT:
		return on_alias(b, ev);
	case YAML_SEQUENCE_START_EVENT:
		return on_open(b, ev, 0);
	case YAML_MAPPING_START_EVENT:
		return on_open(b, ev, 1);
	case YAML_SEQUENCE_END_EVENT:
	case YAML_MAPPING_END_EVENT:
		return on_close(b, ev);
	default:
		return EXIT_OK;
	}
}

static void
builder_free(struct builder *b)
{
	size_t i;

	while (b->depth > 0) {
		struct frame *f = &b->stack[--b->depth];

		json_decref(f->node);
		free(f->key);
		free(f->anchor);
	}
	for (i = 0; i < b->nanchors; i++) {
		free(b->anchors[i].name);
		json_decref(b->anchors[i].node);
	}
	free(b->anchors);
}

static int
parser_error(struct builder *b, const yaml_parser_t *p)
{
	const char *problem = p->problem ? p->problem : "malformed YAML";

	if (p->error == YAML_MEMORY_ERROR)
		diag_fatal(EXIT_OSERR, "out of memory");
	if (p->context != NULL)
		diag_at(b->name, (long)p->problem_mark.line + 1,
		    (long)p->problem_mark.column + 1, "%s %s", problem,
		    p->context);
	else
		diag_at(b->name, (long)p->problem_mark.line + 1,
		    (long)p->problem_mark.column + 1, "%s", problem);
	return EXIT_DATAERR;
}

int
yaml_to_json(const char *name, const char *buf, size_t len, json_t **out)
{
	static struct builder zero;
	struct builder *b = xmalloc(sizeof *b);
	yaml_parser_t parser;
	yaml_event_t ev;
	int status = EXIT_OK, done = 0;

	*b = zero;
	b->name = name;
	if (!yaml_parser_initialize(&parser))
		diag_fatal(EXIT_OSERR, "out of memory");
	yaml_parser_set_input_string(&parser, (const unsigned char *)buf, len);
	while (!done && status == EXIT_OK) {
		if (!yaml_parser_parse(&parser, &ev)) {
			status = parser_error(b, &parser);
			break;
		}
		done = ev.type == YAML_STREAM_END_EVENT;
		status = on_event(b, &ev);
		yaml_event_delete(&ev);
	}
	yaml_parser_delete(&parser);
	if (status == EXIT_OK && b->root == NULL) {
		diag_error(name, "empty document");
		status = EXIT_DATAERR;
	}
	if (status == EXIT_OK && !json_is_object(b->root) &&
	    !json_is_array(b->root)) {
		diag_at(name, 1, 1, "a document must be a mapping or a sequence");
		status = EXIT_DATAERR;
	}
	builder_free(b);
	if (status != EXIT_OK)
		json_decref(b->root);
	else
		*out = b->root;
	free(b);
	return status;
}
