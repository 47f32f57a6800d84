/*
 * primary.c: the smallest pieces of a requirement: numbers, strings,
 * enumeration literals (OSFamily::UBUNTU), attribute paths of a node
 * (n.hardware.cores, node.cores, location.country), Set{...} literals
 * with ->includes/->excludes, and minimise/maximise.
 */
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "parser.h"

static int
word_is(const struct parser *p, const char *w)
{
	return tok_is_word(&p->lx, &p->tok, w);
}

static struct expr *
number(struct parser *p)
{
	struct expr *e = parser_node(p, EX_NUM, p->tok.col);

	e->num = p->tok.num;
	e->type = T_NUM;
	parser_advance(p);
	return e;
}

static struct expr *
string(struct parser *p)
{
	struct expr *e = parser_node(p, EX_STR, p->tok.col);

	e->str = arena_strndup(p->ar, p->src->text + p->tok.start + 1,
	    p->tok.len - 2);
	e->type = T_STR;
	parser_advance(p);
	return e;
}

static struct expr *
boolean(struct parser *p)
{
	struct expr *e = parser_node(p, EX_BOOL, p->tok.col);

	e->num = word_is(p, "true");
	e->type = T_BOOL;
	parser_advance(p);
	return e;
}

/* enumeration: Type::LITERAL, a case-insensitive string. */
static struct expr *
enumeration(struct parser *p)
{
	struct expr *e = parser_node(p, EX_STR, p->tok.col);
	char *type = arena_strndup(p->ar, p->src->text + p->tok.start,
	    p->tok.len);

	if (!enum_known(type))
		parser_fail(p, p->tok.col, "unknown enumeration '%s' (known: "
		    "OSFamily, OSArchitecture, CloudType, LocationScope, "
		    "NodeType)", type);
	parser_advance(p);
	parser_advance(p);
	if (p->tok.kind != TK_IDENT)
		parser_unexpected(p, "a literal");
	e->str = arena_strndup(p->ar, p->src->text + p->tok.start, p->tok.len);
	e->type = T_STR;
	e->ci = 1;
	parser_advance(p);
	return e;
}

/* find_var: the innermost binding of the current identifier. */
static struct binding *
find_var(struct parser *p)
{
	int i;

	for (i = p->nvars - 1; i >= 0; i--)
		if (p->vars[i].len == p->tok.len && memcmp(p->vars[i].name,
		    p->src->text + p->tok.start, p->tok.len) == 0)
			return &p->vars[i];
	return NULL;
}

static struct expr *
attribute(struct parser *p, const char *path, long col, size_t start)
{
	struct expr *e = parser_node(p, EX_ATTR, col);
	enum ex_type type;

	if ((e->attr = attr_lookup(path, &type, &e->ci)) < 0)
		parser_fail(p, col, "unknown attribute '%s'", path);
	e->type = type;
	e->per_node = 1;
	p->after_start = start;
	return e;
}

/*
 * path: IDENT {. IDENT} naming a node's attribute.  With prefixed set,
 * the first identifier is the node itself (an iterator variable or the
 * paper's "node") and the path starts after it.
 */
struct expr *
parser_path(struct parser *p, int prefixed)
{
	char buf[256];
	size_t len = 0, room, start = p->tok.start;
	long col = p->tok.col;

	buf[0] = '\0';
	if (prefixed) {
		parser_advance(p);
		if (p->tok.kind != TK_DOT)
			return attribute(p, "id", col, start);
		parser_advance(p);
	}
	for (;;) {
		if (p->tok.kind != TK_IDENT)
			parser_unexpected(p, "an attribute name");
		/*
		 * Once the path is too long, only count: buf + len would
		 * point past the end of buf even with a size of 0.
		 */
		room = len < sizeof buf ? sizeof buf - len : 0;
		len += (size_t)snprintf(room > 0 ? buf + len : NULL, room,
		    "%s%.*s", len ? "." : "", (int)p->tok.len,
		    p->src->text + p->tok.start);
		parser_advance(p);
		if (p->tok.kind != TK_DOT || parser_peek(p, 1).kind != TK_IDENT ||
		    parser_peek(p, 2).kind == TK_LPAREN)
			break;
		parser_advance(p);
	}
	if (len >= sizeof buf)
		parser_fail(p, col, "attribute path too long");
	p->after_len = p->after_start + p->after_len - start;
	return attribute(p, buf, col, start);
}

static struct expr *
variable(struct parser *p, struct binding *b)
{
	struct expr *v = b->value;

	if (v == NULL)
		return parser_path(p, 1);
	parser_advance(p);
	if (p->tok.kind == TK_DOT)
		parser_fail(p, p->tok.col, "'%s' is a collected value, not a "
		    "node", b->name);
	return v;
}

