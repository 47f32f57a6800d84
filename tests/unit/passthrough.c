/*
 * passthrough.c: unit tests of the sections a stage passes through as
 * text (load_document_reading, jscan, jtext, jwriter).  For every
 * document, and for thousands of mutations of them, the output must be
 * byte for byte what loading the whole document and writing it gives,
 * compact and indented, and a refused document must be refused with
 * the same diagnostic.  The repository's own JSON documents (state
 * documents of every stage, reports, requests) are read so too, with
 * each of several lists of sections read.
 */
#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "exitcodes.h"
#include "jscan.h"
#include "docsession.h"
#include "jtext.h"
#include "jwriter.h"
#include "load.h"
#include "slurp.h"
#include "stderr.h"
#include "tap.h"
#include "xalloc.h"

static const char *const rg_only[] = { "resource_graph", NULL };
static const char *const planners[] = { "system", "catalog",
	"resource_graph", "control_graph", "batch", "schedule", NULL };
/* as_section: the file is read as one section (load_section_reading) */
static const char *const as_section[] = { "(the whole file)", NULL };
static const char *const *reads = rg_only;
static char path[] = "/tmp/passthrough.XXXXXX";

/* written: doc as jwriter writes it, in a new string. */
static char *
written(const json_t *doc, int compact)
{
	static struct jwriter w;
	char *text = NULL;
	size_t size = 0;
	FILE *fp = open_memstream(&text, &size);

	jw_init(&w, fp, compact);
	jw_value(&w, doc);
	jw_finish(&w);
	fclose(fp);
	return text;
}

struct outcome {
	int status;
	char diag[512];
	char *out[2];		/* compact, indented */
};

static void
outcome_free(struct outcome *o)
{
	free(o->out[0]);
	free(o->out[1]);
}

/* whole: the outcome of load_document and the writer. */
static void
whole(const char *text, size_t len, struct outcome *o)
{
	json_t *doc = NULL;

	memset(o, 0, sizeof *o);
	capture_begin();
	o->status = load_buffer(path, text, len, &doc);
	snprintf(o->diag, sizeof o->diag, "%s", capture_end());
	if (doc != NULL) {
		o->out[0] = written(doc, 1);
		o->out[1] = written(doc, 0);
	}
	json_decref(doc);
}

/* reading: the same through load_document_reading, from a file. */
static void
reading(const char *text, size_t len, struct outcome *o, int *kept)
{
	FILE *fp = fopen(path, "w");
	json_t *doc = NULL;
	struct docsession session;

	fwrite(text, 1, len, fp);
	fclose(fp);
	memset(o, 0, sizeof *o);
	docsession_open(&session, DOCSESSION_MALLOC);
	capture_begin();
	o->status = reads == as_section ? load_section_reading(path, &doc) :
	    load_document_reading(path, reads, &doc);
	snprintf(o->diag, sizeof o->diag, "%s", capture_end());
	*kept = jtext_mark() > 0;
	if (doc != NULL) {
		o->out[0] = written(doc, 1);
		o->out[1] = written(doc, 0);
	}
	json_decref(doc);
	docsession_close(&session);
}

static int
same(const char *a, const char *b)
{
	return (a == NULL && b == NULL) ||
	    (a != NULL && b != NULL && strcmp(a, b) == 0);
}

/* agree: both ways give the same; *kept says whether text was kept. */
static int
agree(const char *text, size_t len, int *kept)
{
	struct outcome a, b;
	int r;

	whole(text, len, &a);
	reading(text, len, &b, kept);
	r = a.status == b.status && strcmp(a.diag, b.diag) == 0 &&
	    same(a.out[0], b.out[0]) && same(a.out[1], b.out[1]);
	if (!r)
		printf("#   %.*s\n#   status %d/%d\n#   %s#   %s\n#   %s\n"
		    "#   %s\n", (int)(len > 300 ? 300 : len), text, a.status,
		    b.status, a.diag, b.diag, a.out[0] ? a.out[0] : "-",
		    b.out[0] ? b.out[0] : "-");
	outcome_free(&a);
	outcome_free(&b);
	return r;
}

