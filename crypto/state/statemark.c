/* statemark.c - a state file's high-water mark in the registry: see
 * statemark.h. */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include "bytes.h"
#include "fastsig_err.h"
#include "fileio.h"
#include "registry.h"
#include "statemark.h"
#include "stateslot.h"

static const uint8_t mark_magic[8] = { 'F', 'S', 'I', 'G', 'M', 'A', 'R', 'K' };

static uint64_t path_crc(const char *state_path)
{
    return fs_state_crc64((const uint8_t *)state_path, strlen(state_path));
}

int fs_mark_path(const char *state_dir, const uint8_t key_id[FASTSIG_STATE_KEY_ID_LEN],
                 const char *state_path, char *out, size_t outlen)
{
    if (state_path == NULL)
        return FASTSIG_ERR_NULL_ARG;
    int rc = fastsig_registry_entry_path(state_dir, key_id, out, outlen);
    if (rc != FASTSIG_OK)
        return rc;
    size_t len = strlen(out);
    if ((size_t)snprintf(out + len, outlen - len, ".mark-%016" PRIx64, path_crc(state_path))
        >= outlen - len)
        return FASTSIG_ERR_BAD_PARAM;
    return FASTSIG_OK;
}

static void encode(uint8_t rec[FS_MARK_LEN], const uint8_t *key_id, const char *state_path,
                   uint64_t mark)
{
    memset(rec, 0, FS_MARK_LEN);
    memcpy(rec, mark_magic, 8);
    rec[8] = 1; /* version, u32 LE; 12..15 stay 0 */
    fs_store_le64(rec + 16, mark);
    fs_store_le64(rec + 24, path_crc(state_path));
    memcpy(rec + 32, key_id, FASTSIG_STATE_KEY_ID_LEN);
    fs_store_le64(rec + 64, fs_state_crc64(rec, 64));
}

/* The mark the record at fd holds for key_id and state_path, 0 when it
 * holds none to be trusted (short, torn, another key's or path's; *valid
 * then 0). */
static uint64_t decode_at(int fd, const uint8_t *key_id, const char *state_path, int *valid)
{
    uint8_t rec[FS_MARK_LEN], want[FS_MARK_LEN];
    *valid = 0;
    if (fs_file_read_all(fd, rec, sizeof(rec), 0) != (ssize_t)sizeof(rec))
        return 0;
    uint64_t mark = fs_load_le64(rec + 16);
    encode(want, key_id, state_path, mark); /* every other byte is fixed */
    *valid = memcmp(rec, want, sizeof(rec)) == 0;
    return *valid ? mark : 0;
}

uint64_t fs_mark_read(const char *mark_path, const uint8_t key_id[FASTSIG_STATE_KEY_ID_LEN],
                      const char *state_path, uint64_t max)
{
    fastsig_cause ignored; /* a mark that cannot be read is none */
    int fd = fs_file_open(mark_path, O_RDONLY, 0, &ignored), saved = errno;
    if (fd < 0)
        return errno = saved, 0;
    uint64_t mark = 0;
    int valid;
    if (fs_file_lock(fd, F_RDLCK, 1) == 0) {
        mark = decode_at(fd, key_id, state_path, &valid);
        fs_file_unlock(fd);
    }
    close(fd);
    errno = saved;
    return mark <= max ? mark : 0; /* above every index: garbage */
}

enum mark_change { MARK_RAISE, MARK_LOWER, MARK_INIT };

/* Opens and locks the mark file and writes `to` over a lower mark (raise)
 * or over no valid record (init), or over a higher one (lower, then
 * fdatasync). */
static int change(const char *mark_path, const uint8_t *key_id, const char *state_path,
                  uint64_t to, enum mark_change how)
{
    fastsig_cause c; /* the callers go on without a mark: the code is enough */
    int raise = how != MARK_LOWER, valid;
    int fd = fs_file_open(mark_path, raise ? O_RDWR | O_CREAT : O_RDWR, 0600, &c);
    if (fd < 0)
        return !raise && c.sys_errno == ENOENT ? FASTSIG_OK : c.code;
    int rc = FASTSIG_OK;
    if (fs_file_lock(fd, F_WRLCK, 1) != 0) {
        rc = fs_file_lock_failed(&c, mark_path);
    } else {
        uint64_t mark = decode_at(fd, key_id, state_path, &valid);
        if (how == MARK_INIT ? !valid : raise ? mark < to : mark > to) {
            uint8_t rec[FS_MARK_LEN];
            encode(rec, key_id, state_path, to);
            /* a raise may lag (no sync); a lowering must last before the
             * state's next goes down */
            if (fs_file_write_all(fd, rec, sizeof(rec), 0) != 0
                || (!raise && fs_file_sync(fd, 1) != 0))
                rc = FASTSIG_ERR_STATE_IO;
        }
        fs_file_unlock(fd);
    }
    int saved = errno;
    close(fd);
    errno = saved;
    return rc;
}

int fs_mark_raise(const char *mark_path, const uint8_t key_id[FASTSIG_STATE_KEY_ID_LEN],
                  const char *state_path, uint64_t end)
{
    return change(mark_path, key_id, state_path, end, MARK_RAISE);
}

int fs_mark_init(const char *mark_path, const uint8_t key_id[FASTSIG_STATE_KEY_ID_LEN],
                 const char *state_path)
{
    return change(mark_path, key_id, state_path, 0, MARK_INIT);
}

int fs_mark_lower(const char *mark_path, const uint8_t key_id[FASTSIG_STATE_KEY_ID_LEN],
                  const char *state_path, uint64_t to)
{
    return change(mark_path, key_id, state_path, to, MARK_LOWER);
}
