/* rgraph.c: build, write and draw the resource graph (see rgraph.h). */
#include <stdlib.h>
#include <string.h>

#include "exitcodes.h"
#include "jbuild.h"
#include "jwalk.h"
#include "jwriter.h"
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
	idmap_init(&g->names);
}

/* own_copy: the copy of s that m keeps, added when new. */
static const char *
own_copy(struct idmap *m, const char *s)
{
	long i = idmap_add(m, s);

	return idmap_key(m, (size_t)(i < 0 ? -i - 1 : i));
}

const char *
rgraph_name(struct rgraph *g, const char *s)
{
	return own_copy(&g->names, s);
}

/*
 * nth_action: the text of the nth action of the vertex text, as
 * rgraph_load counted them: level by level, in order.  The loader
 * checked the shape; jscan allows no escaped or repeated keys.
 */
static const char *
nth_action(const char *text, size_t len, size_t nth, size_t *alen)
{
	struct jwalk levels, actions;
	const char *lt, *at;
	size_t ln, an;

	if (!jwalk_member(text, len, "actions_to_execute", &lt, &ln))
		return NULL;
	jwalk_begin(&levels, lt, ln);
	while (jwalk_next(&levels, NULL, NULL, &lt, &ln)) {
		if (!jwalk_member(lt, ln, "actions", &at, &an))
			return NULL;
		jwalk_begin(&actions, at, an);
		while (jwalk_next(&actions, NULL, NULL, &at, alen))
			if (nth-- == 0)
				return at;
	}
	return NULL;
}

json_t *
rgraph_action_value(const struct rgraph *g, size_t k)
{
	const struct rg_action *a = &g->act[k];
	const char *text;
	size_t len;

	if (g->actions[k] != NULL)
		return json_incref(g->actions[k]);
	if ((text = nth_action(a->text, a->len, a->nth, &len)) == NULL)
		diag_fatal(EXIT_SOFTWARE, "%s: action text not found", a->id);
	return jbuild_value(g->build, text, len);
}

json_t *
rgraph_action_member(const struct rgraph *g, size_t k, const char *key)
{
	const struct rg_action *a = &g->act[k];
	const char *text, *member;
	size_t len, mlen;

	if (g->actions[k] != NULL)
		return json_copy(json_object_get(g->actions[k], key));
	if ((text = nth_action(a->text, a->len, a->nth, &len)) == NULL)
		diag_fatal(EXIT_SOFTWARE, "%s: action text not found", a->id);
	return jwalk_member(text, len, key, &member, &mlen) ?
	    jbuild_value(g->build, member, mlen) : NULL;
}

json_t *
rgraph_actions_by_id(const struct rgraph *g)
{
	json_t *map = json_object();
	size_t k;

	for (k = 0; k < g->nactions; k++)
		json_object_set_new(map, g->act[k].id,
		    rgraph_action_value(g, k));
	return map;
}

void
rgraph_free(struct rgraph *g)
{
	size_t i;

	for (i = 0; i < g->nactions; i++)
		json_decref(g->actions[i]);
	for (i = 0; i < g->nunits; i++)
		json_decref(g->units[i].partitions);
	free(g->v);
	free(g->e);
	free(g->units);
	free(g->levels);
	free(g->actions);
	free(g->act);
	free(g->made);
	free(g->undo_units);
	free(g->att);
	idmap_free(&g->ids);
	idmap_free(&g->unit_ids);
	idmap_free(&g->names);
	strpool_free(&g->strings);
	jbuild_free(g->build);
	memset(g, 0, sizeof *g);
}

