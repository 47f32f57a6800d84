/* sla.c: equations (2) to (5) and the failover reservation (sla.h). */
#include <math.h>
#include <stdlib.h>

#include "cli.h"
#include "sla.h"

struct failover_opts failover_opts = { 1, 0.0, 0.999 };

static error_t
parse_failover(int key, char *arg, struct argp_state *state)
{
	switch (key) {
	case 'f':
		failover_opts.count = cli_long(state, "--failover", arg, 0, 1000000000);
		break;
	case 'r':
		failover_opts.rate = cli_number(state, "--failure-rate", arg, 0, 1e6);
		break;
	case 'p':
		failover_opts.probability = cli_number(state, "--probability", arg, 0, 1);
		if (failover_opts.probability >= 1)
			argp_error(state, "a probability of 1 needs every host "
			    "reserved; give -f instead");
		break;
	default:
		return ARGP_ERR_UNKNOWN;
	}
	return 0;
}

static const struct argp_option failover_options[] = {
	{ "failover", 'f', "N", 0, "Reserve N compute hosts for failover "
	  "(F; default 1)", 0 },
	{ "failure-rate", 'r', "RATE", 0, "Compute F from host failures per "
	  "host and hour instead", 0 },
	{ "probability", 'p', "P", 0, "With -r: the probability that the "
	  "failures stay within F (default 0.999)", 0 },
	{ 0 }
};

const struct argp failover_argp = { failover_options, parse_failover, 0, 0,
	0, 0, 0 };

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
