/* spawn.c: starting a program, argv only (see spawn.h). */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "diag.h"
#include "exitcodes.h"
#include "spawn.h"

/*
 * default_signals: those a tool ignores (a dead pipe's SIGPIPE, a
 * watchdog's stop signals) back to their defaults, and no signal
 * blocked; a handler is reset by the exec itself.
 */
static void
default_signals(void)
{
	static const int sigs[] = { SIGINT, SIGTERM, SIGHUP, SIGPIPE };
	struct sigaction sa;
	sigset_t none;
	size_t i;

	memset(&sa, 0, sizeof sa);
	sa.sa_handler = SIG_DFL;
	sigemptyset(&sa.sa_mask);
	for (i = 0; i < sizeof sigs / sizeof sigs[0]; i++)
		(void)sigaction(sigs[i], &sa, NULL);
	sigemptyset(&none);
	(void)sigprocmask(SIG_SETMASK, &none, NULL);
}

/*
 * child: redirect, run the hook, exec; on failure, errno goes to the
 * parent over report (close-on-exec: an exec closes it empty).
 */
static _Noreturn void
child(char *const argv[], const struct spawn_how *how, int report)
{
	int err;

	if (how->own_group)
		(void)setpgid(0, 0);
	default_signals();
	if ((how->in >= 0 && dup2(how->in, 0) < 0) ||
	    (how->out >= 0 && dup2(how->out, 1) < 0) ||
	    (how->err >= 0 && dup2(how->err, 2) < 0))
		_exit(EXIT_OSERR);
	if (how->before_exec != NULL)
		how->before_exec(how->ctx);
	execvp(argv[0], argv);
	err = errno;
	(void)write(report, &err, sizeof err);
	_exit(err == ENOENT ? 127 : 126);
}

/* exec_error: the child's errno when its exec failed, else 0. */
static int
exec_error(int report)
{
	ssize_t n;
	int err = 0;

	while ((n = read(report, &err, sizeof err)) < 0 && errno == EINTR)
		;
	return n == (ssize_t)sizeof err ? err : 0;
}

pid_t
spawn_argv(char *const argv[], const struct spawn_how *how)
{
	int report[2], err;
	pid_t pid;

	if (pipe(report) != 0)
		return -1;
	(void)fcntl(report[0], F_SETFD, FD_CLOEXEC);
	(void)fcntl(report[1], F_SETFD, FD_CLOEXEC);
	fflush(stdout);
	fflush(stderr);
	if ((pid = fork()) == 0)
		child(argv, how, report[1]);
	err = errno;
	close(report[1]);
	if (pid > 0 && how->own_group)
		(void)setpgid(pid, pid);	/* both: whichever runs first */
	if (pid > 0 && (err = exec_error(report[0])) != 0)
		diag_error(argv[0], "%s", strerror(err));
	close(report[0]);
	if (pid < 0)
		errno = err;
	return pid;
}

int
spawn_status(int wstatus)
{
	if (WIFEXITED(wstatus))
		return WEXITSTATUS(wstatus);
	if (WIFSIGNALED(wstatus))
		return 128 + WTERMSIG(wstatus);
	return EXIT_SOFTWARE;
}

int
spawn_wait(pid_t pid)
{
	int st;

	while (waitpid(pid, &st, 0) < 0)
		if (errno != EINTR)
			return -1;
	return spawn_status(st);
}
