/* shard.c - a range of a key's indices into a state file of its own
 * (shard.h). */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "fastsig_err.h"
#include "state/shard.h"
#include "state/statefile_hook.h"

void (*fs_state_carve_hook)(void);

int fastsig_state_shard_path(const char *dir, const uint8_t key_id[FASTSIG_STATE_KEY_ID_LEN],
                             uint64_t first, uint64_t end, char *out, size_t outlen)
{
    char base[4096], range[48];
    const size_t suffix = sizeof(FASTSIG_STATE_FILE_SUFFIX) - 1;
    int rc = fastsig_state_key_path(dir, key_id, base, sizeof(base));
    if (rc != FASTSIG_OK)
        return rc;
    base[strlen(base) - suffix] = '\0'; /* "<dir>/<hex>" */
    snprintf(range, sizeof(range), ".%" PRIu64 "-%" PRIu64, first, end);
    if ((size_t)snprintf(out, outlen, "%s%s%s", base, range, FASTSIG_STATE_FILE_SUFFIX) >= outlen)
        return FASTSIG_ERR_BAD_PARAM;
    return FASTSIG_OK;
}

int fastsig_state_dir_writable(const char *dir, fastsig_cause *cause)
{
    fastsig_cause local, *c = fs_cause_start(cause, &local);
    struct stat sb;
    if (stat(dir, &sb) != 0)
        fs_cause_sys(c, errno == ENOENT || errno == ENOTDIR ? FASTSIG_ERR_STATE_NO_DIR
                                                            : FASTSIG_ERR_STATE_IO, dir);
    else if (!S_ISDIR(sb.st_mode))
        fs_cause_set(c, FASTSIG_ERR_STATE_NO_DIR, dir, ENOTDIR);
    else if (access(dir, W_OK | X_OK) != 0)
        fs_cause_sys(c, FASTSIG_ERR_STATE_IO, dir);
    c->is_dir = 1;
    return fs_cause_end(c, c->code, dir, "state file", "state directory");
}

int fastsig_state_dir_of(const char *path, char *out, size_t outlen)
{
    const char *slash = strrchr(path, '/');
    int n = slash == NULL ? snprintf(out, outlen, ".")
                          : snprintf(out, outlen, "%.*s", slash == path ? 1 : (int)(slash - path),
                                     path);
    return n >= 0 && (size_t)n < outlen ? FASTSIG_OK : FASTSIG_ERR_BAD_PARAM;
}

int fastsig_state_carve_check(const uint8_t key_id[FASTSIG_STATE_KEY_ID_LEN], uint64_t first,
                              uint64_t count, const char *dir, const char *path, char *out,
                              size_t outlen, fastsig_cause *cause)
{
    struct stat sb;
    char where[4096];
    int rc;

    if (cause != NULL)
        fs_cause_clear(cause);
    if (key_id == NULL || out == NULL || (path == NULL && dir == NULL))
        return FASTSIG_ERR_NULL_ARG;
    if (path != NULL) {
        if ((size_t)snprintf(out, outlen, "%s", path) >= outlen)
            return FASTSIG_ERR_BAD_PARAM;
        if (lstat(path, &sb) == 0)
            return fs_cause_end(cause, FASTSIG_ERR_STATE_EXISTS, path, "state file", NULL);
        return (rc = fastsig_state_dir_of(path, where, sizeof(where))) != FASTSIG_OK
                   ? rc : fastsig_state_dir_writable(where, cause);
    }
    /* the longest name must fit */
    if ((rc = fastsig_state_shard_path(dir, key_id, UINT64_MAX, UINT64_MAX, out, outlen))
        != FASTSIG_OK)
        return rc;
    if ((size_t)snprintf(out, outlen, "%s", dir) >= outlen)
        return FASTSIG_ERR_BAD_PARAM;
    if ((rc = fastsig_state_dir_writable(dir, cause)) != FASTSIG_OK)
        return rc;
    /* "+N" is named by the parent's next, known only under its lock: a
     * file there by then fails the creation (the range lost, never reused) */
    if (first == FASTSIG_STATE_FROM_NEXT || count > UINT64_MAX - first)
        return FASTSIG_OK;
    if ((rc = fastsig_state_shard_path(dir, key_id, first, first + count, out, outlen))
        != FASTSIG_OK)
        return rc;
    return lstat(out, &sb) == 0
           ? fs_cause_end(cause, FASTSIG_ERR_STATE_EXISTS, out, "state file", NULL)
           : FASTSIG_OK;
}

int fastsig_state_carve(fastsig_state *parent, const uint8_t key_id[FASTSIG_STATE_KEY_ID_LEN],
                        uint64_t first, uint64_t count, const char *dir, const char *path,
                        char *out, size_t outlen, uint64_t *got_first, fastsig_cause *cause)
{
    int rc;

    if (parent == NULL || got_first == NULL)
        return FASTSIG_ERR_NULL_ARG;
    /* everything refused before anything is spent */
    if ((rc = fastsig_state_carve_check(key_id, first, count, dir, path, out, outlen, cause))
        != FASTSIG_OK)
        return rc;
    if ((rc = fastsig_state_spend_range(parent, first, count, got_first, cause)) != FASTSIG_OK)
        return rc;
    /* From here on the range is spent in the parent: whatever fails, it is
     * lost, never handed out twice. */
    if (fs_state_carve_hook != NULL)
        fs_state_carve_hook();
    if (path == NULL
        && (rc = fastsig_state_shard_path(dir, key_id, *got_first, *got_first + count, out,
                                          outlen)) != FASTSIG_OK)
        return rc;
    return fastsig_state_create(out, key_id, *got_first + count, *got_first, 0, cause);
}
