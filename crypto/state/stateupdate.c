/* stateupdate.c - reading a state file and the locked durable update of it
 * (lock the file the path names, read, validate, step, write the older slot,
 * fdatasync), and the reservation step built on it. */
#define _GNU_SOURCE /* dup3 */
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "fastsig_err.h"
#include "statefile_internal.h"
#include "fileio.h"

/* ---- reading and writing the image -------------------------------------- */

/* Reads the image (img: FS_STATE_FILE_SIZE + 1 bytes, zero-filled past what
 * the file holds): 0, STATE_IO, or STATE_CORRUPT when it is no regular file
 * of exactly FS_STATE_FILE_SIZE bytes; c filled for path on failure. */
int fs_state_read_image(int fd, uint8_t *img, const char *path, fastsig_cause *c)
{
    const size_t cap = FS_STATE_FILE_SIZE + 1; /* one byte more: the size must be exact */
    struct stat sb;
    memset(img, 0, cap);
    if (fstat(fd, &sb) != 0)
        return fs_cause_sys(c, FASTSIG_ERR_STATE_IO, path);
    if (!S_ISREG(sb.st_mode))
        return fs_cause_set(c, FASTSIG_ERR_STATE_CORRUPT, path, 0);
    ssize_t got = fs_file_read_all(fd, img, cap, 0);
    if (got < 0)
        return fs_cause_sys(c, FASTSIG_ERR_STATE_IO, path);
    return got == FS_STATE_FILE_SIZE && sb.st_size == FS_STATE_FILE_SIZE
               ? FASTSIG_OK
               : fs_cause_set(c, FASTSIG_ERR_STATE_CORRUPT, path, 0);
}

/* Reads and validates the file: 0, STATE_IO or STATE_CORRUPT. */
static int read_state(int fd, fs_state_slot *cur, int *cur_pos, const char *path,
                      fastsig_cause *c)
{
    uint8_t img[FS_STATE_FILE_SIZE + 1];
    int rc = fs_state_read_image(fd, img, path, c);
    if (rc == FASTSIG_OK && fs_state_image_decode(img, cur, cur_pos) != 0)
        rc = fs_cause_set(c, FASTSIG_ERR_STATE_CORRUPT, path, 0);
    return rc;
}

static int check_identity(const fs_state_slot *cur, const uint8_t *key_id, uint64_t max,
                          const char *path, fastsig_cause *c)
{
    if (memcmp(cur->key_id, key_id, FASTSIG_STATE_KEY_ID_LEN) != 0)
        return fs_cause_set(c, FASTSIG_ERR_STATE_WRONG_KEY, path, 0);
    if (max != 0 && cur->max != max) /* same key, other size: not to be trusted */
        return fs_cause_set(c, FASTSIG_ERR_STATE_CORRUPT, path, 0);
    return FASTSIG_OK;
}

int fs_state_read_checked(int fd, const uint8_t *key_id, uint64_t max, fs_state_slot *cur,
                          const char *path, fastsig_cause *c)
{
    int pos;
    int rc = read_state(fd, cur, &pos, path, c);
    return rc ? rc : check_identity(cur, key_id, max, path, c);
}

/* Reads under a shared lock and checks the key. */
static int read_locked(int fd, const uint8_t *key_id, uint64_t max, fs_state_slot *cur,
                       const char *path, fastsig_cause *c)
{
    if (fs_file_lock(fd, F_RDLCK, 1) != 0)
        return fs_file_lock_failed(c, path);
    int rc = fs_state_read_checked(fd, key_id, max, cur, path, c);
    fs_file_unlock(fd);
    return rc;
}

/* Opens path and reads its state for key_id under a shared lock; *fd stays
 * open only on success. */
int fs_state_open_checked(const char *path, int flags, const uint8_t *key_id, int *fd,
                          fs_state_slot *cur, fastsig_cause *c)
{
    if ((*fd = fs_file_open(path, flags, 0, c)) < 0)
        return c->code;
    int rc = read_locked(*fd, key_id, 0, cur, path, c);
    if (rc != FASTSIG_OK) {
        close(*fd);
        *fd = -1;
    }
    return rc;
}

/* A new file description of st->path under the number *fd (st->fd with
 * st->mu held, or the worker's wfd): the number stays, so a forked child
 * never reads a stale one. */
int fs_state_reopen(fastsig_state *st, int *fd, fastsig_cause *c)
{
    int nfd = fs_file_open(st->path, O_RDWR, 0, c);
    if (nfd < 0)
        return c->code;
    int r = dup3(nfd, *fd, O_CLOEXEC);
    if (r < 0)
        fs_cause_sys(c, FASTSIG_ERR_STATE_IO, st->path);
    close(nfd);
    return r < 0 ? FASTSIG_ERR_STATE_IO : FASTSIG_OK;
}

