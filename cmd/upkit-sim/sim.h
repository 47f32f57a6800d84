/*
 * sim.h: upkit-sim, the simulated actuator of the upkit loop (seed 000
 * III.B, Fig. 3 and 4: the upgrade engine) and the rolling-upgrade
 * baseline of section V.
 *
 * Time is kept in integer milliseconds from the start of the upgrade,
 * so that results are exact and the same on every machine.
 */
#ifndef UPKIT_SIM_H
#define UPKIT_SIM_H

#include <stddef.h>
#include <stdint.h>
#include <jansson.h>

#include <stdio.h>

#include "access.h"
#include "idmap.h"
#include "output.h"
#include "stage.h"
#include "report.h"
#include "schedule.h"

/* ms: simulated milliseconds since the start of the upgrade. */
typedef int64_t ms_t;

struct options {
	struct stage_input in;	/* FILE, and the sections read */
	int mode;			/* enum mode */
	struct idmap fail_ids;		/* --fail: action ids that fail */
	double fail_rate;		/* --fail-rate: P in [0, 1] */
	uint64_t seed;			/* --seed */
	const char *timeline;		/* --timeline FILE */
	const char *start;		/* --start TIME */
	ms_t calc_ms;			/* --calc-time: per iteration */
	ms_t outage_ms;			/* --outage: per live migration */
	ms_t recovery_ms;		/* --recovery: failover of a VM */
	long rolling;			/* --rolling N: batch size */
	long samples;			/* --samples M: 0 means all */
	int table;			/* --table: text instead of JSON */
	const char *summary_file;	/* --summary-file FILE */
	int verbose;			/* -v: a line per group that ends */
	struct output_opts output;	/* -c */
};

/* MODE_PROGRESS_FINGERPRINT: both of the loop's questions, one read */
enum mode { MODE_SIMULATE, MODE_ROLLING, MODE_SUMMARY, MODE_PROGRESS,
	MODE_FINGERPRINT, MODE_PROGRESS_FINGERPRINT };

/* prng.c: the deterministic generator behind --fail-rate and --samples. */
struct prng {
	uint64_t state;
};
void prng_seed(struct prng *p, uint64_t seed, uint64_t stream);
uint64_t prng_next(struct prng *p);
/* prng_unit: uniform in [0, 1), 53 bits. */
double prng_unit(struct prng *p);
/* prng_below: uniform in [0, n). */
uint64_t prng_below(struct prng *p, uint64_t n);

/* slots.c: a stage's concurrency slots, the first to free on top. */
struct slot {
	ms_t free_at;
	size_t index;
};
struct slots {
	struct slot *heap;
	size_t n;
};
void slots_init(struct slots *s, size_t n, ms_t now);
void slots_free(struct slots *s);
/* slots_first_free: when the slot a group would run on frees. */
ms_t slots_first_free(const struct slots *s);
/* slots_reuse: that slot now frees at free_at. */
void slots_reuse(struct slots *s, ms_t free_at);

/* live_queue.c: at most per_host live migrations out of a host at once
 * (nova's max_concurrent_live_migrations); per_host 0: no limit. */
struct live_queue {
	long per_host;
	struct idmap hosts;		/* source host ids, copied */
	struct slots *slots;		/* by index in hosts */
};
void live_queue_init(struct live_queue *q, long per_host);
void live_queue_free(struct live_queue *q);
/* live_queue_start: when a migration out of host ready at ready starts. */
ms_t live_queue_start(struct live_queue *q, const char *host, ms_t ready);
/* live_queue_end: that migration ends at end, freeing its slot. */
void live_queue_end(struct live_queue *q, const char *host, ms_t end);

/* parse_seconds: "41", "0.23" -> milliseconds; 0 or -1. */
int parse_seconds(const char *s, ms_t *out);

/*
 * world.c: the system configuration being changed, kept as the JSON of
 * a system section (so the report carries it back as it is) with
 * indexes rebuilt after every change of its shape.
 */
