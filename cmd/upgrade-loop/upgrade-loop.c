/*
 * upgrade-loop: upkit iterations until the upgrade is over (seed 000
 * III.B, Fig. 4): rg-build | cg-coarsen | batch-select |
 * vm-migrate-plan | actuator, until every change set has completed or
 * been undone ("done"), or the upgrade is suspended (nothing can be
 * taken out of service: III.A).  Each step's output is kept in the
 * state directory; see upgrade-loop(1) for its layout, what survives a
 * kill and the exit statuses.
 */
#include <argp.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"
#include "diag.h"
#include "docsession.h"
#include "exitcodes.h"
#include "loop.h"
#include "xalloc.h"

static const char usage_doc[] =
    "Run upkit iterations, rg-build | cg-coarsen | batch-select | "
    "vm-migrate-plan | actuator, until the upgrade is done or suspended, "
    "keeping every step's output in a state directory.\v"
    "ACTUATOR-ARGs are the actuator's own options (with -a sim, "
    "upkit-sim's).  A new upgrade needs -s, -k and -r; run again with "
    "the same -d to resume.  Exit status: 0 done, 1 done with change "
    "sets failed or undone, 2 stopped by -n, 3 an actuator run did not "
    "finish, 64 usage, 65 a step rejected the data, 66 cannot read an "
    "input, 69 another loop holds the directory or a script it runs is "
    "missing, 70 a plan failed the "
    "check or a step failed, 71 out of memory, 73 cannot create the -T "
    "file, 74 I/O error, 75 "
    "suspended.";

static const struct argp_option option_list[] = {
	{ "actuator", 'a', "ACTUATOR", 0, "sim (upkit-sim, the default), "
	  "ansible (scripts/actuate-ansible) or a program reading a state "
	  "document on stdin and writing it with a report section", 0 },
	{ "dir", 'd', "DIR", 0, "The state directory (default "
	  "upgrade-state)", 0 },
	{ "max", 'n', "MAX", 0, "Stop after MAX iterations (default 100)", 0 },
	{ "system", 's', "FILE", 0, "The system configuration", 0 },
	{ "catalog", 'k', "FILE", 0, "The resource upgrade catalog", 0 },
	{ "request", 'r', "FILE", 0, "An upgrade request (repeatable)", 0 },
	{ "add", 'A', "REQUEST", 0, "A new request for a running upgrade, "
	  "taken in by the next iteration (repeatable)", 0 },
	{ "batch-arg", 'B', "ARG", 0, "An argument for batch-select "
	  "(repeatable)", 0 },
	{ "plan-arg", 'M', "ARG", 0, "An argument for vm-migrate-plan "
	  "(repeatable)", 0 },
	{ "refresh", 'U', "PROGRAM", 0, "Before every iteration after the "
	  "first, plan from the system PROGRAM prints", 0 },
	{ "refresh-arg", 'u', "ARG", 0, "An argument for the refresh program "
	  "(repeatable)", 0 },
	{ "rerun", 'R', 0, 0, "Run again an actuator run that did not "
	  "finish", 0 },
	{ "quiet", 'q', 0, 0, "No summary on stdout, no progress on stderr",
	  0 },
	{ "no-check", 'C', 0, 0, "Do not check plans with upkit-check before "
	  "actuating them", 0 },
	{ "times", 'T', "FILE", 0, "Append to FILE the wall seconds of each "
	  "program the loop runs, a line each", 0 },
	{ "wait", 'w', "SECONDS", 0, "When nothing can go while resources "
	  "are down, wait up to SECONDS in all for their repair (default "
	  "14400; 0: suspend at once)", 0 },
	{ 0 }
};

/* number: arg as a number from least up, or bad usage for option key. */
static long
number(struct argp_state *state, int key, const char *arg, long least)
{
	char *end;
	long v;

	v = strtol(arg, &end, 10);
	if (*arg < '0' || *arg > '9' || *end != '\0' || v < least ||
	    v == LONG_MAX)
		argp_failure(state, EXIT_USAGE, 0, "-%c '%s': not a %s number",
		    key, arg, least > 0 ? "positive" : "whole");
	return v;
}

