/*
 * iteration.c: one iteration, the steps not finished yet; each step's
 * output is kept in DIR/iter-N, so that a resumed loop starts where the
 * last one stopped (upgrade-loop(1), What survives a kill).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "diag.h"
#include "durable.h"
#include "exitcodes.h"
#include "loop.h"
#include "xalloc.h"

/*
 * refresh_step: the system as the refresh program observes it before
 * iteration n, kept as iter-N/0-system, once: a resumed loop plans from
 * the same observation.  It only reads the cloud, so a killed one is
 * simply run again.
 */
static void
refresh_step(struct loop *l, long n, struct args *rg)
{
	char *file = iter_path(l, n, "0-system");
	struct args argv = { 0 };
	int st;

	if (!is_file(file)) {
		args_add(&argv, l->o->refresh);
		args_add_all(&argv, &l->o->refresh_args);
		if ((st = step_save(l, file, "/dev/null", argv.v,
		    NULL)) != 0)
			diag_fatal_whole(EXIT_SOFTWARE, "iteration %ld: the "
			    "refresh program '%s' failed with status %d; "
			    "nothing of this iteration ran: run again to "
			    "retry", n, l->o->refresh, st);
		args_free(&argv);
	}
	args_add(rg, "-s");
	args_add(rg, file);
	free(file);
}

static void
rg_step(struct loop *l, long n, const char *out)
{
	struct args argv = { 0 }, found = { 0 };
	char *s, *inputs = xasprintf("%s/inputs", l->dir), *progress,
	    *prefix = xasprintf("added-%ld-", n);
	size_t i;

	progress = iter_path(l, n, "1-progress.txt");
	args_add(&argv, "rg-build");
	args_add(&argv, "-c");
	args_add(&argv, "--progress-file");
	args_add(&argv, progress);
	if (n == 1) {
		s = xasprintf("%s/system", inputs);
		args_add(&argv, "-s");
		args_add(&argv, s);
		free(s);
		s = xasprintf("%s/catalog", inputs);
		args_add(&argv, "-k");
		args_add(&argv, s);
		free(s);
		names_with_prefix(inputs, "request-", &found);
	} else {
		s = iter_path(l, n - 1, "5-report.json");
		args_add(&argv, s);
		free(s);
		if (l->o->refresh != NULL)
			refresh_step(l, n, &argv);
	}
	names_with_prefix(inputs, prefix, &found);
	for (i = 0; i < found.n; i++)
		if (is_file(found.v[i])) {
			args_add(&argv, "-r");
			args_add(&argv, found.v[i]);
		}
	step_pure(l, out, argv.v);
	l->built = n;
	args_free(&found);
	args_free(&argv);
	free(prefix);
	free(progress);
	free(inputs);
}

/*
 * two_lines: text's first line, ended where it ends, and its second, in
 * *second ("" if none).
 */
static void
two_lines(char *text, char **second)
{
	char *nl = strchr(text, '\n');

	*second = nl != NULL ? nl + 1 : text + strlen(text);
	if (nl != NULL)
		*nl = '\0';
	(*second)[strcspn(*second, "\n")] = '\0';
}

/*
 * graph_done: iteration n's graph says the upgrade is done: read from
 * iter-N/1-progress.txt, which rg-build wrote before the graph, when
 * this loop just ran rg-build, else asked of upkit-sim.
 */
static int
graph_done(struct loop *l, long n)
{
	char *file, *p = NULL;
	struct args argv = { 0 };
	int done;

	if (l->built == n) {
		file = iter_path(l, n, "1-progress.txt");
		p = first_line(file);
		free(file);
	}
	if (p == NULL || *p == '\0') {
		free(p);
		file = iter_path(l, n, "1-rg.json");
		args_of(&argv, "upkit-sim", "--progress", file, (char *)NULL);
		(void)capture(l, argv.v, &p);
		args_free(&argv);
		free(file);
		p[strcspn(p, "\n")] = '\0';
	}
	done = strcmp(p, "done") == 0;
	free(p);
	return done;
}

