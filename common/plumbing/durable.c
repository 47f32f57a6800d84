/*
 * durable.c: write, fsync, rename, fsync the folder (durable.h).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "durable.h"
#include "xalloc.h"

int
durable_sync(const char *path)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC), r, e;

	if (fd < 0)
		return -1;
	r = fsync(fd);
	e = errno;
	if (close(fd) != 0 && r == 0)
		return -1;
	errno = e;
	return r;
}

int
durable_sync_dir_of(const char *path)
{
	const char *slash = strrchr(path, '/');
	char *dir;
	int r;

	if (slash == NULL)
		return durable_sync(".");
	if (slash == path)
		return durable_sync("/");
	dir = xmalloc((size_t)(slash - path) + 1);
	memcpy(dir, path, (size_t)(slash - path));
	dir[slash - path] = '\0';
	r = durable_sync(dir);
	free(dir);
	return r;
}

int
durable_rename(const char *from, const char *to)
{
	if (durable_sync(from) != 0 || rename(from, to) != 0)
		return -1;
	return durable_sync_dir_of(to);
}
