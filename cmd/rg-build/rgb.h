/*
 * rgb.h: what the parts of rg-build share.
 *
 * rg-build works on one table of resources: those of the system section
 * first, in its order, then those that change sets create (the new
 * vertex of a Partial Parallel Universe), in the order the request
 * model names them.  Each resource keeps the transitions that touch it,
 * in request-model order, as indices (the model's arrays grow while
 * requests are resolved).
 */
#ifndef RGB_H
#define RGB_H

#include <stdint.h>
#include <jansson.h>

#include "access.h"
#include "catalog.h"
#include "digraph.h"
#include "idmap.h"
#include "output.h"
#include "request.h"
#include "rgraph.h"
#include "sysconf.h"

/* tref: one transition of the model, by indices. */
struct tref {
	uint32_t req, set, change, tr;
};

struct attempts {
	const char *undo_unit;
	long count;
	int counted;	/* the report in hand has counted one already */
};

struct res {
	const char *id;
	int kind;		/* enum resource_kind */
	long sys;		/* index in the system section, or -1 */
	int deactivated, isolated, failed;
	int in_lost;		/* grouped with a failed or isolated one */
	int down;		/* the system says it failed */
	int in_graph;		/* a vertex of this iteration's RG */
	size_t vertex;		/* its index there */
	struct attempts *att;
	size_t natt;
	struct tref *tr;
	size_t ntr, tr_cap;
	const json_t *spec;	/* a new resource: as its add change lists it */
};

struct options {
	const char *system, *catalog, *state;
	const char **requests;
	size_t nrequests;
	int dot;
	const char *progress_file;	/* --progress-file */
	struct output_opts output;	/* -c */
};

struct rgb {
	const struct options *opt;
	json_t *doc;			/* the document being written */
	json_t *system_sec, *catalog_sec;
	const char *system_name, *catalog_name;
	const char *state_name;
	struct sysconf sc;
	struct catalog cat;
	struct request_model model;
	struct rgraph prev;
	int have_prev;
	json_t *report;			/* applicable report, or NULL */
	int64_t now;			/* report time */
	int have_now;
	long iteration;
	json_t *undo_requests;		/* undo unit ids asked for */
	json_t *request_docs;		/* kept alive: the model points in */
	struct arrival { uint32_t req; const char *file; } *arrived;
	size_t narrived;		/* requests received in this run */
	struct res *res;
	size_t nres, res_cap;
	struct idmap res_ids;
	struct digraph sysg;		/* system dependencies, by edge number */
	struct rgraph out;
	struct lvinfo *lv;		/* beside out.levels */
	size_t lv_cap;
	struct served *served;		/* served.c, per PPU root change */
	size_t nserved;
};

/* lvinfo: where a level of the RG comes from, to give it its unit. */
struct lvinfo {
	long arrival;		/* 0: the undo level */
	int sub;		/* order within the arrival */
	const char *undo_unit;	/* undo level: the set being undone */
	long ppu_unit;		/* the PPU unit it belongs to, or -1 */
};

/* served.c: the replacement of root (a transition index) that resource
 * sponsors or relies on, or -1. */
long served_by(struct rgb *b, const struct change *root,
    const char *resource);
/* served_replacements: how many resources root replaces (counted once:
 * each level of a PPU asks). */
size_t served_replacements(struct rgb *b, const struct change *root);
void served_free(struct rgb *b);

/* inputs.c */
int rgb_load_inputs(struct rgb *b);
void rgb_free(struct rgb *b);

/* resources.c */
void res_table_build(struct rgb *b);
size_t res_add(struct rgb *b, const char *id, int kind);
long res_find(const struct rgb *b, const char *id);
void res_link(struct rgb *b, struct tref ref);
void res_link_change(struct rgb *b, uint32_t req, uint32_t set, uint32_t ch);
struct attempts *res_attempts(struct res *r, const char *undo_unit);
struct change_set *tref_set(const struct rgb *b, struct tref ref);
struct change *tref_change(const struct rgb *b, struct tref ref);
struct transition *tref_tr(const struct rgb *b, struct tref ref);
struct request *tref_req(const struct rgb *b, struct tref ref);

/* products.c: the products a resource runs, as a small list. */
struct pstate {
	struct pv *p;
	size_t n, cap;
};
void pstate_from_system(const struct rgb *b, const struct res *r,
    struct pstate *s);
void pstate_apply(const struct rgb *b, struct pstate *s,
    const struct transition *t);
struct pv pstate_from(const struct rgb *b, const struct pstate *s,
    const struct transition *t);
struct pv pstate_get(const struct pstate *s, const char *product);
/* pstate_slot: what the resource runs in the place of product. */
struct pv pstate_slot(const struct rgb *b, const struct pstate *s,
    const char *product);
