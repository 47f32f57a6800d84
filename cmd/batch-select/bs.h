/*
 * bs.h: batch-select's shared state: step 3 of seed 000 (IV), from VM
 * consolidation through the elimination rules and the SLA arithmetic
 * to the final batch and its runtime upgrade schedule.
 */
#ifndef BS_H
#define BS_H

#include <stddef.h>
#include <jansson.h>

#include "access.h"
#include "catalog.h"
#include "cgraph.h"
#include "cloud.h"
#include "diag.h"
#include "digraph.h"
#include "idmap.h"
#include "output.h"
#include "stage.h"
#include "plan_inputs.h"
#include "rgraph.h"
#include "sla.h"
#include "sysconf.h"

#define NONE ((size_t)-1)

struct options {
	struct stage_input in;	/* FILE, and the sections read */
	enum sla_reservation reservation;	/* --reservation */
	long dedicated;		/* -d: compute hosts dedicated to the upgrade */
	long parallel;		/* -j: concurrency limit, 0: none */
	long max_freed;		/* -m: hosts consolidation may free, -1: all */
	struct failover_opts failover;	/* -f, -r, -p */
	struct output_opts output;	/* -c */
};

enum move_kind { MOVE_CONSOLIDATE, MOVE_EVACUATE };

struct pool {
	size_t *hosts;		/* receivers, fullest first */
	size_t n, cursor;	/* before cursor: all full or excluded */
};

struct move {
	size_t vm, from, to;	/* VM index, compute hosts */
	enum move_kind kind;
};

/* The scaling reservation of the old version's hosts (reserve.c). */
struct reservation {
	long T, S, A;		/* T_i, S_i of (2), A_i */
	long sum, largest;	/* sum and largest of the tenants' e_n */
	long paper, exact;	/* hosts by (4), hosts by the worst case */
	long idle;		/* old hosts in service without VMs before
				 * consolidation: where the exact one goes */
	int exact_applies;	/* the exact one is used (and guarded) */
	long used;		/* the one used: exact, or (4) */
};

/* A rule's verdict on a group, with the numbers behind it. */
struct verdict {
	const char *rule;
	char *reason;		/* owned; eliminate() takes it */
	long needed, available;	/* -1 when the rule compares nothing */
	int by_pinned;			/* blocked by VM pinned on host */
	size_t pinned_host, pinned;
};

struct bs {
	const struct options *o;
	struct access *a;
	struct plan_inputs in;	/* system, catalog, RG and CG */
	struct cloud cl;
	struct digraph rgd;	/* RG edges, dependent -> sponsor */
	struct digraph cgd;	/* CG edges, dependent -> sponsor */
	size_t *res_of;		/* RG vertex -> system resource, or NONE */
	size_t *split_unit;	/* RG vertex -> split unit it is in, or NONE */
	size_t *split_part;	/* RG vertex -> its partition there */
	long *relying_vms;	/* RG vertex -> VMs on hosts relying on it,
				 * before this iteration's moves */
	unsigned char *keep_empty;	/* compute host no VM may move onto:
					 * it relies on a vertex being
					 * removed that no VM runs on */
	unsigned char *cand;	/* group in G_batch */
	unsigned char *ruled_in;	/* group in G_batch after the rules */
	unsigned char *waiting;	/* deactivated split partition awaiting switch */
	unsigned char *paired;	/* group a waiting partition waits for */
	unsigned char *chosen;	/* group in the final batch */
	unsigned char *affected;	/* compute host taken out by the batch */
	unsigned char *idle_before;	/* compute host without VMs before
					 * consolidation */
	json_t **why;		/* group -> its elimination record */
	struct verdict *eq1;	/* cause -> equation (1)'s verdict, if failed */
	struct pool *pools;	/* per partition, cause and kind, sorted once */
	size_t npools;
	unsigned char *giver;	/* evacuated hosts of the current group */
	struct move *moves;
	size_t nmoves, moves_cap;
	json_t *freed;		/* hosts consolidation empties */
	json_t *initial;	/* G_batch after the elimination rules */
	json_t *final;		/* final batch entries, in schedule order */
	size_t *final_g;	/* their groups */
	size_t nfinal;
	json_t *sla;		/* the terms of (2)-(4) */
	json_t *advice;		/* advice(), taken before the consolidation
				 * was dropped (idle.c), or NULL */
	struct reservation res;
	long Z, F, dedicated_left;
	long empty_left;	/* idle old hosts left (reserve.c) */
	int guard_idle;		/* keep exact reservation + F of them */
};

