/* karamelfile.c: Karamelfile dependencies (see karamelfile.h). */
#include <dirent.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "access.h"
#include "exitcodes.h"
#include "karamelfile.h"
#include "load.h"
#include "xalloc.h"

#define KARAMELFILE "Karamelfile"

static struct recipe_deps *
deps_slot(struct world *w, size_t recipe)
{
	size_t n = w->ndeps;

	if (recipe >= n) {
		w->ndeps = recipe + 1 > 2 * n ? recipe + 1 : 2 * n;
		w->deps = xreallocarray(w->deps, w->ndeps, sizeof *w->deps);
		memset(w->deps + n, 0, (w->ndeps - n) * sizeof *w->deps);
	}
	return &w->deps[recipe];
}

static void
dep_list_add(struct dep_list *l, size_t recipe, const char *where)
{
	size_t i;

	for (i = 0; i < l->n; i++)
		if (l->recipe[i] == recipe)
			return;		/* listed twice: same dependency */
	if (l->n == l->cap) {
		l->cap = l->cap ? 2 * l->cap : 4;
		l->recipe = xreallocarray(l->recipe, l->cap, sizeof *l->recipe);
		l->where = xreallocarray(l->where, l->cap, sizeof *l->where);
	}
	l->recipe[l->n] = recipe;
	l->where[l->n++] = xstrdup(where);
}

struct list_ctx {
	struct world *w;
	struct dep_list *list;
};

static int
load_dep(struct access *a, const json_t *v, size_t i, void *ctx)
{
	struct list_ctx *c = ctx;
	long dep = world_recipe_at(c->w, a, v);

	(void)i;
	if (dep < 0)
		return -1;
	dep_list_add(c->list, (size_t)dep, access_path(a));
	return 0;
}

/* load_list: the "local" or "global" list of an entry; null is empty. */
static int
load_list(struct world *w, struct access *a, const json_t *entry,
    const char *key, size_t recipe)
{
	struct recipe_deps *d = deps_slot(w, recipe);
	struct list_ctx c = { w, strcmp(key, "local") == 0 ? &d->local :
	    &d->global };

	if (json_is_null(json_object_get(entry, key)))
		return 0;
	return acc_each_element(a, entry, key, ACC_OPTIONAL, load_dep, &c) < 0 ?
	    -1 : 0;
}

static int
load_entry(struct access *a, const json_t *entry, size_t i, void *ctx)
{
	static const char *const known[] = { "recipe", "local", "global", 0 };
	struct world *w = ctx;
	json_t *v;
	long recipe;
	struct recipe_deps *d;

	(void)i;
	if (acc_as_object(a, entry) < 0 || acc_check_keys(a, entry, known) < 0 ||
	    acc_get(a, entry, "recipe", ACC_REQUIRED, &v) < 0)
		return -1;
	access_enter_key(a, "recipe");
	recipe = world_recipe_at(w, a, v);
	if (recipe >= 0 && (d = deps_slot(w, (size_t)recipe))->file != NULL) {
		access_fail(a, "'%s' is already declared in %s",
		    names_recipe_name(&w->names, (size_t)recipe), d->file);
		recipe = -1;
	}
	access_leave(a);
	if (recipe < 0)
		return -1;
	deps_slot(w, (size_t)recipe)->file = a->file;
	if (load_list(w, a, entry, "local", (size_t)recipe) < 0 ||
	    load_list(w, a, entry, "global", (size_t)recipe) < 0)
		return -1;
	return 0;
}

static int
load_document_deps(struct world *w, struct access *a, const json_t *doc)
{
	static const char *const known[] = { "dependencies", 0 };

	if (acc_as_object(a, doc) < 0 || acc_check_keys(a, doc, known) < 0)
		return -1;
	if (json_is_null(json_object_get(doc, "dependencies")))
		return 0;
	return acc_each_element(a, doc, "dependencies", ACC_OPTIONAL, load_entry,
	    w) < 0 ? -1 : 0;
}

static int
load_file(struct world *w, const char *file)
{
	struct access a;
	json_t *doc;
	int status = load_document(file, &doc);
	char *name;

	if (status != EXIT_OK)
		return status;
	name = xstrdup(load_name(file));
	w->files = xreallocarray(w->files, w->nfiles + 1, sizeof *w->files);
	w->files[w->nfiles++] = name;
	access_init(&a, name);
	if (load_document_deps(w, &a, doc) < 0)
		status = EXIT_DATAERR;
	access_free(&a);
	json_decref(doc);
	return status;
}

static char *
join_path(const char *dir, const char *name)
{
	size_t dlen = strlen(dir), nlen = strlen(name);
	int slash = dlen > 0 && dir[dlen - 1] == '/';
	char *path = xmalloc(dlen + nlen + 2);

	memcpy(path, dir, dlen);
	if (!slash)
		path[dlen++] = '/';
	memcpy(path + dlen, name, nlen + 1);
	return path;
}

static int
is_regular(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

static int
by_string(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* karamelfile_path: the Karamelfile an entry of a directory stands for. */
static char *
karamelfile_path(const char *dir, const char *name)
{
	size_t len = strlen(name), suffix = sizeof "." KARAMELFILE - 1;
	char *path = join_path(dir, name), *inner;

	if (is_regular(path) && (strcmp(name, KARAMELFILE) == 0 ||
	    (len > suffix && strcmp(name + len - suffix, "." KARAMELFILE) == 0)))
		return path;
	inner = join_path(path, KARAMELFILE);
	free(path);
	if (is_regular(inner))
		return inner;
	free(inner);
	return NULL;
}

/* list_dir: the Karamelfiles of dir, sorted, NULL-terminated. */
static char **
list_dir(DIR *d, const char *dir, size_t *count)
{
	char **paths = NULL, *path;
	struct dirent *e;
	size_t n = 0;

	while ((e = readdir(d)) != NULL) {
		if (e->d_name[0] == '.' ||
		    (path = karamelfile_path(dir, e->d_name)) == NULL)
			continue;
		paths = xreallocarray(paths, n + 1, sizeof *paths);
		paths[n++] = path;
	}
	if (n > 0)
		qsort(paths, n, sizeof *paths, by_string);
	*count = n;
	return paths;
}

static int
load_dir(struct world *w, const char *dir)
{
	DIR *d = opendir(dir);
	char **paths;
	size_t n, i;
	int status = EXIT_OK;

	if (d == NULL) {
		diag_error(dir, "%s", strerror(errno));
		return EXIT_NOINPUT;
	}
	paths = list_dir(d, dir, &n);
	closedir(d);
	if (n == 0) {
		diag_error(dir, "no Karamelfile in this directory");
		status = EXIT_NOINPUT;
	}
	for (i = 0; i < n; i++) {
		if (status == EXIT_OK)
			status = load_file(w, paths[i]);
		free(paths[i]);
	}
	free(paths);
	return status;
}

int
karamelfile_load(struct world *w, const char *operand)
{
	struct stat st;

	if (strcmp(operand, "-") != 0 && stat(operand, &st) == 0 &&
	    S_ISDIR(st.st_mode))
		return load_dir(w, operand);
	return load_file(w, operand);
}
