/*
 * pic_marks.c: the actions of an iteration's schedules (the upgrade
 * schedule and each sub-iteration's), indexed by id with the lane they
 * are drawn in and what they do in words, then placed on the clock:
 * as upkit-sim measured them, or as the schedule would run them.
 */
#include <stdlib.h>
#include <string.h>

#include "exitcodes.h"
#include "picture.h"
#include "show.h"
#include "state.h"
#include "xalloc.h"

/* The index of the actions, while it is built. */
struct act_walk {
	struct reading *r;
	struct show *s;		/* for describe_action */
	enum phase phase;	/* the stage's */
	const char *lane;	/* the action's, for its undo steps */
	const char *words;	/* the action's, for the same */
};

/* words_of: act in words, as the text view says it; NULL on bad input. */
static json_t *
words_of(struct act_walk *w, const json_t *act)
{
	char *buf = NULL;
	size_t size = 0;
	FILE *fp = open_memstream(&buf, &size);
	json_t *words = NULL;
	int rc;

	if (fp == NULL)
		diag_fatal(EXIT_OSERR, "out of memory");
	rc = describe_action(w->s, act, fp);
	if (fclose(fp) != 0)
		diag_fatal(EXIT_OSERR, "out of memory");
	if (rc == 0)
		words = json_stringn(buf, size);
	free(buf);
	return words;
}

/* lane_of: where an action is drawn: a move on its VM's source host. */
static const char *
lane_of(struct reading *r, const json_t *act)
{
	const char *op = json_string_value(json_object_get(act, "op"));
	const char *on = json_string_value(json_object_get(act, "resource"));
	const char *lane;

	if (op != NULL && strcmp(op, "migrate") == 0)
		on = json_string_value(json_object_get(act, "source"));
	if (on == NULL)
		on = json_string_value(json_object_get(act, "host"));
	if (on == NULL)
		return NULL;
	lane = json_string_value(json_object_get(r->pic->lane_of, on));
	return lane != NULL ? lane : on;
}

/* index_one: an action (or step) doing words (a reference it takes). */
static int
index_one(struct act_walk *w, const json_t *act, enum phase phase,
    json_t *words)
{
	struct access *a = w->r->a;
	const char *id, *vm = NULL;
	json_int_t secs;

	if (words == NULL || acc_as_object(a, act) < 0 ||
	    acc_get_string(a, act, "id", ACC_REQUIRED, &id) < 0 ||
	    acc_get_int_range(a, act, "duration", ACC_REQUIRED, 0,
	    (json_int_t)1 << 40, &secs) < 0 ||
	    acc_get_string(a, act, "vm", ACC_OPTIONAL, &vm) < 0) {
		json_decref(words);
		return -1;
	}
	json_object_set_new(w->r->acts, id, json_pack("{s:s,s:i,s:o,s:I,s:s*}",
	    "lane", w->lane, "phase", (int)phase, "words", words, "ms",
	    (json_int_t)(secs * 1000), "vm", vm));
	return 0;
}

static int
index_undo(struct access *a, const json_t *step, size_t i, void *ctx)
{
	struct act_walk *w = ctx;

	(void)a;
	(void)i;
	return index_one(w, step, PHASE_UNDO, json_sprintf("undo: %s",
	    w->words));
}

/*
 * index_action: an action, its undo steps and its replacement, all
 * drawn on the action's lane and said in the action's words.
 */
static int
index_action(struct access *a, const json_t *act, size_t i, void *ctx)
{
	struct act_walk *w = ctx;
	json_t *instead, *words;
	int rc;

	(void)i;
	if (acc_as_object(a, act) < 0 || (words = words_of(w, act)) == NULL)
		return -1;
	w->words = json_string_value(words);
	if ((w->lane = lane_of(w->r, act)) == NULL) {
		json_decref(words);
		return access_fail(a, "no resource, source or host to draw "
		    "it on");
	}
	json_incref(words);
	if (index_one(w, act, w->phase, words) < 0 ||
	    acc_each_element(a, act, "undo", ACC_OPTIONAL, index_undo, w) < 0 ||
	    (rc = acc_get_object(a, act, "on_failure", ACC_OPTIONAL,
	    &instead)) < 0) {
		json_decref(words);
		return -1;
	}
	if (rc == 0) {
		access_enter_key(a, "on_failure");
		rc = index_one(w, instead, w->phase, json_sprintf("instead, as "
		    "it failed: %s", w->words));
		access_leave(a);
	}
	json_decref(words);
	return rc < 0 ? -1 : 0;
}

static int
index_group(struct access *a, const json_t *group, size_t i, void *ctx)
{
	(void)i;
	return acc_as_object(a, group) < 0 ? -1 :
	    acc_each_element(a, group, "actions", ACC_REQUIRED, index_action,
	    ctx);
}

/* phase_of: a stage's phase word; the upgrade's when it has none. */
static enum phase
phase_of(const char *word)
{
	int p;

	for (p = 0; p < PHASE_UNDO; p++)
		if (strcmp(word, phase_name((enum phase)p)) == 0)
			return (enum phase)p;
	return PHASE_UPGRADE;
}

