/*
 * files.c: the state directory's files: names, copies, comparisons,
 * whole reads, and writes that replace a file at once (a temporary
 * file, fsync, rename, fsync of the folder: durable.h).
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "diag.h"
#include "durable.h"
#include "exitcodes.h"
#include "docsession.h"
#include "load.h"
#include "loop.h"
#include "xalloc.h"

int
exists(const char *path)
{
	struct stat st;

	return lstat(path, &st) == 0;
}

int
is_file(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

/* iter_path: DIR/iter-N/name. */
char *
iter_path(const struct loop *l, long n, const char *name)
{
	return xasprintf("%s/iter-%ld/%s", l->dir, n, name);
}

static int
by_name(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/*
 * names_with_prefix: dir/NAME for each NAME in dir that starts with
 * prefix, in byte order, as the shell's glob dir/prefix* lists them.
 */
void
names_with_prefix(const char *dir, const char *prefix, struct args *out)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	size_t first = out->n, plen = strlen(prefix);
	char *path;

	if (d == NULL)
		return;
	while ((e = readdir(d)) != NULL)
		if (strncmp(e->d_name, prefix, plen) == 0) {
			path = xasprintf("%s/%s", dir, e->d_name);
			args_add(out, path);
			free(path);
		}
	closedir(d);
	if (out->n > first)
		qsort(out->v + first, out->n - first, sizeof *out->v, by_name);
}

/* iteration_reports: the reports of iter-1, iter-2, ... that exist. */
void
iteration_reports(const struct loop *l, struct args *out)
{
	char *file;
	long i;

	for (i = 1; ; i++) {
		file = xasprintf("%s/iter-%ld", l->dir, i);
		if (!exists(file)) {
			free(file);
			return;
		}
		free(file);
		file = iter_path(l, i, "5-report.json");
		if (is_file(file))
			args_add(out, file);
		free(file);
	}
}

/*
 * copy_file: from's bytes as the new file to, synced to disk before it
 * is closed (durable.h: its folder is renamed into place next); 0, or
 * -1 (errno).
 */
int
copy_file(const char *from, const char *to)
{
	char buf[65536];
	ssize_t n = 0;
	int in, out, r = 0;

	if ((in = open(from, O_RDONLY | O_CLOEXEC)) < 0)
		return -1;
	out = open(to, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666);
	if (out < 0) {
		close(in);
		return -1;
	}
	while (r == 0 && (n = read(in, buf, sizeof buf)) > 0)
		if (write(out, buf, (size_t)n) != n)
			r = -1;
	if (n < 0 || (r == 0 && fsync(out) != 0))
		r = -1;
	close(in);
	if (close(out) != 0)
		r = -1;
	return r;
}

/* same_file_content: the two files hold the same bytes (cmp -s). */
int
same_file_content(const char *a, const char *b)
{
	size_t na, nb;
	char *ta = read_text(a, &na), *tb = read_text(b, &nb);
	int same = ta != NULL && tb != NULL && na == nb &&
	    memcmp(ta, tb, na) == 0;

	free(ta);
	free(tb);
	return same;
}

/* remove_tree: rm -rf path. */
void
remove_tree(const char *path)
{
	struct stat st;
	DIR *d;
	struct dirent *e;
	char *sub;

	if (lstat(path, &st) != 0)
		return;
	if (S_ISDIR(st.st_mode) && (d = opendir(path)) != NULL) {
		while ((e = readdir(d)) != NULL) {
			if (strcmp(e->d_name, ".") == 0 ||
			    strcmp(e->d_name, "..") == 0)
				continue;
			sub = xasprintf("%s/%s", path, e->d_name);
			remove_tree(sub);
			free(sub);
		}
		closedir(d);
		(void)rmdir(path);
		return;
	}
	(void)unlink(path);
}

/* read_text: the whole file, NUL-terminated, or NULL. */
char *
read_text(const char *path, size_t *lenp)
{
	FILE *fp = fopen(path, "re");
	char *buf = NULL;
	size_t len = 0, cap = 0, n, want;

	if (fp == NULL)
		return NULL;
	/* a short read is the end (or an error): no read past it */
	do {
		xreserve(&buf, &cap, len + 65536 + 1);
		want = cap - len - 1;
		n = fread(buf + len, 1, want, fp);
		len += n;
	} while (n == want);
	if (ferror(fp)) {
		fclose(fp);
		free(buf);
		return NULL;
	}
	fclose(fp);
	buf[len] = '\0';
	if (lenp != NULL)
		*lenp = len;
	return buf;
}

/* first_line: the file's first line, without its newline, or NULL. */
char *
first_line(const char *path)
{
	char *text = read_text(path, NULL);

	if (text != NULL)
		text[strcspn(text, "\n")] = '\0';
	return text;
}

/* write_text_atomically: path holds text, or, if this fails, as it was. */
void
write_text_atomically(const char *path, const char *text)
{
	char *tmp = new_tmp(path);
	int fd = open(tmp, O_WRONLY | O_CLOEXEC);	/* new: no O_TRUNC */
	FILE *fp = fd >= 0 ? fdopen(fd, "w") : NULL;

	if (fp == NULL || fputs(text, fp) == EOF || fclose(fp) != 0 ||
	    durable_rename(tmp, path) != 0)
		diag_fatal_whole(EXIT_IOERR, "%s: %s", path, strerror(errno));
	free(tmp);
}

/*
 * read_sections: the document file, with the top-level sections in
 * reads built and the others kept as text (load.h); NULL, with a
 * diagnostic, when it cannot be read.  done_reading lets go of it.
 */
json_t *
read_sections(const char *file, const char *const *reads)
{
	json_t *doc = NULL;

	return load_document_reading(file, reads, &doc) == EXIT_OK ? doc : NULL;
}

void
done_reading(json_t *doc)
{
	json_decref(doc);
	/*
	 * The text it kept goes with it: the loop reads many documents in
	 * the one session its main opens.
	 */
	jtext_table_free(&docsession_needed("done_reading")->texts);
}
