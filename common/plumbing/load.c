/* load.c: read a file or stdin and hand it to the JSON or YAML parser. */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "diag.h"
#include "exitcodes.h"
#include "jbuild.h"
#include "jscan.h"
#include "load.h"
#include "prefault.h"
#include "xalloc.h"

static int
is_stdin(const char *file)
{
	return file == NULL || strcmp(file, "-") == 0;
}

const char *
load_name(const char *file)
{
	return is_stdin(file) ? "<stdin>" : file;
}

/* input_limit: LOAD_MAX_BYTES, or UPKIT_MAX_INPUT when it is a number. */
static size_t
input_limit(void)
{
	const char *s = getenv("UPKIT_MAX_INPUT");
	unsigned long long v;
	char *end;

	if (s == NULL || *s < '0' || *s > '9')
		return LOAD_MAX_BYTES;
	errno = 0;
	v = strtoull(s, &end, 10);
	if (errno != 0 || *end != '\0' || v == 0 || v > SIZE_MAX / 4)
		return LOAD_MAX_BYTES;
	return (size_t)v;
}

/*
 * first_cap: for a regular file, room for all of it, the NUL and a byte
 * more, so that it is read into a buffer faulted in at once; else 64 KiB
 * to start with.
 */
static size_t
first_cap(FILE *fp, size_t limit)
{
	struct stat st;

	if (fstat(fileno(fp), &st) != 0 || !S_ISREG(st.st_mode) ||
	    st.st_size <= 0)
		return 65536;
	return (uintmax_t)st.st_size > limit ? limit + 2 :
	    (size_t)st.st_size + 2;
}

/*
 * read_stream: slurp fp into a NUL-terminated buffer, refusing more
 * than input_limit() bytes (the buffer never grows past that plus 2).
 */
static int
read_stream(const char *name, FILE *fp, char **bufp, size_t *lenp)
{
	size_t len = 0, n, limit = input_limit(), cap = first_cap(fp, limit);
	char *buf = xmalloc(cap);

	prefault(buf, cap);
	while ((n = fread(buf + len, 1, cap - len - 1, fp)) > 0) {
		len += n;
		if (len > limit) {
			diag_error(name, "larger than %zu bytes, the input limit",
			    limit);
			free(buf);
			return EXIT_DATAERR;
		}
		if (cap - len - 1 == 0) {
			cap = cap * 2 < limit + 2 ? cap * 2 : limit + 2;
			buf = xreallocarray(buf, cap, 1);
		}
	}
	if (ferror(fp)) {
		int err = errno;	/* free() may change errno */

		diag_error(name, "%s", strerror(err));
		free(buf);
		return err == EISDIR ? EXIT_NOINPUT : EXIT_IOERR;
	}
	buf[len] = '\0';
	*bufp = buf;
	*lenp = len;
	return EXIT_OK;
}

/* depth_exceeded: the offset of the bracket too deep, or len. */
static size_t
depth_exceeded(const char *buf, size_t len)
{
	size_t depth = 0, i;
	int in_string = 0;

	/* jansson's own limit is higher; ours applies to every format. */
	for (i = 0; i < len; i++) {
		char c = buf[i];

		if (in_string) {
			if (c == '\\')
				i++;
			else if (c == '"')
				in_string = 0;
		} else if (c == '"') {
			in_string = 1;
		} else if (c == '{' || c == '[') {
			if (++depth > LOAD_MAX_DEPTH)
				return i;
		} else if ((c == '}' || c == ']') && depth > 0) {
			depth--;
		}
	}
	return len;
}

/* depth_error: the nesting error at byte offset at, as line:column. */
static int
depth_error(const char *name, const char *buf, size_t at)
{
	long line = 1, col = 1;
	size_t i;

	for (i = 0; i < at; i++, col++)
		if (buf[i] == '\n')
			line++, col = 0;
	diag_at(name, line, col, "nesting deeper than %d levels",
	    LOAD_MAX_DEPTH);
	return EXIT_DATAERR;
}