/* set_fingerprint: fps[n] = fp (taken). */
static void
set_fingerprint(struct loop *l, long n, char *fp)
{
	size_t cap = l->nfps;

	if ((size_t)n >= l->nfps) {
		l->nfps = (size_t)n + 16;
		l->fps = xreallocarray(l->fps, l->nfps, sizeof *l->fps);
		memset(l->fps + cap, 0, (l->nfps - cap) * sizeof *l->fps);
	}
	free(l->fps[n]);
	l->fps[n] = fp;
}

/*
 * plan_answers: the progress of iteration n's plan, and its
 * fingerprint.  When this loop just ran vm-migrate-plan, it wrote both
 * to iter-N/4-progress.txt before the plan; else (a resumed loop)
 * upkit-sim reads them of the plan, both in one read.
 */
static void
plan_answers(struct loop *l, long n)
{
	char *file, *text = NULL, *fp = NULL;
	struct args argv = { 0 };
	int st;

	if (l->answered == n) {
		file = iter_path(l, n, "4-progress.txt");
		if ((text = read_text(file, NULL)) != NULL)
			two_lines(text, &fp);
		free(file);
	}
	if (fp == NULL || *fp == '\0') {
		free(text);
		file = iter_path(l, n, "4-migrations.json");
		args_of(&argv, "upkit-sim", "--progress", "--fingerprint", file,
		    (char *)NULL);
		st = capture(l, argv.v, &text);
		args_free(&argv);
		free(file);
		if (st != 0)
			diag_fatal_whole(tool_failed_status(st), "iteration "
			    "%ld: 'upkit-sim --progress --fingerprint' "
			    "failed with status %d", n, st);
		two_lines(text, &fp);
	}
	snprintf(l->plan_progress, sizeof l->plan_progress, "%s", text);
	set_fingerprint(l, n, xstrdup(fp));
	free(text);
}

/*
 * repeats: iteration n plans what n - 1 did on an unchanged system, with
 * no failed attempt counted in between: nothing would change.  Each
 * fingerprint is asked once (a resumed loop asks for n - 1's).
 */
static int
repeats(struct loop *l, long n)
{
	char *last, *fp;
	struct args argv = { 0 };
	int st;

	if (n <= 1)
		return l->fps[n][0] == '\0';
	last = iter_path(l, n - 1, "4-migrations.json");
	if (!is_file(last)) {
		free(last);
		return l->fps[n][0] == '\0';
	}
	if ((size_t)(n - 1) >= l->nfps || l->fps[n - 1] == NULL) {
		args_of(&argv, "upkit-sim", "--fingerprint", last, (char *)NULL);
		st = capture(l, argv.v, &fp);
		args_free(&argv);
		if (st != 0)
			diag_fatal_whole(tool_failed_status(st), "iteration "
			    "%ld: 'upkit-sim --fingerprint' failed with "
			    "status %d", n - 1, st);
		fp[strcspn(fp, "\n")] = '\0';
		set_fingerprint(l, n - 1, fp);
	}
	free(last);
	return strcmp(l->fps[n], l->fps[n - 1]) == 0;
}

/*
 * check_plan: the independent checker on iteration n's plan, kept in
 * iter-N/4-check.txt; a plan that breaks the guarantee is not actuated.
 */