/* Locks the file that st->path names now (st->mu held). If the path was
 * renamed over since the handle opened it, going on with the old inode would
 * spend from a state nobody else sees: follow the path to the new file (its
 * key is checked as always). If the path is gone, refuse. */
int fs_state_lock_path_file(fastsig_state *st, int *fd, short type, fastsig_cause *c)
{
    for (int tries = 0; tries < 8; tries++) {
        if (fs_file_lock(*fd, type, 1) != 0)
            return fs_file_lock_failed(c, st->path);
        struct stat now, ours;
        int missing = stat(st->path, &now) != 0, e = errno;
        if (!missing && fstat(*fd, &ours) == 0 && now.st_dev == ours.st_dev &&
            now.st_ino == ours.st_ino)
            return FASTSIG_OK;
        fs_file_unlock(*fd);
        if (missing)
            return fs_cause_set(c, e == ENOENT || e == ENOTDIR ? FASTSIG_ERR_STATE_MISSING
                                                               : FASTSIG_ERR_STATE_IO,
                                st->path, e);
        int rc = fs_state_reopen(st, fd, c);
        if (rc != FASTSIG_OK)
            return rc;
    }
    /* replaced again and again: give up */
    return fs_cause_set(c, FASTSIG_ERR_STATE_IO, st->path, errno);
}

/* Exclusive lock (of the file the path names, through *fd), read,
 * validate, step, write the older slot with seq + 1, fdatasync, unlock.
 * Nothing the step decided counts unless this returns 0. */
int fs_state_update(fastsig_state *st, int *fd, fs_state_update_step step, void *arg,
                    fastsig_cause *c)
{
    fs_state_slot cur;
    int pos;
    int rc = fs_state_lock_path_file(st, fd, F_WRLCK, c);
    if (rc != FASTSIG_OK)
        return rc;
    uint64_t next = 0;
    rc = read_state(*fd, &cur, &pos, st->path, c);
    if (rc == FASTSIG_OK)
        rc = check_identity(&cur, st->key_id, st->max, st->path, c);
    if (rc == FASTSIG_OK && (rc = fs_state_check_rollback(st, &cur)) != FASTSIG_OK)
        fs_cause_set(c, rc, st->path, 0);
    if (rc == FASTSIG_OK && (rc = step(&cur, &next, arg)) > 1)
        fs_cause_set(c, rc, st->path, 0); /* exhausted, out of range: no errno */
    if (rc == 1) {
        rc = FASTSIG_OK;
    } else if (rc == FASTSIG_OK) {
        uint8_t rec[FS_STATE_SLOT_LEN];
        cur.seq++;
        cur.next = next;
        fs_state_slot_encode(&cur, rec);
        off_t older = (off_t)(1 - pos) * FS_STATE_SLOT_STRIDE;
        if (fs_file_write_all(*fd, rec, sizeof(rec), older) != 0 ||
            fs_file_sync(*fd, 1) != 0)
            rc = fs_cause_sys(c, FASTSIG_ERR_STATE_IO, st->path);
    }
    fs_file_unlock(*fd);
    return rc;
}

int fs_state_reserve_step(const fs_state_slot *cur, uint64_t *next, void *arg)
{
    struct fs_state_reserve_arg *a = arg;
    uint64_t left = cur->max - cur->next;
    if (left == 0)
        return cur->max == 1 ? FASTSIG_ERR_OTS_USED : FASTSIG_ERR_KEY_EXHAUSTED;
    a->first = cur->next;
    a->count = a->want < left ? a->want : left;
    *next = cur->next + a->count;
    return 0;
}

/* Called with st->mu held and fs_state_own_process done. */
int fs_state_reserve_locked(fastsig_state *st, uint64_t want, uint64_t *first, uint64_t *count,
                            fastsig_cause *c)
{
    struct fs_state_reserve_arg a = { want, 0, 0 };
    int rc = fs_state_update(st, &st->fd, fs_state_reserve_step, &a, c);
    if (rc != FASTSIG_OK)
        return rc;
    if (st->pool_next == st->pool_end || st->pool_end != a.first)
        st->pool_next = a.first; /* not contiguous: the old rest is burnt */
    st->pool_end = a.first + a.count;
    fs_state_raise_marks(st, st->pool_end);
    if (first)
        *first = a.first;
    if (count)
        *count = a.count;
    return FASTSIG_OK;
}
