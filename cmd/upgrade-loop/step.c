/*
 * step.c: running the loop's steps.
 *
 * A step runs with its input on stdin and its output into a temporary
 * file, renamed over the step's file only when the step succeeds.  It
 * runs in a process group of its own, so that what it starts can be
 * stopped with it.  A watchdog, forked once when the first step starts,
 * holds the lock with the loop and knows the group of the step running:
 * the step tells it, over a pipe, before it execs.  The watchdog too is
 * in a group of its own, so that a kill of the loop's group (kill --
 * -PGID, timeout(1), a shell's job control) reaches neither it nor the
 * step.  Whichever is killed:
 *   - the loop, or its group: the pipe's last writer is gone, and the
 *     watchdog SIGKILLs the step's group (the step and all it started)
 *     before the lock, which it holds too, is released; the step's own
 *     process also gets SIGKILL from the kernel as its parent dies
 *     (PR_SET_PDEATHSIG), even if the watchdog is gone too;
 *   - the watchdog: the loop sees it die and SIGKILLs the step's group,
 *     which fails the step;
 *   - the step: the loop gets its status and SIGKILLs what the step left
 *     in its group.
 * So no step outlives its loop, and the lock stays held until it is
 * gone.  (Each step had a supervisor process of its own before: a fork
 * and an exit more per step, half a millisecond each on the machine the
 * benchmark ran on.)  UPKIT_LOOP_KILL=N (for tests) kills the loop with
 * SIGKILL at its N-th step, after the step has written its output but
 * before the rename.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#ifdef __linux__
#include <sys/prctl.h>
#endif
#include <unistd.h>

#include "diag.h"
#include "durable.h"
#include "exitcodes.h"
#include "loop.h"
#include "xalloc.h"

/* the group of the step running, for the signal handler */
static volatile pid_t running;
static pid_t watchdog;
static int watchdog_fd = -1;	/* the pipe's write end */
static long steps_run;

/* status_of: a wait status as the shell tells it: 128 + a signal. */
int
status_of(int wstatus)
{
	if (WIFEXITED(wstatus))
		return WEXITSTATUS(wstatus);
	if (WIFSIGNALED(wstatus))
		return 128 + WTERMSIG(wstatus);
	return EXIT_SOFTWARE;
}

int
tool_failed_status(int status)
{
	return status == EXIT_DATAERR ? EXIT_DATAERR : EXIT_SOFTWARE;
}

/* A signal to the loop stops its step's group, then the loop. */
static void
on_signal(int sig)
{
	pid_t group = running;

	if (group > 0) {
		(void)kill(-group, SIGTERM);
		(void)waitpid(group, NULL, 0);
	}
	_exit(sig == SIGINT ? 130 : sig == SIGTERM ? 143 : 129);
}

void
steps_init(void)
{
	struct sigaction sa;

	/* a dead watchdog's pipe is an error to see, not a signal */
	signal(SIGPIPE, SIG_IGN);
	signal(SIGCHLD, SIG_DFL);
	memset(&sa, 0, sizeof sa);
	sa.sa_handler = on_signal;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
}

/* default_signals: a child starts as a program the shell starts would. */
static void
default_signals(void)
{
	sigset_t none;

	signal(SIGINT, SIG_DFL);
	signal(SIGTERM, SIG_DFL);
	signal(SIGHUP, SIG_DFL);
	signal(SIGPIPE, SIG_DFL);
	sigemptyset(&none);
	sigprocmask(SIG_SETMASK, &none, NULL);
}

/*
 * spawn_err: argv with stdin in, stdout out and stderr err (-1: the
 * loop's own).
 */
static pid_t
spawn_err(char *const argv[], int in, int out, int err)
{
	pid_t pid = fork();

	if (pid != 0)
		return pid;
	default_signals();
	if ((in >= 0 && dup2(in, 0) < 0) || (out >= 0 && dup2(out, 1) < 0) ||
	    (err >= 0 && dup2(err, 2) < 0))
		_exit(EXIT_OSERR);
	execvp(argv[0], argv);
	diag_error(argv[0], "%s", strerror(errno));
	_exit(errno == ENOENT ? 127 : 126);
}

/* wait_for: a program's status (no step: the watchdog is not asked). */
static int
wait_for(pid_t pid)
{
	int st;

	while (waitpid(pid, &st, 0) < 0)
		if (errno != EINTR)
			return EXIT_OSERR;
	return status_of(st);
}

