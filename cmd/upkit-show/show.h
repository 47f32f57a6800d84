/*
 * show.h: upkit-show, one iteration of a state document for a person.
 *
 * The text view is a numbered list of operations, stage by stage, in
 * the style of a dry run, then what waits (grouped by rule), step 4 and
 * the iteration's result when the document holds it.  The Graphviz
 * view (--dot) draws the schedules with stages as clusters.
 */
#ifndef UPKIT_SHOW_H
#define UPKIT_SHOW_H

#include <stdio.h>
#include <jansson.h>

#include "access.h"

/* Text lines are wrapped to this many columns. */
#define SHOW_WIDTH 79

struct show {
	struct access *a;
	FILE *out;
	json_t *batch;		/* the batch section */
	json_t *schedule;	/* the schedule section */
	json_t *migrations;	/* NULL when vm-migrate-plan has not run */
	json_t *report;		/* NULL unless this iteration's report */
	json_t *what;		/* action id -> "product@version" (owned) */
	json_t *compute;	/* compute host id -> true (owned) */
	json_int_t iteration;
	long number;		/* the next operation's number */
};

/* text.c */
int show_text(struct show *s);

/* stages.c: one schedule object's stages as numbered operations. */
int show_schedule(struct show *s, const json_t *sched, const char *title);
/* schedule_seconds: the schedule's length if every action succeeds. */
int schedule_seconds(struct show *s, const json_t *sched, json_int_t *out);
/*
 * each_sub_schedule: fn on the schedule of each sub-iteration of step 4
 * (none when there is no migrations section), the path at it.
 */
typedef int (*sched_fn)(struct show *s, const json_t *sched, void *ctx);
int each_sub_schedule(struct show *s, sched_fn fn, void *ctx);

/* waits.c: the groups left out of the batch, grouped by rule. */
int show_waits(struct show *s);
int waits_by_rule(struct access *a, const json_t *batch, json_t *by_rule);
const char *rule_words(const char *rule);

/* describe.c: what an action does, in words. */
int describe_action(struct show *s, const json_t *act, FILE *fp);
void index_products(struct show *s, const json_t *doc);

/* dot.c */
int show_dot(struct show *s);

/* wrap.c */
void say(struct show *s, int indent, int hang, const char *fmt, ...)
    DIAG_PRINTF(4, 5);
void say_list(struct show *s, int indent, const json_t *ids);
const char *seconds_text(json_int_t secs, char *buf, size_t size);

#endif
