/* lexer.c: split a requirement into tokens (see lexer.h). */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "lexer.h"

/* Multi-character operators, longest first where they share a prefix. */
static const struct {
	const char *text;
	enum tok_kind kind;
} ops[] = {
	{ "\xe2\x89\xa5", TK_GE }, { "\xe2\x89\xa4", TK_LE },
	{ "\xe2\x89\xa0", TK_NE }, { "\xe2\x88\xa7", TK_AND },
	{ "\xe2\x88\xa8", TK_OR }, { "\xc2\xac", TK_NOT },
	{ "\xe2\x87\x92", TK_IMPLIES }, { "\xe2\x86\x92", TK_IMPLIES },
	{ "\xe2\x9f\xb9", TK_IMPLIES },
	{ "->", TK_ARROW }, { "=>", TK_IMPLIES }, { "==", TK_EQ },
	{ "!=", TK_NE }, { "<>", TK_NE }, { "<=", TK_LE }, { ">=", TK_GE },
	{ "&&", TK_AND }, { "||", TK_OR }, { "::", TK_COLONS },
	{ "(", TK_LPAREN }, { ")", TK_RPAREN }, { "{", TK_LBRACE },
	{ "}", TK_RBRACE }, { ",", TK_COMMA }, { ".", TK_DOT },
	{ "|", TK_BAR }, { ":", TK_COLON }, { "+", TK_PLUS },
	{ "-", TK_MINUS }, { "*", TK_STAR }, { "/", TK_SLASH },
	{ "=", TK_EQ }, { "<", TK_LT }, { ">", TK_GT }, { "!", TK_NOT },
};

/* Keyword operators. */
static const struct {
	const char *word;
	enum tok_kind kind;
} words[] = {
	{ "and", TK_AND }, { "or", TK_OR }, { "xor", TK_XOR },
	{ "not", TK_NOT }, { "implies", TK_IMPLIES },
};

void
lexer_init(struct lexer *lx, const char *src)
{
	lx->src = src;
	lx->pos = 0;
	lx->col = 1;
}

/* advance: move n bytes, counting columns in code points. */
static void
advance(struct lexer *lx, size_t n)
{
	size_t end = lx->pos + n;

	for (; lx->pos < end; lx->pos++)
		if (((unsigned char)lx->src[lx->pos] & 0xc0) != 0x80)
			lx->col++;
}

static void
scan_number(struct lexer *lx, struct token *t)
{
	const char *s = lx->src + lx->pos;
	size_t n = 0;

	while (isdigit((unsigned char)s[n]))
		n++;
	if (s[n] == '.' && isdigit((unsigned char)s[n + 1]))
		for (n++; isdigit((unsigned char)s[n]); n++)
			;
	if ((s[n] == 'e' || s[n] == 'E') && (isdigit((unsigned char)s[n + 1]) ||
	    ((s[n + 1] == '+' || s[n + 1] == '-') &&
	    isdigit((unsigned char)s[n + 2]))))
		for (n += 2; isdigit((unsigned char)s[n]); n++)
			;
	t->kind = TK_NUM;
	t->num = strtod(s, NULL);
	advance(lx, n);
}

static void
scan_string(struct lexer *lx, struct token *t)
{
	char q = lx->src[lx->pos];
	size_t n = 1;

	while (lx->src[lx->pos + n] != '\0' && lx->src[lx->pos + n] != q)
		n++;
	t->kind = lx->src[lx->pos + n] == q ? TK_STR : TK_BAD;
	advance(lx, lx->src[lx->pos + n] == q ? n + 1 : n);
}

static void
scan_word(struct lexer *lx, struct token *t)
{
	const char *s = lx->src + lx->pos;
	size_t n = 0, i;

	while (isalnum((unsigned char)s[n]) || s[n] == '_')
		n++;
	t->kind = TK_IDENT;
	for (i = 0; i < sizeof words / sizeof words[0]; i++)
		if (strlen(words[i].word) == n && memcmp(s, words[i].word, n) == 0)
			t->kind = words[i].kind;
	advance(lx, n);
}

static int
scan_op(struct lexer *lx, struct token *t)
{
	const char *s = lx->src + lx->pos;
	size_t i, n;

	for (i = 0; i < sizeof ops / sizeof ops[0]; i++) {
		n = strlen(ops[i].text);
		if (strncmp(s, ops[i].text, n) == 0) {
			t->kind = ops[i].kind;
			advance(lx, n);
			return 1;
		}
	}
	return 0;
}

/* bad_char: one whole (possibly multi-byte) character. */
static void
bad_char(struct lexer *lx, struct token *t)
{
	size_t n = 1;

	while ((lx->src[lx->pos + n] & 0xc0) == 0x80)
		n++;
	t->kind = TK_BAD;
	advance(lx, n);
}

struct token
lexer_next(struct lexer *lx)
{
	struct token t = { TK_END, 0, 0, 0, 0 };
	unsigned char c;

	while (isspace((unsigned char)lx->src[lx->pos]))
		advance(lx, 1);
	t.start = lx->pos;
	t.col = lx->col;
	c = (unsigned char)lx->src[lx->pos];
	if (c == '\0')
		return t;
	if (isdigit(c))
		scan_number(lx, &t);
	else if (c == '\'' || c == '"')
		scan_string(lx, &t);
	else if (isalpha(c) || c == '_')
		scan_word(lx, &t);
	else if (!scan_op(lx, &t))
		bad_char(lx, &t);
	t.len = lx->pos - t.start;
	return t;
}

int
tok_is_word(const struct lexer *lx, const struct token *t, const char *w)
{
	return (t->kind == TK_IDENT || (t->kind >= TK_AND &&
	    t->kind <= TK_IMPLIES)) && strlen(w) == t->len &&
	    memcmp(lx->src + t->start, w, t->len) == 0;
}
