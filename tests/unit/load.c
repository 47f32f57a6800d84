/*
 * load.c: unit tests of the document loader: YAML typing under the 1.2
 * core schema, the limits that stop alias bombs and deep nesting, and
 * the exact located diagnostics for bad input.
 */
#include <stdlib.h>
#include <string.h>

#include "diag.h"
#include "exitcodes.h"
#include "load.h"
#include "stderr.h"
#include "tap.h"
#include "xalloc.h"

/* yaml: load text, return the document (NULL on error, message kept). */
static json_t *
yaml(const char *text, int *status)
{
	json_t *doc = NULL;

	capture_begin();
	*status = load_buffer("t.yaml", text, strlen(text), &doc);
	capture_end();
	return doc;
}

static void
test_scalars(void)
{
	int st;
	json_t *d = yaml("a: 12\nb: 0x1f\nc: 2.5\nd: true\ne: ~\nf: NO\n"
	    "g: 'true'\nh: 6.7\ni: yes\nj: !!str 12\nk: -3\nl: 1e3\n", &st);

	is_long(st, EXIT_OK, "yaml: a mapping of scalars loads");
	ok(json_integer_value(json_object_get(d, "a")) == 12, "yaml: 12 is an integer");
	ok(json_integer_value(json_object_get(d, "b")) == 31, "yaml: 0x1f is hex 31");
	ok(json_is_real(json_object_get(d, "c")), "yaml: 2.5 is a real");
	ok(json_is_true(json_object_get(d, "d")), "yaml: true is a boolean");
	ok(json_is_null(json_object_get(d, "e")), "yaml: ~ is null");
	is_str(json_string_value(json_object_get(d, "f")), "NO",
	    "yaml: NO stays a string (1.2 core schema, not 1.1)");
	is_str(json_string_value(json_object_get(d, "g")), "true",
	    "yaml: quoted 'true' is a string");
	ok(json_is_real(json_object_get(d, "h")), "yaml: unquoted 6.7 is a number");
	is_str(json_string_value(json_object_get(d, "i")), "yes",
	    "yaml: yes stays a string");
	is_str(json_string_value(json_object_get(d, "j")), "12",
	    "yaml: !!str 12 is a string");
	ok(json_integer_value(json_object_get(d, "k")) == -3, "yaml: -3 is an integer");
	ok(json_real_value(json_object_get(d, "l")) == 1000.0, "yaml: 1e3 is a real");
	json_decref(d);
}

static void
test_aliases(void)
{
	int st;
	json_t *d = yaml("base: &b {cores: 4}\nx: *b\ny: *b\n", &st);

	ok(st == EXIT_OK && json_equal(json_object_get(d, "x"),
	    json_object_get(d, "base")), "yaml: an alias copies its anchor");
	/* Copies, not shared references: changing one leaves the other. */
	json_object_set_new(json_object_get(d, "x"), "cores", json_integer(8));
	ok(json_integer_value(json_object_get(json_object_get(d, "y"),
	    "cores")) == 4, "yaml: alias copies are independent");
	json_decref(d);
}

/* bomb: levels of "lN: &lN [*lM, *lM, ...]" each doubling the last. */
static char *
bomb(int levels)
{
	size_t cap = 64 * (size_t)levels + 64, len = 0;
	char *s = xmalloc(cap);
	int i;

	len += (size_t)snprintf(s, cap, "l0: &l0 [x, x]\n");
	for (i = 1; i < levels; i++)
		len += (size_t)snprintf(s + len, cap - len,
		    "l%d: &l%d [*l%d, *l%d]\n", i, i, i - 1, i - 1);
	return s;
}