static struct expr *
objective(struct parser *p, int maximise)
{
	struct expr *e = parser_node(p, EX_OBJECTIVE, p->tok.col);

	parser_advance(p);
	parser_expect(p, TK_LPAREN, "'('");
	e->l = parser_expr(p);
	e->maximise = maximise;
	parser_want_type(p, e->l, T_NUM, maximise ? "maximise" : "minimise");
	if (e->l->per_node)
		parser_fail(p, e->l->col, "%s needs an aggregate over nodes "
		    "such as nodes.sum(price)", maximise ? "maximise" :
		    "minimise");
	parser_expect(p, TK_RPAREN, "')'");
	e->type = T_BOOL;
	return e;
}

static void
set_items(struct parser *p, struct expr *e)
{
	struct expr *items[256];

	parser_advance(p);
	parser_expect(p, TK_LBRACE, "'{'");
	while (p->tok.kind != TK_RBRACE) {
		if (e->nitems == sizeof items / sizeof items[0])
			parser_fail(p, p->tok.col, "set too long");
		items[e->nitems] = parser_expr(p);
		if (items[e->nitems]->per_node || items[e->nitems]->nodes)
			parser_fail(p, items[e->nitems]->col, "set items must "
			    "be constants");
		if (items[e->nitems]->type != items[0]->type)
			parser_fail(p, items[e->nitems]->col, "set items must "
			    "all be numbers or all strings");
		e->ci |= items[e->nitems++]->ci;
		if (p->tok.kind != TK_COMMA)
			break;
		parser_advance(p);
	}
	parser_expect(p, TK_RBRACE, "'}'");
	e->items = arena_alloc(p->ar, (e->nitems + 1) * sizeof *e->items);
	memcpy(e->items, items, e->nitems * sizeof *items);
}

/* set_op: Set{...}->includes(x), ->excludes(x) or ->size(). */
static struct expr *
set_literal(struct parser *p)
{
	struct expr *e = parser_node(p, EX_IN, p->tok.col);
	long col;

	set_items(p, e);
	parser_expect(p, TK_ARROW, "'->includes(...)'");
	col = p->tok.col;
	if (word_is(p, "size")) {
		e->kind = EX_NUM;
		e->num = (double)e->nitems;
		e->type = T_NUM;
		parser_advance(p);
		parser_expect(p, TK_LPAREN, "'('");
		parser_expect(p, TK_RPAREN, "')'");
		return e;
	}
	if (!word_is(p, "includes") && !word_is(p, "excludes"))
		parser_unexpected(p, "includes, excludes or size");
	e->negate = word_is(p, "excludes");
	parser_advance(p);
	parser_expect(p, TK_LPAREN, "'('");
	e->l = parser_expr(p);
	if (e->nitems > 0 && e->l->type != e->items[0]->type)
		parser_fail(p, e->l->col, "the set holds %s, not %s",
		    e->items[0]->type == T_NUM ? "numbers" : "strings",
		    e->l->type == T_NUM ? "numbers" : "strings");
	parser_expect(p, TK_RPAREN, "')'");
	e->type = T_BOOL;
	e->ci |= e->l->ci;
	e->per_node = e->l->per_node;
	e->nodes = e->l->nodes;
	e->col = col;
	return e;
}

static struct expr *
word(struct parser *p)
{
	struct token next = parser_peek(p, 1);
	struct binding *b;

	if (word_is(p, "nodes"))
		return parser_nodes(p);
	if (word_is(p, "true") || word_is(p, "false"))
		return boolean(p);
	if (next.kind == TK_LPAREN && (word_is(p, "minimise") ||
	    word_is(p, "minimize") || word_is(p, "Minimise") ||
	    word_is(p, "Minimize")))
		return objective(p, 0);
	if (next.kind == TK_LPAREN && (word_is(p, "maximise") ||
	    word_is(p, "maximize") || word_is(p, "Maximise") ||
	    word_is(p, "Maximize")))
		return objective(p, 1);
	if (next.kind == TK_LBRACE && (word_is(p, "Set") ||
	    word_is(p, "Sequence") || word_is(p, "Bag") ||
	    word_is(p, "OrderedSet")))
		return set_literal(p);
	if (next.kind == TK_COLONS)
		return enumeration(p);
	if ((b = find_var(p)) != NULL)
		return variable(p, b);
	if (word_is(p, "node") && next.kind == TK_DOT)
		return parser_path(p, 1);
	return parser_path(p, 0);
}

struct expr *
parser_primary(struct parser *p)
{
	struct expr *e;

	switch (p->tok.kind) {
	case TK_NUM:
		return number(p);
	case TK_STR:
		return string(p);
	case TK_IDENT:
		return word(p);
	case TK_LPAREN:
		parser_advance(p);
		e = parser_expr(p);
		parser_expect(p, TK_RPAREN, "')'");
		return e;
	default:
		parser_unexpected(p, "a value");
	}
}
