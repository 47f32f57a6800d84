/*
 * scaling_argp.c: the -R option, which scaling reservation a planner
 * keeps (sla.h), parsed into the tool's enum sla_reservation.
 */
#include <argp.h>

#include "sla.h"

static error_t
parse_scaling(int key, char *arg, struct argp_state *state)
{
	enum sla_reservation *mode = state->input;

	if (key != 'R')
		return ARGP_ERR_UNKNOWN;
	if (sla_reservation_mode(arg, mode) != 0)
		argp_error(state, "--reservation: '%s' is neither exact nor "
		    "paper", arg);
	return 0;
}

static const struct argp_option scaling_options[] = {
	{ "reservation", 'R', "MODE", 0, "Scaling reservation: exact (the "
	  "default: each tenant's own scale-out, up to its max) or paper "
	  "(equation (4))", 0 },
	{ 0 }
};

const struct argp scaling_argp = { scaling_options, parse_scaling, 0, 0, 0,
	0, 0 };
