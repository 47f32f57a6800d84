/*
 * fastload.c: a discovery model file with its "hardware" and "prices"
 * read straight into the model, without a jansson tree for them (see
 * model_load_fast).
 *
 * Why: these two lists are nearly the whole model (14,904 of 15,075
 * elements in dataset L, 23,130 of 24,180 in H), and building, reading
 * and freeing a jansson tree for them took over 80% of a run.
 * The fast path reads only the plain shape generators and exporters
 * write: the members model.c knows (no "state", no "x-"), ASCII
 * strings without escapes.  Anything else, and any error, makes it give
 * up before printing anything; the caller then loads the whole file the
 * ordinary way, which gives the same model or the diagnostic.
 *
 * The rest of the document is still parsed by jansson and read by
 * model.c, with both lists replaced by [], in model_load's order:
 * clouds and locations, hardware, images, prices.  A diagnostic printed
 * there is the one the ordinary load prints, because everything read
 * before it, here or there, has passed the same checks.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "decimal.h"
#include "load.h"
#include "model.h"
#include "xalloc.h"

struct cursor {
	const char *p, *end;
};

struct span {
	const char *s;		/* NULL: absent */
	size_t n;
};

/* A list of strings ("locations"): spans in the reader's pool. */
struct list {
	size_t first, n;
	int present;
};

struct raw_hw {
	struct span id, name, provider, cloud, location;
	double cores, ram, disk;
	struct list locations;
};

struct raw_price {
	struct span hw, img, loc, id;
	double price;
};

/* What a member's value must be, and where it goes in a raw_ struct. */
enum kind { STR, NUM, STRS };

struct member {
	const char *key;
	enum kind kind;
	size_t at;
};

#define HW(key, kind, field) { key, kind, offsetof(struct raw_hw, field) }
#define PR(key, kind, field) { key, kind, offsetof(struct raw_price, field) }

/* Required members come first: their bits make up the needed mask. */
static const struct member hw_members[] = {
	HW("id", STR, id), HW("cores", NUM, cores), HW("ram", NUM, ram),
	HW("name", STR, name), HW("providerId", STR, provider),
	HW("cloud", STR, cloud), HW("location", STR, location),
	HW("locations", STRS, locations), HW("disk", NUM, disk),
	{ NULL, STR, 0 }
};

static const struct member price_members[] = {
	PR("hardware", STR, hw), PR("image", STR, img),
	PR("location", STR, loc), PR("price", NUM, price), PR("id", STR, id),
	{ NULL, STR, 0 }
};

/* A list of elements read: raw_hw or raw_price. */
struct table {
	const struct member *members;
	unsigned needed;	/* bits of members that must be present */
	size_t size;		/* of one element */
	char *v;
	size_t n, cap;
	const char *from, *to;	/* the list's text in the document */
};

struct reader {
	struct cursor c;
	struct span *pool;
	size_t npool, cappool;
	struct table hws, prices;
};

static void
skip_ws(struct cursor *c)
{
	while (c->p < c->end && (*c->p == ' ' || *c->p == '\n' ||
	    *c->p == '\r' || *c->p == '\t'))
		c->p++;
}

/* eat: whitespace, then ch; -1 when ch is not next. */
static int
eat(struct cursor *c, char ch)
{
	skip_ws(c);
	if (c->p == c->end || *c->p != ch)
		return -1;
	c->p++;
	return 0;
}

/* more: a ',' follows (eaten): another member or element. */
static int
more(struct cursor *c)
{
	return eat(c, ',') == 0;
}

/* What a byte inside a plain string is: most are plain. */
enum { PLAIN, QUOTE, REFUSED };
static unsigned char string_byte[256];

static void
string_bytes_init(void)
{
	int i;

	for (i = 0; i < 256; i++)
		string_byte[i] = i == '"' ? QUOTE : i == '\\' || i < 0x20 ||
		    i > 0x7f ? REFUSED : PLAIN;
}

/* plain_string: a string of ASCII without escapes, the only kind read. */
static int
plain_string(struct cursor *c, struct span *out)
{
	const char *q;

	if (eat(c, '"') < 0)
		return -1;
	for (q = c->p; q < c->end && string_byte[(unsigned char)*q] == PLAIN;
	    q++)
		;
	if (q == c->end || *q != '"')
		return -1;
	out->s = c->p;
	out->n = (size_t)(q - c->p);
	c->p = q + 1;
	return 0;
}

static size_t
digits(const char *p, const char *end)
{
	const char *q = p;

	while (q < end && *q >= '0' && *q <= '9')
		q++;
	return (size_t)(q - p);
}

