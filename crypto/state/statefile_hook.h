/* statefile_hook.h - fault injection for the system calls of every file
 * crypto/state keeps (state files and node-cache files, all through
 * fileio.c), for tests only (ENOSPC, EIO and friends cannot be provoked
 * reliably on a real filesystem). Not part of the public contract. */
#ifndef FASTSIG_STATEFILE_HOOK_H
#define FASTSIG_STATEFILE_HOOK_H

enum fs_state_io_op {
    FS_STATE_IO_OPEN,   /* open of a state file, a temporary or a cache file */
    FS_STATE_IO_LOCK,   /* fcntl lock */
    FS_STATE_IO_READ,   /* pread of the slots or of a cache */
    FS_STATE_IO_WRITE,  /* pwrite of a slot, a new file or a cache */
    FS_STATE_IO_SYNC,   /* fdatasync/fsync of the file or directory */
};

/* When set, called before each operation: a nonzero return is an errno
 * value with which the operation fails instead of being performed. */
extern int (*fs_state_io_hook)(enum fs_state_io_op op);

/* When set, fastsig_state_carve (shard.c) calls it between spending the
 * parent's range and writing the shard's file: the crash window tests kill
 * a process in. */
extern void (*fs_state_carve_hook)(void);

#endif