void pstate_free(struct pstate *s);
/* pstate_projected: r's products once its live transitions are applied. */
void pstate_projected(const struct rgb *b, const struct res *r,
    struct pstate *s);
int product_kind(const struct catalog *c, const char *name);
/* rgb_product, rgb_compatible: catalog_find, catalog_compatible, cached. */
const struct cat_product *rgb_product(const struct rgb *b, const char *name,
    const char *version);
int rgb_compatible(const struct rgb *b, struct pv x, struct pv y,
    enum dep_type type);

/* select.c */
struct idlist {
	size_t *v;
	size_t n, cap;
};
void idlist_push(struct idlist *l, size_t x);
int select_targets(struct rgb *b, struct access *a, const json_t *spec,
    const char *key, const char *product, struct idlist *out);
/* neighbours: system neighbours of r along type (out: sponsors). */
void neighbours(const struct rgb *b, size_t r, enum dep_type type, int out,
    struct idlist *l);
int vm_supporting(const struct rgb *b, size_t r);

/* resolve.c, ppu.c and complement.c */
int resolve_request(struct rgb *b, const char *file, uint32_t req);
int resolve_ppu(struct rgb *b, struct access *a, uint32_t req, uint32_t set,
    uint32_t ch, size_t r, struct pv from, struct pv to);
int complement_set(struct rgb *b, struct access *a, uint32_t req,
    uint32_t set, uint32_t first);
/* arrivals.c: the new resources of request q (read from file) come at
 * the target of the live change sets; 0 or -1 (diagnosed). */
int check_arrivals(const struct rgb *b, uint32_t q, const char *file);
/* release.c: receive the request that gives temporary resources back,
 * once nothing else is live; the number of requests made, or -1. */
int release_temporaries(struct rgb *b, const char *time);
/* decommission.c: remove resource r, product by product, then itself;
 * physical: a kind that is hardware of its own, which a release action
 * gives back (a host, a switch, a router, a storage device). */
int physical(enum resource_kind k);
int decommission(struct rgb *b, struct access *a, struct tref ref, size_t r);
/* added.c: an add change's new resources, one transition a product. */
int resolve_new_resources(struct rgb *b, struct access *a, uint32_t req,
    uint32_t set, uint32_t ch);
/* changes.c: new_change: a complementary change of change root in set. */
uint32_t new_change(struct rgb *b, uint32_t req, uint32_t set, uint32_t root,
    enum change_op op, struct pv from, struct pv to);
/* products.c: check_described: the catalog describes p (else at a). */
int check_described(struct rgb *b, struct access *a, struct pv p,
    const char *resource);

/* report.c */
int apply_report(struct rgb *b);
/* find_set: the change set whose undo unit is uid (q, s: its indices). */
struct change_set *find_set(const struct rgb *b, const char *uid,
    uint32_t *q, uint32_t *s);
/* res_present: r is in the system, or a live change set creates it. */
int res_present(const struct rgb *b, const struct res *r);

/* evaluate.c */
void evaluate_change_sets(struct rgb *b);

/* evaluate.c */
int needs_undo(const struct transition *t);
int set_undoing(const struct change_set *cs);

/* actions.c: the actions of one operation, appended to a level. */
struct opctx {
	const char *undo_unit;
	long change;		/* its number; 0 for an undo operation */
	const char *resource;
	size_t count;		/* actions made so far for this operation */
	const json_t *release;	/* its change's release action, or NULL */
};
/* forward_actions: from (what runs now) to t's target; count added. */
size_t forward_actions(struct rgb *b, struct opctx *o, struct pv from,
    const struct transition *t);
/* undo_actions: from what runs now back to t's undo version. */
size_t undo_actions(struct rgb *b, struct opctx *o, struct pv now,
    const struct transition *t);

/* plan.c */
int plan_vertices(struct rgb *b);

/* edges.c */
/* dep_ends_known: both ends of dc name resources; else a located error. */
int dep_ends_known(struct rgb *b, struct access *a, const struct dep_change *dc);
/* check_dep_ends: a located error (-1) if a dependency names no resource. */
int check_dep_ends(struct rgb *b);
int plan_edges(struct rgb *b);

/*
 * contradictions.c: check_contradictions: -1 (diagnosed) when the system
 * puts a resource in two containers or an aggregate, through storage, in
 * a cycle.  refuse_cycle: build g and free it; -1 with "WHAT
 * dependencies form a cycle: a -> b -> a" (ids by id_of) when it has a
 * cycle, else 0.
 */
int check_contradictions(struct rgb *b);
int refuse_cycle(const struct rgb *b, struct digraph *g,
    const char *(*id_of)(const struct rgb *, size_t), const char *what);

/* units.c */
void plan_units(struct rgb *b);
/* ppu_unit: the unit of the PPU change ref belongs to (made if new). */
size_t ppu_unit(struct rgb *b, struct tref ref);

#endif
