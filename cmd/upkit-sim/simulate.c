/*
 * simulate.c: one iteration of the upgrade engine in simulation: read
 * the state document, run its schedules against the system, write the
 * document back with the report section (upkit-state(5)).
 */
#include <stdio.h>
#include <string.h>

#include "answer_file.h"
#include "catalog.h"
#include "exitcodes.h"
#include "jtext.h"
#include "load.h"
#include "output.h"
#include "rgraph.h"
#include "sim.h"
#include "state.h"
#include "sysconf.h"
#include "timefmt.h"

/* iteration_of: the resource graph's iteration, which the report names. */
static long
iteration_of(const json_t *doc)
{
	static const char *const secs[] = { "resource_graph", "control_graph",
		"batch", NULL };
	json_t *it;
	size_t i;

	for (i = 0; secs[i] != NULL; i++)
		if ((it = json_object_get(json_object_get(doc, secs[i]),
		    "iteration")) != NULL && json_is_integer(it))
			return (long)json_integer_value(it);
	return 1;
}

/* load_rg: check the resource graph and index its actions by id. */
static int
load_rg(struct sim *s, struct access *a, const json_t *doc)
{
	json_t *sec = json_object_get(doc, "resource_graph");
	struct rgraph rg;
	size_t k;
	int r;

	s->rg_actions = json_object();
	if (sec == NULL)
		return 0;
	rgraph_init(&rg);
	access_enter_key(a, "resource_graph");
	r = rgraph_load(a, sec, &rg);
	access_leave(a);
	for (k = 0; r == 0 && k < rg.nactions; k++)
		json_object_set_new(s->rg_actions, rg.act[k].id,
		    rgraph_action_value(&rg, k));
	rgraph_free(&rg);
	s->rg_edges = json_object_get(sec, "edges");
	return r;
}

/*
 * known_refs: a migration must move a VM of the system onto one of its
 * compute hosts, so that nothing is half-simulated.
 */
static int
known_refs(struct access *a, const json_t *step, void *ctx)
{
	const struct world *w = ctx;
	const char *vm = world_str(step, "vm");
	const char *dst = world_str(step, "destination");

	if (!world_is(step, "op", "migrate"))
		return 0;
	if (world_vm(w, vm, NULL) == NULL)
		return access_fail_at(a, "vm", "no VM has id \"%s\"", vm);
	if (!world_is_compute(w, dst))
		return access_fail_at(a, "destination", "no compute host has id "
		    "\"%s\"", dst);
	return 0;
}

/* check_current: the schedules must be this iteration's, not leftovers. */
static int
check_current(struct sim *s, struct access *a, const json_t *doc)
{
	const json_t *sched, *mig = json_object_get(doc, "migrations");
	char want[32];

	if (sched_list_collect(a, doc, known_refs, &s->world, &s->scheds) < 0)
		return -1;
	sched = s->scheds.sched[0];
	snprintf(want, sizeof want, "i%ld", s->iteration);
	if (strcmp(world_str(sched, "id"), want) != 0) {
		access_enter_key(a, "schedule");
		return access_fail_at(a, "id", "schedule \"%s\" is not "
		    "iteration %ld's: run batch-select", world_str(sched, "id"),
		    s->iteration);
	}
	if (mig != NULL && (!json_is_integer(json_object_get(mig,
	    "iteration")) || json_integer_value(json_object_get(mig,
	    "iteration")) != s->iteration)) {
		access_enter_key(a, "migrations");
		return access_fail_at(a, "iteration", "expected iteration %ld: "
		    "run vm-migrate-plan", s->iteration);
	}
	return 0;
}

/* earliest_request: the first iteration starts with the first request. */
static int
start_time(struct sim *s, struct access *a, const json_t *doc)
{
	const json_t *reqs = json_object_get(json_object_get(doc, "requests"),
	    "requests"), *r;
	int64_t t;
	size_t i;
	int found = 0;

	if (s->opt->start != NULL) {
		if (time_parse(s->opt->start, &s->start_epoch) == 0)
			return 0;
		diag_error(NULL, "--start: \"%s\" is not an ISO 8601 time",
		    s->opt->start);
		return -1;
	}
	json_array_foreach(reqs, i, r)
		if (json_is_string(json_object_get(r, "time")) &&
		    time_parse(world_str(r, "time"), &t) == 0 &&
		    (!found || t < s->start_epoch)) {
			s->start_epoch = t;
			found = 1;
		}
	return found ? 0 : access_fail(a, "no request time to start the "
	    "clock from: give --start");
}

