/*
 * sla.h: the SLA arithmetic of seed 000 step 3 and 4, equations (2) to
 * (5), and the failover reservation F.
 *
 *   (2) S_i = max over tenants n of s_n * ceil(T_i / c_n)
 *   (4) ScalingResv = S_i * ceil(A_i / K)
 *   (3) Z_i = |M_computeForOldVM - M_usedComputeForOldVM|
 *             - ScalingResv_forOldVM - FailoverResv_forOldVM
 *   (5) V_i = (|M_computeForNewVM - M_usedComputeForNewVM|
 *             - ScalingResv_forNewVM - FailoverResv_forNewVM) * K'
 *
 * F is either a count the operator gives, or the smallest f for which
 * at most f of the h hosts running VMs fail during T seconds with at
 * least the target probability p, each host failing independently at
 * rate lambda per hour: failures ~ Binomial(h, q), q = 1 - exp(-lambda
 * T / 3600), F = min { f : P(X <= f) >= p } (the reliability model of
 * seed 000's reference [22]).  All results are exact integers.
 */
#ifndef UPKIT_SLA_H
#define UPKIT_SLA_H

#include <argp.h>
#include <jansson.h>

#include "sysconf.h"

struct failover_opts {
	long count;		/* -f: hosts to keep for failover */
	double rate;		/* -r: failures per host and hour; 0: use count */
	double probability;	/* -p: target probability */
};

/* F = 1 host, or the model's defaults when -r is given. */
#define FAILOVER_OPTS_DEFAULT { 1, 0.0, 0.999 }

/*
 * The -f, -r and -p options, shared by batch-select and vm-migrate-plan
 * (failover_argp.c): an argp child whose input is the tool's struct
 * failover_opts, handed over at ARGP_KEY_INIT.
 */
extern const struct argp failover_argp;

/* The -R option of both planners (scaling_argp.c): an argp child whose
 * input is the tool's enum sla_reservation. */
extern const struct argp scaling_argp;

/* sla_ceil_div: ceil(a / b) for a >= 0, b > 0. */
long sla_ceil_div(long a, long b);

/*
 * sla_scaling_adjustment: equation (2) over the tenants of sc for T
 * seconds.  A cooldown of 0 counts as 1 second, the finest an SLA can
 * state.
 */
long sla_scaling_adjustment(const struct sysconf *sc, long T);

/* sla_tenant_adjustment: s_n * ceil(T / c_n), tenant n's term of (2). */
long sla_tenant_adjustment(const struct tenant *t, long T);

/* sla_scaling_reservation: equation (4). */
long sla_scaling_reservation(long S, long A, long K);

/* The scaling reservation a planner keeps: by (4), or the worst case. */
enum sla_reservation { SLA_RESERVE_EXACT, SLA_RESERVE_PAPER };

/* sla_reservation_mode: "exact" or "paper" into *mode; -1 otherwise. */
int sla_reservation_mode(const char *name, enum sla_reservation *mode);

/*
 * sla_tenant_scale_out: e_n = min(s_n * ceil(T / c_n), max_n - n), the
 * VMs tenant n may add within T seconds (0 at or above its max).
 */
long sla_tenant_scale_out(const struct tenant *t, long T);

/*
 * sla_exact_hosts: the fewest hosts of K slots, one VM of a tenant per
 * host (a new VM may join any anti-affinity group of its tenant), that
 * hold scale-outs summing to sum, the largest being largest:
 * max(largest, ceil(sum / K)).  Filling the hosts round robin achieves
 * it, and as every e_n <= S_i it is never more than (4).
 */
long sla_exact_hosts(long sum, long largest, long K);

/* A tenant's scale-out e_n, to hold the largest first (sla_order). */
struct sla_scale_out {
	long e;
	size_t tenant;
};
/* sla_order: the largest e_n first, then tenant order: holding them one
 * per host in that order fits most. */
void sla_order(struct sla_scale_out *t, size_t n);

/*
 * sla_failover: F for used hosts running VMs during T seconds (0 when
 * none run VMs); *how (a new object) says how it was found.
 */
long sla_failover(const struct failover_opts *o, long used, long T,
    json_t **how);

#endif
