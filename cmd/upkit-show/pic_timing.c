/*
 * pic_timing.c: when each action of an iteration ran.
 *
 * With upkit-sim, its report says: each step's start and end on the
 * simulated clock, and each VM outage.  Another actuator's report (an
 * Ansible run's) says only what ended how, so the actions are placed as
 * the schedule runs them with the catalog's durations, as upkit-show's
 * estimate does: stages one after the other, each group's actions in
 * order, a stage's groups on the first free of its concurrency; the
 * sub-iterations after the upgrade schedule.  A VM then counts out of
 * service for the whole of the migration that moves it.
 */
#include <stdlib.h>
#include <string.h>

#include "picture.h"
#include "state.h"
#include "xalloc.h"

static int
check_result(struct access *a, const char *id, const json_t *v, void *ctx)
{
	const char *word;
	enum result r;

	(void)id;
	(void)ctx;
	return acc_as_string(a, v, &word) < 0 ? -1 : result_parse(a, word, &r);
}

/* pic_check_results: every result of the report is a known word. */
int
pic_check_results(struct reading *r)
{
	const json_t *report = state_section(r->doc, SECTION_REPORT);
	int rc;

	access_enter_key(r->a, "report");
	rc = acc_each_member(r->a, report, "results", ACC_REQUIRED,
	    check_result, NULL) < 0 ||
	    acc_each_member(r->a, report, "other_results", ACC_OPTIONAL,
	    check_result, NULL) < 0 ? -1 : 0;
	access_leave(r->a);
	return rc;
}

/* result_of: an action's result in the (checked) report. */
static enum result
result_of(const json_t *report, const char *id)
{
	const char *word = json_string_value(json_object_get(json_object_get(
	    report, "results"), id));
	enum result res = RESULT_NOT_RUN;
	int i;

	if (word == NULL)
		word = json_string_value(json_object_get(json_object_get(
		    report, "other_results"), id));
	for (i = 0; word != NULL && i < RESULT_COUNT; i++)
		if (strcmp(word, result_name((enum result)i)) == 0)
			res = (enum result)i;
	return res;
}

/* clock_add: t + ms, kept within the clock's range. */
static int64_t
clock_add(int64_t t, int64_t ms)
{
	return ms > PIC_CLOCK_MAX - t ? PIC_CLOCK_MAX : t + ms;
}

static void
add_outage(struct reading *r, const char *vm, const char *tenant,
    int64_t start, int64_t end)
{
	struct picture *pic = r->pic;
	const json_t *g = json_object_get(r->vm_group, vm);
	struct outage *o;
	long t;

	if (tenant != NULL && (t = idmap_find(&pic->tenants, tenant)) < 0)
		t = idmap_add(&pic->tenants, tenant);
	else if (tenant == NULL && g == NULL)
		return;
	else if (tenant == NULL)
		t = (long)json_integer_value(json_array_get(g, 0));
	pic->outages = xgrow(pic->outages, pic->noutages, &pic->outages_cap,
	    sizeof *pic->outages);
	o = &pic->outages[pic->noutages++];
	o->tenant = (size_t)t;
	o->start = start;
	o->end = end;
	o->vm = pic_copy(pic, vm);
	/* a VM the system did not list is a group of its own */
	o->group = g != NULL ?
	    pic_copy(pic, json_string_value(json_array_get(g, 1))) : o->vm;
	o->group_size = g != NULL ?
	    (long)json_integer_value(json_array_get(g, 2)) : 1;
}

/* place_group: a group's actions in order from t; the group's end. */
static int64_t
place_group(struct reading *r, const json_t *report, const json_t *group,
    int64_t t)
{
	const json_t *act, *entry;
	const char *id, *vm;
	enum result res;
	int64_t ms, end;
	size_t i;

	json_array_foreach(json_object_get(group, "actions"), i, act) {
		id = json_string_value(json_object_get(act, "id"));
		entry = json_object_get(r->acts, id);
		ms = json_integer_value(json_object_get(entry, "ms"));
		res = result_of(report, id);
		end = clock_add(t, ms);
		pic_add_mark(r, id, entry, t, end, res);
		vm = json_string_value(json_object_get(entry, "vm"));
		if (vm != NULL && res != RESULT_BLOCKED && res != RESULT_NOT_RUN)
			add_outage(r, vm, NULL, t, end);
		t = end;
	}
	return t;
}

/* place_stage: groups on the first free of c slots from t; its end. */
static int64_t
place_stage(struct reading *r, const json_t *report, const json_t *groups,
    json_int_t c, int64_t t)
{
	size_t n = json_array_size(groups), slots, i, k, best;
	int64_t *end, last = t;

	slots = c < 1 || (size_t)c > n ? (n > 0 ? n : 1) : (size_t)c;
	end = xcalloc(slots, sizeof *end);
	for (k = 0; k < slots; k++)
		end[k] = t;
	for (i = 0; i < n; i++) {
		for (best = 0, k = 1; k < slots; k++)
			if (end[k] < end[best])
				best = k;
		end[best] = place_group(r, report, json_array_get(groups, i),
		    end[best]);
		if (end[best] > last)
			last = end[best];
	}
	free(end);
	return last;
}

