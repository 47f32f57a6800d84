/*
 * setup.c: what comes before the first iteration: the operands checked
 * before anything is created, the state directory locked (one loop per
 * directory), the inputs copied in once (or compared with the copies a
 * run that has them started with), the leftovers of killed steps
 * removed, and the requests of -A placed.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "diag.h"
#include "durable.h"
#include "exitcodes.h"
#include "loop.h"
#include "xalloc.h"

static int
is_dir(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

static int
is_program(const char *path)
{
	return is_file(path) && access(path, X_OK) == 0;
}

/* on_path: name is a program in a directory of PATH. */
static int
on_path(const char *name)
{
	char *path = xstrdup(getenv("PATH") ? getenv("PATH") : ""), *dir,
	    *rest = path, *full;
	int found = 0;

	while (!found && (dir = rest) != NULL) {
		rest = strchr(rest, ':');
		if (rest != NULL)
			*rest++ = '\0';
		full = xasprintf("%s/%s", *dir ? dir : ".", name);
		found = is_program(full);
		free(full);
	}
	free(path);
	return found;
}

/* check_program: the program of option opt can be started. */
static void
check_program(const char *name, const char *opt, const char *nowhere)
{
	if (strchr(name, '/') != NULL) {
		if (!is_program(name))
			diag_fatal_whole(EXIT_NOINPUT, "%s: %s: not an "
			    "executable file", name, opt);
	} else if (!on_path(name)) {
		diag_fatal_whole(EXIT_NOINPUT, "%s: %s: %s", name, opt,
		    nowhere);
	}
}

/*
 * need_helper: a script of upkit's that the loop runs (upkit-check,
 * actuate-ansible) is there, else 69: it was not installed with the
 * loop, or UPKIT_SCRIPTS names the wrong folder.
 */
static void
need_helper(const char *path, const char *why)
{
	if (!is_program(path))
		diag_fatal_whole(EXIT_UNAVAILABLE, "%s: %s needs it, and it "
		    "is not an executable file (install it beside "
		    "upgrade-loop, or name its folder in UPKIT_SCRIPTS)", path,
		    why);
}

static void
pick_actuator(struct loop *l)
{
	const char *a = l->o->actuator;
	char *path;

	/* -q: the actuator keeps quiet too (actuate-ansible reads it) */
	if (l->o->quiet && setenv("UPKIT_QUIET", "1", 1) != 0)
		diag_fatal_whole(EXIT_OSERR, "cannot set UPKIT_QUIET: %s",
		    strerror(errno));
	if (strcmp(a, "sim") == 0) {
		args_add(&l->act, "upkit-sim");
		args_add(&l->act, "-c");
		if (!l->o->quiet)
			args_add(&l->act, "-v");
		l->sim = 1;
	} else if (strcmp(a, "ansible") == 0) {
		path = xasprintf("%s/actuate-ansible", l->scripts);
		need_helper(path, "-a ansible");
		args_add(&l->act, path);
		free(path);
	} else {
		check_program(a, "-a", "not sim, ansible or a program on PATH");
		args_add(&l->act, a);
	}
	args_add_all(&l->act, &l->o->actuator_args);
}

/* check_operands: every input there and readable before anything is made. */
static void
check_operands(struct loop *l)
{
	const struct options *o = l->o;
	const char *single[] = { o->system, o->catalog };
	const struct args *lists[] = { &o->requests, &o->added };
	char *inputs;
	size_t i, j;

	if (o->refresh_args.n > 0 && o->refresh == NULL)
		diag_fatal_whole(EXIT_USAGE, "-u: an argument for the refresh "
		    "program, but no -U");
	if (o->refresh != NULL)
		check_program(o->refresh, "-U", "not a program on PATH");
	if (!o->nocheck) {
		inputs = xasprintf("%s/upkit-check", l->scripts);
		need_helper(inputs, "checking plans (-C: not checked)");
		free(inputs);
	}
	pick_actuator(l);
	for (i = 0; i < 2; i++)
		if (single[i] != NULL && (!is_file(single[i]) ||
		    access(single[i], R_OK) != 0))
			diag_fatal_whole(EXIT_NOINPUT, "%s: cannot read the "
			    "file", single[i]);
	for (j = 0; j < 2; j++)
		for (i = 0; i < lists[j]->n; i++)
			if (!is_file(lists[j]->v[i]) ||
			    access(lists[j]->v[i], R_OK) != 0)
				diag_fatal_whole(EXIT_NOINPUT, "%s: cannot "
				    "read the file", lists[j]->v[i]);
	if (exists(l->dir) && !is_dir(l->dir))
		diag_fatal_whole(EXIT_NOINPUT, "%s: -d: exists and is not a "
		    "directory", l->dir);
	inputs = xasprintf("%s/inputs", l->dir);
	if (!is_dir(inputs) && (o->system == NULL || o->catalog == NULL ||
	    o->requests.n == 0))
		diag_fatal_whole(EXIT_USAGE, "%s: a new upgrade needs -s, -k "
		    "and -r", l->dir);
	free(inputs);
}

