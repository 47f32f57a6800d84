/*
 * failover_argp.c: the -f, -r and -p options of the failover
 * reservation (sla.h), parsed into the tool's struct failover_opts.
 */
#include <argp.h>

#include "cli.h"
#include "sla.h"

static error_t
parse_failover(int key, char *arg, struct argp_state *state)
{
	struct failover_opts *o = state->input;

	switch (key) {
	case 'f':
		o->count = cli_long(state, "--failover", arg, 0, 1000000000);
		break;
	case 'r':
		o->rate = cli_number(state, "--failure-rate", arg, 0, 1e6);
		break;
	case 'p':
		o->probability = cli_number(state, "--probability", arg, 0, 1);
		if (o->probability >= 1)
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
