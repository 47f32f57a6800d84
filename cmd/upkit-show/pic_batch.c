/*
 * pic_batch.c: an iteration's batch for the picture: its status, the
 * groups it took out of service, those that waited grouped by the rule
 * of batch-select(1) that held them, and why nothing or little moved
 * (the batch's reason when it is not selected, step 4's note).
 */
#include <string.h>

#include "picture.h"
#include "show.h"
#include "state.h"

static int
add_taken(struct access *a, const json_t *f, size_t i, void *ctx)
{
	const char *group;

	(void)i;
	if (acc_as_object(a, f) < 0 ||
	    acc_get_string(a, f, "group", ACC_REQUIRED, &group) < 0)
		return -1;
	json_array_append_new(ctx, json_string(group));
	return 0;
}

/* read_note: why the iteration did not do all it could, or NULL. */
static int
read_note(struct reading *r, const json_t *batch)
{
	const char *reason = NULL, *status = NULL, *note = NULL;
	json_t *m = state_section(r->doc, SECTION_MIGRATIONS);

	if (acc_get_string(r->a, batch, "reason", ACC_OPTIONAL, &reason) < 0)
		return -1;
	if (m != NULL) {
		access_leave(r->a);
		access_enter_key(r->a, "migrations");
		if (acc_get_string(r->a, m, "status", ACC_OPTIONAL, &status) < 0 ||
		    acc_get_string(r->a, m, "note", ACC_OPTIONAL, &note) < 0)
			return -1;
	}
	if (reason != NULL)
		r->it->note = pic_copy(r->pic, reason);
	else if (note != NULL && strcmp(status ? status : "", "done") != 0 &&
	    strcmp(status ? status : "", "not-partitioned") != 0)
		r->it->note = pic_copy(r->pic, note);
	return 0;
}

/* pic_read_batch: the batch section, and the report's time. */
int
pic_read_batch(struct reading *r)
{
	json_t *batch, *report = state_section(r->doc, SECTION_REPORT);
	const char *status, *time = NULL;

	if (state_require(r->a, r->doc, SECTION_BATCH, &batch) < 0)
		return -1;
	access_enter_key(r->a, "batch");
	if (acc_get_string(r->a, batch, "status", ACC_REQUIRED, &status) < 0 ||
	    acc_each_element(r->a, batch, "final", ACC_OPTIONAL, add_taken,
	    r->it->taken) < 0 ||
	    waits_by_rule(r->a, batch, r->it->waits) < 0)
		return -1;
	r->it->status = pic_copy(r->pic, status);
	if (read_note(r, batch) < 0)
		return -1;
	access_leave(r->a);
	if (report == NULL || !r->it->ran)
		return 0;
	access_enter_key(r->a, "report");
	if (acc_get_string(r->a, report, "time", ACC_OPTIONAL, &time) < 0)
		return -1;
	access_leave(r->a);
	if (time != NULL)
		r->it->time = pic_copy(r->pic, time);
	return 0;
}