static error_t
parse_opt(int key, char *arg, struct argp_state *state)
{
	struct options *o = state->input;
	int i;

	switch (key) {
	case 'a': o->actuator = arg; break;
	case 'd': o->dir = arg; break;
	case 'n': o->max = number(state, key, arg, 1); break;
	case 'w': o->wait = number(state, key, arg, 0); break;
	case 's': o->system = arg; break;
	case 'k': o->catalog = arg; break;
	case 'r': args_add(&o->requests, arg); break;
	case 'A': args_add(&o->added, arg); break;
	case 'B': args_add(&o->batch_args, arg); break;
	case 'M': args_add(&o->plan_args, arg); break;
	case 'U': o->refresh = arg; break;
	case 'u': args_add(&o->refresh_args, arg); break;
	case 'R': o->rerun = 1; break;
	case 'q': o->quiet = 1; break;
	case 'C': o->nocheck = 1; break;
	case 'T': o->times = arg; break;
	case ARGP_KEY_ARG:
		/* the first operand and all after it are the actuator's */
		for (i = state->next - 1; i < state->argc; i++)
			args_add(&o->actuator_args, state->argv[i]);
		state->next = state->argc;
		break;
	default:
		return ARGP_ERR_UNKNOWN;
	}
	return 0;
}

/* self_dir: the directory of this program, up levels up. */
static char *
self_dir(int up)
{
	char path[PATH_MAX], *slash;
	ssize_t n = readlink("/proc/self/exe", path, sizeof path - 1);

	if (n <= 0)
		return NULL;
	path[n] = '\0';
	for (; up >= 0 && (slash = strrchr(path, '/')) != NULL; up--)
		*slash = '\0';
	return xstrdup(path);
}

/*
 * tools_on_path: the tools the loop runs are found first in UPKIT_BIN,
 * else beside the loop itself.
 */
static void
tools_on_path(void)
{
	const char *bin = getenv("UPKIT_BIN"), *old = getenv("PATH");
	char *own = NULL, *path;

	if (bin == NULL || *bin == '\0')
		bin = own = self_dir(0);
	if (bin == NULL)
		return;
	path = xasprintf("%s:%s", bin, old != NULL ? old : "/usr/bin:/bin");
	setenv("PATH", path, 1);
	free(path);
	free(own);
}

/*
 * scripts_dir: where upkit-check and actuate-ansible are: UPKIT_SCRIPTS,
 * else beside the loop when they are there (make install puts them in
 * PREFIX/bin), else the source tree's scripts/, beside build/bin/.
 */
static char *
scripts_dir(void)
{
	const char *env = getenv("UPKIT_SCRIPTS");
	char *top, *dir, *check;
	int beside;

	if (env != NULL && *env != '\0')
		return xstrdup(env);
	if ((dir = self_dir(0)) != NULL) {
		check = xasprintf("%s/upkit-check", dir);
		beside = access(check, X_OK) == 0;
		free(check);
		if (beside)
			return dir;
		free(dir);
	}
	if ((top = self_dir(2)) == NULL)
		return xstrdup("scripts");
	dir = xasprintf("%s/scripts", top);
	free(top);
	return dir;
}

/* stopped: -n reached before the upgrade was over. */
static _Noreturn void
stopped(struct loop *l, long max)
{
	char *next = xasprintf("%s/iter-%ld", l->dir, max + 1), *last, *why;
	int past = exists(next);

	free(next);
	if (past)
		end_freeing(LOOP_STOPPED, xasprintf("stopped by -n %ld: this "
		    "upgrade already ran past iteration %ld; its summary is left "
		    "as it was", max, max));
	last = iter_path(l, max, "5-report.json");
	why = xasprintf("the limit of %ld iterations (-n) was reached", max);
	summarize(l, max, last, "stopped", max, why, NULL);
	free(why);
	free(last);
	end_freeing(LOOP_STOPPED, xasprintf("stopped after %ld iteration(s) "
	    "by -n %ld; run again with a larger -n to continue", max, max));
}

