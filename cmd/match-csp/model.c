/* model.c: load and check the discovery model (see model.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model.h"
#include "xalloc.h"

static const char *const disc_keys[] = {
	"clouds", "locations", "hardware", "images", "prices", NULL
};
static const char *const cloud_keys[] = {
	"id", "type", "name", "endpoint", "api", "credential", "configuration",
	"state", NULL
};
static const char *const cloud_types[] = { "PUBLIC", "PRIVATE", NULL };
static const char *const loc_keys[] = {
	"id", "name", "providerId", "locationScope", "parent", "geoLocation",
	"cloud", "isAssignable", "state", NULL
};
static const char *const scopes[] = {
	"PROVIDER", "REGION", "ZONE", "HOST", NULL
};
static const char *const geo_keys[] = {
	"country", "city", "latitude", "longitude", NULL
};
static const char *const hw_keys[] = {
	"id", "name", "providerId", "cores", "ram", "disk", "cloud", "location",
	"locations", "state", NULL
};
static const char *const img_keys[] = {
	"id", "name", "providerId", "operatingSystem", "cloud", "location",
	"locations", "state", NULL
};
static const char *const os_keys[] = {
	"family", "version", "architecture", NULL
};
static const char *const price_keys[] = {
	"id", "hardware", "image", "location", "price", NULL
};

/* ref: look up an id string of member key; MC_NONE when absent. */
static int
ref(struct access *a, const json_t *obj, const char *key,
    const struct idmap *ids, const char *what, int flags, size_t *out)
{
	const char *s;
	long i;
	int r = acc_get_string(a, obj, key, flags, &s);

	*out = MC_NONE;
	if (r != 0)
		return r;
	if ((i = idmap_find(ids, s)) < 0)
		return access_fail_at(a, key, "unknown %s \"%s\"", what, s);
	*out = (size_t)i;
	return 0;
}

/* add_id: enter the id of element obj into ids; duplicates fail. */
static int
add_id(struct access *a, const json_t *obj, struct idmap *ids,
    const char **out)
{
	if (acc_get_string(a, obj, "id", ACC_REQUIRED, out) < 0)
		return -1;
	if (idmap_add(ids, *out) < 0)
		return access_fail_at(a, "id", "duplicate id \"%s\"", *out);
	return 0;
}

static int
load_cloud(struct access *a, const json_t *v, struct mc_model *m)
{
	struct mc_cloud *c = &m->clouds[m->nclouds];
	int t = 0;

	if (acc_as_object(a, v) < 0 || acc_check_keys(a, v, cloud_keys) < 0 ||
	    add_id(a, v, &m->cloud_ids, &c->id) < 0 ||
	    acc_get_enum(a, v, "type", ACC_OPTIONAL, cloud_types, &t) < 0)
		return -1;
	c->type = cloud_types[t];
	m->nclouds++;
	return 0;
}

static int
load_geo(struct access *a, const json_t *loc, struct mc_location *l)
{
	json_t *g;
	int r = acc_get_object(a, loc, "geoLocation", ACC_OPTIONAL, &g);

	if (r != 0)
		return r;
	access_enter_key(a, "geoLocation");
	r = acc_check_keys(a, g, geo_keys) < 0 ||
	    acc_get_string(a, g, "country", ACC_OPTIONAL, &l->country) < 0 ||
	    acc_get_string(a, g, "city", ACC_OPTIONAL, &l->city) < 0 ||
	    acc_get_number(a, g, "latitude", ACC_OPTIONAL, &l->latitude) < 0 ||
	    acc_get_number(a, g, "longitude", ACC_OPTIONAL, &l->longitude) < 0;
	access_leave(a);
	l->has_geo = json_object_get(g, "latitude") != NULL;
	return r ? -1 : 0;
}

static int
load_location(struct access *a, const json_t *v, struct mc_model *m)
{
	struct mc_location *l = &m->locs[m->nlocs];
	int s = 1;

	memset(l, 0, sizeof *l);
	l->parent = l->cloud = MC_NONE;
	if (acc_as_object(a, v) < 0 || acc_check_keys(a, v, loc_keys) < 0 ||
	    add_id(a, v, &m->loc_ids, &l->id) < 0 ||
	    acc_get_string(a, v, "name", ACC_OPTIONAL, &l->name) < 0 ||
	    acc_get_string(a, v, "providerId", ACC_OPTIONAL,
	    &l->provider_id) < 0 ||
	    acc_get_enum(a, v, "locationScope", ACC_OPTIONAL, scopes, &s) < 0 ||
	    ref(a, v, "cloud", &m->cloud_ids, "cloud", ACC_OPTIONAL,
	    &l->cloud) < 0 || load_geo(a, v, l) < 0)
		return -1;
	l->scope = scopes[s];
	m->nlocs++;
	return 0;
}