/*
 * guard: the watchdog's life: read the group of each step as it starts
 * (0 when it is over); when no writer of the pipe is left, the loop is
 * gone: SIGKILL the group of the step that was running.
 */
static _Noreturn void
guard(int rfd)
{
	pid_t group = 0, g;
	ssize_t n;

	int null = open("/dev/null", O_RDWR);

	/* it outlives the loop by a moment: it keeps none of its outputs */
	if (null >= 0) {
		(void)dup2(null, 0);
		(void)dup2(null, 1);
		(void)dup2(null, 2);
	}
	signal(SIGINT, SIG_IGN);
	signal(SIGTERM, SIG_IGN);
	signal(SIGHUP, SIG_IGN);
	while ((n = read(rfd, &g, sizeof g)) == (ssize_t)sizeof g ||
	    (n < 0 && errno == EINTR))
		if (n > 0)
			group = g;
	if (group > 0)
		(void)kill(-group, SIGKILL);
	_exit(0);
}

/*
 * end_watchdog: at the loop's exit, the watchdog is told and waited for:
 * when the loop has exited, so has it.
 */
static void
end_watchdog(void)
{
	if (watchdog <= 0)
		return;
	close(watchdog_fd);
	(void)waitpid(watchdog, NULL, 0);
	watchdog = 0;
}

/* start_watchdog: the watchdog, once the lock is held (setup.c). */
static void
start_watchdog(void)
{
	int fds[2];

	if (watchdog > 0)
		return;
	if (watchdog == 0)
		atexit(end_watchdog);
	if (pipe(fds) != 0 || fcntl(fds[1], F_SETFD, FD_CLOEXEC) != 0)
		diag_fatal_whole(EXIT_OSERR, "cannot start the watchdog: %s",
		    strerror(errno));
	fflush(stdout);
	fflush(stderr);
	if ((watchdog = fork()) < 0)
		diag_fatal_whole(EXIT_OSERR, "cannot start the watchdog: %s",
		    strerror(errno));
	if (watchdog == 0) {
		(void)setpgid(0, 0);
		close(fds[1]);
		guard(fds[0]);
	}
	/* both set it: a group kill between the fork and the child's own
	 * setpgid can only come before any step */
	(void)setpgid(watchdog, watchdog);
	close(fds[0]);
	watchdog_fd = fds[1];
}

/* tell_watchdog: the group of the step running, or 0. */
static int
tell_watchdog(pid_t group)
{
	return write(watchdog_fd, &group, sizeof group) ==
	    (ssize_t)sizeof group ? 0 : -1;
}

/*
 * die_with_parent: the kernel SIGKILLs this process when the loop, its
 * parent, dies (Linux): the step's own process goes even when the loop
 * and the watchdog are both killed.  A parent already gone: exit now.
 */
static void
die_with_parent(pid_t parent)
{
#ifdef __linux__
	if (prctl(PR_SET_PDEATHSIG, SIGKILL) != 0)
		_exit(EXIT_OSERR);
#endif
	if (getppid() != parent)
		_exit(EXIT_SOFTWARE);
}

/*
 * start_step: argv in a group of its own, with stdin in and stdout out,
 * and stderr err unless it is -1; the watchdog knows the group before
 * the step runs.
 */
static pid_t
start_step(char *const argv[], int in, int out, int err)
{
	pid_t pid, parent = getpid();

	fflush(stdout);
	fflush(stderr);
	if ((pid = fork()) != 0) {
		if (pid > 0)
			(void)setpgid(pid, pid);
		return pid;
	}
	(void)setpgid(0, 0);
	die_with_parent(parent);
	if (tell_watchdog(getpid()) != 0)
		_exit(EXIT_SOFTWARE);
	default_signals();
	if (dup2(in, 0) < 0 || dup2(out, 1) < 0 || (err >= 0 &&
	    dup2(err, 2) < 0))
		_exit(EXIT_OSERR);
	execvp(argv[0], argv);
	diag_error(argv[0], "%s", strerror(errno));
	_exit(errno == ENOENT ? 127 : 126);
}

/* seconds_now: the monotonic clock, in seconds. */
static double
seconds_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