/* make_dirs: mkdir -p path. */
static int
make_dirs(const char *path)
{
	char *p = xstrdup(path), *s;
	int r = 0;

	for (s = p + 1; r == 0 && *s != '\0'; s++)
		if (*s == '/') {
			*s = '\0';
			if (mkdir(p, 0777) != 0 && errno != EEXIST)
				r = -1;
			*s = '/';
		}
	if (r == 0 && mkdir(p, 0777) != 0 && (errno != EEXIST || !is_dir(p)))
		r = -1;
	free(p);
	return r;
}

/*
 * lock: DIR/lock, held with flock(2) for as long as the loop or the
 * watchdog of its steps lives (step.c).  A loop that finds it
 * held waits a few seconds, the time a killed loop's watchdog takes
 * to stop its step, then gives up (69).  The lock lives on an open
 * file, so it is never stale.
 */
static void
lock(struct loop *l)
{
	char *file = xasprintf("%s/lock", l->dir), *holder, *pid;
	const char *wait = getenv("UPKIT_LOCK_WAIT");
	struct timespec tick = { 0, 50000000 };
	long ticks = 20 * (wait != NULL && *wait != '\0' ?
	    strtol(wait, NULL, 10) : 5);
	int fd = open(file, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0666);
	FILE *fp;

	if (fd < 0)
		diag_fatal_whole(EXIT_NOINPUT, "%s: %s", file, strerror(errno));
	while (flock(fd, LOCK_EX | LOCK_NB) != 0) {
		if (ticks-- <= 0) {
			holder = read_text(file, NULL);
			if (holder != NULL)
				holder[strcspn(holder, "\n")] = '\0';
			diag_fatal_whole(EXIT_UNAVAILABLE, "%s: in use by "
			    "another upgrade-loop (pid %s); run one loop per "
			    "state directory", l->dir, holder ? holder :
			    "unknown");
		}
		nanosleep(&tick, NULL);
	}
	pid = xasprintf("%ld\n", (long)getpid());
	if ((fp = fopen(file, "we")) == NULL || fputs(pid, fp) == EOF ||
	    fclose(fp) != 0)
		diag_fatal_whole(EXIT_IOERR, "%s: %s", file, strerror(errno));
	free(pid);
	free(file);
}

/* stash: the inputs, copied once, so that a re-run reads the same ones. */
static const char *
stash(const struct loop *l)
{
	const struct options *o = l->o;
	char *tmp = xasprintf("%s/inputs.tmp", l->dir), *to, *final;
	static char *failed;
	size_t i;

	remove_tree(tmp);
	if (mkdir(tmp, 0777) != 0)
		return failed = xasprintf("%s: cannot copy the inputs", l->dir);
	to = xasprintf("%s/system", tmp);
	final = xasprintf("%s/catalog", tmp);
	if (copy_file(o->system, to) != 0 || copy_file(o->catalog, final) != 0)
		failed = xasprintf("%s: cannot copy the inputs", l->dir);
	free(to);
	free(final);
	for (i = 0; failed == NULL && i < o->requests.n; i++) {
		to = xasprintf("%s/request-%zu", tmp, i);
		if (copy_file(o->requests.v[i], to) != 0)
			failed = xasprintf("%s: cannot copy the request",
			    o->requests.v[i]);
		free(to);
	}
	final = xasprintf("%s/inputs", l->dir);
	if (failed == NULL && durable_rename(tmp, final) != 0)
		failed = xasprintf("%s: cannot copy the inputs", l->dir);
	if (failed != NULL)
		remove_tree(tmp);
	free(final);
	free(tmp);
	return failed;
}

/* differs_from: given is not the kept input DIR/inputs/name. */
static int
differs_from(const struct loop *l, const char *given, const char *name)
{
	char *file = xasprintf("%s/inputs/%s", l->dir, name);
	int r = given != NULL && !same_file_content(given, file);

	free(file);
	return r;
}

/* differs: what of -s, -k and -r differs from the kept inputs, or NULL. */
static char *
differs(const struct loop *l, char **kept)
{
	const struct options *o = l->o;
	struct args have = { 0 };
	char *inputs, *what = NULL, name[64];
	size_t i;

	if (differs_from(l, o->system, "system"))
		return *kept = xstrdup("system"), xasprintf("-s %s", o->system);
	if (differs_from(l, o->catalog, "catalog"))
		return *kept = xstrdup("catalog"),
		    xasprintf("-k %s", o->catalog);
	if (o->requests.n == 0)
		return NULL;
	inputs = xasprintf("%s/inputs", l->dir);
	names_with_prefix(inputs, "request-", &have);
	free(inputs);
	if (have.n != o->requests.n) {
		*kept = xstrdup("request-0");
		what = xasprintf("-r (%zu given, %zu kept)", o->requests.n,
		    have.n ? have.n : 1);
	}
	for (i = 0; what == NULL && i < o->requests.n; i++) {
		snprintf(name, sizeof name, "request-%zu", i);
		if (differs_from(l, o->requests.v[i], name)) {
			*kept = xstrdup(name);
			what = xasprintf("-r %s", o->requests.v[i]);
		}
	}
	args_free(&have);
	return what;
}

