/*
 * explain.c: the "batch" section: what step 3 decided and every number
 * behind it, including, when nothing goes, why the upgrade is
 * suspended (seed 000 III.A, "dynamicity").
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bs.h"
#include "xalloc.h"

static json_t *
compute_section(const struct bs *b)
{
	json_t *old = json_array(), *nw = json_array(), *o;
	size_t h, used_old = 0, used_new = 0;

	for (h = 0; h < b->cl.nhosts; h++) {
		if (!b->cl.usable[h] || b->cl.part[h] == PART_NONE)
			continue;
		json_array_append_new(b->cl.part[h] == PART_OLD ? old : nw,
		    json_string(cloud_host_id(&b->cl, h)));
		if (b->cl.load[h] > 0)
			++*(b->cl.part[h] == PART_OLD ? &used_old : &used_new);
	}
	o = json_pack("{s:b}", "partitioned", b->cl.partitioned);
	if (b->cl.partitioned)
		json_object_set_new(o, "cause", json_string(b->cl.causes[0].name));
	json_object_set_new(o, "old", old);
	json_object_set_new(o, "new", nw);
	json_object_set_new(o, "used_old", json_integer((json_int_t)used_old));
	json_object_set_new(o, "used_new", json_integer((json_int_t)used_new));
	return o;
}

static size_t
consolidation_moves(const struct bs *b)
{
	size_t i, n = 0;

	for (i = 0; i < b->nmoves; i++)
		n += b->moves[i].kind == MOVE_CONSOLIDATE;
	return n;
}

static size_t
tenants_at_max(const struct bs *b)
{
	size_t n, at = 0;

	for (n = 0; n < b->in.sc.ntenants; n++)
		at += (long)b->in.sc.tenants[n].nvms >= b->in.sc.tenants[n].max;
	return at;
}

static long long
sla_term(const struct bs *b, const char *key)
{
	return (long long)json_integer_value(json_object_get(b->sla, key));
}

/* reservation_note: how the scaling reservation was chosen. */
static void
reservation_note(const struct bs *b, char *buf, size_t size)
{
	const struct reservation *r = &b->res;

	if (r->exact_applies)
		snprintf(buf, size, "exact; equation (4): %ld", r->paper);
	else if (b->o->reservation == SLA_RESERVE_PAPER)
		snprintf(buf, size, "equation (4); exact: %ld", r->exact);
	else if (r->exact >= r->paper)
		snprintf(buf, size, "exact = equation (4)");
	else
		snprintf(buf, size, "equation (4), as the exact %ld and %ld "
		    "failover need hosts that ran no VM before consolidation, "
		    "and %ld do", r->exact, b->F, r->idle);
}

/* The groups one rule eliminates: how many, and the first of them. */
struct rule_tally {
	const char *rule;
	size_t n, first;
};

/* by_groups: the rule eliminating most groups first, then the rule of
 * the first group. */
static int
by_groups(const void *x, const void *y)
{
	const struct rule_tally *a = x, *b = y;

	if (a->n != b->n)
		return a->n > b->n ? -1 : 1;
	return a->first < b->first ? -1 : a->first > b->first;
}

static const char *
why_field(const struct bs *b, size_t g, const char *key)
{
	return json_string_value(json_object_get(b->why[g], key));
}

/* tally_rules: the rules that eliminate groups, most groups first;
 * their count. */
static size_t
tally_rules(const struct bs *b, struct rule_tally *t)
{
	size_t g, k, n = 0;
	const char *rule;

	for (g = 0; g < b->in.cg.ngroups; g++) {
		if (b->why[g] == NULL)
			continue;
		rule = why_field(b, g, "rule");
		for (k = 0; k < n && strcmp(t[k].rule, rule) != 0; k++)
			;
		if (k == n)
			t[n++] = (struct rule_tally){ rule, 0, g };
		t[k].n++;
	}
	qsort(t, n, sizeof *t, by_groups);
	return n;
}

/* example: the first group's reason, named when the reason does not
 * begin with its name. */
