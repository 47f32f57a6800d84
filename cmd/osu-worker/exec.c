/*
 * exec.c: the operator's commands, run as argv with posix_spawnp: no
 * shell ever sees them.  Standard input is /dev/null; standard output
 * is captured (the versions command) or goes to standard error, the
 * worker's log.
 */
#include <errno.h>
#include <fcntl.h>
#include <spawn.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "diag.h"
#include "worker.h"
#include "xalloc.h"

extern char **environ;

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

static int
wait_status(pid_t pid, const char *name)
{
	int st;

	while (waitpid(pid, &st, 0) < 0)
		if (errno != EINTR) {
			diag_error(NULL, "%s: %s", name, strerror(errno));
			return -1;
		}
	return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

int
run_argv(char **argv, char **out)
{
	posix_spawn_file_actions_t fa;
	int pipefd[2] = { -1, -1 }, r;
	pid_t pid;

	if (out != NULL && pipe(pipefd) < 0)
		return -1;
	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
	if (out != NULL) {
		posix_spawn_file_actions_adddup2(&fa, pipefd[1], 1);
		posix_spawn_file_actions_addclose(&fa, pipefd[0]);
		posix_spawn_file_actions_addclose(&fa, pipefd[1]);
	} else {
		posix_spawn_file_actions_adddup2(&fa, 2, 1);
	}
	r = posix_spawnp(&pid, argv[0], &fa, NULL, argv, environ);
	posix_spawn_file_actions_destroy(&fa);
	if (out != NULL) {
		close(pipefd[1]);
		*out = r == 0 ? read_all(pipefd[0]) : NULL;
		close(pipefd[0]);
	}
	if (r != 0) {
		diag_error(NULL, "cannot run '%s': %s", argv[0], strerror(r));
		return -1;
	}
	return wait_status(pid, argv[0]);
}
