/* migrate.c: VM migration actions (see migrate.h). */
#include <stdlib.h>
#include <string.h>

#include "jshare.h"
#include "migrate.h"
#include "schedule.h"

static const char *const default_argv[] = { "openstack", "server",
	"migrate", "--live-migration", "--host", "{destination}", "--wait",
	"{vm}", NULL };
static const char *const replace_argv[] = { "openstack", "server",
	"evacuate", "--host", "{destination}", "{vm}", NULL };

const struct cat_action_def *
migration_def(const struct catalog *cat, struct hv_product to)
{
	const struct cat_product *p;

	if (to.name == NULL || to.version == NULL ||
	    (p = catalog_find(cat, to.name, to.version)) == NULL ||
	    p->actions[CAT_MIGRATE].argv == NULL)
		return NULL;
	return &p->actions[CAT_MIGRATE];
}

static long
duration_of(const struct cat_action_def *d)
{
	return d != NULL ? d->duration : MIGRATE_DEFAULT_DURATION;
}

long
migration_duration(const struct catalog *cat, struct hv_product to)
{
	return duration_of(migration_def(cat, to));
}

/*
 * command: the argv moving vm from source to destination, by d, the
 * migrate action of the hypervisor it runs on there (migration_def),
 * when it has one and dflt is the default; else by dflt.
 */
static json_t *
command(const struct cat_action_def *d, const char *vm, const char *source,
    const char *destination, const char *const *dflt)
{
	static const char *const names[] = { "{vm}", "{source}",
		"{destination}", "{resource}" };
	const char *values[] = { vm, source, destination, vm };

	if (d != NULL && dflt == default_argv)
		return sched_argv(d->argv, names, values, 4);
	return sched_argv_words(dflt, names, values, 4);
}

/* on_control: does the step of d (or of dflt) call nova's API from the
 * control node?  upkit's own openstack commands do; a catalog's, when
 * it says run_on: control. */
static int
on_control(const struct cat_action_def *d, const char *const *dflt)
{
	return d != NULL && dflt == default_argv ? d->on_control : 1;
}

/* mark: step runs on the control node when on is set. */
static json_t *
mark(json_t *step, int on)
{
	if (on)
		json_object_set_new(step, "run_on", json_string("control"));
	return step;
}

static int
differs(const char *a, const char *b)
{
	return a != NULL && b != NULL && strcmp(a, b) != 0;
}

json_t *
migration_action(const struct catalog *cat, const struct migration *m)
{
	const struct cat_action_def *to = migration_def(cat, m->to);
	const struct cat_action_def *from = migration_def(cat, m->from);
	char *undo_id = sched_id_with(m->id, "~undo");
	const char *src = m->source_name ? m->source_name : m->source;
	const char *dst = m->destination_name ? m->destination_name :
	    m->destination;
	json_t *a = mark(sched_action(m->id, m->phase, "migrate", m->vm,
	    m->destination, command(to, m->vm, src, dst, default_argv), NULL,
	    duration_of(to)), on_control(to, default_argv));

	json_object_set_new(a, "vm", jshare(m->vm));
	json_object_set_new(a, "source", jshare(m->source));
	json_object_set_new(a, "destination", jshare(m->destination));
	if (differs(m->from.name, m->to.name))
		json_object_set_new(a, "vm_upgrade", json_true());
	/* moving back: the source's hypervisor takes the VM in again */
	sched_add_undo(a, mark(sched_step(undo_id, m->source, command(from,
	    m->vm, dst, src, default_argv), NULL, duration_of(from)),
	    on_control(from, default_argv)));
	free(undo_id);
	if (m->replaceable) {
		char *rid = sched_id_with(m->id, "~replace");

		json_object_set_new(a, "on_failure", sched_step(rid,
		    m->destination, command(to, m->vm, m->source,
		    m->destination, replace_argv), NULL, duration_of(to)));
		free(rid);
	}
	return a;
}
