/*
 * exec.c: the operator's commands, run as argv (spawn.h): no shell
 * ever sees them.  Standard input is /dev/null; standard output
 * is captured (the versions command) or goes to standard error, the
 * worker's log.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "diag.h"
#include "spawn.h"
#include "worker.h"
#include "xalloc.h"

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

int
run_argv(char **argv, char **out)
{
	struct spawn_how how = SPAWN_INHERITED;
	int pipefd[2] = { -1, -1 }, st;
	pid_t pid;

	if (out != NULL && (pipe(pipefd) < 0 ||
	    fcntl(pipefd[0], F_SETFD, FD_CLOEXEC) < 0 ||
	    fcntl(pipefd[1], F_SETFD, FD_CLOEXEC) < 0))
		return -1;
	how.in = open("/dev/null", O_RDONLY | O_CLOEXEC);
	how.out = out != NULL ? pipefd[1] : 2;
	pid = how.in < 0 ? -1 : spawn_argv(argv, &how);
	if (pid < 0)
		diag_error(NULL, "cannot run '%s': %s", argv[0],
		    strerror(errno));
	if (how.in >= 0)
		close(how.in);
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