/*
 * wait_step: the step's status.  A watchdog that dies meanwhile takes
 * the step with it: the loop stops its group.
 */
static int
wait_step(pid_t step, int nohang)
{
	pid_t pid;
	int st;

	for (;;) {
		pid = waitpid(-1, &st, nohang ? WNOHANG : 0);
		if (pid == step)
			return status_of(st);
		if (pid == watchdog && watchdog > 0) {
			(void)kill(-step, SIGKILL);
			watchdog = -1;
		}
		if (pid == 0)
			return -1;
		if (pid < 0 && errno != EINTR)
			return EXIT_OSERR;
	}
}

/* draw: the live line, what runs and for how long. */
static void
draw(const char *live_what, double t0)
{
	char *c = clock_text((long)(seconds_now() - t0));

	diag_live("%s, %s", live_what, c);
	free(c);
}

/*
 * watch: wait for the step, showing live_what every second, with what
 * the step writes on the pipe errfd (-1: none) passed on over it.
 */
static int
watch(struct loop *l, pid_t step, const char *live_what, double t0,
    int errfd)
{
	struct relay r;
	double next = 0;
	int st;

	if (!l->live || live_what == NULL || *live_what == '\0')
		return wait_step(step, 0);
	relay_open(&r, errfd);
	while ((st = wait_step(step, 1)) < 0) {
		if (seconds_now() >= next) {
			draw(live_what, t0);
			next = seconds_now() + 1;
		}
		if (relay_wait(&r, 50) > 0)
			draw(live_what, t0);
	}
	relay_close(&r);
	diag_live_clear();
	return st;
}

/*
 * err_pipe: on a terminal, a pipe for the stderr of the step that shows
 * live_what (watch()); fds[] is -1, -1 otherwise.
 */
static void
err_pipe(const struct loop *l, const char *live_what, int fds[2])
{
	fds[0] = fds[1] = -1;
	if (!l->live || live_what == NULL || *live_what == '\0')
		return;
	if (pipe(fds) != 0 || fcntl(fds[0], F_SETFD, FD_CLOEXEC) != 0 ||
	    fcntl(fds[1], F_SETFD, FD_CLOEXEC) != 0)
		diag_fatal_whole(EXIT_OSERR, "cannot make a pipe: %s",
		    strerror(errno));
}

/*
 * run_step: argv with stdin the file in and stdout the file tmp, in a
 * group of its own; its status.
 */
static int
run_step(struct loop *l, const char *in, const char *tmp,
    char *const argv[], const char *live_what)
{
	double t0 = seconds_now(), started;
	pid_t step;
	int fin, fout, st, err[2];

	start_watchdog();
	if (watchdog < 0)
		diag_fatal_whole(EXIT_SOFTWARE, "the watchdog of the steps "
		    "died: run again to resume");
	if ((fin = open(in, O_RDONLY | O_CLOEXEC)) < 0)
		diag_fatal_whole(EXIT_NOINPUT, "%s: %s", in, strerror(errno));
	/* tmp is new and empty: O_TRUNC would have ext4 write it back at
	 * close (auto_da_alloc), in the step's time */
	if ((fout = open(tmp, O_WRONLY | O_CLOEXEC)) < 0)
		diag_fatal_whole(EXIT_CANTCREAT, "%s: %s", tmp,
		    strerror(errno));
	err_pipe(l, live_what, err);
	started = times_start();
	if ((step = start_step(argv, fin, fout, err[1])) < 0)
		diag_fatal_whole(EXIT_OSERR, "cannot start a step: %s",
		    strerror(errno));
	running = step;
	close(fin);
	close(fout);
	if (err[1] >= 0)
		close(err[1]);
	st = watch(l, step, live_what, t0, err[0]);
	times_log("step", argv[0], started);
	(void)kill(-step, SIGKILL);
	running = 0;
	if (watchdog > 0)
		(void)tell_watchdog(0);
	l->step_secs = seconds_now() - t0;
	return st;
}

/*
 * new_tmp: a new empty file path.tmp.PID.K, made with O_EXCL: a name
 * that exists, whatever it is, is passed over.
 */
