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

static int
dot_group(struct show *s, struct dot_walk *w, const json_t *group,
    const char *node)
{
	const char *id;
	json_t *acts, *act;
	json_int_t d, total = 0;
	size_t i;
	char dur[40];

	if (acc_as_object(s->a, group) < 0 ||
	    acc_get_string(s->a, group, "id", ACC_REQUIRED, &id) < 0 ||
	    acc_get_array(s->a, group, "actions", ACC_REQUIRED, &acts) < 0)
		return -1;
	access_enter_key(s->a, "actions");
	json_array_foreach(acts, i, act) {
		const char *aid;

		access_enter_index(s->a, i);
		if (acc_as_object(s->a, act) < 0 ||
		    acc_get_string(s->a, act, "id", ACC_REQUIRED, &aid) < 0 ||
		    acc_get_int_range(s->a, act, "duration", ACC_REQUIRED, 0,
		    (json_int_t)1 << 40, &d) < 0)
			return -1;
		total += d;
		json_object_set_new(w->node_of, aid, json_string(node));
		access_leave(s->a);
	}
	access_leave(s->a);
	fprintf(s->out, "    %s [label=\"", node);
	dot_string(s->out, id);
	fprintf(s->out, "\\n%zu action%s, %s\"];\n", json_array_size(acts),
	    json_array_size(acts) == 1 ? "" : "s",
	    seconds_text(total, dur, sizeof dur));
	return 0;
}

static int
dot_stage(struct show *s, struct dot_walk *w, const char *sched_id,
    const json_t *stage)
{
	const char *id;
	json_t *groups, *group;
	char node[64], first[64] = "";
	size_t i, no = w->stage_no++;

	if (acc_as_object(s->a, stage) < 0 ||
	    acc_get_string(s->a, stage, "id", ACC_REQUIRED, &id) < 0 ||
	    acc_get_array(s->a, stage, "groups", ACC_REQUIRED, &groups) < 0)
		return -1;
	fprintf(s->out, "  subgraph cluster_%zu {\n    label=\"", no);
	dot_string(s->out, sched_id);
	fputs(": ", s->out);
	dot_string(s->out, id);
	fputs("\";\n", s->out);
	access_enter_key(s->a, "groups");
	json_array_foreach(groups, i, group) {
		snprintf(node, sizeof node, "n%zu_%zu", no, i);
		if (i == 0)
			snprintf(first, sizeof first, "%s", node);
		access_enter_index(s->a, i);
		if (dot_group(s, w, group, node) < 0)
			return -1;
		access_leave(s->a);
	}
	fputs("  }\n", s->out);
	json_array_foreach(groups, i, group) {
		snprintf(node, sizeof node, "n%zu_%zu", no, i);
		access_enter_index(s->a, i);
		if (dot_requires(s, w, group, node) < 0)
			return -1;
		access_leave(s->a);
	}
	access_leave(s->a);
	if (w->prev_first[0] != '\0' && first[0] != '\0')
		fprintf(s->out, "  %s -> %s [style=invis];\n", w->prev_first,
		    first);
	if (first[0] != '\0')
		snprintf(w->prev_first, sizeof w->prev_first, "%s", first);
	return 0;
}

static int
dot_schedule(struct show *s, struct dot_walk *w, const json_t *sched)
{
	const char *id;
	json_t *stages, *stage;
	size_t i;

	if (acc_as_object(s->a, sched) < 0 ||
	    acc_get_string(s->a, sched, "id", ACC_REQUIRED, &id) < 0 ||
	    acc_get_array(s->a, sched, "stages", ACC_REQUIRED, &stages) < 0)
		return -1;
	access_enter_key(s->a, "stages");
	json_array_foreach(stages, i, stage) {
		access_enter_index(s->a, i);
		if (dot_stage(s, w, id, stage) < 0)
			return -1;
		access_leave(s->a);
	}
	access_leave(s->a);
	return 0;
}

static int
dot_sub_iterations(struct show *s, struct dot_walk *w)
{
	json_t *subs = NULL, *sub, *sched;
	size_t i;

	if (s->migrations == NULL)
		return 0;
	access_enter_key(s->a, "migrations");
	if (acc_get_array(s->a, s->migrations, "sub_iterations", ACC_OPTIONAL,
	    &subs) < 0)
		return -1;
	access_enter_key(s->a, "sub_iterations");
	json_array_foreach(subs, i, sub) {
		access_enter_index(s->a, i);
		if (acc_as_object(s->a, sub) < 0 ||
		    acc_get_object(s->a, sub, "schedule", ACC_REQUIRED,
		    &sched) < 0)
			return -1;
		access_enter_key(s->a, "schedule");
		if (dot_schedule(s, w, sched) < 0)
			return -1;
		access_leave(s->a);
		access_leave(s->a);
	}
	access_leave(s->a);
	access_leave(s->a);
	return 0;
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
	if (dot_sub_iterations(s, &w) < 0)
		goto out;
	fputs("}\n", s->out);
	r = 0;
out:
	json_decref(w.node_of);
	json_decref(w.edges);
	return r;
}
