/*
 * loop.h: upgrade-loop, upkit iterations until the upgrade is over
 * (seed 000 III.B, Fig. 4):
 *
 *   rg-build | cg-coarsen | batch-select | vm-migrate-plan | actuator
 *
 * each step's output kept in the state directory, so that a loop that
 * is killed resumes where it was and never runs an action twice.  See
 * upgrade-loop(1).
 */
#ifndef UPKIT_LOOP_H
#define UPKIT_LOOP_H

#include <stddef.h>
#include <sys/types.h>
#include <jansson.h>

/* Exit statuses beyond sysexits: upgrade-loop(1). */
enum {
	LOOP_FAILED_SETS = 1,	/* done, some change sets not completed */
	LOOP_STOPPED = 2,	/* -n reached */
	LOOP_INTERRUPTED = 3	/* an actuator run did not finish */
};

/* args: a NULL-terminated argument vector that grows. */
struct args {
	char **v;
	size_t n, cap;
};
void args_add(struct args *a, const char *s);
void args_add_all(struct args *a, const struct args *from);
void args_of(struct args *a, const char *first, ...)
    __attribute__((sentinel));
void args_free(struct args *a);

struct options {
	const char *actuator;		/* -a: sim, ansible or a program */
	const char *dir;		/* -d */
	long max;			/* -n */
	const char *system, *catalog;	/* -s, -k */
	struct args requests, added;	/* -r, -A */
	struct args batch_args;		/* -B */
	struct args plan_args;		/* -M */
	const char *refresh;		/* -U, --refresh */
	const char *times;		/* -T */
	struct args refresh_args;	/* -u */
	struct args actuator_args;	/* after the options */
	int quiet, nocheck, rerun;	/* -q, -C, -R */
	long wait;			/* -w: seconds to wait for repairs */
};

/*
 * step.c: the watchdog of the steps: a process that holds the lock with
 * the loop and stops the step running when the loop is gone.
 */
struct watchdog {
	pid_t pid;		/* 0: not started yet, -1: it died */
	int fd;			/* the write end of its pipe */
	long steps_run;		/* by this loop (UPKIT_LOOP_KILL) */
};

/* times.c: -T FILE. */
struct times {
	int fd;			/* -1: no -T, or it failed */
	const char *name;
	long iter;		/* the programs run are this iteration's */
};

/* How an iteration ended (iteration.c). */
enum state { ST_RUNNING, ST_DONE, ST_SUSPENDED, ST_REFUSED, ST_REPEATED,
	ST_INTERRUPTED };

struct loop {
	const struct options *o;
	const char *dir;		/* the state directory */
	const char *scripts;		/* upkit-check, actuate-ansible */
	struct args act;		/* the actuator and its arguments */
	int sim;			/* the actuator is upkit-sim */
	int live;			/* progress on a terminal */
	long built, answered, acted;	/* iterations this process ran
					   rg-build, vm-migrate-plan, the
					   actuator for */
	char **fps;			/* fingerprints, by iteration */
	size_t nfps;
	char plan_progress[16];		/* of the last plan */
	double step_secs;		/* the last step's seconds */
	long oom_before, oom_after;	/* the kernel's out-of-memory kills
					   around the last step, or -1 */
	long peak_kib;			/* the largest peak resident memory
					   of a step since the last
					   peak_warn, in KiB, and */
	char peak_prog[32];		/* the step's program (memory.c) */
	double paced_work, paced_secs;	/* the work the actuator runs of
					   this loop did, and their time
					   (tell.c) */
	int act_status;			/* the failed actuator's status */
	long down_iter;			/* down_text is of this iteration */
	char *down_text;
	struct watchdog dog;		/* step.c */
	struct times times;		/* times.c */
};

/* oom.c: how a step that failed ended.  oom_kills: the kernel's count
 * of out-of-memory kills (/proc/vmstat, or $UPKIT_VMSTAT), or -1.
 * step_out_of_memory: did the last step, of status st, die of it?
 * step_failed_status: the loop's exit status for it (71 for memory, 65
 * for its input, else 70).  step_failure: the words for it (owned by
 * the caller), input its input file or NULL.  input_operand: the last
 * operand of argv that is a regular file, or NULL. */
long oom_kills(void);
int step_out_of_memory(const struct loop *l, int st);
int step_failed_status(const struct loop *l, int st);
char *step_failure(const struct loop *l, const char *prog, int st,
    const char *input);
const char *input_operand(char *const argv[]);

/* memory.c: the steps' peak memory.  machine_kib: the memory the loop
 * may use (MemTotal of /proc/meminfo, or $UPKIT_MEMINFO; a smaller
 * cgroup limit), or -1.  proc_field: the number after key (and a
 * space or a colon) in the /proc file path, or in the file $env names
 * instead; -1 when there is none.  peak_note: prog's step peaked at kib.
 * peak_warn: after iteration n, a warning when its largest peak came
 * near machine_kib; the count starts again. */