static int
check_plan(struct loop *l, long n)
{
	char *out, *tmp, *text, *argv[3];
	size_t i, lines;
	int st;

	if (l->o->nocheck)
		return 1;
	out = iter_path(l, n, "4-check.txt");
	tmp = new_tmp(out);
	argv[0] = xasprintf("%s/upkit-check", l->scripts);
	argv[1] = iter_path(l, n, "4-migrations.json");
	argv[2] = NULL;
	st = run_into(l, argv, tmp);
	if (durable_rename(tmp, out) != 0)
		diag_fatal_whole(EXIT_IOERR, "%s: %s", out, strerror(errno));
	/* 127 and 126: it, or its interpreter, could not be started */
	if (st == 127 || st == 126)
		diag_fatal_whole(EXIT_UNAVAILABLE, "iteration %ld: %s could "
		    "not be started (status %d): the plan was not checked "
		    "(%s)", n, argv[0], st, out);
	if (st != 0) {
		diag_note_whole("iteration %ld: the plan breaks the guarantee, "
		    "not actuated (%s):", n, out);
		text = read_text(out, NULL);
		for (i = 0, lines = 0; text != NULL && text[i] != '\0' &&
		    lines < 5; i++)
			lines += text[i] == '\n';
		if (text != NULL)
			diag_relay(text, i);
		free(text);
	}
	free(argv[0]);
	free(argv[1]);
	free(tmp);
	free(out);
	return st == 0;
}

/* sleep_through: sleep secs seconds, whatever interrupts the sleep. */
static void
sleep_through(long secs)
{
	struct timespec left = { secs, 0 };

	while (nanosleep(&left, &left) != 0 && errno == EINTR)
		;
}

/*
 * mark_started: made before the actuator starts, removed once its
 * report is kept: a run that did not finish is never started again
 * unseen, even after a crash of the machine (durable.h).  The file is empty and its time is the run's start: on ext4,
 * removing a file that holds data took 4 to 11 ms right after the
 * actuator's run, an empty one a few microseconds.
 */
static void
mark_started(const char *file)
{
	char *tmp = new_tmp(file);

	if (durable_rename(tmp, file) != 0)
		diag_fatal_whole(EXIT_IOERR, "%s: %s", file, strerror(errno));
	free(tmp);
}

/*
 * journal_for: the actuator's own record of the steps it finished,
 * iter-N/5-journal, named to it in UPKIT_ACTUATOR_JOURNAL.  A first run
 * starts it empty; a run again (-R) of one that did not finish keeps it,
 * so that the actuator skips what is recorded there instead of running
 * it twice (actuate-ansible: ansible-plan --replay).
 */
static void
journal_for(const struct loop *l, long n, int again)
{
	char *journal = iter_path(l, n, "5-journal");

	if (!again && unlink(journal) != 0 && errno != ENOENT)
		diag_fatal_whole(EXIT_IOERR, "%s: %s", journal,
		    strerror(errno));
	if (setenv("UPKIT_ACTUATOR_JOURNAL", journal, 1) != 0)
		diag_fatal_whole(EXIT_OSERR, "cannot set "
		    "UPKIT_ACTUATOR_JOURNAL: %s", strerror(errno));
	free(journal);
}

/*
 * actuate: the actuator's step, on a plan that may run; after waiting
 * secs for a repair (wait.c) when secs > 0: the simulator is told to
 * let that time pass (-C), another actuator runs that much later.
 */
static enum state
actuate(struct loop *l, long n, const char *plan, const char *report,
    long secs)
{
	char wait_arg[32];
	char *started = iter_path(l, n, "5-report.started"), *live = NULL,
	    *summary = NULL;
	struct args argv = { 0 };
	enum state state = ST_RUNNING;
	int st, again = is_file(started);

	if (again) {
		if (!l->o->rerun && !l->sim) {
			free(started);
			return ST_INTERRUPTED;
		}
		say(l, "iteration %ld: running the actuator again (its last "
		    "run did not finish)", n);
	}
	if (!check_plan(l, n))
		state = ST_REFUSED;
	else if (secs == 0 && repeats(l, n))
		state = ST_REPEATED;
	if (state != ST_RUNNING) {
		free(started);
		return state;
	}
	journal_for(l, n, again);
	mark_started(started);
	if (l->live)
		live = xasprintf("iteration %ld: %.60s: actuator running", n,
		    went_down(l, n));
	args_add(&argv, l->act.v[0]);
	if (l->sim) {
		summary = iter_path(l, n, "5-summary.json");
		args_add(&argv, "--summary-file");
		args_add(&argv, summary);
	}
	for (size_t i = 1; i < l->act.n; i++)
		args_add(&argv, l->act.v[i]);
	if (secs > 0 && l->sim) {
		snprintf(wait_arg, sizeof wait_arg, "%ld", secs);
		args_add(&argv, "-C");
		args_add(&argv, wait_arg);
	} else if (secs > 0)
		sleep_through(secs);
	st = step_save(l, report, plan, argv.v, live);
	(void)unsetenv("UPKIT_ACTUATOR_JOURNAL");
	if (st != 0 && l->sim) {
		(void)unlink(started);
		diag_fatal_whole(step_failed_status(l, st), "5-report.json: "
		    "%s", step_failure(l, "upkit-sim", st, plan));
	}
	if (st != 0) {
		l->act_status = st;
		state = ST_INTERRUPTED;
	} else {
		l->acted = n;
		(void)unlink(started);
		tell_progress(l, n);
		peak_warn(l, n);
	}
	args_free(&argv);
	free(summary);
	free(live);
	free(started);
	return state;
}

