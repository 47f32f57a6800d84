/*
 * world.h: what ha-assign knows about the cluster, and what it wants.
 *
 * The pods, Services, nodes and StatefulSets come from kubectl's JSON;
 * the strings point into those documents, which stay loaded for the
 * whole run.  assign() then fills in each pod's wanted labels and the
 * wanted Services (seed 003, section 4 and Algorithm 1), and plan.c
 * writes the difference as the plan.
 */
#ifndef HA_WORLD_H
#define HA_WORLD_H

#include <stddef.h>
#include <stdint.h>
#include <jansson.h>

#include "idmap.h"
#include "output.h"

enum role { ROLE_NONE, ROLE_ACTIVE, ROLE_STANDBY, ROLE_OTHER };
enum node_failure { NF_PROMOTE, NF_FENCE_FIRST };

/* Plan phases: failovers come before assignments (5.3.2, 5.3.4). */
enum phase { PH_FAILOVER = 1, PH_ASSIGN = 2, PH_CLEANUP = 3 };

/* Why a change is wanted: the phase, a sentence and the seed's line. */
struct reason {
	int phase;
	json_t *why;		/* a string, owned */
	const char *source;	/* "Algorithm 1, L9-L13", "section 4.1"... */
};

struct pod {
	const char *name, *rv, *node, *owner_sts;
	const char *state_label;	/* current value of the state label */
	const char *peer;		/* current value of the peer label */
	int64_t created;
	long index;			/* apps.kubernetes.io/pod-index or -1 */
	size_t item;			/* position in the input, for messages */
	int ready, gone, failed, selected;
	int refused;			/* name not a label value: left out */
	enum role role;			/* current role, from state_label */
	/* wanted */
	enum role want;
	const char *want_peer;		/* NULL: no peer label */
	long partner;			/* the pair's other pod, or -1 */
	int orphan, waiting, drained, decided;
	struct reason reason;		/* set when the labels must change */
};

struct service {
	const char *name;
	const json_t *selector;		/* spec.selector or NULL */
	const char *active_pod;		/* our annotation, or NULL */
	int managed;			/* labelled managed-by ha-assign */
	int wanted;			/* kept by this plan */
};

struct node {
	const char *name;
	int ready;
	int64_t since;			/* the Ready condition's transition */
	int has_since;
};

struct statefulset {
	const char *name;
	long replicas;
};

struct selector {
	char **keys, **values;
	size_t count;
};

struct options {
	const char *pods_file, *services_file, *nodes_file, *sts_file;
	const char *state_key, *peer_key, *active_value, *standby_value;
	const char *app_service;
	struct selector selector;
	long port;
	enum node_failure node_failure;
	int64_t now;
	int has_now;
	long fence_after;
	char **drain;
	size_t ndrain;
	struct output_opts output;	/* -c */
};

/* A Service the plan wants: for a pair's active, or the app's. */
struct want_service {
	char *name;
	const char *active_pod;		/* NULL for the application Service */
	struct reason reason;
	int exists;			/* exists with this selector already */
};

struct problem {
	const char *kind;
	json_t *detail;			/* an object, owned */
};

/* nameindex: name -> position in an array (the first of duplicates). */
struct nameindex {
	struct idmap ids;
	size_t *pos;
};

struct world {
	const struct options *opt;
	json_t *docs[4];
	const char *namespace;
	struct pod *pods;
	size_t npods;
	size_t *order;			/* live selected pods, oldest first */
	size_t nlive;
	struct nameindex live_names, svc_names, node_names, sts_names;
	struct idmap taken_over;	/* gone actives whose standby took over */
	struct service *services;
	size_t nservices;
	int have_services;
	struct node *nodes;
	size_t nnodes;
	int have_nodes;
	struct statefulset *sts;
	size_t nsts;
	int have_sts;
	struct want_service *want_svc;
	size_t nwant_svc, want_svc_cap;
	struct problem *problems;
	size_t nproblems, problems_cap;
};

/* inputs: read the documents into w; an exit status. */
int read_pods(struct world *w, const char *file);
int read_services(struct world *w, const char *file);
int read_nodes(struct world *w, const char *file);
int read_statefulsets(struct world *w, const char *file);
/* index_pods: order the live pods and name them (after read_pods). */
void index_pods(struct world *w);
void nameindex_free(struct nameindex *x);

/* Lookups; -1 or NULL when absent. */
long live_pod(const struct world *w, const char *name);
const struct service *find_service(const struct world *w, const char *name);
const struct node *find_node(const struct world *w, const char *name);
const struct statefulset *find_sts(const struct world *w, const char *name);

/* pairs.c: pairs from the labels, their roles, failovers (L7-L19). */
void form_pairs(struct world *w);
/* drained: the pod is on a node of --drain. */
int drained(const struct world *w, const struct pod *p);
/* assign.c: new pairs (L29-L39), orphans, and the Services wanted. */
void assign_free(struct world *w);
void want_services(struct world *w);
json_t *service_selector(const struct world *w, const char *state,
    const char *peer);

/* Reasons and problems; why is a printf format for json_sprintf. */
void set_reason(struct pod *p, int phase, const char *source,
    const char *fmt, ...);
void add_problem(struct world *w, const char *kind, json_t *detail);

/* kname.c: Kubernetes name rules. */
int valid_label_value(const char *s);
int valid_label_key(const char *s);
/* valid_service_name: a DNS-1035 label of at most 63 characters. */
int valid_service_name(const char *s);
/* replicate_name: "replicate-<pod>", or its hashed form; to free. */
char *replicate_name(const char *pod);

/* plan.c: the plan on stdout; an exit status. */
int write_plan(struct world *w);

void world_free(struct world *w);

#endif