/* plan.c: held_out: v's resource is kept out of service by its operator
 * (a disabled nova-compute): no plan brings it back into service. */
int held_out(const struct bs *b, size_t v);

/* consolidate.c */
void consolidate(struct bs *b);
int evacuate(struct bs *b, const size_t *hosts, size_t n);
/* pinned_vm: the first VM on h that nova cannot live-migrate, or
 * CLOUD_NONE: an evacuation leaves it, and the host is upgraded in
 * place with it; a host that must be emptied for good cannot be. */
size_t pinned_vm(const struct bs *b, size_t h);
/* moves_rollback: take back every move after the first to_count. */
void moves_rollback(struct bs *b, size_t to_count);
/* consolidation_undo: take back every move and forget the hosts freed. */
void consolidation_undo(struct bs *b);

/* reserve.c: the scaling reservation, by (4) and exactly. */
void scaling_reservations(const struct bs *b, long T, long F,
    struct reservation *r);
/* tenant_scale_out_of: e_n of tenant n, 0 when it is not in A_i. */
long tenant_scale_out_of(const struct bs *b, size_t n);

/* advice.c: when nothing goes, what would let the upgrade proceed. */
json_t *advice(const struct bs *b);

/* idle.c: no consolidation move when the final batch is empty, and the
 * final batch selected again without it. */
void drop_idle_consolidation(struct bs *b);

/* storage.c: who a VM-supporting storage serves (see there). */
/* product_of_kind: the product resource r runs whose catalog entry
 * instantiates its kind (a storage's storage product), or NULL. */
const struct cat_product *product_of_kind(const struct bs *b, size_t r);
/* host_uses_storage: does compute host h run VMs on RG vertex x? */
int host_uses_storage(const struct bs *b, size_t h, size_t x);
/* product_on_sponsors: aggregate x's product when the system lists it
 * on at least one of x's sponsors, else NULL. */
const char *product_on_sponsors(const struct bs *b, size_t x);
/* sponsor_serves: does sponsor s carry name (product_on_sponsors)? */
int sponsor_serves(const struct bs *b, size_t s, const char *name);
/* count_relying_vms: relying_vms and keep_empty, before any move. */
void count_relying_vms(struct bs *b);

/* rules.c */
void initial_batch(struct bs *b);
/* verdict_say: v's reason, formatted, in place of any before. */
void verdict_say(struct verdict *v, const char *fmt, ...)
    DIAG_PRINTF(2, 3);
void eliminate(struct bs *b, size_t g, struct verdict *v);
int group_pending(const struct bs *b, size_t g);
/* split_waits_for: for a group of a split-mode partition waiting for an
 * earlier one, a resource of that partition still pending, else NONE. */
size_t split_waits_for(const struct bs *b, size_t g);
/* split_partner: for a group of a split-mode partition with a later
 * partition still pending, that partition's group, else NONE. */
size_t split_partner(const struct bs *b, size_t g);

/* final.c */
void final_batch(struct bs *b);
/* final_batch_again: forget the final batch and its eliminations, and
 * select it again from the cloud as it is now. */
void final_batch_again(struct bs *b);
long group_duration(const struct bs *b, size_t g);

/* plan.c */
long group_step_time(const struct bs *b, size_t g);
json_t *build_schedule(struct bs *b);

/* conditions.c: the groups' "requires" (see there). */
struct placed_move {
	const char *id, *vm, *from, *to;
	int kind;		/* enum move_kind */
	size_t stage;
};
/* The moves by source host and by VM, as lists of move indices. */
struct move_index {
	size_t *out_start, *out;	/* host h: out[out_start[h] ..] */
	size_t *vm_start, *vm;		/* VM v: vm[vm_start[v] ..] */
};
void move_index_build(struct move_index *x, const struct bs *b);
void move_index_free(struct move_index *x);
/* require_moves: move self's group needs the earlier moves it relies on. */
void require_moves(json_t *groups, const struct bs *b,
    const struct placed_move *m, const struct move_index *x, size_t self);
/* add_moves_out: append the ids of the moves out of host to need. */
void add_moves_out(json_t *need, const struct bs *b,
    const struct placed_move *m, const struct move_index *x,
    const char *host);
/* add_action_ids: append the ids of the actions of list to need. */
void add_action_ids(json_t *need, const json_t *list);

/* explain.c */
json_t *batch_section(struct bs *b);

#endif
