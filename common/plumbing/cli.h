/*
 * cli.h: what every upkit command line has in common.
 *
 * cli_init() names the program for diagnostics, sets the --version
 * text ("prog (upkit) 0.1.0") and sets argp_err_exit_status to
 * EXIT_USAGE: argp's default happens to be the same value, but the
 * man pages promise 64, so the code says it instead of inheriting it.
 */
#ifndef UPKIT_CLI_H
#define UPKIT_CLI_H

#include <argp.h>

#ifndef UPKIT_VERSION
#define UPKIT_VERSION "unknown"
#endif

/* cli_init: call first in main(); shortens argv[0] to the tool's name. */
void cli_init(char **argv);

/*
 * cli_one_input: the single input operand of a filter, "-" (stdin)
 * when none was given.  More than one is a usage error.
 */
const char *cli_one_input(struct argp_state *state, const char *current,
    const char *arg);

/*
 * Numeric option arguments: the whole argument must be a number within
 * [min, max], or argp_error() reports "--opt: 'arg' is not ..." (opt
 * names the option) and exits 64.
 */
long cli_long(struct argp_state *state, const char *opt, const char *arg,
    long min, long max);
double cli_number(struct argp_state *state, const char *opt, const char *arg,
    double min, double max);

#endif
