/* statecreate.c - making a new state file (fastsig_state_create, see
 * statefile.h): written whole under a temporary name, installed, the
 * directory synced. */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "fastsig_err.h"
#include "statefile.h"
#include "fileio.h"
#include "stateslot.h"

/* The code of a file that could not be made in path's directory (c noted
 * the failing call): a directory open to others (fileowner.h) stays
 * STATE_UNTRUSTED, a missing one is STATE_NO_DIR. */
static int create_failed(fastsig_cause *c, const char *path)
{
    if (c->code == FASTSIG_ERR_STATE_UNTRUSTED)
        return c->code;
    int e = c->sys_errno;
    return fs_cause_set(c, e == ENOENT || e == ENOTDIR ? FASTSIG_ERR_STATE_NO_DIR
                                                       : FASTSIG_ERR_STATE_IO, path, e);
}

/* Writes the new file under tmp, installs it at path, syncs the directory. */
static int install(const char *tmp, const char *path, const uint8_t *img, int replace,
                   fastsig_cause *c)
{
    int w = fs_file_write_new(tmp, img, FS_STATE_FILE_SIZE, c), saved;
    if (w != 0)
        return w == -1 ? create_failed(c, path)
                       : fs_cause_set(c, FASTSIG_ERR_STATE_IO, path, c->sys_errno);
    if (fs_file_install(tmp, path, replace) != 0) {
        saved = errno;
        fs_cause_sys(c, saved == EEXIST ? FASTSIG_ERR_STATE_EXISTS : FASTSIG_ERR_STATE_IO, path);
        unlink(tmp);
        return saved == EEXIST ? FASTSIG_ERR_STATE_EXISTS : create_failed(c, path);
    }
    if (fs_file_sync_dir_of(path, c) != 0) {
        /* not durable: do not leave a file that might vanish on a crash */
        unlink(path);
        return FASTSIG_ERR_STATE_IO;
    }
    return FASTSIG_OK;
}

int fastsig_state_create(const char *path, const uint8_t key_id[FASTSIG_STATE_KEY_ID_LEN],
                         uint64_t max, uint64_t next, unsigned flags, fastsig_cause *cause)
{
    fastsig_cause local, *c = fs_cause_start(cause, &local);
    if (path == NULL || key_id == NULL)
        return FASTSIG_ERR_NULL_ARG;
    if (*path == 0 || max == 0 || max > FS_STATE_MAX_LIMIT || next > max ||
        (flags & ~FASTSIG_STATE_OVERWRITE) != 0)
        return FASTSIG_ERR_BAD_PARAM;
    int replace = (flags & FASTSIG_STATE_OVERWRITE) != 0;
    struct stat sb;
    if (!replace && lstat(path, &sb) == 0)
        return fs_cause_end(c, FASTSIG_ERR_STATE_EXISTS, path, "state file", "state directory");

    static unsigned counter; /* atomic: unique temporary names per process */
    char tmp[PATH_MAX];
    if ((size_t)snprintf(tmp, sizeof(tmp), "%s.tmp.%ld.%u", path, (long)getpid(),
                         __atomic_fetch_add(&counter, 1, __ATOMIC_RELAXED)) >= sizeof(tmp))
        return FASTSIG_ERR_BAD_PARAM;

    uint8_t img[FS_STATE_FILE_SIZE] = { 0 };
    fs_state_slot s = { .seq = 1, .max = max, .next = next };
    memcpy(s.key_id, key_id, FASTSIG_STATE_KEY_ID_LEN);
    fs_state_slot_encode(&s, img); /* slot 0 is the newer: the first update writes 1 */
    s.seq = 0;
    fs_state_slot_encode(&s, img + FS_STATE_SLOT_STRIDE);

    return fs_cause_end(c, install(tmp, path, img, replace, c), path, "state file",
                        "state directory");
}
