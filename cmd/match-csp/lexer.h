/*
 * lexer.h: tokens of the constraint language.  Columns count characters
 * (UTF-8 code points) from 1, so a position points where a reader looks.
 * The Unicode forms of the operators (≥ ≤ ≠ ∧ ∨ ¬ ⇒ →) are the same
 * tokens as their ASCII spellings.
 */
#ifndef MATCH_CSP_LEXER_H
#define MATCH_CSP_LEXER_H

#include <stddef.h>

enum tok_kind {
	TK_END, TK_NUM, TK_STR, TK_IDENT, TK_LPAREN, TK_RPAREN, TK_LBRACE,
	TK_RBRACE, TK_COMMA, TK_DOT, TK_ARROW, TK_BAR, TK_COLONS, TK_COLON,
	TK_PLUS, TK_MINUS, TK_STAR, TK_SLASH,
	TK_EQ, TK_NE, TK_LT, TK_LE, TK_GT, TK_GE,
	TK_AND, TK_OR, TK_XOR, TK_NOT, TK_IMPLIES, TK_BAD
};

struct token {
	enum tok_kind kind;
	size_t start, len;	/* bytes in the source */
	long col;		/* 1-based character column */
	double num;
};

struct lexer {
	const char *src;
	size_t pos;		/* byte offset */
	long col;		/* column of pos */
};

void lexer_init(struct lexer *lx, const char *src);
/* lexer_next: the next token; TK_BAD for a character that is none. */
struct token lexer_next(struct lexer *lx);
/* tok_is_word: the token is the identifier or keyword w. */
int tok_is_word(const struct lexer *lx, const struct token *t, const char *w);

#endif