static char *
example(const struct bs *b, size_t g)
{
	const char *id = b->in.cg.groups[g].id, *reason = why_field(b, g,
	    "reason");
	size_t len = strlen(id);

	if (strncmp(reason, id, len) == 0 && reason[len] == ' ')
		return xstrdup(reason);
	return xasprintf("%s: %s", id, reason);
}

#define RULES_SHOWN 3

/* binding_rules: "N by RULE (example), ..." for the rules that
 * eliminate the groups, the one eliminating most first. */
static char *
binding_rules(const struct bs *b, size_t eliminated)
{
	struct rule_tally *t = xcalloc(b->in.cg.ngroups, sizeof *t);
	size_t n = tally_rules(b, t), k, rest = eliminated;
	char *s, *e, *next;

	if (eliminated == 1)
		s = xstrdup("the rules eliminate the only candidate group: ");
	else
		s = xasprintf("the rules eliminate all %zu candidate groups: ",
		    eliminated);
	for (k = 0; k < n && k < RULES_SHOWN; k++) {
		e = example(b, t[k].first);
		next = eliminated == 1 ? xasprintf("%s%s (%s)", s, t[k].rule,
		    e) : xasprintf("%s%s%zu by %s (%s)", s, k > 0 ? ", " : "",
		    t[k].n, t[k].rule, e);
		free(e);
		free(s);
		s = next;
		rest -= t[k].n;
	}
	if (n > RULES_SHOWN) {
		next = xasprintf("%s, and %zu by %zu other rule%s", s, rest,
		    n - RULES_SHOWN, n - RULES_SHOWN == 1 ? "" : "s");
		free(s);
		s = next;
	}
	free(t);
	return s;
}

/* suspension: why nothing goes: the rules that eliminate every
 * candidate first, then the numbers of (3). */
static json_t *
suspension(const struct bs *b)
{
	char note[192];
	char *rules, *text;
	size_t g, eliminated = 0;
	json_t *o;

	for (g = 0; g < b->in.cg.ngroups; g++)
		eliminated += b->why[g] != NULL;
	if (eliminated == 0)
		return json_string("no resource group has remaining changes or "
		    "is deactivated");
	reservation_note(b, note, sizeof note);
	rules = binding_rules(b, eliminated);
	text = xasprintf("%s; Z_i = %ld (%lld compute hosts not in use - "
	    "%lld scaling (%s) - %lld failover), %zu of %zu tenants at their "
	    "max_n", rules, b->Z, sla_term(b, "not_in_use"),
	    sla_term(b, "scaling_reservation"), note,
	    sla_term(b, "failover_reservation"), tenants_at_max(b),
	    b->in.sc.ntenants);
	o = json_string(text);
	free(rules);
	free(text);
	return o;
}

json_t *
batch_section(struct bs *b)
{
	json_t *o = json_object(), *elim = json_array();
	size_t g;
	int busy = json_array_size(b->final) > 0 || consolidation_moves(b) > 0;

	for (g = 0; g < b->in.cg.ngroups; g++) {
		if (b->why[g] != NULL)
			json_array_append(elim, b->why[g]);
	}
	json_object_set_new(o, "iteration", json_integer(b->in.rg.iteration));
	/* partitioned: step 4 may still move VMs, so not suspended yet */
	json_object_set_new(o, "status", json_string(busy ? "selected" :
	    b->cl.partitioned ? "empty" : "suspended"));
	if (!busy) {
		json_object_set_new(o, "reason", suspension(b));
		json_object_set_new(o, "advice", b->advice != NULL ?
		    json_incref(b->advice) : advice(b));
	}
	json_object_set_new(o, "compute", compute_section(b));
	json_object_set_new(o, "consolidation", json_pack("{s:I, s:O}",
	    "migrations", (json_int_t)consolidation_moves(b), "freed",
	    b->freed));
	json_object_set_new(o, "initial", json_incref(b->initial));
	json_object_set_new(o, "eliminated", elim);
	json_object_set_new(o, "sla", json_incref(b->sla));
	json_object_set_new(o, "final", json_incref(b->final));
	return o;
}
