/*
 * expr.h: the constraint language of seed 004 (Listing 1, Tables I-II)
 * and Cloudiator's OCL, parsed into one tree.
 *
 * Both spellings become the same nodes: "nodes.count(c)" and
 * "nodes->select(n | c)->size()" are one EX_AGG of kind AGG_COUNT.
 * Attribute paths are resolved while parsing (attr.c), so "n." and
 * "node." prefixes, "location.country" and "image.os.osFamily" vanish.
 * Trees live in an arena owned by the caller and are freed at once.
 */
#ifndef MATCH_CSP_EXPR_H
#define MATCH_CSP_EXPR_H

#include <stddef.h>

#include "diag.h"
#include "model.h"

enum ex_kind {
	EX_NUM, EX_STR, EX_BOOL, EX_ATTR, EX_NEG, EX_NOT,
	EX_ADD, EX_SUB, EX_MUL, EX_DIV,
	EX_EQ, EX_NE, EX_LT, EX_LE, EX_GT, EX_GE,
	EX_AND, EX_OR, EX_XOR, EX_IMPLIES,
	EX_IN,			/* l in the set items (negate: excludes) */
	EX_AGG,			/* an aggregate over the component's nodes */
	EX_OBJECTIVE		/* minimise(l) or, with maximise set, maximise */
};

enum ex_type { T_NUM, T_STR, T_BOOL };

enum agg_kind {
	AGG_FORALL, AGG_EXISTS, AGG_UNIQUE, AGG_ALLEQUAL, AGG_COUNT,
	AGG_SUM, AGG_AVG, AGG_MIN, AGG_MAX, AGG_DISTINCT
};

struct expr {
	enum ex_kind kind;
	enum ex_type type;
	int nodes;		/* contains an aggregate: a collection-level term */
	int per_node;		/* refers to a node's attributes */
	long col;		/* 1-based column in the requirement */
	double num;
	const char *str;
	int ci;			/* compare case-insensitively */
	int attr;		/* EX_ATTR: enum attr_id */
	struct expr *l, *r;
	struct expr **items;	/* EX_IN */
	size_t nitems;
	int negate;
	enum agg_kind agg;	/* EX_AGG: over nodes satisfying sel */
	struct expr *sel, *arg;	/* predicate (may be NULL), value or predicate */
	int maximise;		/* EX_OBJECTIVE */
};

/* Values of per-node expressions. */
enum val_kind { V_NONE, V_NUM, V_STR, V_BOOL };
struct val {
	enum val_kind kind;
	double num;
	const char *str;
	int ci;
};

struct arena;
struct arena *arena_new(void);
void *arena_alloc(struct arena *ar, size_t size);
char *arena_strndup(struct arena *ar, const char *s, size_t n);
void arena_free(struct arena *ar);

/* Where a requirement came from, for diagnostics. */
struct src {
	const char *file;	/* the job's name for diagnostics */
	const char *path;	/* ".requirements[3]" */
	const char *text;
};

/* src_error: "prog: file: .requirements[3]:17: message". */
void src_error(const struct src *s, long col, const char *fmt, ...)
    DIAG_PRINTF(3, 4);

/* parse_requirement: the tree of one requirement, or NULL (diagnosed). */
struct expr *parse_requirement(struct arena *ar, const struct src *s);

/* Attributes of a node (an offer), attr.c. */
int attr_lookup(const char *path, enum ex_type *type, int *ci);
struct val attr_value(const struct mc_model *m, size_t offer, int attr);

/*
 * What an attribute's value, or a per-node expression's, is a function
 * of: nothing (a constant), the offer's hardware, image or location
 * alone, or the offer itself (its id, price or cloud, or parts of two).
 */
enum owner { OWN_NONE, OWN_HW, OWN_IMG, OWN_LOC, OWN_OFFER };
enum owner attr_owner(int attr);
enum owner expr_owner(const struct expr *e);	/* e may be NULL */
/* enum_known: name is one of the model's enumerations (OSFamily...). */
int enum_known(const char *name);

/* eval.c: a per-node expression for one offer. */
struct val eval(const struct expr *e, const struct mc_model *m, size_t o);
int eval_true(const struct expr *e, const struct mc_model *m, size_t o);
/*
 * Offers grouped by what an expression (sel and arg together) reads:
 * key k of offer o is its hardware, image or location, 0 for a
 * constant, o itself when it reads the offer's own parts (truths.c).
 */
struct owner_keys {
	const struct mc_model *m;
	enum owner w;
	size_t n;		/* keys 0 .. n-1 */
};
void owner_keys(struct owner_keys *k, const struct mc_model *m,
    size_t noffers, const struct expr *sel, const struct expr *arg);
size_t owner_key(const struct owner_keys *k, size_t o);

/*
 * offer_truths: for every offer o, whether sel (NULL: every offer) and
 * arg != neg hold, each evaluated once per key.
 */
unsigned char *offer_truths(const struct mc_model *m, size_t noffers,
    const struct expr *sel, const struct expr *arg, int neg);

/* offer_values: sel's truth and, where it holds, arg's value, per offer. */
struct offer_val {
	int known, selected;
	struct val v;
};
struct offer_val *offer_values(const struct mc_model *m, size_t noffers,
    const struct expr *sel, const struct expr *arg);

/* val_key: a class key for partitions, in buf. */
const char *val_key(struct val v, char *buf, size_t size);

#endif
