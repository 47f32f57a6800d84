/*
 * karamel-diff.c: libFuzzer target for karamel-diff's readers.  The
 * input is a cluster definition, optionally followed by a NUL byte and
 * a Karamelfile.  Both go to temporary files, and plan_load() reads
 * them as karamel-diff does: the Karamelfile, then the definition as
 * both OLD and NEW, then the dependency checks of both.  Any input must
 * either load or be refused with a diagnostic: no crash, no leak, no
 * hang, no sanitizer report.  Built with the tool's own .c files except
 * karamel-diff.c (its main); run with "make fuzz".
 */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "plan.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static char cluster_path[64], karamelfile_path[64];

/* put: data as the whole content of path. */
static void
put(const char *path, const uint8_t *data, size_t size)
{
	FILE *fp = fopen(path, "w");

	if (fp == NULL || fwrite(data, 1, size, fp) != size || fclose(fp) != 0)
		abort();
}

/* make_paths: two file names in a directory of this process's own. */
static void
make_paths(void)
{
	char dir[] = "/tmp/upkit-fuzz-karamel.XXXXXX";

	if (cluster_path[0] != '\0')
		return;
	if (mkdtemp(dir) == NULL)
		abort();
	snprintf(cluster_path, sizeof cluster_path, "%s/cluster.yml", dir);
	snprintf(karamelfile_path, sizeof karamelfile_path, "%s/Karamelfile",
	    dir);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const uint8_t *nul = memchr(data, '\0', size);
	size_t len = nul != NULL ? (size_t)(nul - data) : size;
	char *karamelfiles[] = { karamelfile_path, NULL };
	struct plan p;

	make_paths();
	put(cluster_path, data, len);
	if (nul != NULL)
		put(karamelfile_path, nul + 1, size - len - 1);
	/* Diagnostics on stderr are expected; -close_fd_mask=2 hides them. */
	(void)plan_load(&p, cluster_path, cluster_path, karamelfiles,
	    nul != NULL ? 1 : 0);
	plan_free(&p);
	return 0;
}
