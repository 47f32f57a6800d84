/*
 * spawn.h: the one way upkit tools start a program: an argument
 * vector, found on PATH and executed, never given to a shell, with its
 * standard streams redirected.
 *
 * The child starts as a program a shell starts would: SIGINT, SIGTERM,
 * SIGHUP and SIGPIPE at their defaults (a tool may ignore them) and an
 * empty signal mask.  Between the fork and the exec
 * it makes only async-signal-safe calls (a caller may have threads:
 * osu-worker's NATS client), and a program that cannot be executed is
 * said by the parent, through diag.h: "prog: argv0: reason".  Its
 * status is then the shell's: 127 when it was not found, else 126.
 */
#ifndef UPKIT_SPAWN_H
#define UPKIT_SPAWN_H

#include <sys/types.h>

struct spawn_how {
	int in, out, err;	/* the child's 0, 1 and 2 (-1: the parent's) */
	int own_group;		/* in a process group of its own */
	/*
	 * before_exec: in the child, last before the exec, unless NULL;
	 * async-signal-safe calls only; it may _exit.
	 */
	void (*before_exec)(void *ctx);
	void *ctx;
};

/* SPAWN_INHERITED: the parent's streams, its group, no hook. */
#define SPAWN_INHERITED { -1, -1, -1, 0, NULL, NULL }

/*
 * spawn_argv: argv[0] started with argv as how says; its pid, or -1
 * (errno) when no process could be made.  Standard output and error
 * are flushed first.  The file descriptors a caller passes should be
 * close-on-exec: the child keeps only 0, 1 and 2 of them.
 */
pid_t spawn_argv(char *const argv[], const struct spawn_how *how);

/* spawn_status: a wait status as the shell says it: 128 + a signal. */
int spawn_status(int wstatus);

/* spawn_wait: pid's status (spawn_status), or -1 (errno). */
int spawn_wait(pid_t pid);

#endif
