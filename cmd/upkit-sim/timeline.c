/*
 * timeline.c: what happens in the cloud while the upgrade runs (seed
 * 000 III.A, "managing the dynamicity"): tenants scale out and in, hosts
 * fail and are repaired.  The file is described in upkit-sim(5).
 *
 * Events are applied in time order when the simulated clock reaches
 * them, at the next stage boundary (or at the end of the iteration);
 * an event belongs to the iteration whose time span holds it, so a run
 * of the loop applies each event once.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "exitcodes.h"
#include "load.h"
#include "sim.h"
#include "xalloc.h"

static const char *const event_types[] = { "scale-out", "scale-in",
	"host-failure", "host-repair", NULL };
enum { EV_SCALE_OUT, EV_SCALE_IN, EV_HOST_FAILURE, EV_HOST_REPAIR };

static int
check_event(struct access *a, const json_t *ev, size_t i, void *ctx)
{
	static const char *const known[] = { "at", "type", "tenant", "host",
		"count", NULL };
	struct sim *s = ctx;
	double at;
	json_int_t count;
	const char *who = NULL;
	int type;
	size_t t;

	(void)i;
	if (acc_as_object(a, ev) < 0 || acc_check_keys(a, ev, known) < 0 ||
	    acc_get_number(a, ev, "at", ACC_REQUIRED, &at) < 0 ||
	    acc_get_enum(a, ev, "type", ACC_REQUIRED, event_types, &type) < 0 ||
	    acc_get_int_range(a, ev, "count", ACC_OPTIONAL, 1, 1000000,
	    &count) < 0)
		return -1;
	if (!(at >= 0 && at <= 315360000))
		return access_fail_at(a, "at", "expected seconds from the start "
		    "of the upgrade, 0 or more");
	if (acc_get_string(a, ev, type <= EV_SCALE_IN ? "tenant" : "host",
	    ACC_REQUIRED, &who) < 0)
		return -1;
	if (type <= EV_SCALE_IN) {
		for (t = 0; t < world_ntenants(&s->world); t++)
			if (strcmp(world_str(world_tenant(&s->world, t), "id"),
			    who) == 0)
				break;
		if (t == world_ntenants(&s->world))
			return access_fail_at(a, "tenant", "no tenant has id "
			    "\"%s\"", who);
	} else if (!world_is_compute(&s->world, who)) {
		return access_fail_at(a, "host", "no compute host has id \"%s\"",
		    who);
	}
	return 0;
}

static ms_t
event_ms(const json_t *ev)
{
	return (ms_t)llround(json_number_value(json_object_get(ev, "at")) *
	    1000.0);
}

static int
cmp_events(const void *x, const void *y)
{
	ms_t a = event_ms(*(json_t *const *)x), b = event_ms(*(json_t *const *)y);

	return (a > b) - (a < b);
}

/* sort_events: by time; mergesort-like stability from the index. */
static void
sort_events(json_t *events)
{
	size_t n = json_array_size(events), i;
	json_t **v = xcalloc(n, sizeof *v), *sorted = json_array();

	for (i = 0; i < n; i++)
		v[i] = json_array_get(events, i);
	/* Insertion sort: stable, and timelines are short. */
	for (i = 1; i < n; i++) {
		json_t *x = v[i];
		size_t j = i;

		for (; j > 0 && cmp_events(&v[j - 1], &x) > 0; j--)
			v[j] = v[j - 1];
		v[j] = x;
	}
	for (i = 0; i < n; i++)
		json_array_append(sorted, v[i]);
	json_array_clear(events);
	json_array_extend(events, sorted);
	json_decref(sorted);
	free(v);
}

int
timeline_load(struct sim *s, const char *file)
{
	static const char *const known[] = { "version", "events", NULL };
	struct access a;
	json_t *doc, *events;
	json_int_t version;
	int status;

	if ((status = load_document(file, &doc)) != EXIT_OK)
		return status;
	access_init(&a, load_name(file));
	status = acc_as_object(&a, doc) < 0 || acc_check_keys(&a, doc, known) < 0 ||
	    acc_get_int_range(&a, doc, "version", ACC_REQUIRED, 1, 1,
	    &version) < 0 || acc_each_element(&a, doc, "events", ACC_REQUIRED,
	    check_event, s) < 0 ? EXIT_DATAERR : EXIT_OK;
	access_free(&a);
	if (status == EXIT_OK) {
		events = json_object_get(doc, "events");
		sort_events(events);
		s->timeline = json_incref(events);
		s->timeline_done = xcalloc(json_array_size(events), 1);
	}
	json_decref(doc);
	return status;
}

static size_t
tenant_index(struct sim *s, const char *id)
{
	size_t t;

	for (t = 0; t < world_ntenants(&s->world); t++)
		if (strcmp(world_str(world_tenant(&s->world, t), "id"), id) == 0)
			break;
	return t;
}

static long
event_count(const json_t *ev, const json_t *tenant)
{
	json_t *c = json_object_get(ev, "count");
	json_t *sa = json_object_get(tenant, "scaling_adjustment");

	if (c != NULL)
		return (long)json_integer_value(c);
	return sa != NULL ? (long)json_integer_value(sa) : 1;
}