/* link_parent: second pass, once every location id is known. */
static int
link_parent(struct access *a, const json_t *v, struct mc_model *m, size_t i)
{
	size_t p, steps;

	if (ref(a, v, "parent", &m->loc_ids, "location", ACC_OPTIONAL,
	    &m->locs[i].parent) < 0)
		return -1;
	for (p = m->locs[i].parent, steps = 0; p != MC_NONE;
	    p = m->locs[p].parent)
		if (p == i || ++steps > m->nlocs)
			return access_fail_at(a, "parent",
			    "location \"%s\" is its own ancestor", m->locs[i].id);
	return 0;
}

/* inherit: zones without a country or cloud take their parent's. */
static void
inherit(struct mc_model *m)
{
	size_t i, p;

	for (i = 0; i < m->nlocs; i++) {
		struct mc_location *l = &m->locs[i];

		for (p = l->parent; p != MC_NONE; p = m->locs[p].parent) {
			if (l->country == NULL)
				l->country = m->locs[p].country;
			if (l->city == NULL)
				l->city = m->locs[p].city;
			if (l->cloud == MC_NONE)
				l->cloud = m->locs[p].cloud;
		}
	}
}

static int
add_loc(struct access *a, const json_t *e, size_t i, void *ctx)
{
	struct mc_thing *t = ((void **)ctx)[0];
	const struct mc_model *m = ((void **)ctx)[1];
	const char *s;
	long k;

	(void)i;
	if (acc_as_string(a, e, &s) < 0)
		return -1;
	if ((k = idmap_find(&m->loc_ids, s)) < 0)
		return access_fail(a, "unknown location \"%s\"", s);
	t->locs[t->nlocs++] = (size_t)k;
	return 0;
}

static int
load_locs_of(struct access *a, const json_t *v, const struct mc_model *m,
    struct mc_thing *t)
{
	void *ctx[2] = { t, (void *)m };
	size_t one;

	if (json_object_get(v, "location") != NULL) {
		if (ref(a, v, "location", &m->loc_ids, "location", ACC_REQUIRED,
		    &one) < 0)
			return -1;
		t->locs = xmalloc(sizeof *t->locs);
		t->locs[0] = one;
		t->nlocs = 1;
		return 0;
	}
	if (json_object_get(v, "locations") == NULL)
		return 0;
	t->locs = xcalloc(json_array_size(json_object_get(v, "locations")),
	    sizeof *t->locs);
	return acc_each_element(a, v, "locations", ACC_REQUIRED, add_loc, ctx);
}

static int
load_os(struct access *a, const json_t *v, struct mc_thing *t)
{
	json_t *os;
	int r = acc_get_object(a, v, "operatingSystem", ACC_OPTIONAL, &os);

	if (r != 0)
		return r;
	access_enter_key(a, "operatingSystem");
	r = acc_check_keys(a, os, os_keys) < 0 ||
	    acc_get_string(a, os, "family", ACC_OPTIONAL, &t->family) < 0 ||
	    acc_get_string(a, os, "version", ACC_OPTIONAL, &t->version) < 0 ||
	    acc_get_string(a, os, "architecture", ACC_OPTIONAL, &t->arch) < 0;
	access_leave(a);
	return r ? -1 : 0;
}

static int
nonneg(struct access *a, const json_t *v, const char *key, int flags,
    double *out)
{
	int r = acc_get_number(a, v, key, flags, out);

	if (r == 0 && *out < 0)
		return access_fail_at(a, key, "%g is negative", *out);
	return r < 0 ? -1 : 0;
}

static int
load_thing(struct access *a, const json_t *v, struct mc_model *m, int hw)
{
	struct mc_thing *t = hw ? &m->hws[m->nhws] : &m->imgs[m->nimgs];

	memset(t, 0, sizeof *t);
	*(hw ? &m->nhws : &m->nimgs) += 1;	/* so that model_free sees it */
	if (acc_as_object(a, v) < 0 ||
	    acc_check_keys(a, v, hw ? hw_keys : img_keys) < 0 ||
	    add_id(a, v, hw ? &m->hw_ids : &m->img_ids, &t->id) < 0 ||
	    acc_get_string(a, v, "name", ACC_OPTIONAL, &t->name) < 0 ||
	    acc_get_string(a, v, "providerId", ACC_OPTIONAL,
	    &t->provider_id) < 0 ||
	    ref(a, v, "cloud", &m->cloud_ids, "cloud", ACC_OPTIONAL,
	    &t->cloud) < 0 || load_locs_of(a, v, m, t) < 0)
		return -1;
	if (hw && (nonneg(a, v, "cores", ACC_REQUIRED, &t->cores) < 0 ||
	    nonneg(a, v, "ram", ACC_REQUIRED, &t->ram) < 0 ||
	    nonneg(a, v, "disk", ACC_OPTIONAL, &t->disk) < 0))
		return -1;
	return !hw && load_os(a, v, t) < 0 ? -1 : 0;
}