char *
new_tmp(const char *path)
{
	char *name;
	int k, fd;

	for (k = 0; k < 100; k++) {
		name = xasprintf("%s.tmp.%ld.%d", path, (long)getpid(), k);
		fd = open(name, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
		if (fd >= 0) {
			close(fd);
			return name;
		}
		free(name);
	}
	diag_fatal_whole(EXIT_SOFTWARE, "%s.tmp.%ld.*: cannot create a "
	    "temporary file", path, (long)getpid());
}

/*
 * step_save: run argv on the file in; keep its stdout as file only when
 * it succeeds.  Its status.  live_what, unless NULL, is shown on a
 * terminal while it runs (the actuator's step).
 */
int
step_save(struct loop *l, const char *file, const char *in,
    char *const argv[], const char *live_what)
{
	char *tmp = new_tmp(file);
	const char *kill_at = getenv("UPKIT_LOOP_KILL");
	int st = run_step(l, in, tmp, argv, live_what);

	steps_run++;
	if (kill_at != NULL && *kill_at != '\0' &&
	    steps_run >= strtol(kill_at, NULL, 10))
		kill(getpid(), SIGKILL);
	if (st != 0)
		(void)unlink(tmp);
	else if (durable_rename(tmp, file) != 0)
		diag_fatal_whole(EXIT_IOERR, "%s: %s", file, strerror(errno));
	free(tmp);
	return st;
}

/*
 * step_pure: a planning step; it has no effect but its output, so a
 * killed one is simply run again.  A failure ends the loop.
 */
void
step_pure(struct loop *l, const char *file, char *const argv[])
{
	int st = step_save(l, file, "/dev/null", argv, NULL);
	const char *base = strrchr(file, '/');

	if (st != 0)
		diag_fatal_whole(tool_failed_status(st), "%s: '%s' failed "
		    "with status %d", base ? base + 1 : file, argv[0], st);
}

/*
 * capture_err: run argv (stdin /dev/null, stderr err, no watchdog: it
 * only reads) and take its standard output; its status.
 */
static int
capture_err(char *const argv[], char **out, int err)
{
	char *buf = NULL;
	size_t len = 0, cap = 0;
	ssize_t n;
	int fds[2], devnull, st;
	double started;
	pid_t pid;

	if (pipe(fds) != 0 || fcntl(fds[0], F_SETFD, FD_CLOEXEC) != 0 ||
	    fcntl(fds[1], F_SETFD, FD_CLOEXEC) != 0 ||
	    (devnull = open("/dev/null", O_RDWR | O_CLOEXEC)) < 0)
		diag_fatal_whole(EXIT_OSERR, "cannot start %s: %s", argv[0],
		    strerror(errno));
	fflush(stdout);
	fflush(stderr);
	started = times_start();
	pid = spawn_err(argv, devnull, fds[1], err ? devnull : -1);
	close(fds[1]);
	close(devnull);
	if (pid < 0)
		diag_fatal_whole(EXIT_OSERR, "cannot start %s: %s", argv[0],
		    strerror(errno));
	do {
		xreserve(&buf, &cap, len + 4096 + 1);
		n = read(fds[0], buf + len, cap - len - 1);
		if (n > 0)
			len += (size_t)n;
	} while (n > 0 || (n < 0 && errno == EINTR));
	close(fds[0]);
	buf[len] = '\0';
	st = wait_for(pid);
	times_log("ask", argv[0], started);
	*out = buf;
	return st;
}

int
capture(char *const argv[], char **out)
{
	return capture_err(argv, out, 0);
}

/* capture_quietly: capture, with the program's stderr thrown away. */
int
capture_quietly(char *const argv[], char **out)
{
	return capture_err(argv, out, 1);
}

/*
 * run_into: argv (upkit-check) with stdout the new file out (new_tmp),
 * no watchdog; its status.
 */
int
run_into(char *const argv[], const char *out)
{
	int fd = open(out, O_WRONLY | O_CLOEXEC), st;
	double started;
	pid_t pid;

	if (fd < 0)
		diag_fatal_whole(EXIT_CANTCREAT, "%s: %s", out,
		    strerror(errno));
	fflush(stdout);
	fflush(stderr);
	started = times_start();
	pid = spawn_err(argv, -1, fd, -1);
	close(fd);
	if (pid < 0)
		diag_fatal_whole(EXIT_OSERR, "cannot start %s: %s", argv[0],
		    strerror(errno));
	st = wait_for(pid);
	times_log("check", argv[0], started);
	return st;
}
