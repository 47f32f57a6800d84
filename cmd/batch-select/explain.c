/*
 * explain.c: the "batch" section: what step 3 decided and every number
 * behind it, including, when nothing goes, why the upgrade is
 * suspended (seed 000 III.A, "dynamicity").
 */
#include <stdio.h>

#include "bs.h"

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

/* suspension: why nothing goes, with the numbers of (3). */
static json_t *
suspension(const struct bs *b)
{
	char buf[768], note[192];
	size_t g, eliminated = 0;

	for (g = 0; g < b->in.cg.ngroups; g++)
		eliminated += b->why[g] != NULL;
	if (eliminated == 0)
		return json_string("no resource group has remaining changes or "
		    "is deactivated");
	reservation_note(b, note, sizeof note);
	snprintf(buf, sizeof buf, "Z_i = %ld (%lld compute hosts not in use - "
	    "%lld scaling (%s) - %lld failover), %zu of %zu tenants at their "
	    "max_n, and the rules eliminate all %zu candidate groups", b->Z,
	    sla_term(b, "not_in_use"), sla_term(b, "scaling_reservation"),
	    note, sla_term(b, "failover_reservation"), tenants_at_max(b),
	    b->in.sc.ntenants, eliminated);
	return json_string(buf);
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
