/*
 * exitcodes.h: the exit statuses every upkit tool uses.
 *
 * The failures are those of sysexits(3), so scripts can tell a usage
 * mistake from bad data from a failing disk; the answers below 64 are
 * each one tool's own.  Every man page lists the ones its tool can
 * return in EXIT STATUS.
 */
#ifndef UPKIT_EXITCODES_H
#define UPKIT_EXITCODES_H

enum exit_code {
	EXIT_OK = 0,		/* success */
	/*
	 * Answers that are not errors, like grep's 1 and diff's 1: what a
	 * script branches on.
	 */
	EXIT_INFEASIBLE = 1,	/* match-csp: no assignment can exist (proven) */
	EXIT_CHANGES = 2,	/* karamel-diff -e: the definitions differ */
	EXIT_USAGE = 64,	/* bad command line: unknown option, bad operand */
	EXIT_DATAERR = 65,	/* input is malformed or violates the format */
	EXIT_NOINPUT = 66,	/* an input file does not exist or is unreadable */
	EXIT_UNAVAILABLE = 69,	/* a service or program needed is not there */
	EXIT_SOFTWARE = 70,	/* internal error: a bug in upkit */
	EXIT_OSERR = 71,	/* the system failed us: out of memory, fork */
	EXIT_CANTCREAT = 73,	/* an output file cannot be created */
	EXIT_IOERR = 74,	/* reading or writing failed */
	EXIT_TEMPFAIL = 75,	/* no answer yet: out of time, or suspended */
};

#endif