/* available: thing t may be used at location l (or inside one listed). */
static int
available(const struct mc_model *m, const struct mc_thing *t, size_t l)
{
	size_t i;

	if (t->locs == NULL)
		return 1;
	for (i = 0; i < t->nlocs; i++)
		if (model_within(m, l, t->locs[i]))
			return 1;
	return 0;
}

/* offer_cloud: the one cloud that location, hardware and image agree on. */
static enum offer_fault
offer_cloud(const struct mc_model *m, struct mc_offer *o)
{
	size_t c[3] = { m->locs[o->loc].cloud, m->hws[o->hw].cloud,
		m->imgs[o->img].cloud };
	int i;

	o->cloud = MC_NONE;
	for (i = 0; i < 3; i++) {
		if (c[i] == MC_NONE)
			continue;
		if (o->cloud != MC_NONE && o->cloud != c[i])
			return OF_CLOUDS_DIFFER;
		o->cloud = c[i];
	}
	return o->cloud == MC_NONE ? OF_NO_CLOUD : OF_NONE;
}

enum offer_fault
model_place_offer(const struct mc_model *m, struct mc_offer *o)
{
	if (!available(m, &m->hws[o->hw], o->loc))
		return OF_HARDWARE_AWAY;
	if (!available(m, &m->imgs[o->img], o->loc))
		return OF_IMAGE_AWAY;
	return offer_cloud(m, o);
}

/* offer_fail: diagnose what model_place_offer found wrong. */
static int
offer_fail(struct access *a, const struct mc_model *m,
    const struct mc_offer *o, enum offer_fault f)
{
	const char *loc = m->locs[o->loc].id;

	switch (f) {
	case OF_HARDWARE_AWAY:
		return access_fail(a, "hardware \"%s\" is not available in "
		    "location \"%s\"", m->hws[o->hw].id, loc);
	case OF_IMAGE_AWAY:
		return access_fail(a, "image \"%s\" is not available in "
		    "location \"%s\"", m->imgs[o->img].id, loc);
	case OF_CLOUDS_DIFFER:
		return access_fail(a, "hardware, image and location "
		    "belong to different clouds");
	default:
		return access_fail(a, "no cloud given for location \"%s\", "
		    "hardware or image", loc);
	}
}

/* join3: "a/b/c", the id of an offer whose price names none. */
static char *
join3(const char *a, const char *b, const char *c)
{
	size_t na = strlen(a), nb = strlen(b), nc = strlen(c);
	char *s = xmalloc(na + nb + nc + 3);

	/* memcpy, not snprintf: this runs once per offer of the model. */
	memcpy(s, a, na);
	s[na] = '/';
	memcpy(s + na + 1, b, nb);
	s[na + 1 + nb] = '/';
	memcpy(s + na + nb + 2, c, nc + 1);
	return s;
}

int
model_name_offer(struct mc_model *m, struct mc_offer *o)
{
	if (o->id == NULL) {
		o->own_id = join3(m->hws[o->hw].id, m->imgs[o->img].id,
		    m->locs[o->loc].id);
		o->id = o->own_id;
	}
	return idmap_add(&m->offer_ids, o->id) < 0 ? -1 : 0;
}

static int
load_price(struct access *a, const json_t *v, struct mc_model *m)
{
	struct mc_offer *o = &m->offers[m->noffers];
	enum offer_fault f;

	memset(o, 0, sizeof *o);
	m->noffers++;	/* so that model_free sees it */
	if (acc_as_object(a, v) < 0 || acc_check_keys(a, v, price_keys) < 0 ||
	    ref(a, v, "hardware", &m->hw_ids, "hardware", ACC_REQUIRED,
	    &o->hw) < 0 ||
	    ref(a, v, "image", &m->img_ids, "image", ACC_REQUIRED, &o->img) < 0 ||
	    ref(a, v, "location", &m->loc_ids, "location", ACC_REQUIRED,
	    &o->loc) < 0 ||
	    nonneg(a, v, "price", ACC_REQUIRED, &o->price) < 0)
		return -1;
	if ((f = model_place_offer(m, o)) != OF_NONE)
		return offer_fail(a, m, o, f);
	if (acc_get_string(a, v, "id", ACC_OPTIONAL, &o->id) < 0)
		return -1;
	if (model_name_offer(m, o) < 0)
		return access_fail(a, "duplicate offer \"%s\"", o->id);
	return 0;
}

