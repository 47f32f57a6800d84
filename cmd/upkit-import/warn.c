/*
 * warn.c: upkit-import's warnings, grouped.  A cloud of hundreds of
 * servers repeats one assumption many times (a server with no host, a
 * project on the default SLA): the first WARN_SHOWN of each kind are
 * printed as they come, the others only counted, and one summary line
 * ends the import with every kind and its count, so that the warnings
 * that matter are not lost among the repeated ones.
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "diag.h"
#include "import.h"

/* How many warnings of one kind are printed in full. */
#define WARN_SHOWN 3

/* count: the entry of kind, made when new; its count, incremented. */
static json_int_t
count(struct import *im, const char *kind)
{
	json_t *e = NULL, *x;
	size_t i;

	json_array_foreach(im->warnings, i, x)
		if (strcmp(json_string_value(json_object_get(x, "kind")),
		    kind) == 0)
			e = x;
	if (e == NULL) {
		e = json_pack("{s:s,s:I}", "kind", kind, "count",
		    (json_int_t)0);
		json_array_append_new(im->warnings, e);
	}
	json_object_set_new(e, "count", json_integer(1 +
	    json_integer_value(json_object_get(e, "count"))));
	return json_integer_value(json_object_get(e, "count"));
}

void
import_warn(struct import *im, const char *file, const char *path,
    const char *kind, const char *fmt, ...)
{
	char msg[1024];
	va_list ap;

	if (count(im, kind) > WARN_SHOWN)
		return;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	diag_warn(file, path, "%s", msg);
}

void
import_warn_summary(struct import *im)
{
	char line[2048];
	size_t i, len = 0;
	json_int_t total = 0, hidden = 0, n;
	json_t *e;

	json_array_foreach(im->warnings, i, e) {
		n = json_integer_value(json_object_get(e, "count"));
		total += n;
		hidden += n > WARN_SHOWN ? n - WARN_SHOWN : 0;
		if (len < sizeof line)
			len += (size_t)snprintf(line + len, sizeof line - len,
			    "%s%lld %s", i ? ", " : "", (long long)n,
			    json_string_value(json_object_get(e, "kind")));
	}
	if (total == 0)
		return;
	if (hidden == 0)
		diag_warn(NULL, NULL, "%lld warning%s: %s", (long long)total,
		    total == 1 ? "" : "s", line);
	else
		diag_warn(NULL, NULL, "%lld warnings, %lld not shown (past %d "
		    "of a kind): %s", (long long)total, (long long)hidden,
		    WARN_SHOWN, line);
}
