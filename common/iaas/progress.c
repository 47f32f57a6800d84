/*
 * progress.c: how far an upgrade is, told from a state document
 * (progress.h).  The loop asks it of documents of tens of megabytes at
 * 10,000 hosts: the graph's vertices and the schedule's stages are read
 * from their text (jtext.h), where a stand-in holds it, and nothing of
 * them is built.
 */
#include <string.h>

#include "jtext.h"
#include "jwalk.h"
#include "progress.h"

/* text_is: the JSON string at v[0 .. n) is s. */
static int
text_is(const char *v, size_t n, const char *s)
{
	json_t *built;
	int r;

	if (n < 2 || v[0] != '"')
		return 0;
	if (memchr(v, '\\', n) == NULL)
		return n - 2 == strlen(s) && memcmp(v + 1, s, n - 2) == 0;
	built = json_loadb(v, n, JSON_DECODE_ANY, NULL);
	r = json_is_string(built) && strcmp(json_string_value(built), s) == 0;
	json_decref(built);
	return r;
}

/* stages_text_idle: no stage of the stages' text s[0 .. n) has a group. */
static int
stages_text_idle(const char *s, size_t n)
{
	const char *e, *g;
	size_t en, gn;
	struct jwalk w;

	jwalk_begin(&w, s, n);
	while (jwalk_next(&w, NULL, NULL, &e, &en))
		if (jwalk_member(e, en, "groups", &g, &gn) && g[0] == '[' &&
		    g[1 + strspn(g + 1, " \t\r\n")] != ']')
			return 0;
	return 1;
}

/* no_groups: no stage of stages (a stand-in or an array) has a group. */
static int
no_groups(const json_t *stages)
{
	const struct jtext *t = jtext_stand_in(stages);
	const json_t *st;
	size_t j;

	if (t != NULL)
		return stages_text_idle(t->text, t->len);
	json_array_foreach(stages, j, st)
		if (json_array_size(json_object_get(st, "groups")) > 0)
			return 0;
	return 1;
}

/*
 * subs_idle: no schedule of the sub-iterations (a stand-in, as a tool
 * that passes the migrations on holds them, or an array) has a group.
 */
static int
subs_idle(const json_t *subs)
{
	const struct jtext *t = jtext_stand_in(subs);
	const char *e, *sc, *st;
	size_t en, scn, stn, i;
	struct jwalk w;
	const json_t *sub;

	if (t == NULL) {
		json_array_foreach(subs, i, sub)
			if (!no_groups(json_object_get(json_object_get(sub,
			    "schedule"), "stages")))
				return 0;
		return 1;
	}
	jwalk_begin(&w, t->text, t->len);
	while (jwalk_next(&w, NULL, NULL, &e, &en))
		if (jwalk_member(e, en, "schedule", &sc, &scn) &&
		    jwalk_member(sc, scn, "stages", &st, &stn) &&
		    st[0] == '[' && !stages_text_idle(st, stn))
			return 0;
	return 1;
}

/* nothing_to_run: the schedules of this iteration hold no action. */
static int
nothing_to_run(const json_t *doc)
{
	const json_t *mig = json_object_get(doc, "migrations");
	const char *status = json_string_value(json_object_get(mig, "status"));

	if (!no_groups(json_object_get(json_object_get(doc, "schedule"),
	    "stages")))
		return 0;
	if (status == NULL || strcmp(status, "planned") != 0)
		return 1;
	return subs_idle(json_object_get(mig, "sub_iterations"));
}

/* all_settled: every change set completed or failed, no undo pending. */
static int
all_settled(const json_t *doc)
{
	const json_t *reqs = json_object_get(json_object_get(doc, "requests"),
	    "requests"), *r, *cs;
	json_t *done = json_string("done");
	size_t i, j;
	int settled = reqs != NULL;

	json_array_foreach(reqs, i, r)
		json_array_foreach(json_object_get(r, "change_sets"), j, cs) {
			const char *st = json_string_value(json_object_get(cs,
			    "status"));
			const json_t *undo = json_object_get(cs, "undo");

			if (st == NULL || (strcmp(st, "completed") != 0 &&
			    strcmp(st, "failed") != 0))
				settled = 0;
			if (undo != NULL && !json_equal(json_object_get(undo,
			    "status"), done))
				settled = 0;
		}
	json_decref(done);
	return settled;
}

