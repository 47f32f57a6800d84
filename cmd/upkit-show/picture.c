/*
 * picture.c: read a state directory of upgrade-loop(1) into a picture:
 * DIR/iter-1, iter-2, ... in order until one is missing, each from its
 * report (5-report.json) or, for an iteration planned but not run, its
 * latest plan (4-migrations.json, else 3-batch.json), and the loop's
 * summary.json when the loop has ended.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "exitcodes.h"
#include "load.h"
#include "picture.h"
#include "state.h"
#include "xalloc.h"

static const char *const result_names[RESULT_COUNT] = {
	"succeeded", "failed", "undone", "undo-failed", "blocked", "not-run",
};
static const char *const phase_names[PHASE_COUNT] = {
	"prerequisite", "upgrade", "wrap-up", "migration", "undo",
};

const char *
result_name(enum result r)
{
	return result_names[r];
}

const char *
phase_name(enum phase p)
{
	return phase_names[p];
}

/* result_parse: a report's result word; -1 (diagnosed) for another. */
int
result_parse(struct access *a, const char *s, enum result *out)
{
	int i;

	for (i = 0; i < RESULT_COUNT; i++)
		if (strcmp(s, result_names[i]) == 0) {
			*out = (enum result)i;
			return 0;
		}
	return access_fail(a, "unknown result \"%s\"", s);
}

const char *
pic_copy(struct picture *pic, const char *s)
{
	return strpool_copy(&pic->pool, s);
}

/* pic_lane: the index of lane name, added at the end when new. */
size_t
pic_lane(struct picture *pic, const char *name)
{
	long i = idmap_find(&pic->lanes, name);

	if (i >= 0)
		return (size_t)i;
	i = idmap_add(&pic->lanes, name);
	pic->lane_failed = xgrow(pic->lane_failed, (size_t)i, &pic->lane_cap,
	    sizeof *pic->lane_failed);
	return (size_t)i;
}

static int
is_dir(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

/* open_dir: whether dir is a directory, diagnosed when it is not. */
static int
open_dir(const char *dir)
{
	struct stat st;

	if (stat(dir, &st) != 0) {
		diag_error(dir, "cannot open: %s", strerror(errno));
		return -1;
	}
	if (!S_ISDIR(st.st_mode)) {
		diag_error(dir, "not a directory: --html reads the state "
		    "directory of upgrade-loop");
		return -1;
	}
	return 0;
}

static int
is_file(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

/* read_document: one iteration's document into the picture. */
static int
read_document(struct picture *pic, struct iteration *it, const char *file)
{
	struct access a;
	struct reading r = { pic, &a, it, NULL, NULL, NULL, 0 };
	json_t *doc;
	int status;

	if ((status = load_document(file, &doc)) != EXIT_OK)
		return status;
	access_init(&a, file);
	r.doc = doc;
	r.vm_group = json_object();
	r.acts = json_object();
	status = EXIT_DATAERR;
	if (state_check(&a, doc) == 0 && pic_read_system(&r) == 0 &&
	    pic_read_batch(&r) == 0 && (!it->ran || pic_read_marks(&r) == 0))
		status = EXIT_OK;
	json_decref(r.acts);
	json_decref(r.vm_group);
	access_free(&a);
	json_decref(doc);
	return status;
}

/* iteration_file: the newest file of iteration folder it; NULL if none. */
static char *
iteration_file(const char *folder, int *ran)
{
	static const char *const names[] = {
		"5-report.json", "4-migrations.json", "3-batch.json",
	};
	size_t i;
	char *file;

	for (i = 0; i < sizeof names / sizeof names[0]; i++) {
		file = xasprintf("%s/%s", folder, names[i]);
		if (is_file(file)) {
			*ran = i == 0;
			return file;
		}
		free(file);
	}
	return NULL;
}

static struct iteration *
new_iteration(struct picture *pic, long number)
{
	struct iteration *it;
	int64_t start = 0;

	if (pic->niterations > 0)
		start = pic->iterations[pic->niterations - 1].end;
	pic->iterations = xgrow(pic->iterations, pic->niterations,
	    &pic->iterations_cap, sizeof *pic->iterations);
	it = &pic->iterations[pic->niterations++];
	it->number = number;
	it->start = it->end = start;
	it->taken = json_array();
	it->waits = json_object();
	return it;
}

static int
read_iterations(struct picture *pic, const char *dir)
{
	long n;
	char *folder, *file;
	int status = EXIT_OK, ran;

	for (n = 1; status == EXIT_OK; n++) {
		folder = xasprintf("%s/iter-%ld", dir, n);
		file = is_dir(folder) ? iteration_file(folder, &ran) : NULL;
		free(folder);
		if (file == NULL)
			break;
		new_iteration(pic, n)->ran = ran;
		status = read_document(pic, &pic->iterations[pic->niterations - 1],
		    file);
		free(file);
	}
	return status;
}

/* read_summary: summary.json when the loop wrote it; its failed hosts. */
static int
read_summary(struct picture *pic, const char *dir)
{
	char *file = xasprintf("%s/summary.json", dir);
	const json_t *f;
	size_t i;
	int status = EXIT_OK;

	if (is_file(file))
		status = load_document(file, &pic->summary);
	if (status == EXIT_OK && pic->summary != NULL &&
	    !json_is_object(pic->summary)) {
		diag_path(file, ".", "expected object, the loop's summary");
		status = EXIT_DATAERR;
	}
	free(file);
	if (status != EXIT_OK)
		return status;
	/* the lanes of the resources it names as failed, when it does */
	json_array_foreach(json_object_get(pic->summary, "failed_resources"),
	    i, f) {
		const char *id = json_string_value(json_object_get(f, "id"));
		const char *name = id == NULL ? NULL : json_string_value(
		    json_object_get(pic->lane_of, id));
		long lane = name == NULL ? -1 : idmap_find(&pic->lanes, name);

		if (lane >= 0)
			pic->lane_failed[lane] = 1;
	}
	return EXIT_OK;
}

/* picture_read: dir into pic (zeroed first); an exit status. */
int
picture_read(struct picture *pic, const char *dir)
{
	char *first = xasprintf("%s/iter-1", dir);
	int status;

	memset(pic, 0, sizeof *pic);
	idmap_init(&pic->lanes);
	idmap_init(&pic->tenants);
	pic->lane_of = json_object();
	pic->attempts = json_object();
	if (open_dir(dir) < 0) {
		status = EXIT_NOINPUT;
	} else if (!is_dir(first)) {
		diag_error(dir, "no iter-1: not a state directory of upgrade-loop");
		status = EXIT_DATAERR;
	} else {
		status = read_iterations(pic, dir);
	}
	free(first);
	if (status == EXIT_OK)
		status = read_summary(pic, dir);
	return status;
}

void
picture_free(struct picture *pic)
{
	size_t i;

	for (i = 0; i < pic->niterations; i++) {
		json_decref(pic->iterations[i].taken);
		json_decref(pic->iterations[i].waits);
	}
	free(pic->iterations);
	free(pic->marks);
	free(pic->outages);
	free(pic->allowances);
	free(pic->lane_failed);
	json_decref(pic->lane_of);
	json_decref(pic->attempts);
	json_decref(pic->summary);
	idmap_free(&pic->lanes);
	idmap_free(&pic->tenants);
	strpool_free(&pic->pool);
}
