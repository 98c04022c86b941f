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

static int errno_to_create_err(int e)
{
    if (fs_file_refused()) /* a directory open to others (fileowner.h) */
        return FASTSIG_ERR_STATE_UNTRUSTED;
    return e == ENOENT || e == ENOTDIR ? FASTSIG_ERR_STATE_NO_DIR : FASTSIG_ERR_STATE_IO;
}

int fastsig_state_create(const char *path, const uint8_t key_id[FASTSIG_STATE_KEY_ID_LEN],
                         uint64_t max, uint64_t next, unsigned flags)
{
    if (path == NULL || key_id == NULL)
        return FASTSIG_ERR_NULL_ARG;
    if (*path == 0 || max == 0 || max > FS_STATE_MAX_LIMIT || next > max ||
        (flags & ~FASTSIG_STATE_OVERWRITE) != 0)
        return FASTSIG_ERR_BAD_PARAM;
    int replace = (flags & FASTSIG_STATE_OVERWRITE) != 0;
    struct stat sb;
    if (!replace && lstat(path, &sb) == 0)
        return FASTSIG_ERR_STATE_EXISTS;

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

    int w = fs_file_write_new(tmp, img, sizeof(img)), saved;
    if (w != 0)
        return w == -1 ? errno_to_create_err(errno) : FASTSIG_ERR_STATE_IO;
    if (fs_file_install(tmp, path, replace) != 0) {
        saved = errno;
        unlink(tmp);
        errno = saved;
        return saved == EEXIST ? FASTSIG_ERR_STATE_EXISTS : errno_to_create_err(saved);
    }
    if (fs_file_sync_dir_of(path) != 0) {
        /* not durable: do not leave a file that might vanish on a crash */
        saved = errno;
        unlink(path);
        errno = saved;
        return FASTSIG_ERR_STATE_IO;
    }
    return FASTSIG_OK;
}