/*
 * built: v as values, a new reference: the text it stands in for
 * parsed, when v is a stand-in (jtext.h), else v itself.
 */
static json_t *
built(const json_t *v)
{
	const struct jtext *t = jtext_stand_in(v);

	if (t == NULL)
		return json_incref((json_t *)v);
	return json_loadb(t->text, t->len, JSON_DECODE_ANY, NULL);
}

static int
is_true(const json_t *v, const char *key)
{
	return json_is_true(json_object_get(v, key));
}

/*
 * out_of_play: the ids (an object used as a set) of the vertices that
 * are failed or isolated, and of those grouped with one through
 * containment or composition, either way (step 2 makes them one group,
 * not upgradable while a member is failed or isolated): seed 000 III.A
 * takes no further automatic action on them, so they hold the upgrade
 * back no longer.
 */
static json_t *
out_of_play(const json_t *vertices, const json_t *edges)
{
	json_t *set = json_object();
	const json_t *v, *e;
	size_t i, before;

	json_array_foreach(vertices, i, v)
		if (is_true(v, "is_failed") || is_true(v, "is_isolated"))
			json_object_set_new(set, json_string_value(
			    json_object_get(v, "id")), json_true());
	do {
		before = json_object_size(set);
		json_array_foreach(edges, i, e) {
			const char *type = json_string_value(json_object_get(e,
			    "type")), *sponsor = json_string_value(
			    json_object_get(e, "sponsor")), *dependent =
			    json_string_value(json_object_get(e, "dependent"));

			if (type == NULL || sponsor == NULL || dependent == NULL ||
			    (strcmp(type, "contained") != 0 &&
			    strcmp(type, "composition") != 0))
				continue;
			if (json_object_get(set, sponsor) != NULL ||
			    json_object_get(set, dependent) != NULL) {
				json_object_set_new(set, sponsor, json_true());
				json_object_set_new(set, dependent, json_true());
			}
		}
	} while (json_object_size(set) > before);
	return set;
}

/* any_deactivated: the vertices' text has a deactivated resource. */
static int
any_deactivated(const json_t *vertices)
{
	const struct jtext *t = jtext_stand_in(vertices);
	const char *e, *s;
	size_t n, sn;
	struct jwalk w;

	if (t == NULL)
		return 1;	/* values: left_out looks at each */
	jwalk_begin(&w, t->text, t->len);
	while (jwalk_next(&w, NULL, NULL, &e, &n))
		if (jwalk_member(e, n, "activation_status", &s, &sn) &&
		    text_is(s, sn, "deactivated"))
			return 1;
	return 0;
}

/*
 * left_out: a resource of the resource graph is still deactivated, as
 * a failed upgrade, or its undo, can leave it: the upgrade is not over
 * until batch-select has planned bringing it back into service (or
 * suspended, naming why it cannot).  A failed or isolated resource,
 * and what it contains, is no longer waited for (out_of_play).
 */
static int
left_out(const json_t *rg)
{
	json_t *vertices, *edges, *gone;
	const json_t *v;
	const char *st;
	size_t i;
	int out = 0;

	if (!any_deactivated(json_object_get(rg, "vertices")))
		return 0;
	vertices = built(json_object_get(rg, "vertices"));
	edges = built(json_object_get(rg, "edges"));
	gone = out_of_play(vertices, edges);
	json_array_foreach(vertices, i, v) {
		st = json_string_value(json_object_get(v, "activation_status"));
		if (st != NULL && strcmp(st, "deactivated") == 0 &&
		    json_object_get(gone, json_string_value(json_object_get(v,
		    "id"))) == NULL)
			out = 1;
	}
	json_decref(gone);
	json_decref(edges);
	json_decref(vertices);
	return out;
}

const char *
state_progress_of(const json_t *doc, const json_t *rg_iteration,
    int deactivated)
{
	const json_t *batch = json_object_get(doc, "batch");

	if (all_settled(doc) && !deactivated)
		return "done";
	if (batch != NULL && json_equal(json_object_get(batch, "iteration"),
	    rg_iteration) && nothing_to_run(doc))
		return "suspended";
	return "running";
}

const char *
state_progress(const json_t *doc)
{
	const json_t *rg = json_object_get(doc, "resource_graph");

	return state_progress_of(doc, json_object_get(rg, "iteration"),
	    left_out(rg));
}
