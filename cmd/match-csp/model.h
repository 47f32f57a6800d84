/*
 * model.h: the discovery model (Cloudiator's field names) and the job
 * that asks for nodes from it; see match-csp(5).
 *
 * An offer is a priced (hardware, image, location) triple: one entry of
 * "prices".  Offers are numbered in the order of that list, which is
 * the order every later stage breaks ties in.  Strings point into the
 * loaded documents, which outlive the model.
 */
#ifndef MATCH_CSP_MODEL_H
#define MATCH_CSP_MODEL_H

#include <stddef.h>
#include <jansson.h>

#include "access.h"
#include "idmap.h"

#define MC_NONE ((size_t)-1)

struct mc_cloud {
	const char *id, *type;
};

struct mc_location {
	const char *id, *name, *provider_id, *scope;
	const char *country, *city;	/* inherited from the parent if absent */
	double latitude, longitude;
	int has_geo;
	size_t parent, cloud;		/* MC_NONE when absent */
};

/* mc_thing: hardware or image, available in some locations. */
struct mc_thing {
	const char *id, *name, *provider_id;
	double cores, ram, disk;		/* hardware */
	const char *family, *version, *arch;	/* images */
	size_t cloud;
	size_t *locs;			/* NULL: everywhere in its cloud */
	size_t nlocs;
};

struct mc_offer {
	const char *id;
	char *own_id;			/* allocated when id is made up */
	size_t hw, img, loc, cloud;
	double price;
};

struct mc_model {
	struct mc_cloud *clouds;
	struct mc_location *locs;
	struct mc_thing *hws, *imgs;
	struct mc_offer *offers;
	size_t nclouds, nlocs, nhws, nimgs, noffers;
	struct idmap cloud_ids, loc_ids, hw_ids, img_ids, offer_ids;
	char *text;			/* strings fastload.c read, owned */
};

/* model_load: read the discovery object; 0 or -1 (diagnosed). */
int model_load(struct access *a, const json_t *disc, struct mc_model *m);
/*
 * model_load in steps, in this order: model_load_begin (the keys,
 * clouds and locations), then model_load_list for "hardware", "images"
 * and "prices"; fastload.c reads some lists itself in between.
 */
int model_load_begin(struct access *a, const json_t *disc,
    struct mc_model *m);
int model_load_list(struct access *a, const json_t *disc, struct mc_model *m,
    const char *key);
void model_free(struct mc_model *m);
/*
 * model_load_fast: the model in buf (a whole file) with its prices read
 * directly (fastload.c).  0: loaded, *doc holds the rest of the
 * document, which the model points into; -1: diagnosed (as model_load
 * would); 1: not for the fast path, nothing printed or kept: parse buf
 * and call model_load.
 */
int model_load_fast(struct access *a, const char *buf, size_t len,
    json_t **doc, struct mc_model *m);
/*
 * For loaders that read prices themselves (fastload.c): with hw, img,
 * loc and price set, model_place_offer checks that they meet and sets
 * the cloud; model_name_offer makes up "hw/img/loc" when id is NULL and
 * numbers the id, -1 when it is taken.  model_load diagnoses the same.
 */
enum offer_fault {
	OF_NONE, OF_HARDWARE_AWAY, OF_IMAGE_AWAY, OF_CLOUDS_DIFFER, OF_NO_CLOUD
};
enum offer_fault model_place_offer(const struct mc_model *m,
    struct mc_offer *o);
int model_name_offer(struct mc_model *m, struct mc_offer *o);
/* model_within: location l is anc or lies (transitively) inside it. */
int model_within(const struct mc_model *m, size_t l, size_t anc);
/* model_region: the nearest REGION-scoped location around l, else l. */
size_t model_region(const struct mc_model *m, size_t l);

/* A running node of the component. */
struct mc_node {
	const char *id;
	size_t offer;
	int failed;
};

enum mc_error_type {
	ERR_AUTHORISATION, ERR_NOT_FOUND, ERR_INSUFFICIENT, ERR_ILLEGAL,
	ERR_UNAVAILABLE, ERR_SERVER, ERR_COUNT
};

/* A provider error the operator saw (seed 004 Table V). */
struct mc_error {
	enum mc_error_type type;
	size_t cloud, loc, offer;	/* what it names: one of them */
	long long time;			/* seconds since the epoch */
	int has_time;
};

struct mc_job {
	const char *name;
	const char **reqs;		/* requirement strings */
	size_t nreqs;
	long nodes;			/* target node count */
	struct mc_node *running;
	size_t nrunning;
	struct mc_error *errors;
	size_t nerrors;
	long long now;
	int has_now;
};

extern const char *const mc_error_names[];

/*
 * job_load: the component document; when disc_out is not NULL the job's
 * inline "discovery" object (or NULL) is stored there, before the model
 * is known.  job_bind then resolves offers of running nodes and errors.
 */
int job_load(struct access *a, const json_t *doc, struct mc_job *j,
    json_t **disc_out);
int job_bind(struct access *a, const json_t *doc, const struct mc_model *m,
    struct mc_job *j);
void job_free(struct mc_job *j);

/* parse_time: RFC 3339 ("2024-05-01T10:00:00Z") or epoch seconds. */
int parse_time(const json_t *v, long long *out);

#endif
