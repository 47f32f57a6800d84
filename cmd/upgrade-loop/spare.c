/*
 * spare.c: empty files and an empty folder, made by the watchdog while
 * a step runs, for the loop's next new files and next iteration folder.
 *
 * Making an inode can cost a file system far more than renaming one:
 * ext4 without a journal skips, one by one, the inodes deleted near the
 * folder in the last minutes, up to half a millisecond a file on the
 * machine the benchmark ran on.  The loop makes seven an iteration and
 * would pay for each between two steps.  The watchdog (step.c) has
 * nothing to do while a step runs, so it makes spares then, and the loop
 * renames one into place when it needs a new file or folder.  The rename
 * never replaces a name (RENAME_NOREPLACE): a spare only ever becomes a
 * name that did not exist, as the O_EXCL create it stands for; where the
 * file system cannot rename so, the loop makes its files itself.  Spares
 * are DIR/spare.tmp.PID.K and DIR/spare-dir.tmp.PID, PID the loop's.
 * The watchdog removes those left when the loop is gone, before the lock
 * goes; a killed watchdog's are removed by the next loop (setup.c,
 * leftovers).
 */
#define _GNU_SOURCE	/* renameat2 */
#include <fcntl.h>
#include <stdio.h>
#include <sys/stat.h>
#include <unistd.h>

#include "loop.h"
#include "xalloc.h"

/* two files: the actuator's step needs its marker and its output */
enum { FILES = 2 };
static char *spare_file[FILES], *spare_dir;

/* spares_name: the loop's spares in dir, before the watchdog forks. */
void
spares_name(const char *dir)
{
	int i;

	for (i = 0; i < FILES; i++)
		spare_file[i] = xasprintf("%s/spare.tmp.%ld.%d", dir,
		    (long)getpid(), i);
	spare_dir = xasprintf("%s/spare-dir.tmp.%ld", dir, (long)getpid());
}

/* spares_make: in the watchdog, the spares that are missing. */
void
spares_make(void)
{
	int fd, i;

	for (i = 0; i < FILES; i++)
		if ((fd = open(spare_file[i], O_WRONLY | O_CREAT | O_EXCL |
		    O_CLOEXEC, 0666)) >= 0)
			close(fd);
	(void)mkdir(spare_dir, 0777);
}

/* spares_drop: in the watchdog, once the loop is gone. */
void
spares_drop(void)
{
	int i;

	for (i = 0; i < FILES; i++)
		(void)unlink(spare_file[i]);
	(void)rmdir(spare_dir);
}

/* take: spare as name, its times now, as if made now; 0, or -1. */
static int
take(const char *spare, const char *name)
{
	if (spare == NULL || renameat2(AT_FDCWD, spare, AT_FDCWD, name,
	    RENAME_NOREPLACE) != 0)
		return -1;
	(void)utimensat(AT_FDCWD, name, NULL, 0);
	return 0;
}

/* spare_file_take: name, which did not exist, is a new empty file. */
int
spare_file_take(const char *name)
{
	int i;

	for (i = 0; i < FILES; i++)
		if (take(spare_file[i], name) == 0)
			return 0;
	return -1;
}

/* spare_dir_take: name, which did not exist, is a new empty folder. */
int
spare_dir_take(const char *name)
{
	return take(spare_dir, name);
}
