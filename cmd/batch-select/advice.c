/*
 * advice.c: when nothing can go, the smallest changes that would let
 * the upgrade proceed (seed 000 IV step 3: "if these cannot be provided
 * using available resources, the administrator is asked to provide
 * additional resources"), each in the operator's units and each enough
 * on its own:
 *
 *   failover     F lowered by the shortfall of Z_i, when F covers it;
 *   add-hosts    that many hosts of K slots in the old partition, or
 *                fewer when new empty hosts let the exact reservation
 *                replace equation (4);
 *   lower-max    the max_n of the tenants with the largest scale-out
 *                lowered until the scaling reservation drops by the
 *                shortfall;
 *   equation-1   the storage hosts equation (1) lacks;
 *   single-homed a group that takes out more compute hosts than all
 *                those not in use (a switch that is the only path of
 *                its hosts): move their VMs off first, or add a path;
 *   sponsors     an aggregate (a storage) that holds its sponsors to
 *                keep its minimum working: the sponsors out of service
 *                to bring back, or one more sponsor.
 *
 * The shortfall is the least, over the groups that compute-capacity
 * eliminated, of the hosts they need beyond what was left: with that
 * much more, that group is taken, as every group before it is taken as
 * now.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bs.h"
#include "sla.h"
#include "xalloc.h"

/* shortfall: the least missing hosts among compute-capacity verdicts,
 * or 0 when none. */
static long
shortfall(const struct bs *b)
{
	long best = 0, d;
	size_t g;

	for (g = 0; g < b->in.cg.ngroups; g++) {
		json_t *w = b->why[g];
		const char *rule = w ? json_string_value(json_object_get(w,
		    "rule")) : NULL;

		if (rule == NULL || strcmp(rule, "compute-capacity") != 0)
			continue;
		d = (long)json_integer_value(json_object_get(w, "needed")) -
		    (long)json_integer_value(json_object_get(w, "available"));
		if (d > 0 && (best == 0 || d < best))
			best = d;
	}
	return best;
}