static int
index_stage(struct access *a, const json_t *stage, size_t i, void *ctx)
{
	struct act_walk *w = ctx;
	const char *phase = "upgrade";

	(void)i;
	if (acc_as_object(a, stage) < 0 ||
	    acc_get_string(a, stage, "phase", ACC_OPTIONAL, &phase) < 0)
		return -1;
	w->phase = phase_of(phase);
	return acc_each_element(a, stage, "groups", ACC_REQUIRED, index_group,
	    w);
}

static int
index_schedule(struct show *s, const json_t *sched, void *ctx)
{
	struct act_walk *w = ctx;

	(void)s;
	if (acc_as_object(w->r->a, sched) < 0)
		return -1;
	return acc_each_element(w->r->a, sched, "stages", ACC_REQUIRED,
	    index_stage, w);
}

/* index_actions: r->acts from every schedule of the document. */
static int
index_actions(struct reading *r, struct show *s)
{
	struct act_walk w = { r, s, PHASE_UPGRADE, NULL, NULL };

	access_enter_key(r->a, "schedule");
	if (index_schedule(s, s->schedule, &w) < 0)
		return -1;
	access_leave(r->a);
	return each_sub_schedule(s, index_schedule, &w);
}

/* The clock of the iteration, from the simulator's report or none. */
static int
place(struct reading *r, struct show *s)
{
	json_t *sim = json_object_get(s->report, "sim");
	int64_t end;

	if (pic_check_results(r) < 0)
		return -1;
	if (sim != NULL) {
		r->pic->any_measured = r->it->measured = 1;
		access_enter_key(r->a, "report");
		access_enter_key(r->a, "sim");
		if (pic_place_measured(r, sim) < 0 ||
		    pic_read_outages(r, sim) < 0)
			return -1;
		access_leave(r->a);
		access_leave(r->a);
		return 0;
	}
	r->pic->any_estimated = 1;
	if (pic_place_estimated(r, &end) < 0)
		return -1;
	r->it->end = end;
	return 0;
}

/* count_attempts: this iteration's failed runs, for the next ones. */
static void
count_attempts(struct picture *pic, size_t first)
{
	size_t i;
	struct mark *m;

	for (i = first; i < pic->nmarks; i++) {
		m = &pic->marks[i];
		if (m->phase == PHASE_UPGRADE && m->result != RESULT_SUCCEEDED &&
		    m->result != RESULT_NOT_RUN)
			json_object_set_new(pic->attempts, m->id, json_integer(
			    m->attempt));
	}
}

/* pic_read_marks: the iteration's actions, placed and counted. */
int
pic_read_marks(struct reading *r)
{
	struct show s;
	size_t first = r->pic->nmarks, i;
	int rc = -1;

	memset(&s, 0, sizeof s);
	s.a = r->a;
	s.what = json_object();
	s.schedule = state_section(r->doc, SECTION_SCHEDULE);
	s.migrations = state_section(r->doc, SECTION_MIGRATIONS);
	s.report = state_section(r->doc, SECTION_REPORT);
	index_products(&s, r->doc);
	if (s.schedule == NULL || s.report == NULL)
		access_fail(r->a, "missing section \"%s\" (written by %s)",
		    s.schedule == NULL ? "schedule" : "report",
		    s.schedule == NULL ? "batch-select" : "the actuator");
	else if (index_actions(r, &s) == 0 && place(r, &s) == 0)
		rc = 0;
	json_decref(s.what);
	if (rc < 0)
		return -1;
	count_attempts(r->pic, first);
	for (i = r->first_allowance; i < r->pic->nallowances; i++) {
		r->pic->allowances[i].start = r->it->start;
		r->pic->allowances[i].end = r->it->end;
	}
	return 0;
}

/* pic_add_mark: action id of r->acts, placed at [start, end). */
struct mark *
pic_add_mark(struct reading *r, const char *id, const json_t *act,
    int64_t start, int64_t end, enum result result)
{
	struct picture *pic = r->pic;
	struct mark *m;

	pic->marks = xgrow(pic->marks, pic->nmarks, &pic->marks_cap,
	    sizeof *pic->marks);
	m = &pic->marks[pic->nmarks++];
	m->lane = pic_lane(pic, json_string_value(json_object_get(act, "lane")));
	m->iteration = r->it->number;
	m->start = start;
	m->end = end;
	m->phase = (enum phase)json_integer_value(json_object_get(act, "phase"));
	m->result = result;
	m->attempt = 1 + (int)json_integer_value(json_object_get(pic->attempts,
	    id));
	m->id = pic_copy(pic, id);
	m->words = pic_copy(pic, json_string_value(json_object_get(act,
	    "words")));
	if (m->phase != PHASE_UNDO)
		r->it->results[result]++;
	if (m->phase == PHASE_MIGRATION && result == RESULT_SUCCEEDED)
		r->it->moved++;
	return m;
}
