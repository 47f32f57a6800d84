/*
 * parser.c: recursive descent over both spellings of the constraint
 * language (see expr.h).  Precedence, loosest first: implies, or/xor,
 * and, not, comparisons, + -, * /, unary minus, then primaries with
 * their ".op(...)" or "->op(...)" chains.  The first error ends the
 * parse with a located message (a longjmp back to parse_requirement;
 * the tree lives in the arena, so nothing leaks).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "expr.h"
#include "lexer.h"
#include "parser.h"

_Noreturn void
parser_fail(struct parser *p, long col, const char *fmt, ...)
{
	char msg[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	src_error(p->src, col, "%s", msg);
	longjmp(p->fail, 1);
}

/* after: "after 'x'" naming the last complete unit, or "" at the start. */
static const char *
after(struct parser *p, char *buf, size_t size)
{
	if (p->after_len == 0)
		return "";
	snprintf(buf, size, " after '%.*s'", (int)(p->after_len > 60 ? 60 :
	    p->after_len), p->src->text + p->after_start);
	return buf;
}

void
parser_advance(struct parser *p)
{
	p->after_start = p->tok.start;
	p->after_len = p->tok.len;
	p->tok = lexer_next(&p->lx);
	if (p->tok.kind == TK_BAD && p->src->text[p->tok.start] != '\'' &&
	    p->src->text[p->tok.start] != '"')
		parser_fail(p, p->tok.col, "unexpected character '%.*s'",
		    (int)p->tok.len, p->src->text + p->tok.start);
	if (p->tok.kind == TK_BAD)
		parser_fail(p, p->tok.col, "string not closed");
}

struct token
parser_peek(const struct parser *p, int n)
{
	struct lexer copy = p->lx;
	struct token t = p->tok;

	while (n-- > 0)
		t = lexer_next(&copy);
	return t;
}

void
parser_expect(struct parser *p, enum tok_kind k, const char *what)
{
	char buf[96];

	if (p->tok.kind != k)
		parser_fail(p, p->tok.col, "expected %s%s", what, after(p, buf,
		    sizeof buf));
	parser_advance(p);
}

/* parser_unexpected: the current token cannot start or continue here. */
_Noreturn void
parser_unexpected(struct parser *p, const char *wanted)
{
	char buf[96];

	if (p->tok.kind == TK_END)
		parser_fail(p, p->tok.col, "expected %s%s, found the end", wanted,
		    after(p, buf, sizeof buf));
	parser_fail(p, p->tok.col, "expected %s%s, found '%.*s'", wanted,
	    after(p, buf, sizeof buf), (int)p->tok.len,
	    p->src->text + p->tok.start);
}

struct expr *
parser_node(struct parser *p, enum ex_kind kind, long col)
{
	struct expr *e = arena_alloc(p->ar, sizeof *e);

	e->kind = kind;
	e->col = col;
	return e;
}

static const char *
type_name(enum ex_type t)
{
	return t == T_NUM ? "a number" : t == T_STR ? "a string" :
	    "a condition";
}

void
parser_want_type(struct parser *p, const struct expr *e, enum ex_type t,
    const char *where)
{
	if (e->type != t)
		parser_fail(p, e->col, "%s needs %s, not %s", where, type_name(t),
		    type_name(e->type));
}

static const char *const op_names[] = {
	[EX_ADD] = "+", [EX_SUB] = "-", [EX_MUL] = "*", [EX_DIV] = "/",
	[EX_EQ] = "=", [EX_NE] = "<>", [EX_LT] = "<", [EX_LE] = "<=",
	[EX_GT] = ">", [EX_GE] = ">=", [EX_AND] = "and", [EX_OR] = "or",
	[EX_XOR] = "xor", [EX_IMPLIES] = "implies",
};

/* check_operands: types of a binary operator's sides. */
static void
check_operands(struct parser *p, struct expr *e)
{
	const char *op = op_names[e->kind];
	char where[32];

	snprintf(where, sizeof where, "'%s'", op);
	if (e->kind <= EX_DIV) {
		parser_want_type(p, e->l, T_NUM, where);
		parser_want_type(p, e->r, T_NUM, where);
		e->type = T_NUM;
	} else if (e->kind <= EX_GE) {
		if (e->l->type != e->r->type)
			parser_fail(p, e->col, "'%s' compares %s with %s", op,
			    type_name(e->l->type), type_name(e->r->type));
		if (e->kind >= EX_LT && e->l->type != T_NUM)
			parser_fail(p, e->col, "'%s' needs numbers, not %s", op,
			    type_name(e->l->type));
		e->type = T_BOOL;
	} else {
		parser_want_type(p, e->l, T_BOOL, where);
		parser_want_type(p, e->r, T_BOOL, where);
		e->type = T_BOOL;
	}
}

struct expr *
parser_binary(struct parser *p, enum ex_kind kind, struct expr *l,
    struct expr *r, long col)
{
	struct expr *e = parser_node(p, kind, col);

	e->l = l;
	e->r = r;
	check_operands(p, e);
	e->ci = l->ci || r->ci;
	e->nodes = l->nodes || r->nodes;
	e->per_node = l->per_node || r->per_node;
	if (kind < EX_AND && l->nodes != r->nodes &&
	    (l->per_node || r->per_node))
		parser_fail(p, col, "'%s' mixes a node's attribute with an aggregate "
		    "over nodes", op_names[kind]);
	return e;
}

static struct expr *parse_cmp(struct parser *p);
static struct expr *parse_not(struct parser *p);
static struct expr *parse_unary(struct parser *p);
static struct expr *binary(struct parser *p, int level);

