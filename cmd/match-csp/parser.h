/* parser.h: the parser's state, shared by parser.c and primary.c. */
#ifndef MATCH_CSP_PARSER_H
#define MATCH_CSP_PARSER_H

#include <setjmp.h>

#include "expr.h"
#include "lexer.h"

#define PARSER_MAX_VARS 16

/* An iterator variable: bound to the node itself or to a collected value. */
struct binding {
	const char *name;
	size_t len;
	struct expr *value;	/* NULL: the node */
};

struct parser {
	struct lexer lx;
	struct token tok;		/* the current token */
	size_t after_start, after_len;	/* the last unit read, for messages */
	struct arena *ar;
	const struct src *src;
	jmp_buf fail;
	struct binding vars[PARSER_MAX_VARS];
	int nvars;
};

_Noreturn void parser_fail(struct parser *p, long col, const char *fmt, ...)
    DIAG_PRINTF(3, 4);
_Noreturn void parser_unexpected(struct parser *p, const char *wanted);
void parser_advance(struct parser *p);
/* parser_peek: the token n places after the current one. */
struct token parser_peek(const struct parser *p, int n);
void parser_expect(struct parser *p, enum tok_kind k, const char *what);
struct expr *parser_node(struct parser *p, enum ex_kind kind, long col);
struct expr *parser_binary(struct parser *p, enum ex_kind kind,
    struct expr *l, struct expr *r, long col);
void parser_want_type(struct parser *p, const struct expr *e,
    enum ex_type t, const char *where);
struct expr *parser_expr(struct parser *p);
/* primary.c: literals, attribute paths, Set{...}, objectives, nodes. */
struct expr *parser_primary(struct parser *p);
/* parser_path: a node's attribute path; prefixed: starts with the node. */
struct expr *parser_path(struct parser *p, int prefixed);
/* collection.c: "nodes" followed by its operations. */
struct expr *parser_nodes(struct parser *p);

#endif