static int
f_cloud(struct access *a, const json_t *v, size_t i, void *m)
{
	(void)i;
	return load_cloud(a, v, m);
}

static int
f_loc(struct access *a, const json_t *v, size_t i, void *m)
{
	(void)i;
	return load_location(a, v, m);
}

static int
f_parent(struct access *a, const json_t *v, size_t i, void *m)
{
	return link_parent(a, v, m, i);
}

static int
f_hw(struct access *a, const json_t *v, size_t i, void *m)
{
	(void)i;
	return load_thing(a, v, m, 1);
}

static int
f_img(struct access *a, const json_t *v, size_t i, void *m)
{
	(void)i;
	return load_thing(a, v, m, 0);
}

static int
f_price(struct access *a, const json_t *v, size_t i, void *m)
{
	(void)i;
	return load_price(a, v, m);
}

static size_t
count(const json_t *disc, const char *key)
{
	return json_array_size(json_object_get(disc, key)) + 1;
}

int
model_load_begin(struct access *a, const json_t *disc, struct mc_model *m)
{
	memset(m, 0, sizeof *m);
	idmap_init(&m->cloud_ids);
	idmap_init(&m->loc_ids);
	idmap_init(&m->hw_ids);
	idmap_init(&m->img_ids);
	idmap_init(&m->offer_ids);
	idmap_borrow_keys(&m->offer_ids);	/* the offers' own ids */
	if (acc_as_object(a, disc) < 0 || acc_check_keys(a, disc, disc_keys) < 0)
		return -1;
	m->clouds = xcalloc(count(disc, "clouds"), sizeof *m->clouds);
	m->locs = xcalloc(count(disc, "locations"), sizeof *m->locs);
	m->hws = xcalloc(count(disc, "hardware"), sizeof *m->hws);
	m->imgs = xcalloc(count(disc, "images"), sizeof *m->imgs);
	m->offers = xcalloc(count(disc, "prices"), sizeof *m->offers);
	if (acc_each_element(a, disc, "clouds", ACC_REQUIRED, f_cloud, m) < 0 ||
	    acc_each_element(a, disc, "locations", ACC_REQUIRED, f_loc, m) < 0 ||
	    acc_each_element(a, disc, "locations", ACC_REQUIRED, f_parent, m) < 0)
		return -1;
	inherit(m);
	return 0;
}

int
model_load_list(struct access *a, const json_t *disc, struct mc_model *m,
    const char *key)
{
	acc_element_fn fn = strcmp(key, "hardware") == 0 ? f_hw :
	    strcmp(key, "images") == 0 ? f_img : f_price;

	return acc_each_element(a, disc, key, ACC_REQUIRED, fn, m) < 0 ? -1 : 0;
}

int
model_load(struct access *a, const json_t *disc, struct mc_model *m)
{
	return model_load_begin(a, disc, m) < 0 ||
	    model_load_list(a, disc, m, "hardware") < 0 ||
	    model_load_list(a, disc, m, "images") < 0 ||
	    model_load_list(a, disc, m, "prices") < 0 ? -1 : 0;
}

void
model_free(struct mc_model *m)
{
	size_t i;

	for (i = 0; i < m->nhws; i++)
		free(m->hws[i].locs);
	for (i = 0; i < m->nimgs; i++)
		free(m->imgs[i].locs);
	for (i = 0; i < m->noffers; i++)
		free(m->offers[i].own_id);
	free(m->clouds);
	free(m->locs);
	free(m->hws);
	free(m->imgs);
	free(m->offers);
	free(m->text);
	idmap_free(&m->cloud_ids);
	idmap_free(&m->loc_ids);
	idmap_free(&m->hw_ids);
	idmap_free(&m->img_ids);
	idmap_free(&m->offer_ids);
	memset(m, 0, sizeof *m);
}

int
model_within(const struct mc_model *m, size_t l, size_t anc)
{
	for (; l != MC_NONE; l = m->locs[l].parent)
		if (l == anc)
			return 1;
	return 0;
}

size_t
model_region(const struct mc_model *m, size_t l)
{
	size_t p;

	for (p = l; p != MC_NONE; p = m->locs[p].parent)
		if (strcmp(m->locs[p].scope, "REGION") == 0)
			return p;
	return l;
}
