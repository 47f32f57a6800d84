/*
 * outcome.c: what a reply says of a command that failed: how it ended
 * (its exit status, or the signal that killed it) and the end of what
 * it wrote on standard error, at most OUTCOME_TAIL bytes of it, on one
 * line: newlines and tabs as \n and \t, other control characters, and
 * bytes that are not UTF-8, as \xHH.  A tail that was cut starts with
 * "...".
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "worker.h"
#include "xalloc.h"

/* put_escaped: n bytes of s into out, escaped as above; its length. */
static size_t
put_escaped(char *out, const unsigned char *s, size_t n, int utf8)
{
	static const char hex[] = "0123456789abcdef";
	size_t i, len = 0;

	for (i = 0; i < n; i++) {
		if (s[i] == '\n' || s[i] == '\t') {
			out[len++] = '\\';
			out[len++] = s[i] == '\n' ? 'n' : 't';
		} else if (s[i] < 0x20 || s[i] == 0x7f ||
		    (s[i] >= 0x80 && !utf8)) {
			out[len++] = '\\';
			out[len++] = 'x';
			out[len++] = hex[s[i] >> 4];
			out[len++] = hex[s[i] & 15];
		} else {
			out[len++] = (char)s[i];
		}
	}
	out[len] = '\0';
	return len;
}

/* tail_text: the kept stderr, escaped, into a new string. */
static char *
tail_text(const struct outcome *o)
{
	const unsigned char *s = (const unsigned char *)o->tail;
	size_t n = o->tail_len;
	char *text;
	json_t *probe;

	while (o->cut && n > 0 && (*s & 0xc0) == 0x80)
		s++, n--;	/* the first character whole */
	while (n > 0 && (s[n - 1] == '\n' || s[n - 1] == '\r'))
		n--;
	text = xmalloc(3 + 4 * n + 1);
	memcpy(text, "...", 3);
	probe = json_stringn((const char *)s, n);
	put_escaped(text + (o->cut ? 3 : 0), s, n, probe != NULL);
	json_decref(probe);
	return text;
}

char *
outcome_error(const char *what, const struct outcome *o)
{
	char how[128], *tail, *msg;
	size_t size;

	if (o->status < 0)
		snprintf(how, sizeof how, "could not be started");
	else if (o->signal > 0)
		snprintf(how, sizeof how, "was killed by signal %d (%s)",
		    o->signal, strsignal(o->signal));
	else
		snprintf(how, sizeof how, "failed with exit status %d",
		    o->status);
	tail = tail_text(o);
	size = strlen(what) + strlen(how) + strlen(tail) + 64;
	msg = xmalloc(size);
	if (tail[0] != '\0')
		snprintf(msg, size, "%s command %s; its stderr ends: %s", what,
		    how, tail);
	else
		snprintf(msg, size, "%s command %s, with nothing on stderr",
		    what, how);
	free(tail);
	return msg;
}
