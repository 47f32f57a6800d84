/*
 * durable.h: files that survive a crash of the machine, not only a kill
 * of the process that writes them.  A file is written under a temporary
 * name, then durable_rename() fsyncs it, renames it over its final name
 * and fsyncs the folder, so that after a crash the name holds either
 * the old file or the whole new one, and a name once there stays there.
 * Every file a tool or the loop later trusts goes this way.
 */
#ifndef UPKIT_DURABLE_H
#define UPKIT_DURABLE_H

/* durable_sync: fsync the file or folder at path; 0, or -1 (errno). */
int durable_sync(const char *path);

/* durable_sync_dir_of: fsync the folder that holds path; 0 or -1. */
int durable_sync_dir_of(const char *path);

/*
 * durable_rename: fsync from (a file, or a folder of synced files),
 * rename it to to, fsync to's folder; 0, or -1 (errno) with from left
 * in place when the rename did not happen.
 */
int durable_rename(const char *from, const char *to);

#endif
