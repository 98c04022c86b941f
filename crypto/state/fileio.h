/* fileio.h - the system calls behind every file crypto/state keeps (state
 * files and node-cache files): open, whole-file locks, full reads and
 * writes, syncs. Each passes the one test fault hook (statefile_hook.h)
 * first, so a test can fail any of them for either kind of file. Internal
 * to crypto/state. Functions return 0 (or a descriptor / a count) on
 * success, -1 with errno set on failure. */
#ifndef FASTSIG_FILEIO_H
#define FASTSIG_FILEIO_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>
#include "statecause.h"

/* open(2) with O_CLOEXEC and O_NONBLOCK added (cleared again after the
 * open) and O_NOFOLLOW unless O_DIRECTORY is asked for, retried on EINTR.
 * Opens only a regular file (a directory with O_DIRECTORY): a FIFO, device,
 * socket, symlink or directory fails at once (errno EISDIR for a directory,
 * ELOOP for a link, ENXIO for a FIFO opened for writing, else EINVAL). A
 * directory opened for writing fails in open(2) itself (EISDIR). A file is
 * opened inside its directory only if that directory passes fs_owner_check
 * (fileowner.h), and kept only if the file itself passes it (fstat of the
 * descriptor): else errno EPERM and STATE_UNTRUSTED. On failure, -1 with
 * errno set and c (not NULL) filled: STATE_UNTRUSTED (the path refused,
 * file or directory, and why), STATE_NOT_FILE when the path is no regular
 * file, STATE_MISSING when there is no such file, else STATE_IO. */
int fs_file_open(const char *path, int flags, mode_t mode, fastsig_cause *c);

/* Locks the whole file, F_RDLCK or F_WRLCK: OFD locks where the kernel has
 * them (descriptors of one process exclude each other too), else classic
 * POSIX locks plus a process mutex that excludes this process's threads.
 * wait = 0: fail with EAGAIN instead of waiting; else wait at most the lock
 * timeout (fastsig_state_set_lock_timeout), then fail with EAGAIN. Release
 * with fs_file_unlock (closing the descriptor alone would keep the mutex). */
int fs_file_lock(int fd, short type, int wait);
void fs_file_unlock(int fd); /* keeps errno */

/* Notes a failed fs_file_lock of path in c, right after it (errno):
 * STATE_LOCKED when another holder kept the lock, else STATE_IO; returns
 * the code. */
int fs_file_lock_failed(fastsig_cause *c, const char *path);

/* All of len bytes at off; a short write fails with ENOSPC. */
int fs_file_write_all(int fd, const uint8_t *buf, size_t len, off_t off);
/* Up to len bytes at off, stopping early only at end of file: the count. */
ssize_t fs_file_read_all(int fd, uint8_t *buf, size_t len, off_t off);
/* fdatasync (data_only) or fsync. */
int fs_file_sync(int fd, int data_only);
/* Creates the new file tmp (O_EXCL, mode 0600) holding len bytes of buf,
 * fsync'd and closed: 0; -1 when it cannot be created, -2 when writing,
 * syncing or closing fails (tmp removed, STATE_IO), errno kept and c filled
 * either way. */
int fs_file_write_new(const char *tmp, const uint8_t *buf, size_t len, fastsig_cause *c);
/* Moves the file tmp to path (same directory); without replace, fails with
 * EEXIST if path exists (renameat2 RENAME_NOREPLACE, else link + unlink). */
int fs_file_install(const char *tmp, const char *path, int replace);
/* fsync of the directory holding path, so that a name made or removed there
 * survives a crash; c filled on failure. */
int fs_file_sync_dir_of(const char *path, fastsig_cause *c);

#endif
