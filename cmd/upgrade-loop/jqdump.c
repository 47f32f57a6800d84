/*
 * jqdump.c: JSON laid out as jq . lays it out (two spaces a level, "{}"
 * and "[]" when empty, control characters as lower-case \u escapes,
 * numbers at their shortest), so that summary.json reads as it did when
 * jq wrote it.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "loop.h"

/* plain: bytes jq writes as they are in a string */
static int
plain(unsigned char c)
{
	return c >= 0x20 && c != 0x7f && c != '"' && c != '\\';
}

static void
dump_string(FILE *fp, const char *s)
{
	const unsigned char *p = (const unsigned char *)s, *run;

	putc('"', fp);
	while (*p != '\0') {
		for (run = p; plain(*p); p++)
			;
		fwrite(run, 1, (size_t)(p - run), fp);
		if (*p == '\0')
			break;
		switch (*p) {
		case '"': fputs("\\\"", fp); break;
		case '\\': fputs("\\\\", fp); break;
		case '\b': fputs("\\b", fp); break;
		case '\f': fputs("\\f", fp); break;
		case '\n': fputs("\\n", fp); break;
		case '\r': fputs("\\r", fp); break;
		case '\t': fputs("\\t", fp); break;
		default: fprintf(fp, "\\u%04x", *p); break;
		}
		p++;
	}
	putc('"', fp);
}

/* jq_number: d at its shortest, as jq prints a number. */
void
jq_number(FILE *fp, double d)
{
	char buf[40];
	int prec;

	if (d == floor(d) && fabs(d) < 1e17) {
		fprintf(fp, "%.0f", d);
		return;
	}
	for (prec = 15; prec < 17; prec++) {
		snprintf(buf, sizeof buf, "%.*g", prec, d);
		if (strtod(buf, NULL) == d)
			break;
	}
	snprintf(buf, sizeof buf, "%.*g", prec, d);
	fputs(buf, fp);
}

static void
indent(FILE *fp, int level)
{
	static const char spaces[] = "\n                                ";

	for (fwrite(spaces, 1, 1, fp); level > 16; level -= 16)
		fwrite(spaces + 1, 1, 32, fp);
	fwrite(spaces + 1, 1, (size_t)level * 2, fp);
}

static void
dump(FILE *fp, const json_t *v, int level)
{
	const char *key;
	const json_t *e;
	size_t i;
	int first = 1;

	switch (json_typeof(v)) {
	case JSON_OBJECT:
		if (json_object_size(v) == 0) {
			fputs("{}", fp);
			return;
		}
		putc('{', fp);
		json_object_foreach((json_t *)v, key, e) {
			fputs(first ? "" : ",", fp);
			first = 0;
			indent(fp, level + 1);
			dump_string(fp, key);
			fputs(": ", fp);
			dump(fp, e, level + 1);
		}
		indent(fp, level);
		putc('}', fp);
		return;
	case JSON_ARRAY:
		if (json_array_size(v) == 0) {
			fputs("[]", fp);
			return;
		}
		putc('[', fp);
		json_array_foreach(v, i, e) {
			fputs(i > 0 ? "," : "", fp);
			indent(fp, level + 1);
			dump(fp, e, level + 1);
		}
		indent(fp, level);
		putc(']', fp);
		return;
	case JSON_STRING:
		dump_string(fp, json_string_value(v));
		return;
	case JSON_INTEGER:
		fprintf(fp, "%" JSON_INTEGER_FORMAT, json_integer_value(v));
		return;
	case JSON_REAL:
		jq_number(fp, json_real_value(v));
		return;
	case JSON_TRUE:
		fputs("true", fp);
		return;
	case JSON_FALSE:
		fputs("false", fp);
		return;
	case JSON_NULL:
		fputs("null", fp);
		return;
	}
}

/* jq_dump: v and a newline. */
void
jq_dump(FILE *fp, const json_t *v)
{
	dump(fp, v, 0);
	putc('\n', fp);
}
