/* cachefile.c - see cachefile.h. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "fastsig_err.h"
#include "cachefile.h"
#include "fileio.h"

static char *cache_path(const char *state_path)
{
    size_t l = strlen(state_path) + sizeof(".cache");
    char *c = malloc(l);
    if (c != NULL)
        snprintf(c, l, "%s.cache", state_path);
    return c;
}

/* Closes fd (dropping its lock) without losing the errno of a failure. */
static void close_keep_errno(int fd, int locked)
{
    int saved = errno;
    if (locked)
        fs_file_unlock(fd);
    close(fd);
    errno = saved;
}

int fastsig_cache_save(const char *state_path, const uint8_t *buf, size_t len,
                       fastsig_cause *cause)
{
    fastsig_cause local, *c = fs_cause_start(cause, &local);
    if (state_path == NULL || buf == NULL)
        return FASTSIG_ERR_NULL_ARG;
    char *path = cache_path(state_path);
    if (path == NULL)
        return FASTSIG_ERR_NOMEM;
    int rc = FASTSIG_OK, fd = fs_file_open(path, O_WRONLY | O_CREAT, 0600, c);
    if (fd < 0) { /* a cache another user could write is not written through */
        rc = c->code == FASTSIG_ERR_STATE_MISSING ? FASTSIG_ERR_STATE_IO : c->code;
    } else if (fs_file_lock(fd, F_WRLCK, 0) != 0) {
        /* another writer has it: theirs will do */
        if (fs_file_lock_failed(c, path) == FASTSIG_ERR_STATE_LOCKED)
            fs_cause_clear(c);
        else
            rc = FASTSIG_ERR_STATE_IO;
        close_keep_errno(fd, 0);
    } else {
        /* torn or too long on failure: the loader's size and tag checks refuse it */
        if (fs_file_write_all(fd, buf, len, 0) != 0 || ftruncate(fd, (off_t)len) != 0)
            rc = fs_cause_sys(c, FASTSIG_ERR_STATE_IO, path);
        close_keep_errno(fd, 1);
    }
    rc = fs_cause_end(c, rc, path, "node cache", "state directory");
    free(path);
    return rc;
}

/* Reads the locked cache file fd (path) whole into *buf. */
static int read_cache(int fd, const char *path, uint8_t **buf, size_t *len, fastsig_cause *c)
{
    struct stat sb;
    uint8_t *b = NULL;
    int rc = FASTSIG_ERR_STATE_IO;
    if (fstat(fd, &sb) != 0) {
        fs_cause_sys(c, rc, path);
        goto done;
    }
    rc = FASTSIG_ERR_STATE_CORRUPT;
    if (sb.st_size <= 0 || (uint64_t)sb.st_size > FASTSIG_CACHE_MAX_BYTES)
        goto done;
    rc = FASTSIG_ERR_NOMEM;
    if ((b = malloc((size_t)sb.st_size)) == NULL)
        goto done;
    ssize_t got = fs_file_read_all(fd, b, (size_t)sb.st_size, 0);
    rc = got == (ssize_t)sb.st_size ? FASTSIG_OK
         : got < 0 ? fs_cause_sys(c, FASTSIG_ERR_STATE_IO, path) : FASTSIG_ERR_STATE_IO;
done:
    if (rc == FASTSIG_OK) {
        *buf = b;
        *len = (size_t)sb.st_size;
    } else {
        free(b);
    }
    return rc;
}

int fastsig_cache_load(const char *state_path, uint8_t **buf, size_t *len,
                       fastsig_cause *cause)
{
    fastsig_cause local, *c = fs_cause_start(cause, &local);
    if (state_path == NULL || buf == NULL || len == NULL)
        return FASTSIG_ERR_NULL_ARG;
    *buf = NULL;
    char *path = cache_path(state_path);
    if (path == NULL)
        return FASTSIG_ERR_NOMEM;
    int rc = FASTSIG_OK, fd = fs_file_open(path, O_RDONLY, 0, c);
    if (fd < 0) {
        rc = c->code;
    } else if (fs_file_lock(fd, F_RDLCK, 1) != 0) {
        rc = fs_file_lock_failed(c, path);
        close_keep_errno(fd, 0);
    } else {
        rc = read_cache(fd, path, buf, len, c);
        close_keep_errno(fd, 1);
    }
    rc = fs_cause_end(c, rc, path, "node cache", "state directory");
    free(path);
    return rc;
}