/*
 * world_system: the system the world will edit.  The document writes
 * the system it read from its kept text, so the world takes the tree
 * itself, and the document a stand-in for that text; where nothing was
 * kept (a document jansson parsed whole), the world gets a copy.  A
 * second tree of 100,000 hosts' system was 0.8 GiB.
 */
static json_t *
world_system(json_t *doc, const json_t *sys)
{
	json_t *own = jtext_take(doc, "system");

	return own != NULL ? own : json_deep_copy(sys);
}

static int
setup(struct sim *s, struct access *a, json_t *doc)
{
	struct sysconf sc = { 0 };
	struct catalog cat = { 0 };
	json_t *sys;
	int r;

	if (state_check(a, doc) < 0 ||
	    state_require(a, doc, SECTION_SYSTEM, &sys) < 0)
		return EXIT_DATAERR;
	access_enter_key(a, "system");
	r = sysconf_load(a, sys, &sc);
	sysconf_free(&sc);
	access_leave(a);
	if (r == 0 && json_object_get(doc, "catalog") != NULL) {
		access_enter_key(a, "catalog");
		r = catalog_load(a, json_object_get(doc, "catalog"), &cat);
		catalog_free(&cat);
		access_leave(a);
	}
	if (r < 0 || world_init(&s->world, world_system(doc, sys)) < 0)
		return EXIT_DATAERR;
	live_queue_init(&s->live, (long)json_integer_value(json_object_get(
	    s->world.system, "max_concurrent_live_migrations")));
	s->doc = doc;
	s->catalog = json_object_get(doc, "catalog");
	s->iteration = iteration_of(doc);
	if (load_rg(s, a, doc) < 0 || check_current(s, a, doc) < 0 ||
	    sim_prev_report(s, a, json_object_get(doc, "report")) < 0 ||
	    (s->first && start_time(s, a, doc) < 0))
		return EXIT_DATAERR;
	prng_seed(&s->prng, s->opt->seed, (uint64_t)s->iteration);
	return s->opt->timeline != NULL ? timeline_load(s, s->opt->timeline) :
	    EXIT_OK;
}

/* self_check: the refreshed system must still be a valid one. */
static int
self_check(struct sim *s)
{
	struct sysconf sc = { 0 };
	struct access a;
	int r;

	access_init(&a, "report.system");
	r = sysconf_load(&a, s->world.system, &sc);
	sysconf_free(&sc);
	access_free(&a);
	return r < 0 ? EXIT_SOFTWARE : EXIT_OK;
}

static void
sim_free(struct sim *s)
{
	world_free(&s->world);
	live_queue_free(&s->live);
	outages_free(&s->outages);
	json_decref(s->rg_actions);
	sched_list_free(&s->scheds);
	report_free(&s->report);
	json_decref(s->steps);
	json_decref(s->manual);
	json_decref(s->events);
	json_decref(s->timeline);
	free(s->timeline_done);
	ended_free(&s->ended);
}

/*
 * write_summary: what upkit-sim --summary prints of doc, for the loop
 * to keep as the measures so far, without reading doc back.
 */
static int
write_summary(const char *file, const json_t *doc)
{
	json_t *sum = summary_of(doc);
	int status = answer_file_json(file, sum);

	json_decref(sum);
	return status;
}

int
simulate_run(const struct options *o, json_t *doc)
{
	struct sim s = { 0 };
	struct access a;
	int status;

	s.opt = o;
	/* No resource graph: rg-build decides isolation (upkit-sim(1)). */
	report_init(&s.report, NULL, NULL);
	s.steps = json_array();
	s.manual = json_array();
	s.events = json_array();
	access_init(&a, load_name(o->in.file));
	status = setup(&s, &a, doc);
	access_free(&a);
	if (status == EXIT_OK) {
		ended_init(&s.ended, o->verbose, &s.scheds);
		run_iteration(&s);
		status = self_check(&s);
	}
	if (status == EXIT_OK) {
		state_put(doc, SECTION_REPORT, sim_report(&s));
		if (o->summary_file != NULL)
			status = write_summary(o->summary_file, doc);
	}
	if (status == EXIT_OK)
		status = output_json(doc, &o->output);
	sim_free(&s);
	return status;
}
