/* job.c: load the component document (see model.h, match-csp(5)). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model.h"
#include "xalloc.h"

const char *const mc_error_names[] = {
	"Authorisation", "NotFound", "InsufficientResources", "IllegalRequest",
	"Unavailable", "ServerError", NULL
};

static const char *const job_keys[] = {
	"name", "requirements", "nodes", "running", "failed", "errors", "now",
	"discovery", NULL
};
static const char *const node_keys[] = { "id", "offer", NULL };
static const char *const error_keys[] = {
	"type", "provider", "region", "offer", "time", "message", NULL
};

static int
add_req(struct access *a, const json_t *v, size_t i, void *j)
{
	struct mc_job *job = j;

	(void)i;
	return acc_as_string(a, v, &job->reqs[job->nreqs++]);
}

/* get_time: member key as a time; sets *has when present. */
static int
get_time(struct access *a, const json_t *obj, const char *key,
    long long *out, int *has)
{
	json_t *v = json_object_get(obj, key);

	if (v == NULL)
		return 0;
	if (parse_time(v, out) < 0)
		return access_fail_at(a, key, "expected a time such as "
		    "\"2024-05-01T10:00:00Z\" or seconds since 1970");
	*has = 1;
	return 0;
}

int
job_load(struct access *a, const json_t *doc, struct mc_job *j,
    json_t **disc_out)
{
	json_int_t n = 1;

	memset(j, 0, sizeof *j);
	*disc_out = NULL;
	j->reqs = xcalloc(json_array_size(json_object_get(doc,
	    "requirements")), sizeof *j->reqs);
	if (acc_as_object(a, doc) < 0 || acc_check_keys(a, doc, job_keys) < 0 ||
	    acc_get_string(a, doc, "name", ACC_OPTIONAL, &j->name) < 0 ||
	    acc_each_element(a, doc, "requirements", ACC_OPTIONAL, add_req,
	    j) < 0 ||
	    acc_get_int_range(a, doc, "nodes", ACC_REQUIRED, 0, 100000, &n) < 0 ||
	    acc_get_object(a, doc, "discovery", ACC_OPTIONAL, disc_out) < 0)
		return -1;
	j->nodes = (long)n;
	return get_time(a, doc, "now", &j->now, &j->has_now);
}

/* offer_ref: the offer named by member key of obj. */
static int
offer_ref(struct access *a, const json_t *obj, const char *key, int flags,
    const struct mc_model *m, size_t *out)
{
	const char *s;
	long i;
	int r = acc_get_string(a, obj, key, flags, &s);

	if (r != 0)
		return r;
	if ((i = idmap_find(&m->offer_ids, s)) < 0)
		return access_fail_at(a, key, "unknown offer \"%s\"", s);
	*out = (size_t)i;
	return 0;
}

/* The running nodes being read, with their ids. */
struct nodes_ctx {
	const struct mc_model *m;
	struct mc_job *j;
	struct idmap ids;
};

static int
load_node(struct access *a, const json_t *v, size_t i, void *ctx)
{
	struct nodes_ctx *c = ctx;
	struct mc_node *n = &c->j->running[c->j->nrunning];

	(void)i;
	if (acc_as_object(a, v) < 0 || acc_check_keys(a, v, node_keys) < 0 ||
	    acc_get_string(a, v, "id", ACC_REQUIRED, &n->id) < 0 ||
	    offer_ref(a, v, "offer", ACC_REQUIRED, c->m, &n->offer) < 0)
		return -1;
	if (idmap_add(&c->ids, n->id) < 0)
		return access_fail_at(a, "id", "duplicate node \"%s\"", n->id);
	c->j->nrunning++;
	return 0;
}

static int
mark_failed(struct access *a, const json_t *v, size_t i, void *ctx)
{
	struct nodes_ctx *c = ctx;
	const char *s;
	long k;

	(void)i;
	if (acc_as_string(a, v, &s) < 0)
		return -1;
	if ((k = idmap_find(&c->ids, s)) < 0)
		return access_fail(a, "\"%s\" is not a running node", s);
	c->j->running[k].failed = 1;
	return 0;
}

static int
load_running(struct access *a, const json_t *doc, const struct mc_model *m,
    struct mc_job *j)
{
	struct nodes_ctx c = { m, j, { 0 } };
	int r;

	idmap_init(&c.ids);
	j->running = xcalloc(json_array_size(json_object_get(doc, "running")),
	    sizeof *j->running);
	r = acc_each_element(a, doc, "running", ACC_OPTIONAL, load_node, &c) < 0 ||
	    acc_each_element(a, doc, "failed", ACC_OPTIONAL, mark_failed,
	    &c) < 0 ? -1 : 0;
	idmap_free(&c.ids);
	return r;
}