/* same_inputs: -s, -k and -r given to a run that has its inputs are the
 * ones it started with; anything else is refused, with the ways on. */
static void
same_inputs(const struct loop *l)
{
	char *kept = NULL, *what = differs(l, &kept);

	if (what == NULL)
		return;
	diag_fatal_whole(EXIT_USAGE, "%s: %s differs from the input this "
	    "upgrade started with (%s/inputs/%s): to start over, remove %s "
	    "or give another -d; to add a request to this upgrade, resume it "
	    "with -A REQUEST (seed 000 IV.1)", l->dir, what, l->dir, kept,
	    l->dir);
}

/*
 * leftovers: files of steps killed before their rename are never read,
 * nor are the spares a killed loop of an older upkit left (its watchdog
 * made empty files and a folder ahead of time).
 */
static void
leftovers(const struct loop *l)
{
	struct args iters = { 0 }, files = { 0 };
	char *tmp = xasprintf("%s/inputs.tmp", l->dir);
	const char *base;
	size_t i, j, n;

	remove_tree(tmp);
	free(tmp);
	names_with_prefix(l->dir, "iter-", &iters);
	for (i = 0; i < iters.n; i++) {
		names_with_prefix(iters.v[i], "", &files);
		for (j = 0; j < files.n; j++) {
			base = strrchr(files.v[j], '/') + 1;
			if (base[0] != '.' && strstr(base, ".tmp.") != NULL)
				(void)unlink(files.v[j]);
		}
		args_free(&files);
	}
	names_with_prefix(l->dir, "spare.tmp.", &files);
	names_with_prefix(l->dir, "spare-dir.tmp.", &files);
	for (j = 0; j < files.n; j++)
		remove_tree(files.v[j]);
	args_free(&files);
	names_with_prefix(l->dir, "summary.", &files);
	for (j = 0; j < files.n; j++) {
		base = strrchr(files.v[j], '/') + 1;
		n = strlen(base);
		if ((n >= 12 && strcmp(base + n - 4, ".tmp") == 0) ||
		    (n >= 13 && strcmp(base + n - 5, ".tmp2") == 0))
			(void)unlink(files.v[j]);
	}
	args_free(&files);
	args_free(&iters);
}

/*
 * add_requests: each request of -A joins the first iteration whose
 * actuator has not started, kept as inputs/added-N-K for its rg-build.
 * That iteration's planning files, if any, are planned again.
 */
static void
add_requests(const struct loop *l)
{
	const struct args *added = &l->o->added;
	char *f, *tmp, *to;
	long at = 1, k = 0;
	size_t i;

	for (; is_file((f = iter_path(l, at, "5-report.json"))); at++)
		free(f);
	free(f);
	f = iter_path(l, at, "5-report.started");
	if (is_file(f)) {
		at++;
	} else {
		free(f);
		f = xasprintf("%s/iter-%ld", l->dir, at);
		remove_tree(f);
	}
	free(f);
	f = xasprintf("%s/summary.json", l->dir);
	(void)unlink(f);
	free(f);
	f = xasprintf("%s/summary.txt", l->dir);
	(void)unlink(f);
	free(f);
	for (;; k++) {
		to = xasprintf("%s/inputs/added-%ld-%ld", l->dir, at, k);
		if (!exists(to))
			break;
		free(to);
	}
	tmp = xasprintf("%s/inputs/added.tmp", l->dir);
	for (i = 0; i < added->n; i++, k++) {
		if (i > 0)
			to = xasprintf("%s/inputs/added-%ld-%ld", l->dir, at, k);
		if (copy_file(added->v[i], tmp) != 0 ||
		    durable_rename(tmp, to) != 0)
			diag_fatal_whole(EXIT_IOERR, "%s: cannot add the "
			    "request: %s", added->v[i], strerror(errno));
		free(to);
	}
	free(tmp);
}

void
setup(struct loop *l)
{
	char *inputs;
	const char *failed;
	int made_dir;

	check_operands(l);
	made_dir = !is_dir(l->dir);
	if (make_dirs(l->dir) != 0)
		diag_fatal_whole(EXIT_NOINPUT, "%s: cannot create the state "
		    "directory", l->dir);
	lock(l);
	inputs = xasprintf("%s/inputs", l->dir);
	if (is_dir(inputs)) {
		same_inputs(l);
	} else if ((failed = stash(l)) != NULL) {
		if (made_dir)
			remove_tree(l->dir);
		diag_fatal_whole(EXIT_NOINPUT, "%s", failed);
	}
	free(inputs);
	leftovers(l);
	if (l->o->added.n > 0)
		add_requests(l);
	l->live = !l->o->quiet && isatty(2);
}
