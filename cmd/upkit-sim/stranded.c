/*
 * stranded.c: VMs left on a host that is not in service (the host or
 * what it contains not active, as upkit-sim(5) defines it) are out,
 * whatever the schedule meant: a host deactivated with VMs still on it,
 * or VMs moved onto a host that was then left deactivated.  Each such
 * VM is counted out for the whole stage at whose end it is found so
 * (unless an action's outage counts it in that stage already), and for
 * the planning time before the iteration's first stage, so that the
 * figures of section V (seed 000) do not leave it out.
 */
#include <stdlib.h>
#include <string.h>

#include "sim.h"

/* hosts_out: an object whose keys are the hosts not in service now. */
static json_t *
hosts_out(const struct world *w)
{
	json_t *out = json_object(), *x;
	size_t i;

	json_array_foreach(json_object_get(w->system, "resources"), i, x)
		if (!world_is(x, "status", "active") &&
		    json_object_get(x, "status") != NULL)
			json_object_set_new(out, world_str(x, "id"), json_true());
	json_array_foreach(json_object_get(w->system, "dependencies"), i, x)
		if (world_is(x, "type", "contained") &&
		    json_object_get(out, world_str(x, "dependent")) != NULL)
			json_object_set_new(out, world_str(x, "sponsor"),
			    json_true());
	return out;
}

/* counted: has vm an outage among those added since mark? */
static int
counted(const struct outages *o, size_t mark, const char *vm)
{
	size_t i;

	for (i = mark; i < o->n; i++)
		if (strcmp(o->v[i].vm, vm) == 0)
			return 1;
	return 0;
}

void
stranded_outages(struct sim *s, size_t mark, ms_t start, ms_t end)
{
	json_t *out = hosts_out(&s->world), *vm;
	const char *host;
	char *cause;
	size_t i;

	/* Every host in service, as at most stage ends: no VM to look at. */
	for (i = 0; json_object_size(out) > 0 && i < s->world.nvms; i++) {
		vm = s->world.vms[i];
		host = world_str(vm, "host");
		if (json_object_get(out, host) == NULL ||
		    counted(&s->outages, mark, world_str(vm, "id")))
			continue;
		cause = sched_format("%s not in service", host);
		outages_add(&s->outages, s->world.vm_tenant[i],
		    world_str(vm, "id"), world_str(vm, "group"), cause, start,
		    end);
		free(cause);
	}
	json_decref(out);
}