/* A state document with something of everything in its sections. */
static const char sample[] =
    "{\"format\": \"upkit-state\", \"version\": 1,\n"
    "  \"system\": {\"version\": 1, \"host_capacity\": 2.50,\n"
    "    \"resources\": [ {\"id\": \"h\\u00e9\\/1\", \"kind\": \"host\","
    " \"x\": [1e3, -0, -0.0, 12, 9223372036854775807, true, false, null]},"
    " {\"id\": \"tab\\there \\ud83d\\ude00\", \"empty\": {}, \"e2\": [ ]} ],\n"
    "    \"tenants\": {\"t1\": {\"max\": 3}, \"t2\": {}}, \"note\": \"caf\xc3\xa9\"},\n"
    "  \"resource_graph\": {\"version\": 1, \"vertices\": [{\"id\": \"a\"}]},\n"
    "  \"x-operator\": [1, {\"k\": \"v\"}], \"x-n\": 5, \"x-e\": {}\n}\n";

static void
test_documents(void)
{
	static const struct {
		const char *text, *what;
		int kept;
	} docs[] = {
		{ sample, "escapes, reals, -0, surrogates, UTF-8, nesting", 1 },
		{ "{\"system\":{\"version\":1,\"r\":[{\"a\":1},{\"b\":[]}]}}",
		  "compact, canonical", 1 },
		{ "{\"system\": {\"r\": [{\"a\": 1, \"a\": 2}]}}",
		  "a duplicate key deep in a section passed through", 0 },
		{ "{\"system\": {\"r\": [1], \"r\": [2]}}",
		  "a duplicate member of a section", 0 },
		{ "{\"system\": [1], \"system\": [2]}", "a duplicate section", 0 },
		{ "{\"system\": {\"r\": [\"\\u0000\"]}}", "\\u0000", 0 },
		{ "{\"system\": {\"r\": [\"\\udc00\"]}}", "a lone low surrogate", 0 },
		{ "{\"system\": {\"r\": [\"\\ud800x\"]}}", "a lone high surrogate", 0 },
		{ "{\"system\": {\"r\": [\"\xc3\"]}}", "truncated UTF-8", 0 },
		{ "{\"system\": {\"r\": [\"\xc0\xaf\"]}}", "overlong UTF-8", 0 },
		{ "{\"system\": {\"r\": [\"\xed\xa0\x80\"]}}", "a UTF-8 surrogate", 0 },
		{ "{\"system\": {\"r\": [\"a\tb\"]}}", "a raw tab in a string", 0 },
		{ "{\"system\": {\"r\": [9223372036854775808]}}", "too big an integer", 0 },
		{ "{\"system\": {\"r\": [-9223372036854775809]}}", "too small an integer", 0 },
		{ "{\"system\": {\"r\": [1e999]}}", "a real that overflows", 0 },
		{ "{\"system\": {\"r\": [1e-999, 01]}}", "a leading zero", 0 },
		{ "{\"system\": {\"r\": [1.]}}", "a real without decimals", 0 },
		{ "{\"system\": {\"r\": [tru]}}", "a broken literal", 0 },
		{ "{\"system\": {\"r\": [1,]}}", "a trailing comma", 0 },
		{ "{\"system\": {\"r\": [1]}} x", "trailing text", 0 },
		{ "{\"system\": {\"r\": [1]}", "an unclosed document", 0 },
		{ "{\"system\": {\"r\": {\"k\\u0041\": 1, \"kA\": 2}}}",
		  "an escaped key is left to jansson (a duplicate here)", 0 },
		{ "\xef\xbb\xbf{\"system\": {\"r\": [1]}}", "a byte order mark", 0 },
		{ "system:\n  r: [1, 2]\n", "YAML", 0 },
		{ "[1, 2]", "an array", 0 },
		{ "{}", "an empty object", 0 },
	};
	size_t i;
	int kept;

	for (i = 0; i < sizeof docs / sizeof docs[0]; i++) {
		char what[160];

		snprintf(what, sizeof what, "document: %s", docs[i].what);
		ok(agree(docs[i].text, strlen(docs[i].text), &kept), what);
		if (docs[i].kept && !kept)
			ok(0, "document: ... and its sections were kept as text");
	}
}

/*
 * test_long_strings: jscan reads strings eight bytes at a time; a byte
 * that needs a look (control, quote, backslash, UTF-8 or not) at each
 * place of a 24-byte string is judged as jansson judges it.
 */