/* new_vm_id: "<tenant>-s<k>", the smallest k not taken. */
static char *
new_vm_id(struct sim *s, const char *tenant)
{
	char buf[512];
	long k;

	for (k = 1;; k++) {
		snprintf(buf, sizeof buf, "%.400s-s%ld", tenant, k);
		if (world_vm(&s->world, buf, NULL) == NULL)
			return xstrdup(buf);
	}
}

static void
scale_out(struct sim *s, const json_t *ev, json_t *rec)
{
	json_t *ten = world_tenant(&s->world, tenant_index(s,
	    world_str(ev, "tenant"))), *vms = json_object_get(ten, "vms");
	long want = event_count(ev, ten), room, refused = 0, k;
	json_t *placed = json_array();

	room = (long)json_integer_value(json_object_get(ten, "max")) -
	    (long)json_array_size(vms);
	for (k = 0; k < want; k++) {
		char *id = new_vm_id(s, world_str(ten, "id"));
		const char *g = json_array_size(vms) > 0 ? world_str(
		    json_array_get(vms, 0), "group") : NULL;
		const char *host;

		if (g == NULL)
			g = json_array_size(vms) > 0 ? world_str(json_array_get(vms,
			    0), "id") : id;
		host = k < room ? world_place(&s->world, g, NULL) : NULL;
		if (host != NULL) {
			json_array_append_new(vms, json_pack("{s:s,s:s,s:s}",
			    "id", id, "host", host, "group", g));
			json_array_append_new(placed, json_string(id));
			world_reindex(&s->world);
		} else {
			refused += k < room;
		}
		free(id);
	}
	json_object_set_new(rec, "vms", placed);
	json_object_set_new(rec, "refused", json_integer(refused));
}

static void
scale_in(struct sim *s, const json_t *ev, json_t *rec)
{
	json_t *ten = world_tenant(&s->world, tenant_index(s,
	    world_str(ev, "tenant"))), *vms = json_object_get(ten, "vms");
	long n = event_count(ev, ten), min;
	json_t *gone = json_array();

	min = (long)json_integer_value(json_object_get(ten, "min"));
	for (; n > 0 && (long)json_array_size(vms) > min; n--) {
		size_t last = json_array_size(vms) - 1;

		json_array_append_new(gone, json_string(world_str(
		    json_array_get(vms, last), "id")));
		json_array_remove(vms, last);
	}
	world_reindex(&s->world);
	json_object_set_new(rec, "vms", gone);
}

/* host_failure: its VMs fail over to other hosts after --recovery. */
static void
host_failure(struct sim *s, const char *host, ms_t at, json_t *rec)
{
	json_t *moved = json_array(), *lost = json_array();
	size_t i;

	world_set_status(&s->world, host, "failed");
	report_failed(&s->report, host);
	for (i = 0; i < s->world.nvms; i++) {
		json_t *vm = s->world.vms[i];
		const char *g = world_str(vm, "group"), *to;

		if (strcmp(world_str(vm, "host"), host) != 0)
			continue;
		to = world_place(&s->world, g != NULL ? g :
		    world_str(vm, "id"), host);
		outages_add(&s->outages, s->world.vm_tenant[i],
		    world_str(vm, "id"), g, "host-failure", at,
		    at + s->opt->recovery_ms);
		if (to == NULL) {
			json_array_append_new(lost, json_string(world_str(vm,
			    "id")));
			continue;
		}
		json_array_append_new(moved, json_string(world_str(vm, "id")));
		world_move(&s->world, vm, to);
	}
	json_object_set_new(rec, "vms", moved);
	json_object_set_new(rec, "unplaced", lost);
}

static void
apply_event(struct sim *s, const json_t *ev)
{
	ms_t at = event_ms(ev);
	const char *type = world_str(ev, "type");
	json_t *rec = json_pack("{s:I,s:s}", "at_ms", (json_int_t)at, "type",
	    type);

	if (strcmp(type, "scale-out") == 0 || strcmp(type, "scale-in") == 0)
		json_object_set_new(rec, "tenant", json_string(world_str(ev,
		    "tenant")));
	else
		json_object_set_new(rec, "host", json_string(world_str(ev, "host")));
	if (strcmp(type, "scale-out") == 0)
		scale_out(s, ev, rec);
	else if (strcmp(type, "scale-in") == 0)
		scale_in(s, ev, rec);
	else if (strcmp(type, "host-failure") == 0)
		host_failure(s, world_str(ev, "host"), at, rec);
	else
		world_set_status(&s->world, world_str(ev, "host"), "active");
	json_array_append_new(s->events, rec);
}

/*
 * timeline_apply: the events due by until that belong to this
 * iteration: after its start (or from 0 in the first one).
 */
void
timeline_apply(struct sim *s, ms_t until)
{
	json_t *ev;
	size_t i;

	json_array_foreach(s->timeline, i, ev) {
		ms_t at = event_ms(ev);

		if (at > until)
			break;
		if ((at > s->iter_start || s->first) && !s->timeline_done[i]) {
			apply_event(s, ev);
			s->timeline_done[i] = 1;
		}
	}
}