/* error_target: exactly one of provider, region and offer. */
static int
error_target(struct access *a, const json_t *v, const struct mc_model *m,
    struct mc_error *e)
{
	const char *s;
	int named = 0, r;
	long k;

	e->cloud = e->loc = e->offer = MC_NONE;
	if ((r = acc_get_string(a, v, "provider", ACC_OPTIONAL, &s)) < 0)
		return -1;
	if (r == 0) {
		if ((k = idmap_find(&m->cloud_ids, s)) < 0)
			return access_fail_at(a, "provider", "unknown cloud \"%s\"",
			    s);
		e->cloud = (size_t)k;
		named++;
	}
	if ((r = acc_get_string(a, v, "region", ACC_OPTIONAL, &s)) < 0)
		return -1;
	if (r == 0) {
		if ((k = idmap_find(&m->loc_ids, s)) < 0)
			return access_fail_at(a, "region",
			    "unknown location \"%s\"", s);
		e->loc = (size_t)k;
		named++;
	}
	if (json_object_get(v, "offer") != NULL) {
		if (offer_ref(a, v, "offer", ACC_REQUIRED, m, &e->offer) < 0)
			return -1;
		named++;
	}
	if (named != 1)
		return access_fail(a, "an error names exactly one of provider, "
		    "region and offer");
	return 0;
}

static int
load_error(struct access *a, const json_t *v, const struct mc_model *m,
    struct mc_error *e)
{
	int type = 0;

	if (acc_as_object(a, v) < 0 || acc_check_keys(a, v, error_keys) < 0 ||
	    acc_get_enum(a, v, "type", ACC_REQUIRED, mc_error_names, &type) < 0 ||
	    error_target(a, v, m, e) < 0)
		return -1;
	e->type = (enum mc_error_type)type;
	return get_time(a, v, "time", &e->time, &e->has_time);
}

static int
add_error(struct access *a, const json_t *v, size_t i, void *ctx)
{
	struct nodes_ctx *c = ctx;

	(void)i;
	return load_error(a, v, c->m, &c->j->errors[c->j->nerrors++]);
}

static int
load_errors(struct access *a, const json_t *doc, const struct mc_model *m,
    struct mc_job *j)
{
	struct nodes_ctx c = { m, j, { 0 } };

	j->errors = xcalloc(json_array_size(json_object_get(doc, "errors")),
	    sizeof *j->errors);
	return acc_each_element(a, doc, "errors", ACC_OPTIONAL, add_error, &c);
}

int
job_bind(struct access *a, const json_t *doc, const struct mc_model *m,
    struct mc_job *j)
{
	return load_running(a, doc, m, j) < 0 || load_errors(a, doc, m, j) < 0 ?
	    -1 : 0;
}

void
job_free(struct mc_job *j)
{
	free(j->reqs);
	free(j->running);
	free(j->errors);
	memset(j, 0, sizeof *j);
}

/* days_from_civil: days since 1970-01-01 of a Gregorian date. */
static long long
days_from_civil(long long y, unsigned mo, unsigned d)
{
	long long era;
	unsigned yoe, doy, doe;

	y -= mo <= 2;
	era = (y >= 0 ? y : y - 399) / 400;
	yoe = (unsigned)(y - era * 400);
	doy = (153 * (mo + (mo > 2 ? -3 : 9)) + 2) / 5 + d - 1;
	doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
	return era * 146097 + (long long)doe - 719468;
}

static int
parse_rfc3339(const char *s, long long *out)
{
	int y, mo, d, h, mi, sec, oh = 0, om = 0, n = 0;
	char sign;

	if (sscanf(s, "%4d-%2d-%2dT%2d:%2d:%2d%n", &y, &mo, &d, &h, &mi, &sec,
	    &n) != 6 || n != 19 || mo < 1 || mo > 12 || d < 1 || d > 31 ||
	    h > 23 || mi > 59 || sec > 60 || h < 0 || mi < 0 || sec < 0)
		return -1;
	s += n;
	if (*s == '.')
		for (s++; *s >= '0' && *s <= '9'; s++)
			;
	if (strcmp(s, "Z") != 0) {
		if (sscanf(s, "%c%2d:%2d%n", &sign, &oh, &om, &n) != 3 ||
		    s[n] != '\0' || (sign != '+' && sign != '-'))
			return -1;
		if (sign == '-')
			oh = -oh, om = -om;
	}
	*out = days_from_civil(y, (unsigned)mo, (unsigned)d) * 86400 +
	    h * 3600 + mi * 60 + sec - oh * 3600 - om * 60;
	return 0;
}

int
parse_time(const json_t *v, long long *out)
{
	if (json_is_integer(v)) {
		*out = json_integer_value(v);
		return 0;
	}
	return json_is_string(v) ? parse_rfc3339(json_string_value(v), out) :
	    -1;
}
