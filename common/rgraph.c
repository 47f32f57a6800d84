/* rgraph.c: build, write and draw the resource graph (see rgraph.h). */
#include <stdlib.h>
#include <string.h>

#include "jshare.h"
#include "rgraph.h"
#include "xalloc.h"

const char *const modification_names[] = { "no-change", "upgrade", "add",
	"remove", NULL };
const char *const presence_names[] = { "current", "future",
	"current/future", NULL };
const char *const method_names[] = { "rolling", "split", "ppu", NULL };

/* GROW: make room for one more element of array p with count n, cap c. */
#define GROW(p, n, c)							\
	do {								\
		if ((n) == (c)) {					\
			(c) = (c) ? 2 * (c) : 16;			\
			(p) = xreallocarray((p), (c), sizeof *(p));	\
		}							\
	} while (0)

void
rgraph_init(struct rgraph *g)
{
	memset(g, 0, sizeof *g);
	idmap_init(&g->ids);
	idmap_init(&g->unit_ids);
}

void
rgraph_free(struct rgraph *g)
{
	size_t i;

	for (i = 0; i < g->nactions; i++)
		json_decref(g->actions[i]);
	for (i = 0; i < g->nunits; i++)
		json_decref(g->units[i].partitions);
	for (i = 0; i < g->npool; i++)
		free(g->pool[i]);
	free(g->pool);
	free(g->v);
	free(g->e);
	free(g->units);
	free(g->levels);
	free(g->actions);
	free(g->undo_units);
	free(g->att);
	idmap_free(&g->ids);
	idmap_free(&g->unit_ids);
	memset(g, 0, sizeof *g);
}

const char *
rgraph_keep(struct rgraph *g, const char *s)
{
	GROW(g->pool, g->npool, g->pool_cap);
	return g->pool[g->npool++] = xstrdup(s);
}

size_t
rgraph_add_vertex(struct rgraph *g, const char *id, int kind)
{
	struct rg_vertex *v;

	GROW(g->v, g->nv, g->v_cap);
	v = &g->v[g->nv];
	memset(v, 0, sizeof *v);
	v->id = id;
	v->kind = kind;
	v->first_uu = g->nundo_units;
	v->first_level = g->nlevels;
	v->first_att = g->natt;
	idmap_add(&g->ids, id);
	return g->nv++;
}

void
rgraph_add_undo_unit(struct rgraph *g, const char *uu)
{
	GROW(g->undo_units, g->nundo_units, g->undo_units_cap);
	g->undo_units[g->nundo_units++] = uu;
	g->v[g->nv - 1].nuu++;
}

size_t
rgraph_add_level(struct rgraph *g, size_t unit)
{
	GROW(g->levels, g->nlevels, g->levels_cap);
	g->levels[g->nlevels].unit = unit;
	g->levels[g->nlevels].first = g->nactions;
	g->levels[g->nlevels].count = 0;
	g->v[g->nv - 1].nlevels++;
	return g->nlevels++;
}

void
rgraph_add_action(struct rgraph *g, json_t *action)
{
	GROW(g->actions, g->nactions, g->actions_cap);
	g->actions[g->nactions++] = action;
	g->levels[g->nlevels - 1].count++;
}

void
rgraph_add_attempts(struct rgraph *g, const char *uu, long count)
{
	GROW(g->att, g->natt, g->att_cap);
	g->att[g->natt].undo_unit = uu;
	g->att[g->natt++].count = count;
	g->v[g->nv - 1].natt++;
}

size_t
rgraph_add_edge(struct rgraph *g, enum dep_type type, size_t dependent,
    size_t sponsor, enum presence presence)
{
	struct rg_edge *e;

	GROW(g->e, g->ne, g->e_cap);
	e = &g->e[g->ne];
	e->type = type;
	e->dependent = dependent;
	e->sponsor = sponsor;
	e->presence = presence;
	e->incompatible = 0;
	return g->ne++;
}

size_t
rgraph_unit(struct rgraph *g, const char *id, enum upgrade_method method)
{
	long i = idmap_find(&g->unit_ids, id);

	if (i >= 0)
		return (size_t)i;
	GROW(g->units, g->nunits, g->units_cap);
	memset(&g->units[g->nunits], 0, sizeof g->units[g->nunits]);
	g->units[g->nunits].id = idmap_key(&g->unit_ids,
	    (size_t)idmap_add(&g->unit_ids, id));
	g->units[g->nunits].method = method;
	return g->nunits++;
}

static void
set(json_t *o, const char *key, json_t *v)
{
	json_object_set_new_nocheck(o, key, v);
}

static json_t *
vertex_levels(const struct rgraph *g, const struct rg_vertex *v)
{
	json_t *levels = json_array();
	size_t l, k;

	for (l = v->first_level; l < v->first_level + v->nlevels; l++) {
		const struct rg_level *lv = &g->levels[l];
		json_t *acts = json_array();

		for (k = lv->first; k < lv->first + lv->count; k++)
			json_array_append(acts, g->actions[k]);
		json_array_append_new(levels, json_pack("{s:s, s:o}",
		    "upgrade_unit", g->units[lv->unit].id, "actions", acts));
	}
	return levels;
}