static const char *
skip_white(const char *p, const char *end)
{
	while (p < end && (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r'))
		p++;
	return p;
}

/*
 * scanned_whole: the length of the value jscan accepts as the whole of
 * buf, white space aside, its start in *start; 0 when it does not, or
 * is not sure.
 */
static size_t
scanned_whole(const char *buf, size_t len, const char **start)
{
	const char *p = skip_white(buf, buf + len), *end = buf + len;
	size_t n;
	int canonical;

	*start = p;
	if (p == end || (n = jscan_value(p, (size_t)(end - p),
	    &canonical)) == 0 || skip_white(p + n, end) != end)
		return 0;
	return n;
}

/*
 * checked_build: buf's object or array built from text jscan accepted,
 * without jansson's lexer; NULL when jscan is not sure of it.
 */
static json_t *
checked_build(const char *buf, size_t len)
{
	const char *p;
	struct jbuild *b;
	json_t *v;
	size_t n = scanned_whole(buf, len, &p);

	if (n == 0 || (*p != '{' && *p != '['))
		return NULL;
	b = jbuild_new();
	v = jbuild_value(b, p, n);
	jbuild_free(b);
	return v;
}

/*
 * parse_out_of_memory: jansson's error is the lack of memory, not bad
 * data: its code says so (json_error_code, jansson 2.14), or it left
 * the error as it starts, line -1 and no text, which only an internal
 * allocation that failed does.  Every other code (syntax, UTF-8, a
 * duplicate key, a number out of range, a NUL) is the data's fault.
 */
static int
parse_out_of_memory(const json_error_t *err)
{
#if JANSSON_VERSION_HEX >= 0x020e00
	if (json_error_code(err) == json_error_out_of_memory)
		return 1;
#endif
	return err->line == -1 && err->text[0] == '\0';
}

/*
 * valid_after_all: jansson's lexer reports a string it could not
 * allocate as a syntax error ("string or '}' expected"); when jscan,
 * which builds nothing, accepts the whole text as jansson would, the
 * failure was memory, not the data.
 */
static int
valid_after_all(const char *buf, size_t len)
{
	const char *p;

	return scanned_whole(buf, len, &p) > 0;
}

json_t *
load_json_quiet(const char *buf, size_t len)
{
	json_error_t err;
	json_t *v;

	if ((v = checked_build(buf, len)) != NULL)
		return v;
	if (depth_exceeded(buf, len) < len)
		return NULL;
	v = json_loadb(buf, len, JSON_REJECT_DUPLICATES, &err);
	if (v == NULL && (parse_out_of_memory(&err) || valid_after_all(buf,
	    len)))
		diag_fatal(EXIT_OSERR, "out of memory");
	return v;
}

static int
json_parse(const char *name, const char *buf, size_t len, json_t **out)
{
	json_error_t err;
	size_t deep = depth_exceeded(buf, len);

	if (deep < len)
		return depth_error(name, buf, deep);
	*out = json_loadb(buf, len, JSON_REJECT_DUPLICATES, &err);
	if (*out == NULL && (parse_out_of_memory(&err) ||
	    valid_after_all(buf, len))) {
		diag_error(name, "out of memory while parsing");
		return EXIT_OSERR;
	}
	if (*out == NULL) {
		/* jansson names its flag; the reader needs the rule */
		diag_at(name, (long)err.line, (long)err.column, "%s",
		    strstr(err.text, "JSON_ALLOW_NUL") != NULL ?
		    "\\u0000 (a NUL character) is not allowed in a string" :
		    err.text);
		return EXIT_DATAERR;
	}
	return EXIT_OK;
}

int
load_buffer(const char *name, const char *buf, size_t len, json_t **out)
{
	size_t i = 0;

	*out = NULL;
	if (len >= 3 && memcmp(buf, "\xef\xbb\xbf", 3) == 0)
		i = 3;		/* a UTF-8 byte order mark */
	while (i < len && strchr(" \t\r\n", buf[i]) != NULL && buf[i] != '\0')
		i++;
	if (i == len) {
		diag_error(name, "empty document");
		return EXIT_DATAERR;
	}
	if (buf[i] == '{' || buf[i] == '[')
		return json_parse(name, buf, len, out);
	return yaml_to_json(name, buf, len, out);
}

int
load_read(const char *file, char **bufp, size_t *lenp)
{
	const char *name = load_name(file);
	FILE *fp = stdin;
	int status;

	if (!is_stdin(file) && (fp = fopen(file, "r")) == NULL) {
		diag_error(name, "%s", strerror(errno));
		return EXIT_NOINPUT;
	}
	status = read_stream(name, fp, bufp, lenp);
	if (fp != stdin)
		fclose(fp);
	return status;
}

int
load_document(const char *file, json_t **out)
{
	char *buf;
	size_t len;
	int status;

	*out = NULL;
	if ((status = load_read(file, &buf, &len)) != EXIT_OK)
		return status;
	status = load_buffer(load_name(file), buf, len, out);
	free(buf);
	return status;
}
