/* cgraph.c: write and draw the control graph (see cgraph.h). */
#include <stdlib.h>
#include <string.h>

#include "cgraph.h"
#include "jshare.h"

void
cgraph_free(struct cgraph *cg)
{
	size_t i;

	for (i = 0; i < cg->ngroups; i++)
		free(cg->groups[i].members);
	free(cg->groups);
	free(cg->group_of);
	free(cg->edges);
	memset(cg, 0, sizeof *cg);
}

static void
add_unique(json_t *list, const char *s)
{
	json_t *v;
	size_t i;

	json_array_foreach(list, i, v)
		if (strcmp(json_string_value(v), s) == 0)
			return;
	json_array_append_new(list, jshare(s));
}

/* merged_level: level k of every member, in member order. */
static json_t *
merged_level(const struct rgraph *rg, const struct cg_group *g, size_t k)
{
	json_t *units = json_array(), *acts = json_array();
	size_t m, a;

	for (m = 0; m < g->nmembers; m++) {
		const struct rg_vertex *v = &rg->v[g->members[m]];
		const struct rg_level *l;

		if (k >= v->nlevels)
			continue;
		l = &rg->levels[v->first_level + k];
		add_unique(units, rg->units[l->unit].id);
		for (a = l->first; a < l->first + l->count; a++)
			json_array_append(acts, json_object_get(rg->actions[a],
			    "id"));
	}
	return json_pack("{s:o, s:o}", "upgrade_units", units, "actions", acts);
}

static json_t *
group_levels(const struct rgraph *rg, const struct cg_group *g)
{
	json_t *levels = json_array();
	size_t m, k, depth = 0;

	for (m = 0; m < g->nmembers; m++)
		if (rg->v[g->members[m]].nlevels > depth)
			depth = rg->v[g->members[m]].nlevels;
	for (k = 0; k < depth; k++)
		json_array_append_new(levels, merged_level(rg, g, k));
	return levels;
}

/* group_undo: undo units in first-seen order, highest attempt counts. */
static void
group_undo(const struct rgraph *rg, const struct cg_group *g, json_t *o)
{
	json_t *uus = json_array(), *att = json_object(), *old;
	size_t m, i;

	for (m = 0; m < g->nmembers; m++) {
		const struct rg_vertex *v = &rg->v[g->members[m]];

		for (i = v->first_uu; i < v->first_uu + v->nuu; i++)
			add_unique(uus, rg->undo_units[i]);
		for (i = v->first_att; i < v->first_att + v->natt; i++) {
			old = json_object_get(att, rg->att[i].undo_unit);
			if (old == NULL || json_integer_value(old) < rg->att[i].count)
				json_object_set_new(att, rg->att[i].undo_unit,
				    json_integer(rg->att[i].count));
		}
	}
	if (json_array_size(uus) > 0)
		json_object_set_new_nocheck(o, "undo_unit_ids", uus);
	else
		json_decref(uus);
	if (json_object_size(att) > 0)
		json_object_set_new_nocheck(o, "failed_attempts", att);
	else
		json_decref(att);
}

static json_t *
group_to_json(const struct cgraph *cg, const struct cg_group *g)
{
	json_t *o = json_object(), *members = json_array(), *levels;
	size_t m;

	json_object_set_new_nocheck(o, "id", json_string(g->id));
	for (m = 0; m < g->nmembers; m++)
		json_array_append_new(members,
		    json_string(cg->rg->v[g->members[m]].id));
	json_object_set_new_nocheck(o, "members", members);
	json_object_set_new_nocheck(o, "modification_type",
	    json_string(modification_names[g->mod]));
	json_object_set_new_nocheck(o, "activation_status",
	    json_string(g->deactivated ? "deactivated" : "active"));
	group_undo(cg->rg, g, o);
	levels = group_levels(cg->rg, g);
	if (json_array_size(levels) > 0)
		json_object_set_new_nocheck(o, "actions_to_execute", levels);
	else
		json_decref(levels);
	if (g->isolated)
		json_object_set_new_nocheck(o, "is_isolated", json_true());
	if (g->failed)
		json_object_set_new_nocheck(o, "is_failed", json_true());
	return o;
}

json_t *
cgraph_to_json(const struct cgraph *cg)
{
	json_t *o = json_object(), *gs = json_array(), *es = json_array();
	size_t i;

	json_object_set_new_nocheck(o, "iteration",
	    json_integer(cg->rg->iteration));
	for (i = 0; i < cg->ngroups; i++)
		json_array_append_new(gs, group_to_json(cg, &cg->groups[i]));
	for (i = 0; i < cg->nedges; i++) {
		const struct cg_edge *e = &cg->edges[i];

		json_t *x = json_object();

		json_object_set_new_nocheck(x, "type",
		    jshare(dep_type_names[e->type]));
		json_object_set_new_nocheck(x, "dependent",
		    json_string(cg->groups[e->from].id));
		json_object_set_new_nocheck(x, "sponsor",
		    json_string(cg->groups[e->to].id));
		json_object_set_new_nocheck(x, "presence",
		    jshare(presence_names[e->presence]));
		if (e->incompatible)
			json_object_set_new_nocheck(x, "incompatibility_factor",
			    json_true());
		json_array_append_new(es, x);
	}
	json_object_set_new_nocheck(o, "groups", gs);
	json_object_set_new_nocheck(o, "edges", es);
	return o;
}

void
cgraph_dot(const struct cgraph *cg, FILE *fp)
{
	static const char *const style[] = { "dashed", "bold", "solid" };
	size_t i, m;

	fputs("digraph control_graph {\n\tnode [shape=box, fontsize=10];\n",
	    fp);
	for (i = 0; i < cg->ngroups; i++) {
		const struct cg_group *g = &cg->groups[i];

		fprintf(fp, "\tg%zu [label=", i);
		putc('"', fp);
		for (m = 0; m < g->nmembers; m++) {
			const char *s = cg->rg->v[g->members[m]].id;

			fputs(m ? "\\n" : "", fp);
			for (; *s != '\0'; s++)
				fprintf(fp, "%s%c", *s == '"' || *s == '\\' ?
				    "\\" : "", (unsigned char)*s < 0x20 ? ' ' : *s);
		}
		fprintf(fp, "\", tooltip=\"%s\"%s];\n", modification_names[g->mod],
		    g->failed ? ", color=red" : g->isolated ? ", color=orange" : "");
	}
	for (i = 0; i < cg->nedges; i++)
		fprintf(fp, "\tg%zu -> g%zu [label=\"%s\", style=%s%s];\n",
		    cg->edges[i].from, cg->edges[i].to,
		    dep_type_names[cg->edges[i].type],
		    style[cg->edges[i].presence],
		    cg->edges[i].incompatible ? ", color=red" : "");
	fputs("}\n", fp);
}