/* vertex_to_json: attributes at their defaults are left out. */
static json_t *
vertex_to_json(const struct rgraph *g, const struct rg_vertex *v)
{
	json_t *o = json_object(), *list, *att;
	size_t i;

	set(o, "id", json_string(v->id));
	set(o, "kind", jshare(resource_kind_names[v->kind]));
	set(o, "modification_type", jshare(modification_names[v->mod]));
	set(o, "activation_status",
	    jshare(v->deactivated ? "deactivated" : "active"));
	if (v->nuu > 0) {
		list = json_array();
		for (i = v->first_uu; i < v->first_uu + v->nuu; i++)
			json_array_append_new(list, jshare(g->undo_units[i]));
		set(o, "undo_unit_ids", list);
	}
	if (v->nlevels > 0)
		set(o, "actions_to_execute", vertex_levels(g, v));
	if (v->natt > 0) {
		att = json_object();
		for (i = v->first_att; i < v->first_att + v->natt; i++)
			json_object_set_new(att, g->att[i].undo_unit,
			    json_integer(g->att[i].count));
		set(o, "failed_attempts", att);
	}
	if (v->isolated)
		set(o, "is_isolated", json_true());
	if (v->failed)
		set(o, "is_failed", json_true());
	return o;
}

static json_t *
edge_to_json(const struct rgraph *g, const struct rg_edge *e)
{
	json_t *o = json_object();

	set(o, "type", jshare(dep_type_names[e->type]));
	set(o, "dependent", json_string(g->v[e->dependent].id));
	set(o, "sponsor", json_string(g->v[e->sponsor].id));
	set(o, "presence", jshare(presence_names[e->presence]));
	if (e->incompatible)
		set(o, "incompatibility_factor", json_true());
	return o;
}

static json_t *
unit_to_json(const struct rg_unit *u)
{
	json_t *o = json_object();

	set(o, "id", json_string(u->id));
	set(o, "method", json_string(method_names[u->method]));
	if (u->partitions != NULL)
		json_object_set_nocheck(o, "partitions", u->partitions);
	if (u->old_id != NULL)
		set(o, "old", json_string(u->old_id));
	if (u->new_id != NULL)
		set(o, "new", json_string(u->new_id));
	return o;
}

json_t *
rgraph_to_json(const struct rgraph *g)
{
	json_t *o = json_object(), *vs = json_array(), *es = json_array(),
	    *us = json_array();
	size_t i;

	set(o, "iteration", json_integer(g->iteration));
	if (g->time != NULL)
		set(o, "time", json_string(g->time));
	for (i = 0; i < g->nv; i++)
		json_array_append_new(vs, vertex_to_json(g, &g->v[i]));
	for (i = 0; i < g->ne; i++)
		json_array_append_new(es, edge_to_json(g, &g->e[i]));
	for (i = 0; i < g->nunits; i++)
		json_array_append_new(us, unit_to_json(&g->units[i]));
	set(o, "vertices", vs);
	set(o, "edges", es);
	set(o, "upgrade_units", us);
	return o;
}

void
dot_id(FILE *fp, const char *s)
{
	putc('"', fp);
	for (; *s != '\0'; s++) {
		if (*s == '"' || *s == '\\')
			putc('\\', fp);
		if ((unsigned char)*s < 0x20)
			putc(' ', fp);
		else
			putc(*s, fp);
	}
	putc('"', fp);
}

/* Modification types drawn as node shapes, presence as edge styles. */
static const char *const mod_shape[] = { "ellipse", "box", "box3d",
	"octagon" };
static const char *const pres_style[] = { "dashed", "bold", "solid" };

void
rgraph_dot(const struct rgraph *g, FILE *fp)
{
	size_t i;

	fputs("digraph resource_graph {\n\tnode [fontsize=10];\n", fp);
	for (i = 0; i < g->nv; i++) {
		const struct rg_vertex *v = &g->v[i];

		fprintf(fp, "\tv%zu [label=", i);
		dot_id(fp, v->id);
		fprintf(fp, ", shape=%s, tooltip=\"%s %s\"%s];\n",
		    mod_shape[v->mod], resource_kind_names[v->kind],
		    modification_names[v->mod],
		    v->failed ? ", color=red" : v->isolated ? ", color=orange" : "");
	}
	for (i = 0; i < g->ne; i++) {
		const struct rg_edge *e = &g->e[i];

		fprintf(fp, "\tv%zu -> v%zu [label=\"%s\", style=%s%s];\n",
		    e->dependent, e->sponsor, dep_type_names[e->type],
		    pres_style[e->presence], e->incompatible ? ", color=red" : "");
	}
	fputs("}\n", fp);
}
