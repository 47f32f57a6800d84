/* sla.c: equations (2) to (5) and the failover reservation (sla.h). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "sla.h"

long
sla_ceil_div(long a, long b)
{
	return a <= 0 ? 0 : (a + b - 1) / b;
}

long
sla_tenant_adjustment(const struct tenant *t, long T)
{
	return t->scaling_adjustment * sla_ceil_div(T,
	    t->cooldown > 0 ? t->cooldown : 1);
}

long
sla_scaling_adjustment(const struct sysconf *sc, long T)
{
	long S = 0, s;
	size_t n;

	for (n = 0; n < sc->ntenants; n++)
		if ((s = sla_tenant_adjustment(&sc->tenants[n], T)) > S)
			S = s;
	return S;
}

long
sla_scaling_reservation(long S, long A, long K)
{
	return S * sla_ceil_div(A, K > 0 ? K : 1);
}

int
sla_reservation_mode(const char *name, enum sla_reservation *mode)
{
	if (strcmp(name, "exact") == 0)
		*mode = SLA_RESERVE_EXACT;
	else if (strcmp(name, "paper") == 0)
		*mode = SLA_RESERVE_PAPER;
	else
		return -1;
	return 0;
}

long
sla_tenant_scale_out(const struct tenant *t, long T)
{
	long s = sla_tenant_adjustment(t, T), room = t->max - (long)t->nvms;

	if (room < 0)
		room = 0;
	return s < room ? s : room;
}

static int
by_scale_out_desc(const void *x, const void *y)
{
	const struct sla_scale_out *a = x, *b = y;

	if (a->e != b->e)
		return a->e > b->e ? -1 : 1;
	return a->tenant < b->tenant ? -1 : a->tenant > b->tenant;
}

void
sla_order(struct sla_scale_out *t, size_t n)
{
	qsort(t, n, sizeof *t, by_scale_out_desc);
}

long
sla_exact_hosts(long sum, long largest, long K)
{
	long hosts = sla_ceil_div(sum, K > 0 ? K : 1);

	return largest > hosts ? largest : hosts;
}

/*
 * binomial_quantile: the least f with P(X <= f) >= p, X ~ B(n, q).
 * The terms are built by the recurrence P(k+1) = P(k) (n-k)/(k+1)
 * q/(1-q) from P(0) = (1-q)^n, in logarithms so that large n neither
 * underflows nor overflows.
 */
static long
binomial_quantile(long n, double q, double p)
{
	double logterm, cdf, lr;
	long k;

	if (n <= 0 || q <= 0)
		return 0;
	if (q >= 1)
		return n;
	logterm = (double)n * log1p(-q);
	lr = log(q) - log1p(-q);
	cdf = exp(logterm);
	for (k = 0; k < n && cdf < p; k++) {
		logterm += log((double)(n - k) / (double)(k + 1)) + lr;
		cdf += exp(logterm);
	}
	return k;
}

long
sla_failover(const struct failover_opts *o, long used, long T, json_t **how)
{
	double q;
	long F;

	if (o->rate <= 0) {
		F = used > 0 ? o->count : 0;
		*how = json_pack("{s:I}", "count", (json_int_t)o->count);
		return F;
	}
	q = -expm1(-o->rate * (double)T / 3600.0);
	F = binomial_quantile(used, q, o->probability);
	*how = json_pack("{s:f, s:f, s:I, s:I}", "rate", o->rate,
	    "probability", o->probability, "hosts", (json_int_t)used,
	    "count", (json_int_t)F);
	return F;
}