/* convert: as jansson reads a number; integers through json_int_t. */
static int
convert(const char *text, int integer, double *out)
{
	errno = 0;
	if (integer)
		*out = (double)strtoll(text, NULL, 10);
	else
		*out = decimal_to_double(text);
	/* jansson refuses these (too big integer, real number overflow). */
	return errno == ERANGE && (integer || isinf(*out)) ? -1 : 0;
}

/* number: exactly JSON's grammar, which jansson enforces. */
static int
number(struct cursor *c, double *out)
{
	const char *s, *p;
	char text[64];
	size_t n;
	int integer = 1;

	skip_ws(c);
	s = p = c->p;
	if (p < c->end && *p == '-')
		p++;
	if ((n = digits(p, c->end)) == 0 || (n > 1 && *p == '0'))
		return -1;
	p += n;
	if (p < c->end && *p == '.') {
		if ((n = digits(++p, c->end)) == 0)
			return -1;
		p += n;
		integer = 0;
	}
	if (p < c->end && (*p == 'e' || *p == 'E')) {
		if (++p < c->end && (*p == '+' || *p == '-'))
			p++;
		if ((n = digits(p, c->end)) == 0)
			return -1;
		p += n;
		integer = 0;
	}
	if ((size_t)(p - s) >= sizeof text)
		return -1;
	memcpy(text, s, (size_t)(p - s));
	text[p - s] = '\0';
	c->p = p;
	return convert(text, integer, out);
}

/* grow: room for one more element in *v. */
static void *
grow(void *v, size_t n, size_t *cap, size_t size)
{
	if (n < *cap)
		return v;
	*cap = *cap ? 2 * *cap : 256;
	return xreallocarray(v, *cap, size);
}

/* string_list: an array of plain strings, kept in the pool. */
static int
string_list(struct reader *r, struct list *l)
{
	l->first = r->npool;
	l->present = 1;
	if (eat(&r->c, '[') < 0)
		return -1;
	if (eat(&r->c, ']') == 0)
		return 0;
	do {
		r->pool = grow(r->pool, r->npool, &r->cappool, sizeof *r->pool);
		if (plain_string(&r->c, &r->pool[r->npool++]) < 0)
			return -1;
		l->n++;
	} while (more(&r->c));
	return eat(&r->c, ']');
}

static int
member_index(const struct member *mem, struct span k)
{
	int i;

	for (i = 0; mem[i].key != NULL; i++)
		if (k.n > 0 && mem[i].key[0] == k.s[0] &&
		    strncmp(mem[i].key, k.s, k.n) == 0 && mem[i].key[k.n] == '\0')
			return i;
	return -1;
}

/* read_member: one "key": value into raw; seen catches duplicates. */
static int
read_member(struct reader *r, const struct member *mem, char *raw,
    unsigned *seen)
{
	struct span k;
	int i;

	if (plain_string(&r->c, &k) < 0 || (i = member_index(mem, k)) < 0 ||
	    (*seen & 1u << i) || eat(&r->c, ':') < 0)
		return -1;
	*seen |= 1u << i;
	switch (mem[i].kind) {
	case STR: return plain_string(&r->c, (struct span *)(raw + mem[i].at));
	case NUM: return number(&r->c, (double *)(raw + mem[i].at));
	default: return string_list(r, (struct list *)(raw + mem[i].at));
	}
}

static int
read_object(struct reader *r, const struct table *t, char *raw)
{
	unsigned seen = 0;

	memset(raw, 0, t->size);
	if (eat(&r->c, '{') < 0)
		return -1;
	do
		if (read_member(r, t->members, raw, &seen) < 0)
			return -1;
	while (more(&r->c));
	return eat(&r->c, '}') < 0 || (seen & t->needed) != t->needed ? -1 : 0;
}

/* read_list: the array of objects at the cursor into t. */
static int
read_list(struct reader *r, struct table *t)
{
	skip_ws(&r->c);
	t->from = r->c.p;
	if (eat(&r->c, '[') < 0)
		return -1;
	if (eat(&r->c, ']') == 0) {
		t->to = r->c.p;
		return 0;
	}
	do {
		t->v = grow(t->v, t->n, &t->cap, t->size);
		if (read_object(r, t, t->v + t->size * t->n++) < 0)
			return -1;
	} while (more(&r->c));
	if (eat(&r->c, ']') < 0)
		return -1;
	t->to = r->c.p;
	return 0;
}

/* skip_string: from the opening quote to the closing one. */
static int
skip_string(struct cursor *c)
{
	for (c->p++; c->p < c->end; c->p++)
		if (*c->p == '\\' && c->p + 1 < c->end)
			c->p++;
		else if (*c->p == '"')
			return 0;
	return -1;
}

/*
 * skip_value: to the ',' or '}' after a member's value.  Strings and
 * brackets are followed, nothing is checked: jansson checks these
 * members later, and strings read like jansson reads them keep the
 * "prices" found here the member jansson would find.
 */
