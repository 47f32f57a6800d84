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

static json_t *
string_array(const char *const *s)
{
	json_t *a = json_array();

	for (; *s != NULL; s++)
		json_array_append_new(a, jshare(*s));
	return a;
}

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

long
migration_duration(const struct catalog *cat, struct hv_product to)
{
	const struct cat_action_def *d = migration_def(cat, to);

	return d != NULL ? d->duration : MIGRATE_DEFAULT_DURATION;
}

/* command: the argv moving vm from source to destination on to. */
static json_t *
command(const struct catalog *cat, struct hv_product to, const char *vm,
    const char *source, const char *destination, const char *const *dflt)
{
	static const char *const names[] = { "{vm}", "{source}",
		"{destination}", "{resource}" };
	const char *values[] = { vm, source, destination, vm };
	const struct cat_action_def *d = migration_def(cat, to);
	json_t *tmpl = d != NULL && dflt == default_argv ?
	    json_incref(d->argv) : string_array(dflt), *argv;

	argv = sched_argv(tmpl, names, values, 4);
	json_decref(tmpl);
	return argv;
}

static int
differs(const char *a, const char *b)
{
	return a != NULL && b != NULL && strcmp(a, b) != 0;
}

json_t *
migration_action(const struct catalog *cat, const struct migration *m)
{
	long d = migration_duration(cat, m->to), back = migration_duration(cat,
	    m->from);
	char *undo_id = sched_format("%s~undo", m->id);
	json_t *a = sched_action(m->id, m->phase, "migrate", m->vm,
	    m->destination, command(cat, m->to, m->vm, m->source,
	    m->destination, default_argv), NULL, d);

	json_object_set_new(a, "vm", jshare(m->vm));
	json_object_set_new(a, "source", jshare(m->source));
	json_object_set_new(a, "destination", jshare(m->destination));
	if (differs(m->from.name, m->to.name))
		json_object_set_new(a, "vm_upgrade", json_true());
	/* moving back: the source's hypervisor takes the VM in again */
	sched_add_undo(a, sched_step(undo_id, m->source, command(cat, m->from,
	    m->vm, m->destination, m->source, default_argv), NULL, back));
	free(undo_id);
	if (m->replaceable) {
		char *rid = sched_format("%s~replace", m->id);

		json_object_set_new(a, "on_failure", sched_step(rid,
		    m->destination, command(cat, m->to, m->vm, m->source,
		    m->destination, replace_argv), NULL, d));
		free(rid);
	}
	return a;
}
