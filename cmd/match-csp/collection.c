/*
 * collection.c: "nodes" and what follows it.  The paper writes
 * nodes.forAll(c), nodes.count(c), nodes.sum(a); Cloudiator's OCL
 * writes nodes->forAll(n | c), nodes->select(n | c)->size(),
 * nodes.hardware.cores->sum() and nodes->collect(n | a)->asSet()->size().
 * Both fold into one EX_AGG: the nodes it ranges over (sel), what it
 * looks at (arg) and what it computes (agg).
 */
#include <string.h>

#include "parser.h"

/* The collection built so far: nodes, maybe selected, maybe collected. */
struct coll {
	struct expr *sel;	/* NULL: every node */
	struct expr *val;	/* NULL: the nodes themselves */
	int distinct;
};

static int
word_is(const struct parser *p, const char *w)
{
	return tok_is_word(&p->lx, &p->tok, w);
}

/* body: "(x | e)", "(e)" or "()" when optional; binds x to the element. */
static struct expr *
body(struct parser *p, const struct coll *c, int optional)
{
	struct expr *e;
	int bound = 0;

	parser_expect(p, TK_LPAREN, "'('");
	if (p->tok.kind == TK_RPAREN && optional) {
		parser_advance(p);
		return NULL;
	}
	if (p->tok.kind == TK_IDENT && parser_peek(p, 1).kind == TK_BAR) {
		if (p->nvars == PARSER_MAX_VARS)
			parser_fail(p, p->tok.col, "iterators nested too deep");
		p->vars[p->nvars].name = p->src->text + p->tok.start;
		p->vars[p->nvars].len = p->tok.len;
		p->vars[p->nvars++].value = c->val;
		bound = 1;
		parser_advance(p);
		parser_advance(p);
	}
	e = parser_expr(p);
	p->nvars -= bound;
	if (e->nodes)
		parser_fail(p, e->col, "aggregates over nodes cannot nest");
	parser_expect(p, TK_RPAREN, "')'");
	return e;
}

static struct expr *
condition(struct parser *p, const struct coll *c, const char *op)
{
	struct expr *e = body(p, c, 0);

	parser_want_type(p, e, T_BOOL, op);
	return e;
}

static struct expr *
agg(struct parser *p, enum agg_kind k, const struct coll *c,
    struct expr *arg, long col)
{
	struct expr *e = parser_node(p, EX_AGG, col);

	e->agg = k;
	e->sel = c->sel;
	e->arg = arg;
	e->nodes = 1;
	e->type = k <= AGG_ALLEQUAL ? T_BOOL : T_NUM;
	return e;
}

static void
narrow(struct parser *p, struct coll *c, struct expr *cond, long col)
{
	c->sel = c->sel ? parser_binary(p, EX_AND, c->sel, cond, col) : cond;
}

/* value: the argument, or else what was collected. */
static struct expr *
value(struct parser *p, const struct coll *c, const char *op, long col)
{
	struct expr *e = body(p, c, 1);

	if (e == NULL)
		e = c->val;
	if (e == NULL)
		parser_fail(p, col, "%s needs an attribute, as in "
		    "nodes.%s(hardware.cores)", op, op);
	return e;
}

static struct expr *
number_of(struct parser *p, enum agg_kind k, const struct coll *c,
    const char *op, long col)
{
	struct expr *v = value(p, c, op, col);

	parser_want_type(p, v, T_NUM, op);
	if (c->distinct)
		parser_fail(p, col, "%s over ->asSet() is not supported", op);
	return agg(p, k, c, v, col);
}

/* equals: the per-node condition "v = x" (OCL's count and includes). */
static struct expr *
equals(struct parser *p, const struct coll *c, struct expr *x, long col)
{
	if (c->val == NULL)
		parser_fail(p, col, "nodes hold nodes; collect an attribute "
		    "first, as in nodes.location.country->includes('DE')");
	return parser_binary(p, EX_EQ, c->val, x, col);
}

static struct expr *
compare_count(struct parser *p, const struct coll *c, enum ex_kind k,
    double n, long col)
{
	struct expr *num = parser_node(p, EX_NUM, col);

	num->num = n;
	num->type = T_NUM;
	return parser_binary(p, k, agg(p, AGG_COUNT, c, NULL, col), num, col);
}

static struct expr *
includes(struct parser *p, const struct coll *c, int negate, long col)
{
	struct expr *x = body(p, c, 0), *eq = equals(p, c, x, col), *ne;

	if (!negate)
		return agg(p, AGG_EXISTS, c, eq, col);
	ne = parser_node(p, EX_NOT, col);
	ne->l = eq;
	ne->type = T_BOOL;
	ne->per_node = 1;
	return agg(p, AGG_FORALL, c, ne, col);
}

static struct expr *
count(struct parser *p, const struct coll *c, long col)
{
	struct expr *a = body(p, c, 0);

	if (a->type != T_BOOL)
		a = equals(p, c, a, col);
	return agg(p, AGG_COUNT, c, a, col);
}