/*
 * done: nothing is left that can run.  Every change set completed with
 * no resource failed or isolated is done (0); else the upgrade finished
 * with failures (1), and both summary.json and standard error name the
 * change sets that did not complete and the failed and isolated
 * resources, with their failed attempts (seed 000 III.A: they are
 * reported to the administrator, and no further automatic action is
 * taken on them).
 */
static int
done(struct loop *l, long n)
{
	char *bad = unfinished_sets(l, n, 0), *rg = iter_path(l, n, "1-rg.json"),
	    *why, *lost;
	json_t *failed = failed_resources(l, n), *more;

	if (*bad == '\0' && json_array_size(failed) == 0) {
		summarize(l, n - 1, rg, "done", n - 1, NULL, NULL);
		json_decref(failed);
		free(rg);
		free(bad);
		return EXIT_OK;
	}
	add_failing_actions(l, n, failed);
	lost = failed_resources_text(failed);
	why = xasprintf("%s%s%s%s", *bad ? "change sets not completed: " : "",
	    bad, *bad && *lost ? "; " : "", lost);
	more = json_pack("{s:o}", "failed_resources", failed);
	summarize(l, n - 1, rg, "finished-with-failures", n - 1, why, more);
	json_decref(more);
	free(lost);
	free(rg);
	free(bad);
	bad = xasprintf("finished after %ld iteration(s); %s", n - 1, why);
	free(why);
	end_freeing(LOOP_FAILED_SETS, bad);
}

static int
suspended(struct loop *l, long n)
{
	char *why = why_suspended(l, n), *plan = iter_path(l, n,
	    "4-migrations.json");
	json_t *advice = advice_of(l, n), *a, *more = json_object();
	size_t i;

	if (json_array_size(advice) > 0)
		json_object_set(more, "advice", advice);
	summarize(l, n - 1, plan, "suspended", n - 1, why, more);
	json_decref(more);
	diag_note_whole("suspended after %ld iteration(s): %s", n - 1, why);
	json_array_foreach(advice, i, a)
		diag_note_whole("advice: %s", json_is_string(a) ?
		    json_string_value(a) : "null");
	/* paths as the operator gave them: the line runs where the loop
	   was started */
	if (advises_hosts(l, n))
		diag_note_whole("to add the hosts it advises, run %s/"
		    "advice-request %s/iter-%ld/3-batch.json > more-hosts.json "
		    "and resume with -A more-hosts.json", l->scripts, l->dir, n);
	json_decref(advice);
	free(plan);
	free(why);
	return EXIT_TEMPFAIL;
}

static int
repeated(struct loop *l, long n)
{
	char *last = iter_path(l, n - 1, "5-report.json"),
	    *why = xasprintf("no progress: iteration %ld repeats iteration "
	    "%ld on an unchanged system", n, n - 1);

	summarize(l, n - 1, last, "suspended", n - 1, why, NULL);
	free(last);
	end_freeing(EXIT_TEMPFAIL, why);
}

static int
refused(struct loop *l, long n)
{
	char *last = iter_path(l, n - 1, "5-report.json"),
	    *why = xasprintf("the plan of iteration %ld breaks the guarantee: "
	    "iter-%ld/4-check.txt", n, n);

	summarize(l, n - 1, last, "refused", n - 1, why, NULL);
	free(why);
	free(last);
	return EXIT_SOFTWARE;
}

/*
 * started_at: when the actuator run of the marker file started: its
 * time (the loop writes it empty), or the time an older loop wrote in
 * it.
 */
static char *
started_at(const char *file)
{
	char *at = read_text(file, NULL);
	struct stat st;
	struct tm tm;

	if (at != NULL && *at != '\0') {
		at[strcspn(at, "\n")] = '\0';
		return at;
	}
	free(at);
	at = xmalloc(32);
	if (stat(file, &st) != 0 || gmtime_r(&st.st_mtime, &tm) == NULL ||
	    strftime(at, 32, "%Y-%m-%dT%H:%M:%SZ", &tm) == 0)
		snprintf(at, 32, "an unknown time");
	return at;
}

