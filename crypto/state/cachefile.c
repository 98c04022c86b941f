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

int fastsig_cache_save(const char *state_path, const uint8_t *buf, size_t len)
{
    if (state_path == NULL || buf == NULL)
        return FASTSIG_ERR_NULL_ARG;
    char *path = cache_path(state_path);
    if (path == NULL)
        return FASTSIG_ERR_NOMEM;
    int fd = fs_file_open(path, O_WRONLY | O_CREAT, 0600);
    free(path);
    if (fd < 0) { /* a cache another user could write is not written through */
        int err = fs_file_open_error();
        return err == FASTSIG_ERR_STATE_MISSING ? FASTSIG_ERR_STATE_IO : err;
    }
    if (fs_file_lock(fd, F_WRLCK, 0) != 0) {
        int busy = errno == EAGAIN || errno == EACCES; /* another writer has it */
        close_keep_errno(fd, 0);
        return busy ? FASTSIG_OK : FASTSIG_ERR_STATE_IO;
    }
    /* torn or too long on failure: the loader's size and tag checks refuse it */
    int rc = fs_file_write_all(fd, buf, len, 0) == 0 && ftruncate(fd, (off_t)len) == 0
             ? FASTSIG_OK : FASTSIG_ERR_STATE_IO;
    close_keep_errno(fd, 1);
    return rc;
}

int fastsig_cache_load(const char *state_path, uint8_t **buf, size_t *len)
{
    if (state_path == NULL || buf == NULL || len == NULL)
        return FASTSIG_ERR_NULL_ARG;
    *buf = NULL;
    char *path = cache_path(state_path);
    if (path == NULL)
        return FASTSIG_ERR_NOMEM;
    int fd = fs_file_open(path, O_RDONLY, 0);
    free(path);
    if (fd < 0)
        return fs_file_open_error();
    if (fs_file_lock(fd, F_RDLCK, 1) != 0) {
        int err = fs_file_lock_error();
        close_keep_errno(fd, 0);
        return err;
    }
    struct stat sb;
    uint8_t *b = NULL;
    int rc = FASTSIG_ERR_STATE_IO;
    if (fstat(fd, &sb) != 0)
        goto done;
    rc = FASTSIG_ERR_STATE_CORRUPT;
    if (sb.st_size <= 0 || (uint64_t)sb.st_size > FASTSIG_CACHE_MAX_BYTES)
        goto done;
    rc = FASTSIG_ERR_NOMEM;
    if ((b = malloc((size_t)sb.st_size)) == NULL)
        goto done;
    rc = fs_file_read_all(fd, b, (size_t)sb.st_size, 0) == (ssize_t)sb.st_size
         ? FASTSIG_OK : FASTSIG_ERR_STATE_IO;
done:
    close_keep_errno(fd, 1);
    if (rc == FASTSIG_OK) {
        *buf = b;
        *len = (size_t)sb.st_size;
    } else {
        free(b);
    }
    return rc;
}
