/* eval.c: per-node expressions evaluated for one offer (see expr.h). */
#include <ctype.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "expr.h"

static struct val
mkbool(int b)
{
	struct val v = { V_BOOL, b ? 1 : 0, NULL, 0 };

	return v;
}

static struct val
mknum(double x)
{
	struct val v = { V_NUM, x, NULL, 0 };

	return v;
}

static const struct val none = { V_NONE, 0, NULL, 0 };

static struct val
arith(enum ex_kind k, struct val a, struct val b)
{
	if (a.kind != V_NUM || b.kind != V_NUM)
		return none;
	switch (k) {
	case EX_ADD: return mknum(a.num + b.num);
	case EX_SUB: return mknum(a.num - b.num);
	case EX_MUL: return mknum(a.num * b.num);
	default: return b.num == 0 ? none : mknum(a.num / b.num);
	}
}

/* order: <0, 0, >0 like strcmp; strings only meet = and <>. */
static int
order(struct val a, struct val b, int ci)
{
	if (a.kind == V_STR)
		return ci ? strcasecmp(a.str, b.str) : strcmp(a.str, b.str);
	return (a.num > b.num) - (a.num < b.num);
}

static struct val
compare(enum ex_kind k, struct val a, struct val b, int ci)
{
	int c;

	if (a.kind == V_NONE || b.kind == V_NONE || a.kind != b.kind)
		return mkbool(0);
	c = order(a, b, ci);
	switch (k) {
	case EX_EQ: return mkbool(c == 0);
	case EX_NE: return mkbool(c != 0);
	case EX_LT: return mkbool(c < 0);
	case EX_LE: return mkbool(c <= 0);
	case EX_GT: return mkbool(c > 0);
	default: return mkbool(c >= 0);
	}
}

static int
truth(struct val v)
{
	return v.kind == V_BOOL && v.num != 0;
}

static struct val
member(const struct expr *e, const struct mc_model *m, size_t o)
{
	struct val x = eval(e->l, m, o);
	size_t i;

	for (i = 0; i < e->nitems; i++)
		if (truth(compare(EX_EQ, x, eval(e->items[i], m, o), e->ci)))
			return mkbool(!e->negate);
	return mkbool(x.kind != V_NONE && e->negate);
}

static struct val
logic(const struct expr *e, const struct mc_model *m, size_t o)
{
	int a = truth(eval(e->l, m, o));

	switch (e->kind) {
	case EX_AND: return mkbool(a && truth(eval(e->r, m, o)));
	case EX_OR: return mkbool(a || truth(eval(e->r, m, o)));
	case EX_XOR: return mkbool(a != truth(eval(e->r, m, o)));
	default: return mkbool(!a || truth(eval(e->r, m, o)));
	}
}

struct val
eval(const struct expr *e, const struct mc_model *m, size_t o)
{
	struct val v = none;

	switch (e->kind) {
	case EX_NUM: return mknum(e->num);
	case EX_BOOL: return mkbool(e->num != 0);
	case EX_STR:
		v.kind = V_STR;
		v.str = e->str;
		v.ci = e->ci;
		return v;
	case EX_ATTR: return attr_value(m, o, e->attr);
	case EX_NEG:
		v = eval(e->l, m, o);
		return v.kind == V_NUM ? mknum(-v.num) : none;
	case EX_NOT: return mkbool(!truth(eval(e->l, m, o)));
	case EX_ADD: case EX_SUB: case EX_MUL: case EX_DIV:
		return arith(e->kind, eval(e->l, m, o), eval(e->r, m, o));
	case EX_EQ: case EX_NE: case EX_LT: case EX_LE: case EX_GT: case EX_GE:
		return compare(e->kind, eval(e->l, m, o), eval(e->r, m, o),
		    e->ci);
	case EX_AND: case EX_OR: case EX_XOR: case EX_IMPLIES:
		return logic(e, m, o);
	case EX_IN: return member(e, m, o);
	default: return none;
	}
}

int
eval_true(const struct expr *e, const struct mc_model *m, size_t o)
{
	return e == NULL || truth(eval(e, m, o));
}

const char *
val_key(struct val v, char *buf, size_t size)
{
	size_t i, n;

	switch (v.kind) {
	case V_NUM:
		snprintf(buf, size, "n:%.17g", v.num);
		break;
	case V_BOOL:
		snprintf(buf, size, "b:%d", v.num != 0);
		break;
	case V_STR:
		/* As snprintf "s:%s" would, without it: once per offer. */
		n = strlen(v.str);
		if (n > size - 3)
			n = size - 3;
		memcpy(buf, "s:", 2);
		memcpy(buf + 2, v.str, n);
		buf[n + 2] = '\0';
		for (i = 2; v.ci && buf[i] != '\0'; i++)
			buf[i] = (char)toupper((unsigned char)buf[i]);
		break;
	default:
		snprintf(buf, size, "-");
	}
	return buf;
}