/*
 * interrupted: the actuator run of iteration n failed or did not
 * finish.  The summary says so too, with the change sets the plan was
 * undoing and why (a completion period that ran out, most often).
 */
static int
interrupted(struct loop *l, long n)
{
	char *started = iter_path(l, n, "5-report.started"), *at, *msg,
	    *undoing, *why, *last;

	if (l->act_status != 0) {
		msg = xasprintf("iteration %ld: the actuator failed with status "
		    "%d%s; its actions may have partly run: check the system, "
		    "then run again with -R (%s)", n, l->act_status,
		    l->act_status == EXIT_UNAVAILABLE ? ", which says it lacks "
		    "something it needs (actuate-ansible: the plan has manual "
		    "steps, and nothing ran)" : "", started);
	} else {
		at = started_at(started);
		msg = xasprintf("iteration %ld: the actuator run started at %s "
		    "did not finish; its actions may have partly run: check the "
		    "system, then run again with -R", n, at);
		free(at);
	}
	free(started);
	undoing = unfinished_sets(l, n, 1);
	why = *undoing ? xasprintf("%s; undoing: %s", msg, undoing) :
	    xstrdup(msg);
	last = iter_path(l, n, "4-migrations.json");
	summarize(l, n - 1, last, "interrupted", n - 1, why, NULL);
	free(last);
	free(undoing);
	free(msg);
	end_freeing(LOOP_INTERRUPTED, why);
}

/* run: the iterations, from the first not finished, to an ending. */
static int
run(struct loop *l)
{
	long n;

	for (n = 1; ; n++) {
		if (n > l->o->max)
			stopped(l, l->o->max);
		switch (iteration(l, n)) {
		case ST_RUNNING:
			break;
		case ST_DONE:
			return done(l, n);
		case ST_SUSPENDED:
			return suspended(l, n);
		case ST_REPEATED:
			return repeated(l, n);
		case ST_REFUSED:
			return refused(l, n);
		case ST_INTERRUPTED:
			return interrupted(l, n);
		}
	}
}

static void
loop_free(struct loop *l, struct options *o)
{
	size_t i;

	for (i = 0; i < l->nfps; i++)
		free(l->fps[i]);
	free(l->fps);
	free(l->down_text);
	args_free(&l->act);
	free((char *)l->scripts);
	free((char *)l->dir);
	args_free(&o->requests);
	args_free(&o->added);
	args_free(&o->batch_args);
	args_free(&o->plan_args);
	args_free(&o->refresh_args);
	args_free(&o->actuator_args);
}

int
main(int argc, char **argv)
{
	static const struct argp argp = { option_list, parse_opt,
		"[-- ACTUATOR-ARG...]", usage_doc, 0, 0, 0 };
	struct options o = { .actuator = "sim", .dir = "upgrade-state",
	    .max = 100, .wait = WAIT_DEFAULT };
	struct loop l = { 0 };
	struct docsession session;	/* of the documents it reads */
	int status;

	cli_init(argv);
	docsession_open(&session, DOCSESSION_MALLOC);
	argp_parse(&argp, argc, argv, ARGP_IN_ORDER, NULL, &o);
	if (*o.dir == '\0')
		diag_fatal_whole(EXIT_USAGE, "-d '': an empty state directory "
		    "name");
	l.o = &o;
	/* the tools take DIR's files as operands: "-x" must not read as
	 * an option */
	l.dir = o.dir[0] == '-' ? xasprintf("./%s", o.dir) : xstrdup(o.dir);
	tools_on_path();
	l.scripts = scripts_dir();
	steps_init(&l.dog);
	times_open(&l.times, o.times);
	setup(&l);
	status = run(&l);
	loop_free(&l, &o);
	docsession_close(&session);
	return status;
}