/*
 * plan_steps: the planning steps of iteration n not done yet.  They
 * write compact JSON (-c): at 1,000 hosts a state document is less than
 * half the size, and reading and writing it is most of a stage's time.
 */
static void
plan_steps(struct loop *l, long n, const char *rg, const char *cg,
    const char *batch, const char *plan)
{
	struct args argv = { 0 };
	char *progress;

	if (!is_file(cg)) {
		args_of(&argv, "cg-coarsen", "-c", rg, (char *)NULL);
		step_pure(l, cg, argv.v);
		args_free(&argv);
	}
	if (!is_file(batch)) {
		args_add(&argv, "batch-select");
		args_add(&argv, "-c");
		args_add_all(&argv, &l->o->batch_args);
		args_add(&argv, cg);
		step_pure(l, batch, argv.v);
		args_free(&argv);
	}
	if (!is_file(plan)) {
		progress = iter_path(l, n, "4-progress.txt");
		args_add(&argv, "vm-migrate-plan");
		args_add(&argv, "-c");
		args_add_all(&argv, &l->o->plan_args);
		args_add(&argv, "--progress-file");
		args_add(&argv, progress);
		args_add(&argv, batch);
		step_pure(l, plan, argv.v);
		l->answered = n;
		args_free(&argv);
		free(progress);
	}
}

enum state
iteration(struct loop *l, long n)
{
	char *it = xasprintf("%s/iter-%ld", l->dir, n),
	    *rg = iter_path(l, n, "1-rg.json"),
	    *cg = iter_path(l, n, "2-cg.json"),
	    *batch = iter_path(l, n, "3-batch.json"),
	    *plan = iter_path(l, n, "4-migrations.json"),
	    *report = iter_path(l, n, "5-report.json");
	enum state state = ST_RUNNING;
	long secs;

	times_at(&l->times, n);
	if (mkdir(it, 0777) != 0 &&
	    errno != EEXIST)
		diag_fatal_whole(EXIT_CANTCREAT, "%s: %s", it, strerror(errno));
	if (!is_file(rg))
		rg_step(l, n, rg);
	if (graph_done(l, n)) {
		state = ST_DONE;
	} else {
		plan_steps(l, n, rg, cg, batch, plan);
		plan_answers(l, n);
		if (strcmp(l->plan_progress, "suspended") != 0) {
			if (!is_file(report))
				state = actuate(l, n, plan, report, 0);
		} else if (is_file(report) && wait_marked(l, n) > 0) {
			state = ST_RUNNING;	/* a wait already run */
		} else if ((secs = wait_marked(l, n)) > 0 ||
		    (secs = wait_for_repair(l, n)) > 0) {
			wait_mark(l, n, secs);
			state = actuate(l, n, plan, report, secs);
		} else
			state = ST_SUSPENDED;
	}
	free(report);
	free(plan);
	free(batch);
	free(cg);
	free(rg);
	free(it);
	return state;
}