static void
add(json_t *list, json_t *item, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static void
add(json_t *list, json_t *item, const char *fmt, ...)
{
	char text[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(text, sizeof text, fmt, ap);
	va_end(ap);
	json_object_set_new(item, "text", json_string(text));
	json_array_append_new(list, item);
}

/* lower_max: the new max_n of the fewest tenants (largest scale-out
 * first) so that the exact reservation is at most R hosts. */
static void
lower_max(const struct bs *b, long R, json_t *list)
{
	long K = b->in.sc.host_capacity > 0 ? b->in.sc.host_capacity : 1;
	long *e = xcalloc(b->in.sc.ntenants, sizeof *e), sum = 0, by = 0;
	json_t *tenants = json_array();
	char names[256] = "";
	size_t n, top, count = 0;
	int at = 0;

	for (n = 0; n < b->in.sc.ntenants; n++) {
		e[n] = tenant_scale_out_of(b, n);
		if (e[n] > R)
			e[n] = R;
		sum += e[n];
	}
	while (sum > R * K) {	/* take one VM off the largest */
		for (top = 0, n = 1; n < b->in.sc.ntenants; n++)
			if (e[n] > e[top])
				top = n;
		e[top]--, sum--;
	}
	for (n = 0; n < b->in.sc.ntenants; n++) {
		const struct tenant *t = &b->in.sc.tenants[n];
		long now = tenant_scale_out_of(b, n), max;

		if (e[n] >= now)
			continue;
		max = (long)t->nvms + e[n];
		by += t->max - max;
		json_array_append_new(tenants, json_pack("{s:s, s:I}", "id",
		    t->id, "max", (json_int_t)max));
		if (count++ < 6 && at < (int)sizeof names)
			at += snprintf(names + at, sizeof names - (size_t)at,
			    "%s%s", count > 1 ? ", " : "", t->id);
	}
	if (count > 0)
		add(list, json_pack("{s:s, s:O, s:I}", "kind", "lower-max",
		    "tenants", tenants, "by", (json_int_t)by), "lower the max "
		    "of tenant%s %s%s by %ld VM%s in all", count > 1 ? "s" : "",
		    names, count > 6 ? " and others" : "", by, by == 1 ? "" :
		    "s");
	json_decref(tenants);
	free(e);
}

/*
 * hosts_to_add: d hosts, or fewer when the exact reservation was asked
 * for but fell back to equation (4) for want of hosts that ran no VM
 * before consolidation: new hosts are such hosts, and once exact + F of
 * them exist the exact reservation applies and frees used - exact.
 */
static long
hosts_to_add(const struct bs *b, long d)
{
	const struct reservation *r = &b->res;
	long a;

	if (b->o->reservation != SLA_RESERVE_EXACT || r->exact_applies ||
	    r->exact >= r->paper)
		return d;
	a = d - (r->used - r->exact);
	if (a < r->exact + b->F - r->idle)
		a = r->exact + b->F - r->idle;
	if (a < 1)
		a = 1;
	return a < d ? a : d;
}

static void
capacity_advice(const struct bs *b, json_t *list)
{
	long d = shortfall(b), K = b->in.sc.host_capacity, a;

	if (d == 0)
		return;
	if (b->o->failover.rate <= 0 && b->F >= d)
		add(list, json_pack("{s:s, s:I}", "kind", "failover", "F",
		    (json_int_t)(b->F - d)), "run with failover reserve F = %ld "
		    "(batch-select -f %ld)", b->F - d, b->F - d);
	a = hosts_to_add(b, d);
	add(list, json_pack("{s:s, s:I, s:I}", "kind", "add-hosts", "hosts",
	    (json_int_t)a, "slots", (json_int_t)K), "add %ld host%s of %ld VM "
	    "slots to the old partition%s", a, a == 1 ? "" : "s", K, a < d ?
	    " (empty new hosts let the exact reservation apply)" : "");
	if (b->res.exact_applies && b->res.used >= d)
		lower_max(b, b->res.used - d, list);
}

static void
storage_advice(const struct bs *b, json_t *list)
{
	size_t c;

	for (c = 0; c < b->cl.ncauses && b->eq1 != NULL; c++)
		if (b->eq1[c].rule != NULL)
			add(list, json_pack("{s:s, s:I}", "kind", "equation-1",
			    "hosts", (json_int_t)(b->eq1[c].needed -
			    b->eq1[c].available)), "the new storage needs %ld "
			    "more host%s free for equation (1)",
			    b->eq1[c].needed - b->eq1[c].available,
			    b->eq1[c].needed - b->eq1[c].available == 1 ? "" :
			    "s");
}

/* single_homed_advice: groups that take out more compute hosts than
 * there are not in use cannot go by Z_i at all. */
static void
single_homed_advice(const struct bs *b, json_t *list)
{
	long free_hosts = (long)json_integer_value(json_object_get(b->sla,
	    "not_in_use")), n;
	size_t g;

	for (g = 0; g < b->in.cg.ngroups; g++) {
		json_t *w = b->why[g];
		const char *rule = w ? json_string_value(json_object_get(w,
		    "rule")) : NULL;

		if (rule == NULL || strcmp(rule, "compute-capacity") != 0 ||
		    (n = (long)json_integer_value(json_object_get(w,
		    "needed"))) <= free_hosts || n < 2)
			continue;
		add(list, json_pack("{s:s, s:s, s:I}", "kind", "single-homed",
		    "group", b->in.cg.groups[g].id, "hosts", (json_int_t)n),
		    "%s carries %ld single-homed hosts: upgrade it after they "
		    "are evacuated, or add a path", b->in.cg.groups[g].id, n);
	}
}

/* why_out: why sponsor s does not work now, or NULL when it does. */
static const char *
why_out(const struct bs *b, size_t s)
{
	const struct cg_group *grp = &b->in.cg.groups[b->in.cg.group_of[s]];

	if (b->in.rg.v[s].down)
		return "down";
	if (grp->failed)
		return "failed";
	if (grp->isolated)
		return "isolated";
	return grp->deactivated ? "deactivated" : NULL;
}

/* sponsors_out: the sponsors of aggregate x out of service, as ids
 * in ids and as "host1 (failed), host4 (down)" in text. */
static void
sponsors_out(const struct bs *b, size_t x, json_t *ids, char *text,
    size_t size)
{
	const size_t *out;
	size_t n, i;
	int at = 0;

	*text = '\0';
	out = digraph_out(&b->rgd, x, &n);
	for (i = 0; i < n; i++) {
		const struct rg_edge *e = &b->in.rg.e[out[i]];
		const char *why, *id = b->in.rg.v[e->sponsor].id;

		if (e->type != DEP_AGGREGATION || e->presence == PRES_FUTURE ||
		    (why = why_out(b, e->sponsor)) == NULL)
			continue;
		if (json_array_size(ids) < 4 && at < (int)size)
			at += snprintf(text + at, size - (size_t)at, "%s%s (%s)",
			    json_array_size(ids) > 0 ? ", " : "", id, why);
		json_array_append_new(ids, json_string(id));
	}
	if (json_array_size(ids) > 4 && at < (int)size)
		snprintf(text + at, size - (size_t)at, " and %zu more",
		    json_array_size(ids) - 4);
}

/* sponsor_advice: once per aggregate that an aggregation-minimum
 * verdict names, what would let one more of its sponsors go. */
static void
sponsor_advice(const struct bs *b, json_t *list)
{
	json_t *seen = json_object(), *w, *out;
	char names[256];
	const char *id;
	json_int_t need;
	size_t g;
	long x;

	for (g = 0; g < b->in.cg.ngroups; g++) {
		w = b->why[g];
		id = w ? json_string_value(json_object_get(w, "aggregate")) :
		    NULL;
		if (id == NULL || json_object_get(seen, id) != NULL ||
		    (x = idmap_find(&b->in.rg.ids, id)) < 0)
			continue;
		json_object_set_new(seen, id, json_true());
		need = json_integer_value(json_object_get(w, "needed"));
		sponsors_out(b, (size_t)x, out = json_array(), names,
		    sizeof names);
		if (json_array_size(out) > 0)
			add(list, json_pack("{s:s, s:s, s:I, s:o}", "kind",
			    "sponsors", "aggregate", id, "needed", need, "out",
			    out), "%s needs %" JSON_INTEGER_FORMAT " working "
			    "sponsor%s while another is upgraded: bring %s back "
			    "into service, or add a sponsor", id, need,
			    need == 1 ? "" : "s", names);
		else
			add(list, json_pack("{s:s, s:s, s:I, s:o}", "kind",
			    "sponsors", "aggregate", id, "needed", need, "out",
			    out), "%s needs all %" JSON_INTEGER_FORMAT " of its "
			    "working sponsors: add a sponsor so that one can "
			    "be upgraded", id, need);
	}
	json_decref(seen);
}

/* split_advice: a split-mode partition that waits for an earlier one
 * held by a resource the upgrade cannot take further (failed, isolated
 * or down) waits for good: only its repair lets it go (issue 41). */
static void
split_advice(const struct bs *b, json_t *list)
{
	const char *rule, *why;
	size_t g, e;

	for (g = 0; g < b->in.cg.ngroups; g++) {
		rule = b->why[g] ? json_string_value(json_object_get(b->why[g],
		    "rule")) : NULL;
		if (rule == NULL || strcmp(rule, "upgrade-method-order") != 0 ||
		    (e = split_waits_for(b, g)) == NONE ||
		    (why = why_out(b, e)) == NULL ||
		    strcmp(why, "deactivated") == 0)
			continue;
		add(list, json_pack("{s:s, s:s, s:s}", "kind", "split-partner",
		    "group", b->in.cg.groups[g].id, "waits_for",
		    b->in.rg.v[e].id), "%s waits in split mode for %s (%s): "
		    "repair %s and bring it back into service, then resume",
		    b->in.cg.groups[g].id, b->in.rg.v[e].id, why,
		    b->in.rg.v[e].id);
	}
}

json_t *
advice(const struct bs *b)
{
	json_t *list = json_array();

	capacity_advice(b, list);
	storage_advice(b, list);
	single_homed_advice(b, list);
	sponsor_advice(b, list);
	split_advice(b, list);
	return list;
}