static void
empty_args(struct parser *p)
{
	parser_expect(p, TK_LPAREN, "'('");
	parser_expect(p, TK_RPAREN, "')'");
}

static struct expr *
size(struct parser *p, const struct coll *c, long col)
{
	empty_args(p);
	if (c->distinct && c->val != NULL)
		return agg(p, AGG_DISTINCT, c, c->val, col);
	return agg(p, AGG_COUNT, c, NULL, col);
}

/* one: exactly one node satisfies the condition. */
static struct expr *
one(struct parser *p, const struct coll *c, long col)
{
	struct coll d = *c;

	narrow(p, &d, condition(p, c, "one"), col);
	return compare_count(p, &d, EX_EQ, 1, col);
}

/* terminal: an operation that ends the chain, or NULL if none matched. */
static struct expr *
terminal(struct parser *p, const struct coll *c, long col)
{
	if (word_is(p, "forAll") && (parser_advance(p), 1))
		return agg(p, AGG_FORALL, c, condition(p, c, "forAll"), col);
	if (word_is(p, "exists") && (parser_advance(p), 1))
		return agg(p, AGG_EXISTS, c, condition(p, c, "exists"), col);
	if ((word_is(p, "isUnique") || word_is(p, "unique")) &&
	    (parser_advance(p), 1))
		return agg(p, AGG_UNIQUE, c, value(p, c, "unique", col), col);
	if (word_is(p, "allEqual") && (parser_advance(p), 1))
		return agg(p, AGG_ALLEQUAL, c, value(p, c, "allEqual", col), col);
	if (word_is(p, "count") && (parser_advance(p), 1))
		return count(p, c, col);
	if (word_is(p, "one") && (parser_advance(p), 1))
		return one(p, c, col);
	if (word_is(p, "size") && (parser_advance(p), 1))
		return size(p, c, col);
	if (word_is(p, "sum") && (parser_advance(p), 1))
		return number_of(p, AGG_SUM, c, "sum", col);
	if (word_is(p, "avg") && (parser_advance(p), 1))
		return number_of(p, AGG_AVG, c, "avg", col);
	if (word_is(p, "min") && (parser_advance(p), 1))
		return number_of(p, AGG_MIN, c, "min", col);
	if (word_is(p, "max") && (parser_advance(p), 1))
		return number_of(p, AGG_MAX, c, "max", col);
	if (word_is(p, "includes") && (parser_advance(p), 1))
		return includes(p, c, 0, col);
	if (word_is(p, "excludes") && (parser_advance(p), 1))
		return includes(p, c, 1, col);
	if (word_is(p, "isEmpty") && (parser_advance(p), empty_args(p), 1))
		return compare_count(p, c, EX_EQ, 0, col);
	if (word_is(p, "notEmpty") && (parser_advance(p), empty_args(p), 1))
		return compare_count(p, c, EX_GE, 1, col);
	return NULL;
}

/* step: select, reject, collect, asSet; 0 when the word is none. */
static int
step(struct parser *p, struct coll *c, long col)
{
	struct expr *e;

	if (word_is(p, "select") || word_is(p, "reject")) {
		int reject = word_is(p, "reject");

		parser_advance(p);
		e = condition(p, c, reject ? "reject" : "select");
		if (reject) {
			struct expr *n = parser_node(p, EX_NOT, col);

			n->l = e;
			n->type = T_BOOL;
			n->per_node = e->per_node;
			e = n;
		}
		narrow(p, c, e, col);
	} else if (word_is(p, "collect")) {
		parser_advance(p);
		c->val = body(p, c, 0);
	} else if (word_is(p, "asSet") || word_is(p, "asOrderedSet")) {
		parser_advance(p);
		empty_args(p);
		c->distinct = 1;
	} else if (word_is(p, "asBag") || word_is(p, "asSequence")) {
		parser_advance(p);
		empty_args(p);
	} else {
		return 0;
	}
	return 1;
}

static struct expr *
operation(struct parser *p, struct coll *c)
{
	struct expr *e;
	long col = p->tok.col;

	if (p->tok.kind != TK_IDENT)
		parser_unexpected(p, "an operation");
	if ((e = terminal(p, c, col)) != NULL || step(p, c, col))
		return e;
	parser_fail(p, col, "unknown operation '%.*s' on nodes",
	    (int)p->tok.len, p->src->text + p->tok.start);
}

struct expr *
parser_nodes(struct parser *p)
{
	struct coll c = { NULL, NULL, 0 };
	struct expr *e;

	parser_advance(p);
	for (;;) {
		if (p->tok.kind == TK_ARROW || (p->tok.kind == TK_DOT &&
		    parser_peek(p, 2).kind == TK_LPAREN)) {
			parser_advance(p);
			if ((e = operation(p, &c)) != NULL)
				return e;
		} else if (p->tok.kind == TK_DOT && c.val == NULL) {
			parser_advance(p);
			c.val = parser_path(p, 0);
		} else {
			parser_unexpected(p, "an operation such as "
			    "->forAll(...) or .sum(...)");
		}
	}
}