struct world {
	json_t *system;			/* owned: the refreshed system */
	struct idmap res_ids;		/* resource id -> index */
	struct idmap vm_ids;		/* vm id -> index into vms */
	json_t **vms;			/* vm objects (borrowed from system) */
	size_t *vm_tenant;		/* tenant index of each vm */
	size_t nvms;
	long host_capacity;
	struct idmap host_ids;		/* host id -> index into host_vms */
	long *host_vms;			/* VMs on each host, kept by world_move */
	size_t host_cap;
	struct idmap group_ids;		/* anti-affinity group (or VM id) */
	size_t *group_first;		/* group -> its slice of group_vms */
	size_t *group_vms;		/* indexes into vms, by group */
};

/* world_init: the world of system, which it owns and edits from now on. */
int world_init(struct world *w, json_t *system);
void world_free(struct world *w);
void world_reindex(struct world *w);
/* world_reindex_resources: after resources came or went (no VM did);
 * world_add_resource: r (a new reference) appended, and indexed. */
void world_reindex_resources(struct world *w);
void world_add_resource(struct world *w, json_t *r);
json_t *world_resource(const struct world *w, const char *id);
json_t *world_vm(const struct world *w, const char *id, size_t *tenant);
json_t *world_tenant(const struct world *w, size_t t);
size_t world_ntenants(const struct world *w);
const char *world_str(const json_t *obj, const char *key);
int world_is(const json_t *obj, const char *key, const char *value);
/* world_move: vm now runs on host (every VM move goes through it). */
void world_move(struct world *w, json_t *vm, const char *host);
/* world_host_vms: VMs on host; world_capacity: its K. */
long world_host_vms(const struct world *w, const char *host);
long world_capacity(const struct world *w, const char *host);
int world_is_compute(const struct world *w, const char *host);
int world_status_is(const struct world *w, const char *id, const char *st);
void world_set_status(struct world *w, const char *id, const char *st);
/* world_group_on: host runs a VM of anti-affinity group (or VM id). */
int world_group_on(const struct world *w, const char *group,
    const char *host);
/* world_group_size: the VMs of tenant in anti-affinity group. */
long world_group_size(const struct world *w, size_t tenant,
    const char *group);
/* world_place: a compute host for a VM of group, not in avoid; or NULL. */
const char *world_place(const struct world *w, const char *group,
    const char *avoid);

/* outage.c: VM outages and the SLA violations they make (section V). */
struct outage {
	size_t tenant;
	char *vm, *group, *cause;
	ms_t start, end;
};

struct outages {
	struct outage *v;
	size_t n, cap;
};

void outages_add(struct outages *o, size_t tenant, const char *vm,
    const char *group, const char *cause, ms_t start, ms_t end);
void outages_free(struct outages *o);

/* Per-tenant totals of violations (kept across iterations). */
struct tenant_totals {
	long violations;
	long vms_min, vms_max;		/* impacted VMs per violation */
	ms_t violation_ms;		/* total duration */
	int64_t penalty;		/* sum of ms * (impacted VMs)^2 */
	ms_t app_outage_ms;		/* an anti-affinity group lost */
	long outages;			/* VM outages */
	ms_t vm_outage_ms;		/* summed over the tenant's VMs */
};

/*
 * outages_by_tenant: the outages of each tenant, in order: those of
 * tenant t are (*list)[(*first)[t] .. (*first)[t + 1]).  Free both.
 */
void outages_by_tenant(const struct outages *o, size_t ntenants,
    size_t **first, const struct outage ***list);
/*
 * outages_violations: the violations of tenant t (maximal intervals in
 * which some VM is out), from its n outages in mine, added to tot; the
 * list goes to arr if not NULL.
 */
void outages_violations(const struct outage *const *mine, size_t n,
    const struct world *w, size_t t, struct tenant_totals *tot, json_t *arr);

/* ended.c: -v, a line on standard error per group that ends. */
struct ended_group {
	ms_t end;
	size_t seq;			/* the order the group started in */
	char *what;			/* "i3 upgrade host6: done", owned */
};

struct ended_groups {
	int on;
	long total, told;		/* groups of the iteration, told */
	struct ended_group *v;		/* the stage's, not told yet */
	size_t n, cap;
};

/* ended_init: on or not, for the groups of the schedules of l. */
void ended_init(struct ended_groups *e, int on, const struct sched_list *l);
/* ended_add: a group ended at end; what (taken) says which and how. */
void ended_add(struct ended_groups *e, ms_t end, char *what);
/* ended_tell: the lines of the groups added, by end, with times since. */
void ended_tell(struct ended_groups *e, ms_t since);
void ended_free(struct ended_groups *e);

