/*
 * access.c: unit tests of the typed getters: the jq-style paths they
 * report, the way they quote wrong values, and optional fields.
 */
#include <string.h>

#include "access.h"
#include "diag.h"
#include "stderr.h"
#include "tap.h"

static void
test_paths(void)
{
	static const struct { const char *key, *path, *what; } keys[] = {
		{ "x-my key", ".tenants[3].\"x-my key\"",
		  "path: keys that are not identifiers are quoted as jq does" },
		{ "_a9_Z", ".tenants[3]._a9_Z",
		  "path: letters, digits and '_' make an identifier" },
		{ "9a", ".tenants[3].\"9a\"",
		  "path: a key that starts with a digit is quoted" },
		{ "", ".tenants[3].\"\"", "path: the empty key" },
		{ "a\"b\\c", ".tenants[3].\"a\\\"b\\\\c\"",
		  "path: quotes and backslashes in a key are escaped" },
		{ "h\xc3\xb4te", ".tenants[3].\"h\xc3\xb4te\"",
		  "path: a key with a letter outside ASCII is quoted" },
	};
	struct access a;
	size_t i;

	access_init(&a, "f.json");
	is_str(access_path(&a), ".", "path: the root is '.'");
	access_enter_key(&a, "tenants");
	access_enter_index(&a, 3);
	access_enter_key(&a, "max");
	is_str(access_path(&a), ".tenants[3].max", "path: keys and indices");
	access_leave(&a);
	for (i = 0; i < sizeof keys / sizeof keys[0]; i++) {
		access_enter_key(&a, keys[i].key);
		is_str(access_path(&a), keys[i].path, keys[i].what);
		access_leave(&a);
	}
	access_leave(&a);
	access_leave(&a);
	access_leave(&a);	/* one too many: stays at the root */
	is_str(access_path(&a), ".", "path: leaving the root is harmless");
	access_free(&a);
}

static void
test_getters(void)
{
	json_t *obj = json_pack("{s:s, s:i, s:s, s:[i], s:b}", "max", "ten",
	    "min", 2, "kind", "hots", "list", 1, "flag", 1);
	struct access a;
	json_int_t v = 42;
	int kind, r;
	static const char *const kinds[] = { "host", "switch", NULL };
	static const char *const known[] = { "max", "min", "kind", "list",
		NULL };

	access_init(&a, "f.json");
	access_enter_key(&a, "tenants");
	access_enter_index(&a, 1);
	capture_begin();
	r = acc_get_int(&a, obj, "max", ACC_REQUIRED, &v);
	is_str(capture_end(), "upkit: f.json: .tenants[1].max: expected integer, "
	    "got \"ten\"\n", "get_int: a string where an integer belongs");
	ok(r == -1 && v == 42, "get_int: fails with -1, output untouched");
	is_long(acc_get_int(&a, obj, "absent", ACC_OPTIONAL, &v), 1,
	    "get_int: an absent optional field returns 1");
	capture_begin();
	acc_get_int(&a, obj, "absent", ACC_REQUIRED, &v);
	is_str(capture_end(), "upkit: f.json: .tenants[1]: missing required "
	    "field \"absent\"\n", "get_int: a missing required field");
	capture_begin();
	acc_get_int_range(&a, obj, "min", ACC_REQUIRED, 3, 9, &v);
	is_str(capture_end(), "upkit: f.json: .tenants[1].min: 2 is out of "
	    "range [3, 9]\n", "get_int_range: below the minimum");
	capture_begin();
	acc_get_enum(&a, obj, "kind", ACC_REQUIRED, kinds, &kind);
	is_str(capture_end(), "upkit: f.json: .tenants[1].kind: unknown value "
	    "\"hots\" (expected one of: host, switch)\n",
	    "get_enum: lists the values it accepts");
	capture_begin();
	acc_check_keys(&a, obj, known);
	is_str(capture_end(), "upkit: f.json: .tenants[1].flag: unknown field "
	    "\"flag\"\n", "check_keys: a field nobody reads is an error");
	is_str(access_path(&a), ".tenants[1]", "getters leave the path as found");
	access_free(&a);
	json_decref(obj);
}

static void
test_escaping(void)
{
	capture_begin();
	diag_path("f\nx.json", ".a", "bad value \"%s\"", "line1\nline2\t\x01");
	is_str(capture_end(), "upkit: f\\nx.json: .a: bad value "
	    "\"line1\\nline2\\t\\x01\"\n",
	    "diag: control characters from input are escaped: one line");
}

static int
want_positive(struct access *a, const json_t *v, size_t i, void *ctx)
{
	json_int_t n;

	(void)i;
	++*(int *)ctx;
	if (acc_as_int(a, v, &n) < 0)
		return -1;
	return n > 0 ? 0 : access_fail(a, "%lld is not positive", (long long)n);
}

static int
count_member(struct access *a, const char *name, const json_t *v, void *ctx)
{
	(void)a;
	(void)v;
	if (strcmp(name, "b") == 0)
		++*(int *)ctx;
	return 0;
}

static void
test_iteration(void)
{
	json_t *obj = json_pack("{s:[i,i,i,i], s:{s:i, s:i}}", "sizes", 1, 2,
	    -3, 4, "map", "a", 1, "b", 2);
	struct access a;
	int calls = 0, r;

	access_init(&a, "f.json");
	capture_begin();
	r = acc_each_element(&a, obj, "sizes", ACC_REQUIRED, want_positive,
	    &calls);
	is_str(capture_end(), "upkit: f.json: .sizes[2]: -3 is not positive\n",
	    "each_element: the callback's error carries the element's path");
	ok(r == -1 && calls == 3, "each_element: stops at the first error");
	is_str(access_path(&a), ".", "each_element: the path is restored");
	is_long(acc_each_element(&a, obj, "none", ACC_OPTIONAL, want_positive,
	    &calls), 1, "each_element: an absent optional list returns 1");
	calls = 0;
	r = acc_each_member(&a, obj, "map", ACC_REQUIRED, count_member, &calls);
	ok(r == 0 && calls == 1, "each_member: visits every member by name");
	access_free(&a);
	json_decref(obj);
}

int
main(void)
{
	test_iteration();
	test_paths();
	test_getters();
	test_escaping();
	return done_testing();
}