static void
test_limits(void)
{
	char *text = bomb(50), *deep;
	json_t *doc = NULL;
	int st, i;

	capture_begin();
	st = load_buffer("bomb.yaml", text, strlen(text), &doc);
	ok(strstr(capture_end(), "bomb.yaml:") != NULL && st == EXIT_DATAERR &&
	    doc == NULL, "limits: a 50-level alias bomb is refused, located");
	/* Level 10 would add 2^11 nodes a copy: past the allowance. */
	is_str(strchr(captured, ' ') + 1, "bomb.yaml:12:12: alias 'l10' expands "
	    "the document beyond its limit (an alias bomb?)\n",
	    "limits: the bomb is stopped at line 12, not after 2^50 nodes");
	free(text);

	deep = xmalloc(2 * 600 + 2);
	for (i = 0; i < 600; i++)
		deep[i] = '[', deep[600 + i] = ']';
	deep[1200] = '\0';
	capture_begin();
	st = load_buffer("deep.json", deep, 1200, &doc);
	is_str(capture_end(), "upkit: deep.json:1:513: nesting deeper than 512 "
	    "levels\n", "limits: JSON nested 600 deep is refused at column 513");
	for (i = 0; i < 600; i++)
		deep[i] = '[';
	capture_begin();
	st = yaml_to_json("deep.yaml", deep, 600, &doc);
	is_str(capture_end(), "upkit: deep.yaml:1:513: nesting deeper than 512 levels\n",
	    "limits: YAML nested 600 deep is refused at column 513");
	free(deep);
}

static void
expect_error(const char *name, const char *text, const char *want,
    const char *what)
{
	json_t *doc = NULL;
	int st;

	capture_begin();
	st = load_buffer(name, text, strlen(text), &doc);
	capture_end();
	ok(st == EXIT_DATAERR && doc == NULL, what);
	is_str(captured, want, what);
}

static void
test_errors(void)
{
	expect_error("a.yaml", "name: x\nsize: 1\nname: y\n",
	    "upkit: a.yaml:3:1: duplicate key 'name'\n",
	    "errors: duplicate YAML key, with its line");
	expect_error("a.json", "{\"a\": 1, \"a\": 2}",
	    "upkit: a.json:1:12: duplicate object key near '\"a\"'\n",
	    "errors: duplicate JSON key");
	expect_error("a.json", "{\"a\": [1, 2}\n",
	    "upkit: a.json:1:12: ']' expected near '}'\n",
	    "errors: malformed JSON is located by line and column");
	expect_error("e.yaml", " \n\t\n", "upkit: e.yaml: empty document\n",
	    "errors: an all-blank file is an empty document");
	expect_error("c.yaml", "# only a comment\n",
	    "upkit: c.yaml: empty document\n",
	    "errors: a comment-only YAML file is empty too");
	expect_error("m.yaml", "a: 1\n---\nb: 2\n",
	    "upkit: m.yaml:2:1: more than one document in the stream\n",
	    "errors: two YAML documents are refused");
	expect_error("k.yaml", "base: &b {x: 1}\nc:\n  <<: *b\n",
	    "upkit: k.yaml:3:3: merge keys ('<<') are not supported\n",
	    "errors: merge keys are refused, not half-supported");
	expect_error("u.yaml", "a: *nowhere\n",
	    "upkit: u.yaml:1:4: undefined alias 'nowhere'\n",
	    "errors: an undefined alias is located");
	expect_error("i.yaml", "a: .inf\n",
	    "upkit: i.yaml:1:4: '.inf' (infinity or NaN) has no JSON form\n",
	    "errors: infinity is refused");
	expect_error("s.yaml", "just a string\n",
	    "upkit: s.yaml:1:1: a document must be a mapping or a sequence\n",
	    "errors: a bare scalar is not a document");
	expect_error("t.yaml", "a: [1, 2\n",
	    "upkit: t.yaml:2:1: did not find expected ',' or ']' while parsing "
	    "a flow sequence\n", "errors: libyaml's own message is located");
	expect_error("n.yaml", "a: \"x\\0y\"\n",
	    "upkit: n.yaml:1:4: NUL character in scalar\n",
	    "errors: a NUL in a string is refused");
	expect_error("n.json", "{\"a\": \"x\\u0000y\"}",
	    "upkit: n.json:1:16: \\u0000 (a NUL character) is not allowed in a "
	    "string\n", "errors: a JSON NUL is refused without jansson's flag "
	    "name");
}

int
main(void)
{
	test_scalars();
	test_aliases();
	test_limits();
	test_errors();
	return done_testing();
}
