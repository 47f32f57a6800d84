/* cgraph.c: write and draw the control graph (see cgraph.h). */
#include <stdlib.h>
#include <string.h>

#include "cgraph.h"
#include "jwriter.h"
#include "xalloc.h"

void
cgraph_free(struct cgraph *cg)
{
	size_t i;

	for (i = 0; i < cg->ngroups; i++)
		free(cg->groups[i].members);
	free(cg->groups);
	free(cg->group_of);
	free(cg->edges);
	idmap_free(&cg->ids);
	memset(cg, 0, sizeof *cg);
}

/*
 * The section is streamed rather than built as jansson values: for a
 * large cloud the tree would cost more time and memory than the
 * coarsening itself.
 */

/* first_seen: s is not among list[0..n) (short lists: a scan will do). */
static int
first_seen(const char *const *list, size_t n, const char *s)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (strcmp(list[i], s) == 0)
			return 0;
	return 1;
}

/* write_level_units: the units of level k, in member order, once. */
static void
write_level_units(struct jwriter *w, const struct rgraph *rg,
    const struct cg_group *g, size_t k, const char **seen)
{
	size_t m, n = 0;

	jw_array(w);
	for (m = 0; m < g->nmembers; m++) {
		const struct rg_vertex *v = &rg->v[g->members[m]];
		const char *id;

		if (k >= v->nlevels)
			continue;
		id = rg->units[rg->levels[v->first_level + k].unit].id;
		if (first_seen(seen, n, id)) {
			seen[n++] = id;
			jw_string(w, id);
		}
	}
	jw_end(w);
}

/* write_level: level k of every member, in member order. */
static void
write_level(struct jwriter *w, const struct rgraph *rg,
    const struct cg_group *g, size_t k, const char **seen)
{
	size_t m, a;

	jw_object(w);
	jw_key(w, "upgrade_units");
	write_level_units(w, rg, g, k, seen);
	jw_key(w, "actions");
	jw_array(w);
	for (m = 0; m < g->nmembers; m++) {
		const struct rg_vertex *v = &rg->v[g->members[m]];
		const struct rg_level *l;

		if (k >= v->nlevels)
			continue;
		l = &rg->levels[v->first_level + k];
		for (a = l->first; a < l->first + l->count; a++)
			jw_string(w, rg->act[a].id);
	}
	jw_end(w);
	jw_end(w);
}

static void
write_levels(struct jwriter *w, const struct rgraph *rg,
    const struct cg_group *g)
{
	size_t m, k, depth = 0;
	const char **seen;

	for (m = 0; m < g->nmembers; m++)
		if (rg->v[g->members[m]].nlevels > depth)
			depth = rg->v[g->members[m]].nlevels;
	if (depth == 0)
		return;
	seen = xcalloc(g->nmembers, sizeof *seen);
	jw_key(w, "actions_to_execute");
	jw_array(w);
	for (k = 0; k < depth; k++)
		write_level(w, rg, g, k, seen);
	jw_end(w);
	free(seen);
}

/* write_undo_units: in first-seen order. */
static void
write_undo_units(struct jwriter *w, const struct rgraph *rg,
    const struct cg_group *g)
{
	const char **seen;
	size_t m, i, n = 0, total = 0;

	for (m = 0; m < g->nmembers; m++)
		total += rg->v[g->members[m]].nuu;
	if (total == 0)
		return;
	seen = xcalloc(total, sizeof *seen);
	jw_key(w, "undo_unit_ids");
	jw_array(w);
	for (m = 0; m < g->nmembers; m++) {
		const struct rg_vertex *v = &rg->v[g->members[m]];

		for (i = v->first_uu; i < v->first_uu + v->nuu; i++)
			if (first_seen(seen, n, rg->undo_units[i])) {
				seen[n++] = rg->undo_units[i];
				jw_string(w, rg->undo_units[i]);
			}
	}
	jw_end(w);
	free(seen);
}

/* write_attempts: per undo unit in first-seen order, the highest count. */
static void
write_attempts(struct jwriter *w, const struct rgraph *rg,
    const struct cg_group *g)
{
	struct rg_attempts *best;
	size_t m, i, k, n = 0, total = 0;

	for (m = 0; m < g->nmembers; m++)
		total += rg->v[g->members[m]].natt;
	if (total == 0)
		return;
	best = xcalloc(total, sizeof *best);
	for (m = 0; m < g->nmembers; m++) {
		const struct rg_vertex *v = &rg->v[g->members[m]];

		for (i = v->first_att; i < v->first_att + v->natt; i++) {
			for (k = 0; k < n; k++)
				if (strcmp(best[k].undo_unit, rg->att[i].undo_unit) == 0)
					break;
			if (k == n)
				best[n++] = rg->att[i];
			else if (best[k].count < rg->att[i].count)
				best[k].count = rg->att[i].count;
		}
	}
	jw_key(w, "failed_attempts");
	jw_object(w);
	for (k = 0; k < n; k++) {
		jw_key(w, best[k].undo_unit);
		jw_int(w, best[k].count);
	}
	jw_end(w);
	free(best);
}

static void
write_group(struct jwriter *w, const struct cgraph *cg,
    const struct cg_group *g)
{
	size_t m;

	jw_object(w);
	jw_key(w, "id");
	jw_string(w, g->id);
	jw_key(w, "members");
	jw_array(w);
	for (m = 0; m < g->nmembers; m++)
		jw_string(w, cg->rg->v[g->members[m]].id);
	jw_end(w);
	jw_key(w, "modification_type");
	jw_string(w, modification_names[g->mod]);
	jw_key(w, "activation_status");
	jw_string(w, g->deactivated ? "deactivated" : "active");
	write_undo_units(w, cg->rg, g);
	write_attempts(w, cg->rg, g);
	write_levels(w, cg->rg, g);
	if (g->isolated) {
		jw_key(w, "is_isolated");
		jw_bool(w, 1);
	}
	if (g->failed) {
		jw_key(w, "is_failed");
		jw_bool(w, 1);
	}
	jw_end(w);
}

static void
write_edge(struct jwriter *w, const struct cgraph *cg, const struct cg_edge *e)
{
	jw_object(w);
	jw_key(w, "type");
	jw_string(w, dep_type_names[e->type]);
	jw_key(w, "dependent");
	jw_string(w, cg->groups[e->from].id);
	jw_key(w, "sponsor");
	jw_string(w, cg->groups[e->to].id);
	jw_key(w, "presence");
	jw_string(w, presence_names[e->presence]);
	if (e->incompatible) {
		jw_key(w, "incompatibility_factor");
		jw_bool(w, 1);
	}
	jw_end(w);
}

void
cgraph_write(struct jwriter *w, const void *p)
{
	const struct cgraph *cg = p;
	size_t i;

	jw_key(w, "iteration");
	jw_int(w, cg->rg->iteration);
	jw_key(w, "groups");
	jw_array(w);
	for (i = 0; i < cg->ngroups; i++)
		write_group(w, cg, &cg->groups[i]);
	jw_end(w);
	jw_key(w, "edges");
	jw_array(w);
	for (i = 0; i < cg->nedges; i++)
		write_edge(w, cg, &cg->edges[i]);
	jw_end(w);
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
