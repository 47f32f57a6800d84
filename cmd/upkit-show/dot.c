/*
 * dot.c: the schedules of an iteration in Graphviz: one cluster per
 * stage, one node per group, an edge for each group's requires (from
 * the group that holds the required action), and invisible edges that
 * keep the stages in order.  For "dot -Tsvg".
 */
#include <stdio.h>
#include <string.h>

#include "show.h"

/* dot_string: s as the inside of a Graphviz quoted string. */
static void
dot_string(FILE *out, const char *s)
{
	for (; *s != '\0'; s++) {
		if (*s == '"' || *s == '\\')
			fprintf(out, "\\%c", *s);
		else if ((unsigned char)*s < 0x20 || *s == 0x7f)
			fputc(' ', out);
		else
			fputc(*s, out);
	}
}

struct dot_walk {
	json_t *node_of;	/* action id -> node name */
	json_t *edges;		/* "a b" -> true, to draw each once */
	size_t stage_no;	/* stages drawn so far, over all schedules */
	char prev_first[64];	/* the first node of the previous stage */
};

static int
dot_requires(struct show *s, struct dot_walk *w, const json_t *group,
    const char *node)
{
	json_t *req = NULL, *r;
	const char *from;
	char key[160];
	size_t i;

	if (acc_get_array(s->a, group, "requires", ACC_OPTIONAL, &req) < 0)
		return -1;
	json_array_foreach(req, i, r) {
		from = json_string_value(json_object_get(w->node_of,
		    json_is_string(r) ? json_string_value(r) : ""));
		if (from == NULL)
			continue;
		snprintf(key, sizeof key, "%s %s", from, node);
		if (json_object_get(w->edges, key) != NULL)
			continue;
		json_object_set_new(w->edges, key, json_true());
		fprintf(s->out, "  %s -> %s;\n", from, node);
	}
	return 0;
}

/* One group's actions: their nodes and their total duration. */
struct dot_node {
	struct dot_walk *w;
	const char *node;
	json_int_t total;
};

static int
dot_action(struct access *a, const json_t *act, size_t i, void *ctx)
{
	struct dot_node *n = ctx;
	const char *aid;
	json_int_t d;

	(void)i;
	if (acc_as_object(a, act) < 0 ||
	    acc_get_string(a, act, "id", ACC_REQUIRED, &aid) < 0 ||
	    acc_get_int_range(a, act, "duration", ACC_REQUIRED, 0,
	    (json_int_t)1 << 40, &d) < 0)
		return -1;
	n->total += d;
	json_object_set_new(n->w->node_of, aid, json_string(n->node));
	return 0;
}

static int
dot_group(struct show *s, struct dot_walk *w, const json_t *group,
    const char *node)
{
	struct dot_node n = { w, node, 0 };
	const char *id;
	size_t count;
	char dur[40];

	if (acc_as_object(s->a, group) < 0 ||
	    acc_get_string(s->a, group, "id", ACC_REQUIRED, &id) < 0 ||
	    acc_each_element(s->a, group, "actions", ACC_REQUIRED, dot_action,
	    &n) < 0)
		return -1;
	count = json_array_size(json_object_get(group, "actions"));
	fprintf(s->out, "    %s [label=\"", node);
	dot_string(s->out, id);
	fprintf(s->out, "\\n%zu action%s, %s\"];\n", count,
	    count == 1 ? "" : "s", seconds_text(n.total, dur, sizeof dur));
	return 0;
}

/* One stage's groups: node "n<stage>_<group>" each, edges second. */
struct dot_stage {
	struct show *s;
	struct dot_walk *w;
	size_t no;
	char first[64];
	int edges;	/* the pass that draws the requires */
};

static int
dot_group_at(struct access *a, const json_t *group, size_t i, void *ctx)
{
	struct dot_stage *st = ctx;
	char node[64];

	(void)a;
	snprintf(node, sizeof node, "n%zu_%zu", st->no, i);
	if (st->edges)
		return dot_requires(st->s, st->w, group, node);
	if (i == 0)
		snprintf(st->first, sizeof st->first, "%s", node);
	return dot_group(st->s, st->w, group, node);
}

static int
dot_stage(struct show *s, struct dot_walk *w, const char *sched_id,
    const json_t *stage)
{
	struct dot_stage st = { s, w, w->stage_no++, "", 0 };
	const char *id;

	if (acc_as_object(s->a, stage) < 0 ||
	    acc_get_string(s->a, stage, "id", ACC_REQUIRED, &id) < 0)
		return -1;
	fprintf(s->out, "  subgraph cluster_%zu {\n    label=\"", st.no);
	dot_string(s->out, sched_id);
	fputs(": ", s->out);
	dot_string(s->out, id);
	fputs("\";\n", s->out);
	if (acc_each_element(s->a, stage, "groups", ACC_REQUIRED, dot_group_at,
	    &st) < 0)
		return -1;
	fputs("  }\n", s->out);
	st.edges = 1;
	if (acc_each_element(s->a, stage, "groups", ACC_REQUIRED, dot_group_at,
	    &st) < 0)
		return -1;
	if (w->prev_first[0] != '\0' && st.first[0] != '\0')
		fprintf(s->out, "  %s -> %s [style=invis];\n", w->prev_first,
		    st.first);
	if (st.first[0] != '\0')
		snprintf(w->prev_first, sizeof w->prev_first, "%s", st.first);
	return 0;
}

/* One schedule's stages, with the schedule's id for their labels. */
struct dot_schedule {
	struct show *s;
	struct dot_walk *w;
	const char *id;
};

static int
dot_stage_at(struct access *a, const json_t *stage, size_t i, void *ctx)
{
	struct dot_schedule *d = ctx;

	(void)a;
	(void)i;
	return dot_stage(d->s, d->w, d->id, stage);
}

static int
dot_schedule(struct show *s, struct dot_walk *w, const json_t *sched)
{
	struct dot_schedule d = { s, w, NULL };

	if (acc_as_object(s->a, sched) < 0 ||
	    acc_get_string(s->a, sched, "id", ACC_REQUIRED, &d.id) < 0)
		return -1;
	return acc_each_element(s->a, sched, "stages", ACC_REQUIRED,
	    dot_stage_at, &d) < 0 ? -1 : 0;
}

static int
dot_sub_schedule(struct show *s, const json_t *sched, void *ctx)
{
	return dot_schedule(s, ctx, sched);
}

int
show_dot(struct show *s)
{
	struct dot_walk w = { json_object(), json_object(), 0, "" };
	int r = -1;

	fprintf(s->out, "digraph \"iteration %lld\" {\n", (long long)s->iteration);
	fputs("  graph [rankdir=LR, fontname=\"Helvetica\", "
	    "labeljust=l];\n  node [shape=box, fontname=\"Helvetica\"];\n",
	    s->out);
	access_enter_key(s->a, "schedule");
	if (dot_schedule(s, &w, s->schedule) < 0)
		goto out;
	access_leave(s->a);
	if (each_sub_schedule(s, dot_sub_schedule, &w) < 0)
		goto out;
	fputs("}\n", s->out);
	r = 0;
out:
	json_decref(w.node_of);
	json_decref(w.edges);
	return r;
}