static int
skip_value(struct cursor *c)
{
	size_t depth = 0;

	for (; c->p < c->end; c->p++) {
		if (*c->p == '"') {
			if (skip_string(c) < 0)
				return -1;
		} else if (*c->p == '{' || *c->p == '[') {
			depth++;
		} else if (*c->p == '}' || *c->p == ']') {
			if (depth-- == 0)
				return 0;
		} else if (*c->p == ',' && depth == 0) {
			return 0;
		}
	}
	return -1;
}

/* table_for: where the value of top-level member k goes, or NULL. */
static struct table *
table_for(struct reader *r, struct span k)
{
	struct table *t = k.n == 8 && memcmp(k.s, "hardware", 8) == 0 ?
	    &r->hws : k.n == 6 && memcmp(k.s, "prices", 6) == 0 ?
	    &r->prices : NULL;

	/* A second one is left to jansson, which refuses duplicates. */
	return t != NULL && t->from == NULL ? t : NULL;
}

/* read_top: the top-level object, reading hardware and prices. */
static int
read_top(struct reader *r)
{
	struct span k;
	struct table *t;

	if (eat(&r->c, '{') < 0)
		return -1;
	do {
		if (plain_string(&r->c, &k) < 0 || eat(&r->c, ':') < 0)
			return -1;
		skip_ws(&r->c);
		t = table_for(r, k);
		if (t != NULL ? read_list(r, t) < 0 : skip_value(&r->c) < 0)
			return -1;
	} while (more(&r->c));
	return r->hws.from == NULL || r->prices.from == NULL ? -1 : 0;
}

/* rest_of: the document with both lists replaced by []. */
static json_t *
rest_of(const char *buf, size_t len, const struct reader *r)
{
	const struct table *a = &r->hws, *b = &r->prices, *t;
	char *s = xmalloc(len + 5), *p = s;
	json_t *doc;

	if (a->from > b->from) {
		t = a;
		a = b;
		b = t;
	}
	memcpy(p, buf, (size_t)(a->from - buf));
	memcpy(p += a->from - buf, "[]", 2);
	memcpy(p += 2, a->to, (size_t)(b->from - a->to));
	memcpy(p += b->from - a->to, "[]", 2);
	memcpy(p += 2, b->to, (size_t)(buf + len - b->to));
	p += buf + len - b->to;
	*p = '\0';
	doc = load_json_quiet(s, (size_t)(p - s));
	free(s);
	return doc;
}

static char *
span_dup(struct span s)
{
	char *d = xmalloc(s.n + 1);

	memcpy(d, s.s, s.n);
	d[s.n] = '\0';
	return d;
}

/*
 * keep: span s of the hardware list as a string of the model: the list
 * is copied once into m->text, and each string ends in place where its
 * closing quote was (plain strings have no escapes).
 */
static const char *
keep(struct mc_model *m, const struct reader *r, struct span s)
{
	char *p;

	if (s.s == NULL)
		return NULL;
	p = m->text + (s.s - r->hws.from);
	p[s.n] = '\0';
	return p;
}

static int
resolve(const struct idmap *ids, const char *id, size_t *out)
{
	long i = idmap_find(ids, id);

	if (i < 0)
		return -1;
	*out = (size_t)i;
	return 0;
}

/* hw_locations: what load_locs_of in model.c reads. */
static int
hw_locations(struct mc_model *m, const struct reader *r,
    const struct raw_hw *h, struct mc_thing *t)
{
	size_t i;

	if (h->location.s != NULL) {
		t->locs = xmalloc(sizeof *t->locs);
		t->nlocs = 1;
		return resolve(&m->loc_ids, keep(m, r, h->location), t->locs);
	}
	if (!h->locations.present)
		return 0;
	t->locs = xcalloc(h->locations.n, sizeof *t->locs);
	for (i = 0; i < h->locations.n; i++)
		if (resolve(&m->loc_ids, keep(m, r,
		    r->pool[h->locations.first + i]), &t->locs[t->nlocs++]) < 0)
			return -1;
	return 0;
}

/* add_hw: what load_thing in model.c does for hardware, silently. */
static int
add_hw(struct mc_model *m, const struct reader *r, const struct raw_hw *h)
{
	struct mc_thing *t = &m->hws[m->nhws++];

	memset(t, 0, sizeof *t);
	t->cloud = MC_NONE;
	t->id = keep(m, r, h->id);
	t->name = keep(m, r, h->name);
	t->provider_id = keep(m, r, h->provider);
	t->cores = h->cores;
	t->ram = h->ram;
	t->disk = h->disk;
	if (idmap_add(&m->hw_ids, t->id) < 0 || (h->cloud.s != NULL &&
	    resolve(&m->cloud_ids, keep(m, r, h->cloud), &t->cloud) < 0) ||
	    hw_locations(m, r, h, t) < 0)
		return -1;
	return h->cores < 0 || h->ram < 0 || h->disk < 0 ? -1 : 0;
}

