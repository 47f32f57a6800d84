/*
 * picture.h: a whole upgrade, read from the state directory of
 * upgrade-loop(1), for upkit-show --html: what ran where and when (a
 * lane per host), each tenant's VMs out of service over time against
 * what its SLA allows, and each iteration's batch with what waited.
 *
 * picture_read() walks DIR/iter-1, iter-2, ... and keeps, from each
 * iteration's documents, only what the page shows: marks, outages,
 * allowances and a summary of the batch, with every string copied into
 * the picture's pool, so that one iteration's document is freed before
 * the next is read.  html.c then writes the page from the picture.
 */
#ifndef UPKIT_PICTURE_H
#define UPKIT_PICTURE_H

#include <stdint.h>
#include <stdio.h>
#include <jansson.h>

#include "access.h"
#include "idmap.h"
#include "strpool.h"

/* The clock's range, in milliseconds: beyond 285,000 years. */
#define PIC_CLOCK_MAX ((int64_t)1 << 53)

/* What an action did, as the report's results say. */
enum result {
	RESULT_SUCCEEDED, RESULT_FAILED, RESULT_UNDONE, RESULT_UNDO_FAILED,
	RESULT_BLOCKED, RESULT_NOT_RUN, RESULT_COUNT
};
/* The part of the upgrade a mark belongs to (a schedule's phases). */
enum phase {
	PHASE_PREREQUISITE, PHASE_UPGRADE, PHASE_WRAP_UP, PHASE_MIGRATION,
	PHASE_UNDO, PHASE_COUNT
};

/* One action, or undo step, on the run's clock (milliseconds). */
struct mark {
	size_t lane;
	long iteration;
	int64_t start, end;
	enum phase phase;
	enum result result;
	int attempt;		/* 2 and more: the action ran before */
	const char *id;		/* pooled, as are the strings below */
	const char *words;	/* what it does, for a person */
};

/* One VM of a tenant out of service, from upkit-sim's outages. */
struct outage {
	size_t tenant;
	int64_t start, end;
	const char *vm;
	const char *group;	/* its anti-affinity group */
	long group_size;	/* the group's VMs in that iteration */
};

/* What a tenant's SLA allows out at once during [start, end). */
struct allowance {
	size_t tenant;
	int64_t start, end;
	long allowed;		/* one VM per anti-affinity group of 2+ */
	long vms;		/* the tenant's VMs then */
};

/* One iteration: its time span, its batch and what waited. */
struct iteration {
	long number;
	int ran;		/* the actuator reported; else planned only */
	int measured;		/* times from upkit-sim, else estimated */
	int64_t start, end;
	const char *time;	/* the report's time, or NULL */
	const char *status;	/* the batch's status */
	const char *note;	/* why suspended, step 4's note, or NULL */
	json_t *taken;		/* the final batch's group ids (owned) */
	json_t *waits;		/* rule -> {reason, groups} (owned) */
	long moved;		/* VM migrations that succeeded */
	long results[RESULT_COUNT];
};

struct picture {
	struct strpool pool;
	struct idmap lanes;	/* lane name -> index, in order of sight */
	unsigned char *lane_failed;	/* by lane: the run ended failing it */
	size_t lane_cap;
	struct idmap tenants;
	struct mark *marks;
	size_t nmarks, marks_cap;
	struct outage *outages;
	size_t noutages, outages_cap;
	struct allowance *allowances;
	size_t nallowances, allowances_cap;
	struct iteration *iterations;
	size_t niterations, iterations_cap;
	json_t *lane_of;	/* resource id -> lane name, as last seen */
	json_t *attempts;	/* action id -> earlier runs that failed */
	json_t *summary;	/* summary.json, or NULL before the end */
	int any_measured, any_estimated;
};

/*
 * The reading of one iteration's document: the picture it adds to, the
 * document's access (its file and path), the iteration, and what the
 * document says of its VMs: VM id -> its tenant and group; its actions:
 * action id -> where and what; and the first allowance it added.
 */
struct reading {
	struct picture *pic;
	struct access *a;
	struct iteration *it;
	const json_t *doc;
	json_t *vm_group;	/* vm id -> [tenant, group, group size] */
	json_t *acts;		/* action id -> {lane, phase, words, ms} */
	size_t first_allowance;
};

/* picture.c: the directory, iteration by iteration. */
int picture_read(struct picture *pic, const char *dir);
void picture_free(struct picture *pic);
const char *pic_copy(struct picture *pic, const char *s);
size_t pic_lane(struct picture *pic, const char *name);
const char *result_name(enum result r);
const char *phase_name(enum phase p);
int result_parse(struct access *a, const char *s, enum result *out);

/* pic_system.c: lanes, tenants and allowances from the system. */
int pic_read_system(struct reading *r);

/* pic_marks.c: every action of the iteration's schedules, placed. */
int pic_read_marks(struct reading *r);

struct mark *pic_add_mark(struct reading *r, const char *id,
    const json_t *act, int64_t start, int64_t end, enum result result);

/* pic_timing.c: the clock of a mark, measured or estimated. */
int pic_check_results(struct reading *r);
int pic_place_estimated(struct reading *r, int64_t *end);
int pic_place_measured(struct reading *r, const json_t *sim);

int pic_read_outages(struct reading *r, const json_t *sim);

/* pic_batch.c: the batch, what waited, and the step 4 note. */
int pic_read_batch(struct reading *r);

/* html.c: the page, and how text and times are written in it. */
int html_write(const struct picture *pic, FILE *out);
void html_text(FILE *out, const char *s);
void clock_text(FILE *out, int64_t ms);

/*
 * svg_timeline.c: the timeline, and the time axis it shares with the
 * tenants' charts: SVG_LEFT pixels of names, then the clock from 0 to
 * the last end across the rest of SVG_WIDTH.
 */
#define SVG_WIDTH 1200
#define SVG_LEFT 170
struct scale {
	double left, width;	/* pixels */
	int64_t span;		/* milliseconds */
};
void scale_init(struct scale *s, const struct picture *pic);
double scale_x(const struct scale *s, int64_t t);
void svg_ticks(const struct scale *s, FILE *out, int top, int bottom,
    int labels);
void svg_timeline(const struct picture *pic, FILE *out);
void svg_legend(FILE *out);

/* svg_charts.c: each tenant's VMs out, and the batches. */
void svg_tenants(const struct picture *pic, FILE *out);
void svg_batches(const struct picture *pic, FILE *out);

#endif
