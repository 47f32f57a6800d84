/*
 * spare.c: an empty file and an empty folder, made while a step runs,
 * for the loop's next new file and next iteration folder.
 *
 * Making an inode can cost a file system far more than renaming one:
 * ext4 without a journal skips, one by one, the inodes deleted near the
 * folder in the last minutes, up to a fifth of a millisecond a file on
 * the machine the benchmark ran on.  The loop makes seven a iteration
 * and would pay for each between two steps; while a step runs it only
 * waits.  So it makes a spare then, and renames it into place when it
 * needs a new file or folder.  The rename never replaces a name
 * (RENAME_NOREPLACE): a spare only ever becomes a name that did not
 * exist, as the O_EXCL create it stands for.  Spares are
 * DIR/spare.tmp.PID.K and DIR/spare-dir.tmp.PID; the loop removes its
 * own when it exits, and a killed loop's are removed by the next
 * (setup.c, leftovers).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "loop.h"
#include "xalloc.h"

/* two files: the actuator's step needs its marker and its output */
enum { FILES = 2 };
static char *spare_file[FILES], *spare_dir;	/* their names */
static int file_ready[FILES], dir_ready;
static int unable;	/* the file system has no RENAME_NOREPLACE */

static void
spares_drop(void)
{
	int i;

	for (i = 0; i < FILES; i++)
		if (file_ready[i])
			(void)unlink(spare_file[i]);
	if (dir_ready)
		(void)rmdir(spare_dir);
	memset(file_ready, 0, sizeof file_ready);
	dir_ready = 0;
}

/* spares_make: the spares that are missing, while a step runs. */
void
spares_make(const struct loop *l)
{
	int fd, i;

	if (unable)
		return;
	if (spare_dir == NULL) {
		for (i = 0; i < FILES; i++)
			spare_file[i] = xasprintf("%s/spare.tmp.%ld.%d",
			    l->dir, (long)getpid(), i);
		spare_dir = xasprintf("%s/spare-dir.tmp.%ld", l->dir,
		    (long)getpid());
		atexit(spares_drop);
	}
	for (i = 0; i < FILES; i++)
		if (!file_ready[i] && (fd = open(spare_file[i], O_WRONLY |
		    O_CREAT | O_EXCL | O_CLOEXEC, 0666)) >= 0) {
			close(fd);
			file_ready[i] = 1;
		}
	if (!dir_ready && mkdir(spare_dir, 0777) == 0)
		dir_ready = 1;
}

/*
 * take: the spare as name, its times now, as if made now; 0, or -1 and
 * the spare stays, unless the file system cannot rename so: then no
 * spare is made again.
 */
static int
take(const char *spare, int *ready, const char *name)
{
	if (!*ready)
		return -1;
	if (renameat2(AT_FDCWD, spare, AT_FDCWD, name, RENAME_NOREPLACE) != 0) {
		if (errno == EINVAL || errno == ENOSYS) {
			spares_drop();
			unable = 1;
		}
		return -1;
	}
	*ready = 0;
	(void)utimensat(AT_FDCWD, name, NULL, 0);
	return 0;
}

/* spare_file_take: name, which did not exist, is a new empty file. */
int
spare_file_take(const char *name)
{
	int i;

	for (i = 0; i < FILES; i++)
		if (file_ready[i])
			return take(spare_file[i], &file_ready[i], name);
	return -1;
}

/* spare_dir_take: name, which did not exist, is a new empty folder. */
int
spare_dir_take(const char *name)
{
	return take(spare_dir, &dir_ready, name);
}