static int
add_hardware(struct mc_model *m, const struct reader *r)
{
	const struct raw_hw *h = (const struct raw_hw *)r->hws.v;
	size_t i, n = (size_t)(r->hws.to - r->hws.from);

	m->text = xmalloc(n + 1);
	memcpy(m->text, r->hws.from, n);
	m->hws = xreallocarray(m->hws, r->hws.n + 1, sizeof *m->hws);
	idmap_reserve(&m->hw_ids, r->hws.n);
	for (i = 0; i < r->hws.n; i++)
		if (add_hw(m, r, &h[i]) < 0)
			return -1;
	return 0;
}

/*
 * A reference to hardware, an image or a location, with the last one
 * looked up: a price list names the same hardware and image many times
 * in a row, and comparing a few bytes is cheaper than hashing them.
 */
struct ref {
	const struct idmap *ids;
	struct span last;
	long index;
};

/* find_id: the index of id s in ids, -1 when unknown (or very long). */
static long
find_id(struct ref *ref, struct span s)
{
	char key[256];

	if (ref->last.s != NULL && ref->last.n == s.n &&
	    memcmp(ref->last.s, s.s, s.n) == 0)
		return ref->index;
	if (s.n >= sizeof key)
		return -1;
	memcpy(key, s.s, s.n);
	key[s.n] = '\0';
	ref->last = s;
	return ref->index = idmap_find(ref->ids, key);
}

/* add_offer: what load_price in model.c does, silently. */
static int
add_offer(struct mc_model *m, struct ref refs[3], const struct raw_price *r)
{
	struct mc_offer *o = &m->offers[m->noffers];
	long hw = find_id(&refs[0], r->hw);
	long img = find_id(&refs[1], r->img);
	long loc = find_id(&refs[2], r->loc);

	memset(o, 0, sizeof *o);
	m->noffers++;	/* so that model_free sees it */
	if (hw < 0 || img < 0 || loc < 0 || r->price < 0)
		return -1;
	o->hw = (size_t)hw;
	o->img = (size_t)img;
	o->loc = (size_t)loc;
	o->price = r->price;
	if (model_place_offer(m, o) != OF_NONE)
		return -1;
	if (r->id.s != NULL)
		o->id = o->own_id = span_dup(r->id);
	return model_name_offer(m, o);
}

static int
add_offers(struct mc_model *m, const struct reader *r)
{
	const struct raw_price *p = (const struct raw_price *)r->prices.v;
	struct ref refs[3] = { { &m->hw_ids, { NULL, 0 }, -1 },
		{ &m->img_ids, { NULL, 0 }, -1 }, { &m->loc_ids, { NULL, 0 }, -1 } };
	size_t i;

	m->offers = xreallocarray(m->offers, r->prices.n + 1,
	    sizeof *m->offers);
	idmap_reserve(&m->offer_ids, r->prices.n);
	for (i = 0; i < r->prices.n; i++)
		if (add_offer(m, refs, &p[i]) < 0)
			return -1;
	return 0;
}

/* build: the model in model_load's order; 1 when the fast path fails. */
static int
build(struct access *a, const json_t *doc, struct mc_model *m,
    const struct reader *r)
{
	if (model_load_begin(a, doc, m) < 0)
		return -1;
	if (add_hardware(m, r) < 0)
		return 1;
	if (model_load_list(a, doc, m, "images") < 0)
		return -1;
	return add_offers(m, r) < 0 ? 1 : 0;
}

static void
reader_init(struct reader *r, const char *buf, size_t len)
{
	memset(r, 0, sizeof *r);
	r->c.p = buf;
	r->c.end = buf + len;
	r->hws.members = hw_members;
	r->hws.needed = 7;	/* id, cores, ram */
	r->hws.size = sizeof(struct raw_hw);
	r->prices.members = price_members;
	r->prices.needed = 15;	/* hardware, image, location, price */
	r->prices.size = sizeof(struct raw_price);
}

int
model_load_fast(struct access *a, const char *buf, size_t len, json_t **doc,
    struct mc_model *m)
{
	struct reader r;
	int st = 1;

	if (string_byte['"'] != QUOTE)
		string_bytes_init();
	reader_init(&r, buf, len);
	*doc = NULL;
	if (read_top(&r) == 0 && (*doc = rest_of(buf, len, &r)) != NULL) {
		st = build(a, *doc, m, &r);
		if (st == 1) {
			model_free(m);
			json_decref(*doc);
			*doc = NULL;
		}
	}
	free(r.pool);
	free(r.hws.v);
	free(r.prices.v);
	return st;
}