long proc_field(const char *env, const char *path, const char *key);
long machine_kib(void);
void peak_note(struct loop *l, const char *prog, long kib);
void peak_warn(struct loop *l, long n);

/* files.c: the state directory's files. */
int exists(const char *path);
int is_file(const char *path);
char *iter_path(const struct loop *l, long n, const char *name);
void names_with_prefix(const char *dir, const char *prefix, struct args *out);
void iteration_reports(const struct loop *l, struct args *out);
int copy_file(const char *from, const char *to);
int same_file_content(const char *a, const char *b);
void remove_tree(const char *path);
char *read_text(const char *path, size_t *lenp);
char *first_line(const char *path);
void write_text_atomically(const char *path, const char *text);
json_t *read_sections(const char *file, const char *const *reads);
void done_reading(json_t *doc);

/* step.c: running the steps, each in a group the watchdog guards. */
void steps_init(struct watchdog *w);
int step_save(struct loop *l, const char *file, const char *in,
    char *const argv[], const char *live_what);
void step_pure(struct loop *l, const char *file, char *const argv[]);
int capture(struct loop *l, char *const argv[], char **out);
int capture_quietly(struct loop *l, char *const argv[], char **out);
int run_into(struct loop *l, char *const argv[], const char *out);
char *new_tmp(const char *path);
/*
 * tool_failed_status: the loop's status when a program it ran failed
 * with status: its input's fault (65) stays 65, anything else is a bug
 * (70).
 */
int tool_failed_status(int status);

/*
 * relay.c: on a terminal, the actuator's stderr passed on a whole line
 * at a time over the live line.
 */
struct relay {
	int fd;				/* the pipe's read end, or -1 */
	int done;			/* its end was read */
	char *buf;			/* a line not ended yet */
	size_t len, cap;
};
void relay_open(struct relay *r, int fd);
/* relay_wait: up to ms for lines, passed on; how many were. */
int relay_wait(struct relay *r, int ms);
/* relay_close: the rest passed on, and the pipe closed. */
void relay_close(struct relay *r);

/* times.c: -T, the wall time of each program the loop runs. */
void times_open(struct times *t, const char *path);
void times_at(struct times *t, long n);
double times_start(const struct times *t);
void times_log(struct times *t, const char *kind, const char *argv0,
    double t0);

/* setup.c: options checked, the lock, the inputs. */
void setup(struct loop *l);

/* iteration.c */
enum state iteration(struct loop *l, long n);

/*
 * wait.c: when nothing can go while resources are down, wait for their
 * repair, WAIT_STEP seconds at a time, -w seconds in all.
 */
enum { WAIT_STEP = 600, WAIT_DEFAULT = 14400 };
long wait_for_repair(struct loop *l, long n);
void wait_mark(struct loop *l, long n, long secs);
long wait_marked(const struct loop *l, long n);

/*
 * tell.c: what a person watching the loop sees, on standard error
 * through diag.h, a whole line each (the change sets a line names can
 * be many).
 */
const char *went_down(struct loop *l, long n);
void tell_progress(struct loop *l, long n);
/* say: a line of progress, unless -q. */
void say(const struct loop *l, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
/* end_freeing: the loop's last line, msg, freed; exit with status. */
_Noreturn void end_freeing(int status, char *msg);
/* clock_text: secs as H:MM:SS. */
char *clock_text(long secs);

/*
 * report_tally: add what a report section says ran to t: its actions
 * (not their undo steps nor replacements, which have a "~" in their
 * ids) by result, in the order of report_result_names (report.h), the
 * undo steps and replacements that failed, and the VMs moved (the
 * migrations and evacuations that succeeded); last_time is the
 * report's time (borrowed from it).
 */
enum { TALLY_RESULTS = 6 };
struct tally {
	long actions[TALLY_RESULTS];
	long steps_failed, moved;
	const char *last_time;
};
void report_tally(const json_t *report, struct tally *t);

/*
 * summarize.c: summary.json and summary.txt; the members of more (an
 * object, or NULL), such as advice or failed_resources, join the
 * summary.
 */
void summarize(struct loop *l, long last_iter, const char *last,
    const char *outcome, long count, const char *reason,
    const json_t *more);

/* ending.c: what the endings read of the last documents. */
char *unfinished_sets(const struct loop *l, long n, int undoing);
char *why_suspended(const struct loop *l, long n);
json_t *advice_of(const struct loop *l, long n);
json_t *failed_resources(const struct loop *l, long n);
char *failed_resources_text(const json_t *failed);
int advises_hosts(const struct loop *l, long n);

/* failing.c: the action that failed each failed resource last, as
 * failing_action {iteration, action, result} in its entry. */
void add_failing_actions(const struct loop *l, long n, json_t *failed);

#endif