/* Left-associative binary operators by level, loosest first. */
static const struct {
	enum tok_kind tok;
	enum ex_kind kind;
	int level;
} binops[] = {
	{ TK_OR, EX_OR, 0 }, { TK_XOR, EX_XOR, 0 }, { TK_AND, EX_AND, 1 },
	{ TK_PLUS, EX_ADD, 2 }, { TK_MINUS, EX_SUB, 2 },
	{ TK_STAR, EX_MUL, 3 }, { TK_SLASH, EX_DIV, 3 },
};

/* prefix: "not x" or "-x"; type is both the operand's and the result's. */
static struct expr *
prefix(struct parser *p, enum ex_kind kind, enum ex_type type,
    struct expr *(*next)(struct parser *), const char *what)
{
	struct expr *e = parser_node(p, kind, p->tok.col);

	parser_advance(p);
	e->l = next(p);
	parser_want_type(p, e->l, type, what);
	e->type = type;
	e->nodes = e->l->nodes;
	e->per_node = e->l->per_node;
	return e;
}

static struct expr *
parse_not(struct parser *p)
{
	if (p->tok.kind != TK_NOT)
		return parse_cmp(p);
	return prefix(p, EX_NOT, T_BOOL, parse_not, "'not'");
}

/* operand: what the operators of a level combine. */
static struct expr *
operand(struct parser *p, int level)
{
	switch (level) {
	case 0: return binary(p, 1);
	case 1: return parse_not(p);
	case 2: return binary(p, 3);
	default: return parse_unary(p);
	}
}

static struct expr *
binary(struct parser *p, int level)
{
	struct expr *e = operand(p, level);
	size_t i;
	long col;

	for (;;) {
		for (i = 0; i < sizeof binops / sizeof binops[0]; i++)
			if (binops[i].tok == p->tok.kind &&
			    binops[i].level == level)
				break;
		if (i == sizeof binops / sizeof binops[0])
			return e;
		col = p->tok.col;
		parser_advance(p);
		e = parser_binary(p, binops[i].kind, e, operand(p, level), col);
	}
}

struct expr *
parser_expr(struct parser *p)
{
	struct expr *e = binary(p, 0);
	long col;

	if (p->tok.kind != TK_IMPLIES)
		return e;
	col = p->tok.col;
	parser_advance(p);
	return parser_binary(p, EX_IMPLIES, e, parser_expr(p), col);
}

static enum ex_kind
relop(enum tok_kind k)
{
	switch (k) {
	case TK_EQ: return EX_EQ;
	case TK_NE: return EX_NE;
	case TK_LT: return EX_LT;
	case TK_LE: return EX_LE;
	case TK_GT: return EX_GT;
	case TK_GE: return EX_GE;
	default: return EX_NUM;
	}
}

static struct expr *
parse_cmp(struct parser *p)
{
	struct expr *e = binary(p, 2);
	enum ex_kind k = relop(p->tok.kind);
	long col = p->tok.col;

	if (k == EX_NUM)
		return e;
	parser_advance(p);
	e = parser_binary(p, k, e, binary(p, 2), col);
	if (relop(p->tok.kind) != EX_NUM)
		parser_fail(p, p->tok.col, "comparisons do not chain; use 'and'");
	return e;
}

static struct expr *
parse_unary(struct parser *p)
{
	if (p->tok.kind != TK_MINUS)
		return parser_primary(p);
	return prefix(p, EX_NEG, T_NUM, parse_unary, "'-'");
}

/* contains_objective: minimise/maximise below the root. */
static const struct expr *
nested_objective(const struct expr *e)
{
	const struct expr *f;
	size_t i;

	if (e == NULL)
		return NULL;
	if (e->kind == EX_OBJECTIVE)
		return e;
	if ((f = nested_objective(e->l)) || (f = nested_objective(e->r)) ||
	    (f = nested_objective(e->sel)) || (f = nested_objective(e->arg)))
		return f;
	for (i = 0; i < e->nitems; i++)
		if ((f = nested_objective(e->items[i])) != NULL)
			return f;
	return NULL;
}

struct expr *
parse_requirement(struct arena *ar, const struct src *s)
{
	struct parser p;
	struct expr *e;
	const struct expr *obj;

	memset(&p, 0, sizeof p);
	p.ar = ar;
	p.src = s;
	if (setjmp(p.fail))
		return NULL;
	lexer_init(&p.lx, s->text);
	p.tok.kind = TK_END;
	parser_advance(&p);
	p.after_len = 0;
	if (p.tok.kind == TK_END)
		parser_fail(&p, 1, "empty requirement");
	e = parser_expr(&p);
	if (p.tok.kind != TK_END)
		parser_unexpected(&p, "an operator or the end");
	obj = e->kind == EX_OBJECTIVE ? NULL : nested_objective(e);
	if (obj != NULL)
		parser_fail(&p, obj->col, "minimise(...) and maximise(...) must "
		    "be requirements of their own");
	if (e->type != T_BOOL && e->kind != EX_OBJECTIVE)
		parser_fail(&p, e->col, "a requirement must be a condition or an "
		    "objective, not %s", type_name(e->type));
	return e;
}

void
src_error(const struct src *s, long col, const char *fmt, ...)
{
	char where[128];
	va_list ap;

	snprintf(where, sizeof where, "%s:%ld", s->path, col);
	va_start(ap, fmt);
	diag_vpath(s->file, where, fmt, ap);
	va_end(ap);
}
