/*
 * fuzz_replay.c: replay the fuzz corpora of the common readers in the
 * normal suite.  Every input of tests/fuzz/corpus-load and corpus-state
 * (the repository's own documents and the minimised findings of "make
 * fuzz") goes through the state fuzz target, as libFuzzer would run it:
 * load_buffer(), state_check() and every section loader, or
 * request_read().  Under "make check"'s sanitized pass a crash, a leak
 * or a sanitizer report fails the test at the input after the last
 * "ok"; the diagnostics inputs are meant to get are hidden.
 */
#include <dirent.h>
#include <stdlib.h>
#include <string.h>

#include "../fuzz/state.c"
#include "slurp.h"
#include "stderr.h"
#include "tap.h"
#include "xalloc.h"

static int
by_name(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static void
replay(const char *dir)
{
	char **names = NULL, path[512], what[600];
	struct dirent *e;
	size_t n = 0, i, len;
	DIR *d = opendir(dir);
	char *buf;
	int r;

	ok(d != NULL, dir);
	if (d == NULL)
		return;
	while ((e = readdir(d)) != NULL)
		if (e->d_name[0] != '.') {
			names = xreallocarray(names, n + 1, sizeof *names);
			names[n++] = xstrdup(e->d_name);
		}
	closedir(d);
	qsort(names, n, sizeof *names, by_name);
	for (i = 0; i < n; i++) {
		snprintf(path, sizeof path, "%s/%s", dir, names[i]);
		snprintf(what, sizeof what, "%s replays", path);
		r = -1;
		if ((buf = slurp(path, &len)) != NULL) {
			capture_begin();
			r = LLVMFuzzerTestOneInput((const uint8_t *)buf, len);
			capture_end();
		}
		is_long(r, 0, what);
		fflush(stdout);
		free(buf);
		free(names[i]);
	}
	free(names);
}

int
main(void)
{
	(void)is_str;	/* tap.h's, not needed here */
	/* prove runs the suite from the top of the tree. */
	replay("tests/fuzz/corpus-load");
	replay("tests/fuzz/corpus-state");
	return done_testing();
}