/* place_schedule: a (checked) schedule object from t; its end. */
static int64_t
place_schedule(struct reading *r, const json_t *report, const json_t *sched,
    int64_t t)
{
	json_int_t c = json_integer_value(json_object_get(sched, "concurrency"));
	const json_t *stage;
	size_t i;

	json_array_foreach(json_object_get(sched, "stages"), i, stage)
		t = place_stage(r, report, json_object_get(stage, "groups"), c, t);
	return t;
}

/* pic_place_estimated: every schedule, as it runs, from the start. */
int
pic_place_estimated(struct reading *r, int64_t *end)
{
	const json_t *report = state_section(r->doc, SECTION_REPORT);
	const json_t *sub;
	int64_t t = r->it->start;
	size_t i;

	t = place_schedule(r, report, state_section(r->doc, SECTION_SCHEDULE),
	    t);
	json_array_foreach(json_object_get(state_section(r->doc,
	    SECTION_MIGRATIONS), "sub_iterations"), i, sub)
		t = place_schedule(r, report, json_object_get(sub, "schedule"),
		    t);
	*end = t;
	return 0;
}

/* step_action: the indexed action of a step, or of what it stands for. */
static const json_t *
step_action(const struct reading *r, const char *id)
{
	const json_t *entry = json_object_get(r->acts, id);
	const char *cut = strchr(id, '~');
	char *parent;

	if (entry != NULL || cut == NULL)
		return entry;
	parent = xstrdup(id);
	parent[cut - id] = '\0';
	entry = json_object_get(r->acts, parent);
	free(parent);
	return entry;
}

static int
place_step(struct access *a, const json_t *step, size_t i, void *ctx)
{
	struct reading *r = ctx;
	const char *id, *word;
	json_int_t start, end;
	const json_t *entry;
	enum result res;

	(void)i;
	if (acc_as_object(a, step) < 0 ||
	    acc_get_string(a, step, "id", ACC_REQUIRED, &id) < 0 ||
	    acc_get_string(a, step, "result", ACC_REQUIRED, &word) < 0 ||
	    acc_get_int_range(a, step, "start_ms", ACC_REQUIRED, 0,
	    PIC_CLOCK_MAX, &start) < 0 ||
	    acc_get_int_range(a, step, "end_ms", ACC_REQUIRED, start,
	    PIC_CLOCK_MAX, &end) < 0)
		return -1;
	access_enter_key(a, "result");
	if (result_parse(a, word, &res) < 0)
		return -1;
	access_leave(a);
	if ((entry = step_action(r, id)) == NULL)
		return access_fail_at(a, "id", "\"%s\" is in no schedule", id);
	pic_add_mark(r, id, entry, start, end, res);
	return 0;
}

/* pic_place_measured: upkit-sim's steps, on its clock. */
int
pic_place_measured(struct reading *r, const json_t *sim)
{
	json_int_t start, end;

	if (acc_as_object(r->a, sim) < 0 ||
	    acc_get_int_range(r->a, sim, "iteration_start_ms", ACC_REQUIRED,
	    0, PIC_CLOCK_MAX, &start) < 0 ||
	    acc_get_int_range(r->a, sim, "clock_ms", ACC_REQUIRED, start,
	    PIC_CLOCK_MAX, &end) < 0)
		return -1;
	r->it->start = start;
	r->it->end = end;
	return acc_each_element(r->a, sim, "steps", ACC_REQUIRED, place_step,
	    r) < 0 ? -1 : 0;
}

static int
read_outage(struct access *a, const json_t *o, size_t i, void *ctx)
{
	const char *vm, *tenant;
	json_int_t start, end;

	(void)i;
	if (acc_as_object(a, o) < 0 ||
	    acc_get_string(a, o, "vm", ACC_REQUIRED, &vm) < 0 ||
	    acc_get_string(a, o, "tenant", ACC_REQUIRED, &tenant) < 0 ||
	    acc_get_int_range(a, o, "start_ms", ACC_REQUIRED, 0, PIC_CLOCK_MAX,
	    &start) < 0 ||
	    acc_get_int_range(a, o, "end_ms", ACC_REQUIRED, start,
	    PIC_CLOCK_MAX, &end) < 0)
		return -1;
	add_outage(ctx, vm, tenant, start, end);
	return 0;
}

/* pic_read_outages: upkit-sim's VM outages of the iteration. */
int
pic_read_outages(struct reading *r, const json_t *sim)
{
	return acc_each_element(r->a, sim, "outages", ACC_OPTIONAL,
	    read_outage, r) < 0 ? -1 : 0;
}
