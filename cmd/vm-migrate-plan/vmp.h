/*
 * vmp.h: vm-migrate-plan's shared state: step 4 of seed 000 (IV), the
 * VMs that move from the old compute partition to the new one.
 */
#ifndef VMP_H
#define VMP_H

#include <stddef.h>
#include <jansson.h>

#include "access.h"
#include "catalog.h"
#include "cgraph.h"
#include "cloud.h"
#include "output.h"
#include "stage.h"
#include "plan_inputs.h"
#include "rgraph.h"
#include "sla.h"
#include "strpool.h"
#include "sysconf.h"

#define NONE ((size_t)-1)

/* Which VMs step 4 moves first (-O). */
enum move_order { ORDER_HOSTS, ORDER_GROUPS };

struct options {
	struct stage_input in;	/* FILE, and the sections read */
	long new_capacity;	/* -k: K', 0: the hosts' own capacity */
	int standby_first;	/* -s: move standbys before actives */
	enum sla_reservation reservation;	/* -R */
	enum move_order order;	/* -O */
	struct failover_opts failover;	/* -f, -r, -p */
	struct output_opts output;	/* -c */
	const char *progress_file;	/* --progress-file */
};

/* conditions.c: what each move relies on, by host and VM (action ids). */
struct id_list {
	const char **ids;	/* copies, in the order noted */
	size_t n, cap;
};
struct id_lists {
	struct idmap keys;	/* host or VM -> index into lists */
	struct id_list *lists;
	size_t cap;
	struct strpool copies;	/* of the ids of every list */
};
struct conditions {
	struct id_lists host_actions;	/* host -> its actions, moves aside */
	struct id_lists moves_out;	/* host -> the moves out of it */
	struct id_lists moves_of;	/* VM -> its moves */
};
void conditions_init(struct conditions *c);
void conditions_free(struct conditions *c);
/* conditions_note: an action of a schedule run before the next moves. */
void conditions_note(struct conditions *c, const json_t *action);
/* conditions_require: the last group of groups, moving vm onto
 * destination, needs what the moves before it were planned on. */
void conditions_require(const struct conditions *c, json_t *groups,
    const char *vm, const char *destination);

/* What the upgrade schedule does to a compute host's service. */
enum svc_change { SVC_SAME, SVC_OUT, SVC_BACK };

struct vmp {
	const struct options *o;
	struct access *a;
	json_t *batch;		/* the batch section */
	struct plan_inputs in;	/* system, catalog, RG and CG */
	struct cloud cl;
	unsigned char *done;	/* CG group upgraded by step 3's schedule */
	unsigned char *svc;	/* compute host -> enum svc_change */
	unsigned char *ready;	/* cause whose new partition may take VMs */
	size_t *group_first;	/* anti-affinity group -> slice of group_vms */
	size_t *group_vms;
	size_t *new_hosts;	/* hosts VMs may move to, fuller first */
	size_t nnew, cursor;	/* before cursor: all full */
	long not_in_use, scaling, failover, S, T, V;
	int in_slots;		/* V_i held in slots (slotresv.c) */
	json_t *section;	/* the migrations section being built */
	struct conditions cond;	/* the actions scheduled so far */
};

/* replay.c */
int replay_step3(struct vmp *p, json_t *doc);
void find_ready(struct vmp *p);

/* newresv.c: the exact scaling reservation of the new partition. */
struct newresv {
	long *e;		/* tenant -> e_n for T */
	long *on_new;		/* tenant -> its VMs in the new partition */
	long *hist;		/* e -> tenants counted with that e_n */
	long maxe, top;		/* the largest e_n of all, and of those counted */
	long sum;		/* sum of the e_n counted */
	long empty;		/* new hosts in service without VMs */
	long free_used;		/* free slots of the new hosts in use */
	long K;			/* the smallest capacity of a new host */
};
void newresv_init(const struct vmp *p, struct newresv *r,
    const unsigned char *extra);
void newresv_free(struct newresv *r);
void newresv_add(struct newresv *r, size_t n);
void newresv_drop(struct newresv *r, size_t n);
long newresv_room(const struct vmp *p, const struct newresv *r);
long newresv_hosts(const struct newresv *r);
long newresv_short(const struct vmp *p, const struct newresv *r);
void newresv_unmove(const struct vmp *p, struct newresv *r, size_t v,
    size_t h);

/* slotresv.c: the same reservations held in slots, when whole hosts
 * leave no room. */
struct slotresv {
	long *e;		/* tenant -> e_n for T */
	long *on_new;		/* tenant -> its VMs in the new partition */
	long *nheld;		/* tenant -> hosts its scale-out is held on */
	size_t *first_hold;	/* tenant -> its slice of held (e_n long) */
	size_t *held;		/* those hosts */
	long *hold;		/* compute host -> slots held on it */
	unsigned char *kept;	/* compute host -> kept empty for failover */
	size_t *hosts;		/* new hosts in service, most room first */
	size_t nhosts, cursor;	/* before cursor: no room to hold */
	long kept_count;	/* hosts kept for failover */
	long room;		/* free slots neither held nor kept */
	long sum, top;		/* scale-out held: VMs, largest e_n */
	long held_on_used;	/* of sum, held on hosts in use */
};
int slotresv_init(const struct vmp *p, struct slotresv *r);
void slotresv_free(struct slotresv *r);
int slotresv_add(const struct vmp *p, struct slotresv *r, size_t n);
void slotresv_drop(const struct vmp *p, struct slotresv *r, size_t n);
int slotresv_takes(const struct vmp *p, const struct slotresv *r, size_t v,
    size_t h);
void slotresv_moved(struct slotresv *r);

/* subiter.c */
void plan_migrations(struct vmp *p);

/* vmp_cap: the capacity of compute host h in the new partition. */
long vmp_cap(const struct vmp *p, size_t h);
/* vmp_movable: does VM v run in the old partition of a ready cause? */
int vmp_movable(const struct vmp *p, size_t v);

#endif
