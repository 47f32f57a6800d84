/*
 * exec.c: the operator's commands, run as argv (spawn.h): no shell
 * ever sees them.  Standard input is /dev/null.  The versions
 * command's standard output is captured; the other commands' goes to
 * standard error, the worker's log, and so does their standard error,
 * read through a pipe whose last OUTCOME_TAIL bytes the outcome keeps
 * for the reply (outcome.c), until the command exits.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "diag.h"
#include "spawn.h"
#include "worker.h"
#include "xalloc.h"

/* How long the relay waits for stderr before it looks at the command. */
#define POLL_MS 200

/* read_all: fd to EOF into a NUL-terminated buffer. */
static char *
read_all(int fd)
{
	size_t len = 0, cap = 4096;
	char *buf = xmalloc(cap);
	ssize_t n;

	for (;;) {
		if (cap - len < 2)
			buf = xreallocarray(buf, cap *= 2, 1);
		n = read(fd, buf + len, cap - len - 1);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		len += (size_t)n;
	}
	buf[len] = '\0';
	return buf;
}

/* keep_tail: n bytes more of the command's stderr; the last ones stay. */
static void
keep_tail(struct outcome *o, const char *p, size_t n)
{
	size_t drop;

	if (n >= OUTCOME_TAIL) {
		o->cut |= o->tail_len > 0 || n > OUTCOME_TAIL;
		memcpy(o->tail, p + n - OUTCOME_TAIL, OUTCOME_TAIL);
		o->tail_len = OUTCOME_TAIL;
		return;
	}
	if (o->tail_len + n > OUTCOME_TAIL) {
		drop = o->tail_len + n - OUTCOME_TAIL;
		memmove(o->tail, o->tail + drop, o->tail_len - drop);
		o->tail_len -= drop;
		o->cut = 1;
	}
	memcpy(o->tail + o->tail_len, p, n);
	o->tail_len += n;
}

/*
 * relay: what fd holds now onto the worker's stderr, its tail kept;
 * 1 at the end of the stream, else 0.
 */
static int
relay(int fd, struct outcome *o)
{
	char buf[4096];
	ssize_t n = read(fd, buf, sizeof buf);

	if (n < 0)
		return errno == EINTR || errno == EAGAIN ? 0 : 1;
	if (n == 0)
		return 1;
	diag_relay(buf, (size_t)n);
	keep_tail(o, buf, (size_t)n);
	return 0;
}

/*
 * relay_until_exit: fd onto the worker's stderr until pid exits, its
 * wait status in *ws (0, or -1 when it cannot be waited for).  The
 * pipe is read while the command runs and drained when it has exited,
 * but not waited on: a daemon the command started may hold its end
 * open for ever.
 */
static int
relay_until_exit(int fd, pid_t pid, struct outcome *o, int *ws)
{
	struct pollfd p = { fd, POLLIN, 0 };
	int open = 1, done = 0;
	pid_t r;

	while (!done) {
		r = waitpid(pid, ws, WNOHANG);
		if (r < 0 && errno != EINTR)
			return -1;
		done = r == pid;
		while (open && poll(&p, 1, done ? 0 : POLL_MS) > 0)
			open = !relay(fd, o);
		if (!open && !done && waitpid(pid, ws, 0) == pid)
			done = 1;
	}
	return 0;
}

/* cloexec_pipe: a pipe whose ends close on exec; 0 or -1. */
static int
cloexec_pipe(int fd[2])
{
	if (pipe(fd) < 0)
		return -1;
	if (fcntl(fd[0], F_SETFD, FD_CLOEXEC) == 0 &&
	    fcntl(fd[1], F_SETFD, FD_CLOEXEC) == 0)
		return 0;
	close(fd[0]);
	close(fd[1]);
	return -1;
}

/* start: argv with how, its stdin /dev/null; the pid, or -1 (said). */
static pid_t
start(char **argv, struct spawn_how *how)
{
	pid_t pid;

	how->in = open("/dev/null", O_RDONLY | O_CLOEXEC);
	pid = how->in < 0 ? -1 : spawn_argv(argv, how);
	if (pid < 0)
		diag_error(NULL, "cannot run '%s': %s", argv[0],
		    strerror(errno));
	if (how->in >= 0)
		close(how->in);
	return pid;
}

int
run_argv(char **argv, char **out)
{
	struct spawn_how how = SPAWN_INHERITED;
	int pipefd[2] = { -1, -1 }, st;
	pid_t pid;

	if (out != NULL && cloexec_pipe(pipefd) < 0)
		return -1;
	how.out = out != NULL ? pipefd[1] : 2;
	pid = start(argv, &how);
	if (out != NULL) {
		close(pipefd[1]);
		*out = pid > 0 ? read_all(pipefd[0]) : NULL;
		close(pipefd[0]);
	}
	if (pid < 0)
		return -1;
	if ((st = spawn_wait(pid)) < 0)
		diag_error(NULL, "%s: %s", argv[0], strerror(errno));
	return st;
}

void
run_command(char **argv, struct outcome *o)
{
	struct spawn_how how = SPAWN_INHERITED;
	int pipefd[2], ws = 0, r;
	pid_t pid;

	memset(o, 0, sizeof *o);
	o->status = -1;
	if (cloexec_pipe(pipefd) < 0) {
		diag_error(NULL, "cannot run '%s': %s", argv[0],
		    strerror(errno));
		return;
	}
	how.out = 2;
	how.err = pipefd[1];
	pid = start(argv, &how);
	close(pipefd[1]);
	r = pid < 0 ? -1 : relay_until_exit(pipefd[0], pid, o, &ws);
	close(pipefd[0]);
	if (r < 0) {
		if (pid > 0)
			diag_error(NULL, "%s: %s", argv[0], strerror(errno));
		return;
	}
	o->status = spawn_status(ws);
	o->signal = WIFSIGNALED(ws) ? WTERMSIG(ws) : 0;
}
