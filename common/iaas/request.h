/*
 * request.h: upgrade requests (seed 000 section II.D) and the upgrade
 * request model that rg-build keeps in the "requests" section.
 *
 * A request is a set of change sets; each change set is one undo unit
 * with a max-completion-period and a max-retry; each change has an
 * undo-threshold and an undo-version.  rg-build resolves every change
 * into transitions, one per target resource: the product (and version)
 * the resource runs before and after, the version an undo returns it to,
 * and where the change stands on that resource.  Complementary changes
 * inferred from the catalog are changes of the same set that name the
 * change they complement.  See upkit-state(5), "The requests section".
 *
 * Strings point into the loaded documents (or into the model's own
 * pool), which must outlive the model.
 */
#ifndef UPKIT_REQUEST_H
#define UPKIT_REQUEST_H

#include <stddef.h>
#include <stdint.h>
#include <jansson.h>

#include "access.h"
#include "sysconf.h"

/* Status of a change set and of a change (II.D). */
enum cs_status { CS_NEW, CS_SCHEDULED, CS_COMPLETED, CS_FAILED };

/* Where a change stands on one resource. */
enum tr_status {
	TR_PENDING,	/* still to apply */
	TR_DONE,	/* applied */
	TR_CANCELLED,	/* its change set failed before it was applied */
	TR_UNDONE,	/* applied, then taken back to the undo version */
	TR_FAILED,	/* the resource failed, or stayed isolated */
	TR_GONE		/* the resource left the system */
};

enum change_op { OP_ADD, OP_REMOVE, OP_UPGRADE };

enum undo_reason { UNDO_NONE, UNDO_THRESHOLD, UNDO_TIMEOUT, UNDO_REQUESTED };

/* A product at a version; product NULL means "nothing". */
struct pv {
	const char *product, *version;
};

struct transition {
	const char *resource;
	struct pv from, to, undo;
	int create;		/* the resource itself is added: its kind */
	int destroy;		/* the resource itself is removed */
	enum tr_status status;
};

struct dep_change {
	enum dep_type type;
	const char *dependent, *sponsor;
};

/*
 * Without an undo_threshold, a change set is undone once more than one
 * in ten of a change's resources is lost: a failure costs only the
 * failed resources, unless it looks systematic.
 */
enum { UNDO_PERCENT_DEFAULT = 90 };

struct change {
	enum change_op op;
	json_t *spec;		/* the change as written (or inferred) */
	size_t of;		/* 0, or the number of the change it complements */
	int ppu;		/* resolved as a Partial Parallel Universe */
	/*
	 * The least number of the resources of its scope that must stay
	 * operational: undo_threshold when it is given as a number (>= 0),
	 * else undo_percent per cent of them, rounded up (a "P%" string,
	 * or UNDO_PERCENT_DEFAULT when neither is given).
	 */
	json_int_t undo_threshold;
	int undo_percent;
	enum cs_status status;
	struct transition *tr;
	size_t ntr, tr_cap;
	struct dep_change *deps;
	size_t ndeps;
};

struct change_set {
	const char *id;
	char *uid;		/* "request/change-set": the undo unit id */
	json_int_t max_completion_period;	/* seconds, -1: none */
	json_int_t max_retry;			/* retries after a failure */
	enum cs_status status;
	enum undo_reason undo;
	int undo_done;		/* every undo transition finished */
	struct change *changes;
	size_t nchanges, changes_cap;
};

struct request {
	const char *id, *time;
	int64_t t;		/* time as epoch seconds */
	long arrival;		/* the iteration it arrived in */
	struct change_set *sets;
	size_t nsets;
};

struct request_model {
	struct request *reqs;
	size_t nreqs, reqs_cap;
	char **pool;		/* strings the model made itself */
	size_t npool, pool_cap;
};

extern const char *const cs_status_names[];
extern const char *const tr_status_names[];
extern const char *const change_op_names[];
extern const char *const undo_reason_names[];

void request_model_init(struct request_model *m);
void request_model_free(struct request_model *m);
/* request_model_keep: a copy of s that lives as long as the model. */
const char *request_model_keep(struct request_model *m, const char *s);

/*
 * request_read: one upgrade request as an operator writes it (a file of
 * its own, see upkit-state(5)); appended to the model with the given
 * arrival.  Undo unit ids it asks to undo are appended to *undo (an
 * array).  0 or -1.
 */
int request_read(struct access *a, const json_t *doc, long arrival,
    struct request_model *m, json_t *undo);

/* request_model_load: the "requests" section of a document; 0 or -1. */
int request_model_load(struct access *a, const json_t *section,
    struct request_model *m);
/* request_model_to_json: the section's content (without "version"). */
json_t *request_model_to_json(const struct request_model *m);

/*
 * change_spec_check: check a change as written (op, product, version,
 * to, targets, sponsors, dependency, undo_threshold, undo_version) and
 * set c's op, undo_threshold and dependency changes.  The spec's ids
 * are checked against the system later, when the change is resolved.
 */
int change_spec_check(struct access *a, json_t *spec, struct change *c);

/*
 * add_spec_check: an add change's "system" piece, when it has one: the
 * new resources checked, its dependencies appended to c's (request_add.c).
 */
int add_spec_check(struct access *a, const json_t *spec, struct change *c);

/* change_set_live: cs is still to run (new or scheduled). */
int change_set_live(const struct change_set *cs);

/* request_find: the request with id, or NULL. */
struct request *request_find(const struct request_model *m, const char *id);

/* change_add: a new, empty change appended to cs; returns it. */
struct change *change_add(struct change_set *cs);
/* change_add_transition: a new pending transition of c; returns it. */
struct transition *change_add_transition(struct change *c,
    const char *resource);

/* pv_format / pv_parse: "name@version" strings (names hold no '@'). */
char *pv_format(struct pv p);
int pv_parse(struct request_model *m, const char *s, struct pv *out);
int pv_equal(struct pv a, struct pv b);

#endif
