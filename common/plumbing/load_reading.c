/*
 * load_reading.c: a document of which a tool reads a few members and
 * passes the others on as their text (load.h, jtext.h).
 *
 * The members a tool reads are checked by jscan_value and built by
 * jbuild_value, faster than jansson parses them.  Each other member
 * that is an object (a section the tool does not own) is parsed one
 * level deep: its scalars become values, its arrays and objects are
 * checked and kept as text behind empty stand-ins.  Anything this
 * cannot be sure of is left to load_buffer, which parses the whole
 * document and so also says exactly what is wrong with it.
 */
#include <stdlib.h>
#include <string.h>

#include "diag.h"
#include "exitcodes.h"
#include "jbuild.h"
#include "jscan.h"
#include "jtext.h"
#include "jwalk.h"
#include "load.h"
#include "xalloc.h"

struct reading {
	const char *p, *end;
	const char *const *reads;	/* members parsed in full; NULL: all */
	struct jbuild *build;
	int checked;		/* kept text, which jscan checked already */
	int canonical;		/* checked text, in compact form throughout */
};

static void
white(struct reading *r)
{
	while (r->p < r->end && (*r->p == ' ' || *r->p == '\t' ||
	    *r->p == '\n' || *r->p == '\r'))
		r->p++;
}

static int
is_read(const struct reading *r, const char *key)
{
	const char *const *k;

	if (r->reads == NULL)
		return 1;
	for (k = r->reads; *k != NULL; k++)
		if (strcmp(*k, key) == 0)
			return 1;
	return 0;
}

/* key: the member key at r->p, when it has no escape; else NULL. */
static char *
key(struct reading *r)
{
	int canonical;
	size_t n;
	char *k;

	if (r->p >= r->end || *r->p != '"')
		return NULL;
	n = jscan_value(r->p, (size_t)(r->end - r->p), &canonical);
	if (n == 0 || !canonical)
		return NULL;
	k = xmalloc(n - 1);
	memcpy(k, r->p + 1, n - 2);
	k[n - 2] = '\0';
	r->p += n;
	return k;
}

/*
 * value: the value at r->p: parsed, or (keep) a stand-in for its text
 * when it is an array or an object.  Parsed values that read says are
 * kept too, so that they are written as read while unchanged.
 */
static json_t *
value(struct reading *r, int keep, int read)
{
	int canonical = r->canonical;	/* checked text: as the whole is */
	size_t n = r->checked ? jwalk_length(r->p, r->end) :
	    jscan_value(r->p, (size_t)(r->end - r->p), &canonical);
	json_t *v;

	if (n == 0)
		return NULL;
	if (keep && (*r->p == '{' || *r->p == '['))
		v = json_object();
	else
		v = jbuild_value(r->build, r->p, n);
	if ((keep || read) && (*r->p == '{' || *r->p == '['))
		jtext_keep(v, r->p, n, canonical, keep);
	r->p += n;
	return v;
}

static json_t *members(struct reading *r, int top);

/* member: a member's value; at the top, unread objects go one deeper. */
static json_t *
member(struct reading *r, int top, const char *k)
{
	if (!top)
		return value(r, 1, 0);
	if (is_read(r, k))
		return value(r, 0, 1);
	if (r->p < r->end && *r->p == '{')
		return members(r, 0);
	return value(r, 0, 0);
}

/* members: the object at r->p, member by member; NULL when unsure. */
static json_t *
members(struct reading *r, int top)
{
	json_t *obj = json_object(), *v;
	char *k;

	r->p++;
	white(r);
	if (r->p < r->end && *r->p == '}') {
		r->p++;
		return obj;
	}
	for (;;) {
		if ((k = key(r)) == NULL || json_object_get(obj, k) != NULL)
			break;
		white(r);
		if (r->p >= r->end || *r->p++ != ':')
			break;
		white(r);
		if ((v = member(r, top, k)) == NULL)
			break;
		json_object_set_new(obj, k, v);
		free(k);
		k = NULL;
		white(r);
		if (r->p < r->end && *r->p == ',') {
			r->p++;
			white(r);
		} else if (r->p < r->end && *r->p++ == '}') {
			return obj;
		} else {
			break;
		}
	}
	free(k);
	json_decref(obj);
	return NULL;
}

json_t *
load_shallow(const char **pp, const char *end, int canonical)
{
	struct reading r = { *pp, end, NULL, jbuild_new(), 1, canonical };
	json_t *obj = members(&r, 0);

	jbuild_free(r.build);
	if (obj == NULL)	/* kept text was checked */
		diag_fatal(EXIT_SOFTWARE, "load_shallow: not checked text");
	*pp = r.p;
	return obj;
}

/*
 * split: the document in buf as above (or, not top, all of it as an
 * unread section), or NULL to parse it whole.
 */
static json_t *
split(const char *buf, size_t len, const char *const *reads, int top)
{
	struct reading r = { buf, buf + len, reads, NULL, 0, 0 };
	size_t mark = jtext_mark();
	json_t *doc;

	white(&r);
	if (r.p >= r.end || *r.p != '{')
		return NULL;	/* YAML, a byte order mark, not an object */
	r.build = jbuild_new();
	if ((doc = members(&r, top)) != NULL) {
		white(&r);
		if (r.p != r.end) {
			json_decref(doc);
			doc = NULL;
		}
	}
	jbuild_free(r.build);
	if (doc == NULL)
		jtext_rollback(mark);
	return doc;
}

static int
load_split(const char *file, const char *const *reads, int top, json_t **out)
{
	char *buf;
	size_t len;
	int status;

	*out = NULL;
	if ((status = load_read(file, &buf, &len)) != EXIT_OK)
		return status;
	if ((*out = split(buf, len, reads, top)) != NULL) {
		jtext_hold(buf);
		return EXIT_OK;
	}
	status = load_buffer(load_name(file), buf, len, out);
	free(buf);
	return status;
}

int
load_document_reading(const char *file, const char *const *reads,
    json_t **out)
{
	return load_split(file, reads, 1, out);
}

int
load_section_reading(const char *file, json_t **out)
{
	return load_split(file, NULL, 0, out);
}
