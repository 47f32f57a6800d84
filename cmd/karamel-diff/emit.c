/* emit.c: the plan as JSON (see karamel-plan(5)). */
#include <stdlib.h>
#include <string.h>

#include "jwriter.h"
#include "plan.h"
#include "xalloc.h"

/*
 * Every vertex's name is printed in its step, in the steps that wait
 * for it and in its machine's queue: it is made once, into one arena.
 */
struct vertex_names {
	char *text;
	size_t *at;		/* by vertex: offset into text */
	size_t *len;		/* by vertex */
};

static void
names_make(struct vertex_names *vn, const struct plan *p)
{
	size_t n = p->graph.g.n, v, len = 0, cap = 64 * (n + 1), k, size = 0;
	char *buf = NULL;

	vn->text = xmalloc(cap);
	vn->at = xcalloc(n, sizeof *vn->at);
	vn->len = xcalloc(n, sizeof *vn->len);
	for (v = 0; v < n; v++) {
		plan_vertex_name(&p->graph, &p->world, &p->keys, v, &buf,
		    &size);
		k = strlen(buf) + 1;
		xreserve(&vn->text, &cap, len + k);
		memcpy(vn->text + len, buf, k);
		vn->at[v] = len;
		vn->len[v] = k - 1;
		len += k;
	}
	free(buf);
}

static const char *
name_of(const struct vertex_names *vn, size_t v)
{
	return vn->text + vn->at[v];
}

/* put_name: names are made of checked names only: no escapes needed. */
static void
put_name(struct jwriter *j, const struct vertex_names *vn, size_t v)
{
	jw_stringn(j, vn->text + vn->at[v], vn->len[v]);
}

static void
depends_on(struct jwriter *j, const struct plan *p,
    const struct vertex_names *vn, size_t v)
{
	size_t count, i;
	const size_t *in = digraph_in(&p->graph.g, v, &count);

	jw_array(j);
	for (i = 0; i < count; i++)
		put_name(j, vn, p->graph.g.src[in[i]]);
	jw_end(j);
}

/* steps: every key, in topological order. */
static void
steps(struct jwriter *j, const struct plan *p, const struct vertex_names *vn)
{
	size_t i, v;

	jw_key(j, "steps");
	jw_array(j);
	for (i = 0; i < p->graph.g.n; i++) {
		if ((v = p->graph.order[i]) >= p->graph.nkeys)
			continue;
		jw_object(j);
		jw_key(j, "key");
		put_name(j, vn, v);
		jw_key(j, "action");
		jw_string(j, action_names[p->diff.action[v]]);
		jw_key(j, "reason");
		jw_string(j, diff_reason(&p->diff, v));
		jw_key(j, "depends_on");
		depends_on(j, p, vn, v);
		jw_end(j);
	}
	jw_end(j);
}

/* sets: what each collect or release vertex waits for. */
static void
sets(struct jwriter *j, const struct plan *p, const struct vertex_names *vn)
{
	size_t s;

	jw_key(j, "sets");
	jw_object(j);
	for (s = 0; s < p->graph.nsets; s++) {
		jw_key(j, name_of(vn, p->graph.nkeys + s));
		depends_on(j, p, vn, p->graph.nkeys + s);
	}
	jw_end(j);
}

/*
 * queues: each machine's keys in plan order, machines in natural
 * order.  A counting sort of the order by machine keeps it linear.
 */
static void
queues(struct jwriter *j, const struct plan *p, const struct vertex_names *vn)
{
	const struct keyspace *ks = &p->keys;
	size_t *start = xcalloc(ks->nmachines + 1, sizeof *start);
	size_t *queued = xcalloc(ks->nkeys, sizeof *queued);
	size_t i, m, v;

	for (i = 0; i < ks->nmachines; i++)
		start[i + 1] = start[i] + ks->count[i];
	for (i = 0; i < p->graph.g.n; i++)
		if ((v = p->graph.order[i]) < p->graph.nkeys)
			queued[start[ks->machine[v]]++] = v;
	jw_key(j, "queues");
	jw_object(j);
	for (i = 0; i < ks->nmachines; i++) {
		m = ks->machines[i];
		jw_key(j, idmap_key(&p->world.machines, m));
		jw_array(j);
		for (v = start[m] - ks->count[m]; v < start[m]; v++)
			put_name(j, vn, queued[v]);
		jw_end(j);
	}
	jw_end(j);
	free(queued);
	free(start);
}

static const struct names *sorting;

static int
by_recipe_name(const void *a, const void *b)
{
	size_t x = sorting->rank[((const struct limit *)a)->recipe];
	size_t y = sorting->rank[((const struct limit *)b)->recipe];

	return (x > y) - (x < y);
}

/* limits: recipesParallelism of the new definition, by recipe name. */
static void
limits(struct jwriter *j, const struct plan *p)
{
	const struct cluster *c = &p->new;
	struct limit *sorted = xcalloc(c->nlimits, sizeof *sorted);
	size_t i;

	for (i = 0; i < c->nlimits; i++)
		sorted[i] = c->limits[i];
	sorting = &p->world.names;
	qsort(sorted, c->nlimits, sizeof *sorted, by_recipe_name);
	jw_key(j, "limits");
	jw_object(j);
	for (i = 0; i < c->nlimits; i++) {
		jw_key(j, names_recipe_name(&p->world.names,
		    sorted[i].recipe));
		jw_int(j, sorted[i].max);
	}
	jw_end(j);
	free(sorted);
}

static void
member(struct jwriter *j, const char *key, size_t value)
{
	jw_key(j, key);
	jw_int(j, (long long)value);
}

static void
summary(struct jwriter *j, const struct plan *p)
{
	int a;

	jw_key(j, "summary");
	jw_object(j);
	for (a = 0; a < ACTION_COUNT; a++)
		member(j, action_names[a], p->diff.count[a]);
	jw_end(j);
}

/* stats: the sizes behind seed 001 Fig. 2, for scripts/karamel-growth. */
static void
stats(struct jwriter *j, const struct plan *p)
{
	size_t m, machines = 0, keys = 0, k;

	for (m = 0; m < p->keys.nmachines; m++)
		machines += cluster_group_of(&p->new, m) >= 0;
	for (k = 0; k < p->keys.nkeys; k++)
		keys += (p->keys.in[k] & IN_NEW) != 0;
	jw_key(j, "stats");
	jw_object(j);
	member(j, "machines", machines);
	member(j, "keys", keys);
	member(j, "dependencies", p->graph.key_dependencies);
	member(j, "sets", p->graph.nsets);
	member(j, "edges", p->graph.g.m);
	jw_end(j);
}

void
plan_json(const struct plan *p, FILE *fp, int compact)
{
	struct vertex_names vn;
	struct jwriter j;

	names_make(&vn, p);
	jw_init(&j, fp, compact);
	jw_object(&j);
	jw_key(&j, "format");
	jw_string(&j, PLAN_FORMAT);
	member(&j, "version", PLAN_VERSION);
	jw_key(&j, "cluster");
	jw_string(&j, p->new.name);
	summary(&j, p);
	stats(&j, p);
	limits(&j, p);
	steps(&j, p, &vn);
	sets(&j, p, &vn);
	queues(&j, p, &vn);
	jw_end(&j);
	/* A memory stream: a failed write shows when the buffer is committed. */
	(void)jw_finish(&j);
	free(vn.text);
	free(vn.at);
	free(vn.len);
}

size_t
plan_changes(const struct plan *p)
{
	return p->diff.count[ACTION_BUILD] + p->diff.count[ACTION_RECONCILE] +
	    p->diff.count[ACTION_PURGE];
}
