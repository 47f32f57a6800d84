/* load.c: read a file or stdin and hand it to the JSON or YAML parser. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "diag.h"
#include "exitcodes.h"
#include "load.h"
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

/* read_stream: slurp fp into a NUL-terminated buffer. */
static int
read_stream(const char *name, FILE *fp, char **bufp, size_t *lenp)
{
	size_t len = 0, cap = 65536, n;
	char *buf = xmalloc(cap);

	while ((n = fread(buf + len, 1, cap - len - 1, fp)) > 0) {
		len += n;
		if (cap - len - 1 == 0)
			buf = xreallocarray(buf, cap *= 2, 1);
	}
	if (ferror(fp)) {
		diag_error(name, "%s", strerror(errno));
		free(buf);
		return errno == EISDIR ? EXIT_NOINPUT : EXIT_IOERR;
	}
	buf[len] = '\0';
	*bufp = buf;
	*lenp = len;
	return EXIT_OK;
}

static int
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
				return 1;
		} else if ((c == '}' || c == ']') && depth > 0) {
			depth--;
		}
	}
	return 0;
}

json_t *
load_json_quiet(const char *buf, size_t len)
{
	json_error_t err;

	if (depth_exceeded(buf, len))
		return NULL;
	return json_loadb(buf, len, JSON_REJECT_DUPLICATES, &err);
}

static int
json_parse(const char *name, const char *buf, size_t len, json_t **out)
{
	json_error_t err;

	if (depth_exceeded(buf, len)) {
		diag_error(name, "nesting deeper than %d levels", LOAD_MAX_DEPTH);
		return EXIT_DATAERR;
	}
	*out = json_loadb(buf, len, JSON_REJECT_DUPLICATES, &err);
	if (*out == NULL) {
		diag_at(name, (long)err.line, (long)err.column, "%s", err.text);
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