/* The simulation of one iteration. */
struct sim {
	const struct options *opt;
	struct world world;
	const json_t *doc;
	json_t *rg_actions;		/* RG action id -> action (borrowed) */
	json_t *catalog;		/* the catalog section (borrowed) */
	json_t *rg_edges;		/* the RG's edges (borrowed) or NULL */
	struct prng prng;
	long iteration;
	int64_t start_epoch;		/* the upgrade's start, seconds */
	ms_t iter_start, now;
	int first;			/* no earlier iteration was simulated */
	struct sched_list scheds;	/* the schedules to run, checked */
	struct report report;		/* the report's common part */
	json_t *steps;			/* every action and undo step run */
	json_t *manual;			/* manual steps recorded */
	json_t *events;			/* timeline events applied */
	json_t *timeline;		/* events array, owned, or NULL */
	unsigned char *timeline_done;	/* by event: applied already */
	json_t *prev_totals;		/* the previous report's totals */
	struct outages outages;
	struct live_queue live;		/* migrations out of each host */
	struct ended_groups ended;	/* -v */
};

/* effects.c: what an action does to the world, and how to revert it. */
struct effect {
	char *vm;			/* a VM moved: its id and old host */
	char *old_host;
	char *res;			/* a resource changed: id and old copy */
	json_t *old_res;		/* NULL: the resource did not exist */
	size_t res_index;		/* its place among the resources */
	json_t *added_deps;		/* the dependencies a create added,
					   or NULL */
	json_t *removed_deps;		/* those a delete removed, as
					   [index, dependency] in the order
					   of their indexes, or NULL */
};

int effect_apply(struct sim *s, const json_t *action, struct effect *e);
void effect_revert(struct sim *s, struct effect *e);
void effect_free(struct effect *e);

/* run.c: run the schedule and the step 4 sub-iterations. */
void run_iteration(struct sim *s);
/*
 * stranded.c: outages [start, end) of the VMs on hosts not in service
 * now, but for those with an outage added since index mark.
 */
void stranded_outages(struct sim *s, size_t mark, ms_t start, ms_t end);
int sim_draw_failure(struct sim *s, const char *id);

/* timeline.c: tenant scaling and host failures at given times. */
int timeline_load(struct sim *s, const char *file);
void timeline_apply(struct sim *s, ms_t until);

/*
 * sim_report.c: the report section of the iteration: the common part
 * (report.h) with the refreshed system and the simulation's own block.
 */
json_t *sim_report(struct sim *s);
/* sim_report_check: report carries checked simulation totals; 0 or -1. */
int sim_report_check(struct access *a, const json_t *report);
/* sim_prev_report: the clock and totals of the previous report, if any. */
int sim_prev_report(struct sim *s, struct access *a, const json_t *prev);

/*
 * summary.c: the section V measures of one run or, for the rolling
 * baseline, of many (one per batch selection), and the loop's progress.
 */
struct agg {
	long runs, tenant_runs;		/* runs, and runs times tenants */
	long viol_min, viol_max;	/* violations of one tenant in a run */
	long vms_min, vms_max;		/* impacted VMs per violation */
	double duration_ms, iterations;	/* sums over runs */
	double violation_ms, penalty, app_ms;	/* sums over tenant runs */
	double vm_outage_ms, vms;	/* summed VM outage, and VMs */
};

void agg_add(struct agg *g, const struct tenant_totals *t, size_t n,
    ms_t duration, long iterations, long nvms);
json_t *agg_json(const struct agg *g, const char *method);
int summary_write(const struct options *o, json_t *sum);
int summary_run(const struct options *o, json_t *doc);
/* summary_of: the summary of the run that ended with doc (a new value). */
json_t *summary_of(const json_t *doc);
int progress_run(const struct options *o, json_t *doc);
/* fingerprint_run: the digest upgrade-loop compares (fingerprint.c). */
int fingerprint_run(const struct options *o, json_t *doc);

/* simulate.c: the default mode. */
int simulate_run(const struct options *o, json_t *doc);

/* rolling.c: the rolling upgrade baseline with a fixed batch size. */
struct sysconf;
struct rgraph;
struct catalog;
int rolling_run(const struct options *o, const struct sysconf *sc,
    const struct rgraph *rg, const struct catalog *cat);

#endif
