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
 * benchmark ran on.)  The watchdog's pid and pipe are the loop's (struct
 * watchdog, in struct loop).  UPKIT_LOOP_KILL=N (for tests) kills the loop with
 * SIGKILL at its N-th step, after the step has written its output but
 * before the rename.  Each step's peak resident memory, from wait4(2),
 * goes to peak_note (memory.c).
 */
#define _DEFAULT_SOURCE		/* wait4, beyond POSIX */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#ifdef __linux__
#include <sys/prctl.h>
#endif
#include <unistd.h>

#include "diag.h"
#include "durable.h"
#include "exitcodes.h"
#include "loop.h"
#include "monotonic.h"
#include "spawn.h"
#include "xalloc.h"

/*
 * The group of the step running, or 0: the signal handler stops it,
 * and a handler sees nothing else.
 */
static volatile sig_atomic_t running;
/*
 * The loop's watchdog, for the exit handler, which atexit(3) calls
 * without an argument; set once, in start_watchdog.
 */
static struct watchdog *watchdog_at_exit;

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
steps_init(struct watchdog *w)
{
	struct sigaction sa;

	w->pid = 0;
	w->fd = -1;
	w->steps_run = 0;
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
 * when the loop has exited, so has it, and the lock it holds is free.
 */
static void
end_watchdog(void)
{
	struct watchdog *w = watchdog_at_exit;

	if (w->pid <= 0)
		return;
	close(w->fd);
	(void)waitpid(w->pid, NULL, 0);
	w->pid = 0;
}

/* start_watchdog: the watchdog, once the lock is held (setup.c). */
static void
start_watchdog(struct watchdog *w)
{
	int fds[2];

	if (w->pid > 0)
		return;
	if (w->pid == 0 && watchdog_at_exit == NULL) {
		watchdog_at_exit = w;
		atexit(end_watchdog);
	}
	if (pipe(fds) != 0 || fcntl(fds[1], F_SETFD, FD_CLOEXEC) != 0)
		diag_fatal_whole(EXIT_OSERR, "cannot start the watchdog: %s",
		    strerror(errno));
	fflush(stdout);
	fflush(stderr);
	if ((w->pid = fork()) < 0)
		diag_fatal_whole(EXIT_OSERR, "cannot start the watchdog: %s",
		    strerror(errno));
	if (w->pid == 0) {
		(void)setpgid(0, 0);
		close(fds[1]);
		guard(fds[0]);
	}
	/* both set it: a group kill between the fork and the child's own
	 * setpgid can only come before any step */
	(void)setpgid(w->pid, w->pid);
	close(fds[0]);
	w->fd = fds[1];
}

/* tell_watchdog: the group of the step running, or 0. */
static int
tell_watchdog(const struct watchdog *w, pid_t group)
{
	return write(w->fd, &group, sizeof group) ==
	    (ssize_t)sizeof group ? 0 : -1;
}

/* The step's child, before its exec (spawn.h): async-signal-safe. */
struct step_start {
	const struct watchdog *w;
	pid_t parent;
};

/*
 * before_step: the kernel SIGKILLs the step when the loop, its parent,
 * dies (Linux): its own process goes even when the loop and the
 * watchdog are both killed; a parent already gone: exit now.  Then the
 * watchdog learns the step's group, before the step runs.
 */
static void
before_step(void *ctx)
{
	const struct step_start *s = ctx;

#ifdef __linux__
	if (prctl(PR_SET_PDEATHSIG, SIGKILL) != 0)
		_exit(EXIT_OSERR);
#endif
	if (getppid() != s->parent)
		_exit(EXIT_SOFTWARE);
	if (tell_watchdog(s->w, getpid()) != 0)
		_exit(EXIT_SOFTWARE);
}

/*
 * wait_step: the step's status, and its peak resident memory in
 * *peak_kib.  A watchdog that dies meanwhile takes the step with it:
 * the loop stops its group.
 */
static int
wait_step(struct watchdog *w, pid_t step, int nohang, long *peak_kib)
{
	struct rusage ru;
	pid_t pid;
	int st;

	for (;;) {
		pid = wait4(-1, &st, nohang ? WNOHANG : 0, &ru);
		if (pid == step) {
			*peak_kib = ru.ru_maxrss;
			return spawn_status(st);
		}
		if (pid == w->pid && w->pid > 0) {
			(void)kill(-step, SIGKILL);
			w->pid = -1;
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
	char *c = clock_text((long)(monotonic_seconds() - t0));

	diag_live("%s, %s", live_what, c);
	free(c);
}

/*
 * watch: wait for the step, showing live_what every second, with what
 * the step writes on the pipe errfd (-1: none) passed on over it.
 */
static int
watch(struct loop *l, pid_t step, const char *live_what, double t0,
    int errfd, long *peak_kib)
{
	struct relay r;
	double next = 0;
	int st;

	if (!l->live || live_what == NULL || *live_what == '\0')
		return wait_step(&l->dog, step, 0, peak_kib);
	relay_open(&r, errfd);
	while ((st = wait_step(&l->dog, step, 1, peak_kib)) < 0) {
		if (monotonic_seconds() >= next) {
			draw(live_what, t0);
			next = monotonic_seconds() + 1;
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
 * group of its own that the watchdog knows before it runs; its status.
 */
static int
run_step(struct loop *l, const char *in, const char *tmp,
    char *const argv[], const char *live_what)
{
	double t0 = monotonic_seconds(), started;
	struct step_start start = { &l->dog, getpid() };
	struct spawn_how how = { -1, -1, -1, 1, before_step, &start };
	pid_t step;
	int st, err[2];
	long peak_kib = 0;

	start_watchdog(&l->dog);
	if (l->dog.pid < 0)
		diag_fatal_whole(EXIT_SOFTWARE, "the watchdog of the steps "
		    "died: run again to resume");
	if ((how.in = open(in, O_RDONLY | O_CLOEXEC)) < 0)
		diag_fatal_whole(EXIT_NOINPUT, "%s: %s", in, strerror(errno));
	/* tmp is new and empty: O_TRUNC would have ext4 write it back at
	 * close (auto_da_alloc), in the step's time */
	if ((how.out = open(tmp, O_WRONLY | O_CLOEXEC)) < 0)
		diag_fatal_whole(EXIT_CANTCREAT, "%s: %s", tmp,
		    strerror(errno));
	err_pipe(l, live_what, err);
	how.err = err[1];
	started = times_start(&l->times);
	l->oom_before = oom_kills();
	if ((step = spawn_argv(argv, &how)) < 0)
		diag_fatal_whole(EXIT_OSERR, "cannot start a step: %s",
		    strerror(errno));
	running = step;
	close(how.in);
	close(how.out);
	if (err[1] >= 0)
		close(err[1]);
	st = watch(l, step, live_what, t0, err[0], &peak_kib);
	l->oom_after = oom_kills();
	peak_note(l, argv[0], peak_kib);
	times_log(&l->times, "step", argv[0], started);
	(void)kill(-step, SIGKILL);
	running = 0;
	if (l->dog.pid > 0)
		(void)tell_watchdog(&l->dog, 0);
	l->step_secs = monotonic_seconds() - t0;
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

	l->dog.steps_run++;
	if (kill_at != NULL && *kill_at != '\0' &&
	    l->dog.steps_run >= strtol(kill_at, NULL, 10))
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
		diag_fatal_whole(step_failed_status(l, st), "%s: %s",
		    base ? base + 1 : file, step_failure(l, argv[0], st,
		    input_operand(argv)));
}

/* wait_for: a program's status (no step: the watchdog is not asked). */
static int
wait_for(pid_t pid)
{
	int st = spawn_wait(pid);

	return st < 0 ? EXIT_OSERR : st;
}

/*
 * capture_err: run argv (stdin /dev/null, stderr thrown away when
 * quietly, no watchdog: it only reads) and take its standard output;
 * its status.
 */
static int
capture_err(struct loop *l, char *const argv[], char **out,
    int quietly)
{
	char *buf = NULL;
	size_t len = 0, cap = 0;
	ssize_t n;
	int fds[2], devnull, st;
	struct spawn_how how = SPAWN_INHERITED;
	double started;
	pid_t pid;

	if (pipe(fds) != 0 || fcntl(fds[0], F_SETFD, FD_CLOEXEC) != 0 ||
	    fcntl(fds[1], F_SETFD, FD_CLOEXEC) != 0 ||
	    (devnull = open("/dev/null", O_RDWR | O_CLOEXEC)) < 0)
		diag_fatal_whole(EXIT_OSERR, "cannot start %s: %s", argv[0],
		    strerror(errno));
	how.in = devnull;
	how.out = fds[1];
	how.err = quietly ? devnull : -1;
	started = times_start(&l->times);
	pid = spawn_argv(argv, &how);
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
	times_log(&l->times, "ask", argv[0], started);
	*out = buf;
	return st;
}

int
capture(struct loop *l, char *const argv[], char **out)
{
	return capture_err(l, argv, out, 0);
}

/* capture_quietly: capture, with the program's stderr thrown away. */
int
capture_quietly(struct loop *l, char *const argv[], char **out)
{
	return capture_err(l, argv, out, 1);
}

/*
 * run_into: argv (upkit-check) with stdout the new file out (new_tmp),
 * no watchdog; its status.
 */
int
run_into(struct loop *l, char *const argv[], const char *out)
{
	struct spawn_how how = SPAWN_INHERITED;
	double started;
	pid_t pid;
	int st;

	if ((how.out = open(out, O_WRONLY | O_CLOEXEC)) < 0)
		diag_fatal_whole(EXIT_CANTCREAT, "%s: %s", out,
		    strerror(errno));
	started = times_start(&l->times);
	pid = spawn_argv(argv, &how);
	close(how.out);
	if (pid < 0)
		diag_fatal_whole(EXIT_OSERR, "cannot start %s: %s", argv[0],
		    strerror(errno));
	st = wait_for(pid);
	times_log(&l->times, "check", argv[0], started);
	return st;
}
