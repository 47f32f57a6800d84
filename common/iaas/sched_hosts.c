/*
 * sched_hosts.c: the host placeholders of catalog actions.  Beside
 * "{resource}" (rg-build puts in the resource id), an element of an
 * action's argv that is exactly "{host}", "{service_host}", "{address}"
 * or "{zone}" becomes, as one whole argument, what the system says of
 * the host the action runs for (its "host": a hypervisor's containing
 * host, say): its id, the name nova knows it by (service_host, else
 * its id), where tools reach it (address, else its id), its
 * availability zone (else "nova", nova's default zone).  So that
 * "openstack compute service set --disable {service_host}
 * nova-compute" names a service host nova has, not a hypervisor id.
 */
#include <string.h>

#include "schedule.h"

static const char *const names[] = { "{host}", "{service_host}",
	"{address}", "{zone}", NULL };

const char *const *
sched_host_placeholders(void)
{
	return names;
}

/* value: what placeholder k stands for, for host id host. */
static const char *
value(const struct sysconf *sc, const char *host, size_t k)
{
	long i = idmap_find(&sc->resource_ids, host);
	const struct resource *r = i < 0 ? NULL : &sc->resources[i];

	switch (k) {
	case 1:
		return r != NULL && r->service_host != NULL ?
		    r->service_host : host;
	case 2:
		return r != NULL && r->address != NULL ? r->address : host;
	case 3:
		return r != NULL && r->zone != NULL ? r->zone : "nova";
	default:
		return host;
	}
}

/* expand_step: the placeholders of step's argv, by its host. */
static void
expand_step(json_t *step, const struct sysconf *sc)
{
	const char *host = json_string_value(json_object_get(step, "host"));
	json_t *argv = json_object_get(step, "argv"), *v;
	size_t i, k;

	if (host == NULL || !json_is_array(argv))
		return;
	json_array_foreach(argv, i, v)
		for (k = 0; names[k] != NULL; k++)
			if (json_is_string(v) &&
			    strcmp(json_string_value(v), names[k]) == 0)
				json_array_set_new(argv, i,
				    json_string(value(sc, host, k)));
}

static void
expand_action(json_t *a, const struct sysconf *sc)
{
	json_t *u;
	size_t i;

	expand_step(a, sc);
	json_array_foreach(json_object_get(a, "undo"), i, u)
		expand_step(u, sc);
	if (json_object_get(a, "on_failure") != NULL)
		expand_step(json_object_get(a, "on_failure"), sc);
}

void
sched_expand_hosts(json_t *sched, const struct sysconf *sc)
{
	json_t *st, *g, *a;
	size_t i, j, k;

	json_array_foreach(json_object_get(sched, "stages"), i, st)
		json_array_foreach(json_object_get(st, "groups"), j, g)
			json_array_foreach(json_object_get(g, "actions"), k, a)
				expand_action(a, sc);
}
