/* cli.c: common command-line set-up (see cli.h). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

#include "cli.h"
#include "diag.h"
#include "exitcodes.h"
#include "output.h"

const char *argp_program_bug_address =
    "the upkit issue tracker (see README.md)";

static char version[128];

void
cli_init(char **argv)
{
	diag_init(argv[0]);
	/* argp names the program after argv[0]: make it "tool", not a path. */
	argv[0] = (char *)diag_progname();
	snprintf(version, sizeof version, "%s (upkit) %s", diag_progname(),
	    UPKIT_VERSION);
	argp_program_version = version;
	argp_err_exit_status = EXIT_USAGE;
	output_check_at_exit();
}

const char *
cli_one_input(struct argp_state *state, const char *current, const char *arg)
{
	if (current != NULL)
		argp_error(state, "only one input file may be given");
	return arg;
}

long
cli_long(struct argp_state *state, const char *opt, const char *arg,
    long min, long max)
{
	char *end;
	long v;

	errno = 0;
	v = strtol(arg, &end, 10);
	if (errno != 0 || end == arg || *end != '\0' || v < min || v > max)
		argp_error(state, "%s: '%s' is not a whole number from %ld to "
		    "%ld", opt, arg, min, max);
	return v;
}

double
cli_number(struct argp_state *state, const char *opt, const char *arg,
    double min, double max)
{
	char *end;
	double v;

	errno = 0;
	v = strtod(arg, &end);
	/* !(v >= min) also refuses NaN. */
	if (errno != 0 || end == arg || *end != '\0' || !(v >= min) ||
	    v > max)
		argp_error(state, "%s: '%s' is not a number from %g to %g", opt,
		    arg, min, max);
	return v;
}