static void
test_long_strings(void)
{
	static const char *const bytes[] = { "\x01", "\x1f", "\x7f", "\"",
		"\\n", "\\u00e9", "\\q", "\xc3\xa9", "\xe2\x82\xac", "\x80",
		"\xc3", "\xff", " ", NULL };
	char text[128];
	size_t pos, k;
	int bad = 0, kept, n = 0;

	for (k = 0; bytes[k] != NULL; k++)
		for (pos = 0; pos < 24; pos++) {
			snprintf(text, sizeof text, "{\"system\": {\"r\": "
			    "[\"%.*s%s%.*s\"]}}", (int)pos,
			    "abcdefghijklmnopqrstuvwx", bytes[k], (int)(23 - pos),
			    "abcdefghijklmnopqrstuvwx");
			bad += !agree(text, strlen(text), &kept);
			n++;
		}
	is_long(bad, 0, "long strings: a byte to look at, anywhere in eight-"
	    "byte words, agrees");
	ok(n == 13 * 24, "long strings: 312 documents");
}

static void
test_depth(void)
{
	size_t n = LOAD_MAX_DEPTH + 5, i, len = 0;
	char *text = xmalloc(2 * n + 64);
	int kept;

	len += (size_t)sprintf(text, "{\"system\": {\"r\": ");
	for (i = 0; i < n; i++)
		text[len++] = '[';
	for (i = 0; i < n; i++)
		text[len++] = ']';
	len += (size_t)sprintf(text + len, "}}");
	ok(agree(text, len, &kept), "depth: nesting too deep is refused alike");
	is_str(strstr(captured, ":1:528: "), ":1:528: nesting deeper than 512 "
	    "levels\n", "depth: located at the bracket too deep");
	free(text);
}

/* each_json: agree() on every .json file under dir; failures counted. */
static void
each_json(const char *dir, size_t *files, size_t *bad)
{
	static const char *const *const lists[] = { rg_only, planners, NULL,
		as_section };
	DIR *d = opendir(dir);
	struct dirent *e;
	char path[1024], *text;
	size_t len, n, k;
	int kept;

	while (d != NULL && (e = readdir(d)) != NULL) {
		if (e->d_name[0] == '.')
			continue;
		snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
		n = strlen(e->d_name);
		if (n > 5 && strcmp(e->d_name + n - 5, ".json") == 0 &&
		    (text = slurp(path, &len)) != NULL) {
			for (k = 0; k < 4; k++) {
				reads = lists[k];
				if (!agree(text, len, &kept)) {
					printf("#   in %s\n", path);
					(*bad)++;
				}
			}
			(*files)++;
			free(text);
		} else if (strchr(e->d_name, '.') == NULL) {
			each_json(path, files, bad);
		}
	}
	if (d != NULL)
		closedir(d);
	reads = rg_only;
}

static void
test_repository(void)
{
	size_t files = 0, bad = 0;

	each_json("tests", &files, &bad);
	each_json("examples", &files, &bad);
	is_long((long)bad, 0, "repository: every JSON document agrees, read "
	    "with each list of sections");
	ok(files > 200, "repository: and there are hundreds of them");
}

/* test_mutations: random byte edits of the sample agree too. */
static void
test_mutations(const char *how)
{
	static const char alphabet[] = "{}[],:\"\\ u0e-.1tfn\xc3\xa9\x80";
	size_t len = sizeof sample - 1, k;
	char *text = xmalloc(len + 1);
	uint32_t seed = 12345;
	int i, bad = 0, kept, accepted = 0;
	char what[160];

	for (i = 0; i < 3000; i++) {
		memcpy(text, sample, len + 1);
		for (k = 0; k < 1 + (size_t)(i % 3); k++) {
			seed = seed * 1103515245u + 12345u;
			text[(seed >> 8) % len] =
			    alphabet[(seed >> 20) % (sizeof alphabet - 1)];
		}
		if (!agree(text, len, &kept))
			bad++;
		accepted += kept;
	}
	snprintf(what, sizeof what, "mutations, %s: 3,000 edited documents "
	    "agree", how);
	is_long(bad, 0, what);
	snprintf(what, sizeof what, "mutations, %s: and many of them were "
	    "passed as text", how);
	ok(accepted > 300, what);
	free(text);
}

int
main(void)
{
	int fd = mkstemp(path);

	if (fd < 0)
		return 1;
	close(fd);
	test_documents();
	test_depth();
	test_long_strings();
	test_mutations("sections");
	reads = as_section;
	test_mutations("one section");
	reads = rg_only;
	test_repository();
	unlink(path);
	return done_testing();
}