size_t
rgraph_add_vertex(struct rgraph *g, const char *id, int kind)
{
	struct rg_vertex *v;

	GROW(g->v, g->nv, g->v_cap);
	v = &g->v[g->nv];
	memset(v, 0, sizeof *v);
	v->kind = kind;
	v->first_uu = g->nundo_units;
	v->first_level = g->nlevels;
	v->first_att = g->natt;
	v->id = own_copy(&g->ids, id);
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

/* add_slot: room for one more action; 1 when the arrays grew. */
static int
add_slot(struct rgraph *g, json_t *action)
{
	size_t cap = g->actions_cap;

	GROW(g->actions, g->nactions, g->actions_cap);
	g->actions[g->nactions++] = action;
	g->levels[g->nlevels - 1].count++;
	return cap != g->actions_cap;
}

void
rgraph_add_action(struct rgraph *g, const struct rg_action *act,
    json_t *action)
{
	if (add_slot(g, action) || g->act == NULL)
		g->act = xreallocarray(g->act, g->actions_cap, sizeof *g->act);
	g->act[g->nactions - 1] = *act;
}

void
rgraph_add_made(struct rgraph *g, const struct rg_made *m)
{
	if (add_slot(g, NULL) || g->made == NULL)
		g->made = xreallocarray(g->made, g->actions_cap, sizeof *g->made);
	g->made[g->nactions - 1] = *m;
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

/*
 * The section is streamed rather than built as jansson values: for a
 * large cloud the tree would cost more time and memory than planning.
 */

static void
write_key_string(struct jwriter *w, const char *key, const char *s)
{
	jw_key(w, key);
	jw_string(w, s);
}

static void
write_key_int(struct jwriter *w, const char *key, json_int_t v)
{
	jw_key(w, key);
	jw_int(w, v);
}

/* write_argv: argv with each "{resource}" element replaced. */
static void
write_argv(struct jwriter *w, const json_t *argv, const char *resource)
{
	const json_t *v;
	size_t i;

	jw_array(w);
	json_array_foreach(argv, i, v) {
		const char *s = json_string_value(v);

		jw_string(w, strcmp(s, "{resource}") == 0 ? resource : s);
	}
	jw_end(w);
}

static void
write_made_id(struct jwriter *w, const struct rg_made *m)
{
	jw_string_open(w);
	jw_string_part(w, m->undo_unit, strlen(m->undo_unit));
	jw_string_part(w, ".", 1);
	if (m->change > 0)
		jw_string_part_int(w, m->change);
	else
		jw_string_part(w, "undo", 4);
	jw_string_part(w, ":", 1);
	jw_string_part(w, m->resource, strlen(m->resource));
	jw_string_part(w, ":", 1);
	jw_string_part_int(w, (json_int_t)m->count);
	jw_string_close(w);
}

static void
write_made(struct jwriter *w, const struct rg_made *m)
{
	jw_object(w);
	jw_key(w, "id");
	write_made_id(w, m);
	write_key_string(w, "undo_unit", m->undo_unit);
	if (m->change > 0)
		write_key_int(w, "change", m->change);
	write_key_string(w, "op", m->op);
	write_key_string(w, "product", m->product);
	write_key_string(w, "version", m->version);
	jw_key(w, "argv");
	write_argv(w, m->argv, m->resource);
	write_key_int(w, "duration", m->duration);
	if (m->new_resource != NULL) {
		jw_key(w, "new_resource");
		jw_value(w, m->new_resource);
	}
	if (m->undo_argv != NULL) {
		jw_key(w, "undo");
		jw_object(w);
		jw_key(w, "argv");
		write_argv(w, m->undo_argv, m->resource);
		write_key_int(w, "duration", m->undo_duration);
		jw_end(w);
	}
	jw_end(w);
}

static void
write_levels(struct jwriter *w, const struct rgraph *g,
    const struct rg_vertex *v)
{
	size_t l, k;

	jw_key(w, "actions_to_execute");
	jw_array(w);
	for (l = v->first_level; l < v->first_level + v->nlevels; l++) {
		const struct rg_level *lv = &g->levels[l];

		jw_object(w);
		write_key_string(w, "upgrade_unit", g->units[lv->unit].id);
		jw_key(w, "actions");
		jw_array(w);
		for (k = lv->first; k < lv->first + lv->count; k++)
			if (g->actions[k] != NULL)
				jw_value(w, g->actions[k]);
			else
				write_made(w, &g->made[k]);
		jw_end(w);
		jw_end(w);
	}
	jw_end(w);
}

/* write_attempts: one count per undo unit, the last given wins. */
static void
write_attempts(struct jwriter *w, const struct rgraph *g,
    const struct rg_vertex *v)
{
	size_t i, j, end = v->first_att + v->natt;

	jw_key(w, "failed_attempts");
	jw_object(w);
	for (i = v->first_att; i < end; i++) {
		const char *uu = g->att[i].undo_unit;
		long count = g->att[i].count;

		for (j = v->first_att; j < i; j++)
			if (strcmp(g->att[j].undo_unit, uu) == 0)
				break;
		if (j < i)
			continue;	/* written already */
		for (j = i + 1; j < end; j++)
			if (strcmp(g->att[j].undo_unit, uu) == 0)
				count = g->att[j].count;
		write_key_int(w, uu, count);
	}
	jw_end(w);
}

/* write_vertex: attributes at their defaults are left out. */
static void
write_vertex(struct jwriter *w, const struct rgraph *g,
    const struct rg_vertex *v)
{
	size_t i;

	jw_object(w);
	write_key_string(w, "id", v->id);
	write_key_string(w, "kind", resource_kind_names[v->kind]);
	write_key_string(w, "modification_type", modification_names[v->mod]);
	write_key_string(w, "activation_status",
	    v->deactivated ? "deactivated" : "active");
	if (v->nuu > 0) {
		jw_key(w, "undo_unit_ids");
		jw_array(w);
		for (i = v->first_uu; i < v->first_uu + v->nuu; i++)
			jw_string(w, g->undo_units[i]);
		jw_end(w);
	}
	if (v->nlevels > 0)
		write_levels(w, g, v);
	if (v->natt > 0)
		write_attempts(w, g, v);
	if (v->isolated) {
		jw_key(w, "is_isolated");
		jw_bool(w, 1);
	}
	if (v->failed) {
		jw_key(w, "is_failed");
		jw_bool(w, 1);
	}
	if (v->down) {
		jw_key(w, "is_down");
		jw_bool(w, 1);
	}
	jw_end(w);
}

static void
write_edge(struct jwriter *w, const struct rgraph *g, const struct rg_edge *e)
{
	jw_object(w);
	write_key_string(w, "type", dep_type_names[e->type]);
	write_key_string(w, "dependent", g->v[e->dependent].id);
	write_key_string(w, "sponsor", g->v[e->sponsor].id);
	write_key_string(w, "presence", presence_names[e->presence]);
	if (e->incompatible) {
		jw_key(w, "incompatibility_factor");
		jw_bool(w, 1);
	}
	jw_end(w);
}

static void
write_unit(struct jwriter *w, const struct rg_unit *u)
{
	jw_object(w);
	write_key_string(w, "id", u->id);
	write_key_string(w, "method", method_names[u->method]);
	if (u->partitions != NULL) {
		jw_key(w, "partitions");
		jw_value(w, u->partitions);
	}
	if (u->old_id != NULL)
		write_key_string(w, "old", u->old_id);
	if (u->new_id != NULL)
		write_key_string(w, "new", u->new_id);
	jw_end(w);
}

void
rgraph_write(struct jwriter *w, const void *p)
{
	const struct rgraph *g = p;
	size_t i;

	write_key_int(w, "iteration", g->iteration);
	if (g->time != NULL)
		write_key_string(w, "time", g->time);
	jw_key(w, "vertices");
	jw_array(w);
	for (i = 0; i < g->nv; i++)
		write_vertex(w, g, &g->v[i]);
	jw_end(w);
	jw_key(w, "edges");
	jw_array(w);
	for (i = 0; i < g->ne; i++)
		write_edge(w, g, &g->e[i]);
	jw_end(w);
	jw_key(w, "upgrade_units");
	jw_array(w);
	for (i = 0; i < g->nunits; i++)
		write_unit(w, &g->units[i]);
	jw_end(w);
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
