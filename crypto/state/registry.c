/* registry.c - see registry.h. */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "fastsig_err.h"
#include "fileio.h"
#include "registry.h"

/* Longest entry read: a few state paths. */
#define ENTRY_MAX (4 * PATH_MAX)

int fastsig_registry_path_as(fastsig_registry_kind kind, const char *state_dir,
                             const uint8_t id[FASTSIG_STATE_KEY_ID_LEN], char *out, size_t outlen)
{
    if (state_dir == NULL || id == NULL || out == NULL)
        return FASTSIG_ERR_NULL_ARG;
    char dir[PATH_MAX];
    if ((size_t)snprintf(dir, sizeof(dir), "%s/" FASTSIG_REGISTRY_SUBDIR, state_dir)
        >= sizeof(dir))
        return FASTSIG_ERR_BAD_PARAM;
    int rc = fastsig_state_key_path(dir, id, out, outlen);
    if (rc != FASTSIG_OK)
        return rc;
    /* the state file's name without its suffix; a seed's gets its own */
    char *end = out + strlen(out) - (sizeof(FASTSIG_STATE_FILE_SUFFIX) - 1);
    *end = '\0';
    if (kind == FASTSIG_REGISTRY_SEED) {
        _Static_assert(sizeof(FASTSIG_REGISTRY_SEED_SUFFIX) <= sizeof(FASTSIG_STATE_FILE_SUFFIX),
                       "fits where the state suffix was");
        memcpy(end, FASTSIG_REGISTRY_SEED_SUFFIX, sizeof(FASTSIG_REGISTRY_SEED_SUFFIX));
    }
    return FASTSIG_OK;
}

int fastsig_registry_entry_path(const char *state_dir,
                                const uint8_t key_id[FASTSIG_STATE_KEY_ID_LEN], char *out,
                                size_t outlen)
{
    return fastsig_registry_path_as(FASTSIG_REGISTRY_KEY_ID, state_dir, key_id, out, outlen);
}

/* The registry directory of entry (its parent), made if missing (mode
 * 0700, the state directory fsync'd so the new name lasts): a directory,
 * not a link or anything else. */
static int registry_dir(const char *entry, fastsig_cause *c)
{
    char dir[PATH_MAX];
    size_t len = (size_t)(strrchr(entry, '/') - entry);
    memcpy(dir, entry, len);
    dir[len] = '\0';
    if (mkdir(dir, 0700) == 0) {
        if (fs_file_sync_dir_of(dir, c) != 0)
            return fs_cause_set(c, FASTSIG_ERR_STATE_IO, entry, c->sys_errno);
    } else if (errno != EEXIST) {
        return fs_cause_sys(c, errno == ENOENT || errno == ENOTDIR ? FASTSIG_ERR_STATE_NO_DIR
                                                                   : FASTSIG_ERR_STATE_IO,
                            entry);
    }
    int fd = fs_file_open(dir, O_RDONLY | O_DIRECTORY | O_NOFOLLOW, 0, c);
    if (fd < 0)
        return c->sys_errno == ELOOP || c->sys_errno == ENOTDIR
               ? fs_cause_set(c, FASTSIG_ERR_STATE_NOT_FILE, entry, c->sys_errno)
               : c->code;
    close(fd);
    return FASTSIG_OK;
}

/* Reads the entry at path under a lock of the given type (fd open and
 * locked on success; the caller unlocks and closes): the bytes, 0-ended. */
static int read_entry(const char *path, int flags, short type, int *fd, char *buf, size_t cap,
                      fastsig_cause *c)
{
    if ((*fd = fs_file_open(path, flags, 0, c)) < 0)
        return c->code;
    int rc = FASTSIG_OK;
    ssize_t n = -1;
    if (fs_file_lock(*fd, type, 1) != 0)
        rc = fs_file_lock_failed(c, path);
    else if ((n = fs_file_read_all(*fd, (uint8_t *)buf, cap - 1, 0)) < 0)
        rc = fs_cause_sys(c, FASTSIG_ERR_STATE_IO, path);
    if (rc != FASTSIG_OK) {
        int saved = errno;
        if (rc == FASTSIG_ERR_STATE_IO)
            fs_file_unlock(*fd);
        close(*fd);
        errno = saved;
        return rc;
    }
    buf[n] = '\0';
    return FASTSIG_OK;
}

/* found = the entry's first complete line ("" if none). */
static int first_state(const char *entry, char *found, size_t foundlen, fastsig_cause *c)
{
    char *buf = malloc(ENTRY_MAX + 1);
    int fd;
    if (buf == NULL)
        return FASTSIG_ERR_NOMEM;
    int rc = read_entry(entry, O_RDONLY, F_RDLCK, &fd, buf, ENTRY_MAX + 1, c);
    if (rc == FASTSIG_OK) {
        fs_file_unlock(fd);
        close(fd);
        char *nl = strchr(buf, '\n');
        size_t len = nl != NULL ? (size_t)(nl - buf) : 0;
        if (found != NULL && foundlen > 0)
            snprintf(found, foundlen, "%.*s", (int)len, buf);
    }
    free(buf);
    return rc;
}

/* Writes line to a new temporary file beside entry, fsync'd. */
static int write_temp(const char *entry, const char *line, char *tmp, size_t tmplen,
                      fastsig_cause *c)
{
    static unsigned counter; /* atomic: unique temporary names per process */
    const char *name = strrchr(entry, '/') + 1;
    if ((size_t)snprintf(tmp, tmplen, "%.*s.%s.tmp.%ld.%u", (int)(name - entry), entry, name,
                         (long)getpid(), __atomic_fetch_add(&counter, 1, __ATOMIC_RELAXED))
        >= tmplen)
        return FASTSIG_ERR_BAD_PARAM;
    if (fs_file_write_new(tmp, (const uint8_t *)line, strlen(line), c) == 0)
        return FASTSIG_OK;
    return c->code == FASTSIG_ERR_STATE_UNTRUSTED
           ? c->code : fs_cause_set(c, FASTSIG_ERR_STATE_IO, entry, c->sys_errno);
}

/* Makes the count entries naming state_path: one file (written to a
 * temporary name, fsync'd) linked under each name without replacing, then
 * one fsync of the registry directory, so a key's two entries cost what
 * one did. An entry that exists already refuses the claim (*refused: its
 * index; found: the state it names) and the names made before it are
 * removed again. */
static int claim_names(const char *const *entries, size_t count, const char *state_path,
                       char *found, size_t foundlen, size_t *refused, fastsig_cause *c)
{
    char tmp[PATH_MAX], line[PATH_MAX + 1];
    int rc;
    *refused = 0;
    if (found != NULL && foundlen > 0)
        found[0] = '\0';
    if (state_path[0] != '/' || strchr(state_path, '\n') != NULL
        || (size_t)snprintf(line, sizeof(line), "%s\n", state_path) >= sizeof(line))
        return FASTSIG_ERR_BAD_PARAM;
    if ((rc = registry_dir(entries[0], c)) != FASTSIG_OK
        || (rc = write_temp(entries[0], line, tmp, sizeof(tmp), c)))
        return rc;
    for (size_t i = 0; i < count; i++) {
        if (link(tmp, entries[i]) == 0)
            continue;
        int saved = errno;
        *refused = i;
        while (i-- > 0)
            unlink(entries[i]);
        unlink(tmp);
        if (saved != EEXIST)
            return fs_cause_set(c, FASTSIG_ERR_STATE_IO, entries[*refused], saved);
        rc = first_state(entries[*refused], found, foundlen, c);
        return rc == FASTSIG_OK ? FASTSIG_ERR_STATE_REGISTERED : rc;
    }
    unlink(tmp);
    if (fs_file_sync_dir_of(entries[0], c) != 0) {
        /* not durable: a key must not believe in an entry a crash may undo */
        for (size_t i = 0; i < count; i++)
            unlink(entries[i]);
        return fs_cause_set(c, FASTSIG_ERR_STATE_IO, entries[0], c->sys_errno);
    }
    return FASTSIG_OK;
}

/* Removes entry if it names state_path and nothing else. */
static int unclaim_entry(const char *entry, const char *state_path)
{
    fastsig_cause c; /* a withdrawal that fails leaves the entry: its code says so */
    char *buf = malloc(ENTRY_MAX + 1);
    int fd;
    if (buf == NULL)
        return FASTSIG_ERR_NOMEM;
    int rc = read_entry(entry, O_RDWR, F_WRLCK, &fd, buf, ENTRY_MAX + 1, &c);
    if (rc == FASTSIG_OK) {
        size_t len = strlen(state_path);
        if (strlen(buf) == len + 1 && memcmp(buf, state_path, len) == 0 && buf[len] == '\n'
            && (unlink(entry) != 0 || fs_file_sync_dir_of(entry, &c) != 0))
            rc = FASTSIG_ERR_STATE_IO;
        fs_file_unlock(fd);
        close(fd);
    }
    free(buf);
    return rc == FASTSIG_ERR_STATE_MISSING ? FASTSIG_OK : rc;
}

int fastsig_registry_claim_as(fastsig_registry_kind kind, const char *state_dir,
                              const uint8_t id[FASTSIG_STATE_KEY_ID_LEN], const char *state_path,
                              char *found, size_t foundlen, fastsig_cause *cause)
{
    char entry[PATH_MAX];
    fastsig_cause local, *c = fs_cause_start(cause, &local);
    if (state_path == NULL)
        return FASTSIG_ERR_NULL_ARG;
    int rc = fastsig_registry_path_as(kind, state_dir, id, entry, sizeof(entry));
    if (rc != FASTSIG_OK)
        return rc;
    const char *names[1] = { entry };
    size_t refused;
    rc = claim_names(names, 1, state_path, found, foundlen, &refused, c);
    return fs_cause_end(c, rc, entry, "registry entry", "registry directory");
}

int fastsig_registry_claim_key(const char *state_dir, const uint8_t key_id[FASTSIG_STATE_KEY_ID_LEN],
                               const uint8_t fp[FASTSIG_REGISTRY_FP_LEN], const char *state_path,
                               char *found, size_t foundlen, fastsig_registry_kind *refused,
                               fastsig_cause *cause)
{
    char kentry[PATH_MAX], sentry[PATH_MAX];
    fastsig_cause local, *c = fs_cause_start(cause, &local);
    size_t which = 0;
    if (state_path == NULL || refused == NULL)
        return FASTSIG_ERR_NULL_ARG;
    *refused = FASTSIG_REGISTRY_KEY_ID;
    int rc = fastsig_registry_path_as(FASTSIG_REGISTRY_KEY_ID, state_dir, key_id, kentry,
                                      sizeof(kentry));
    if (rc == FASTSIG_OK)
        rc = fastsig_registry_path_as(FASTSIG_REGISTRY_SEED, state_dir, fp, sentry,
                                      sizeof(sentry));
    if (rc != FASTSIG_OK)
        return rc;
    const char *names[2] = { kentry, sentry };
    rc = claim_names(names, 2, state_path, found, foundlen, &which, c);
    if (which == 1)
        *refused = FASTSIG_REGISTRY_SEED;
    return fs_cause_end(c, rc, names[which], "registry entry", "registry directory");
}

int fastsig_registry_claim(const char *state_dir, const uint8_t key_id[FASTSIG_STATE_KEY_ID_LEN],
                           const char *state_path, char *found, size_t foundlen,
                           fastsig_cause *cause)
{
    return fastsig_registry_claim_as(FASTSIG_REGISTRY_KEY_ID, state_dir, key_id, state_path,
                                     found, foundlen, cause);
}

int fastsig_registry_unclaim_as(fastsig_registry_kind kind, const char *state_dir,
                                const uint8_t id[FASTSIG_STATE_KEY_ID_LEN],
                                const char *state_path)
{
    char entry[PATH_MAX];
    if (state_path == NULL)
        return FASTSIG_ERR_NULL_ARG;
    int rc = fastsig_registry_path_as(kind, state_dir, id, entry, sizeof(entry));
    return rc != FASTSIG_OK ? rc : unclaim_entry(entry, state_path);
}

int fastsig_registry_unclaim(const char *state_dir,
                             const uint8_t key_id[FASTSIG_STATE_KEY_ID_LEN],
                             const char *state_path)
{
    return fastsig_registry_unclaim_as(FASTSIG_REGISTRY_KEY_ID, state_dir, key_id, state_path);
}

int fastsig_registry_holder_as(fastsig_registry_kind kind, const char *state_dir,
                               const uint8_t id[FASTSIG_STATE_KEY_ID_LEN], char *found,
                               size_t foundlen, fastsig_cause *cause)
{
    char entry[PATH_MAX];
    fastsig_cause local, *c = fs_cause_start(cause, &local);
    if (found != NULL && foundlen > 0)
        found[0] = '\0';
    int rc = fastsig_registry_path_as(kind, state_dir, id, entry, sizeof(entry));
    if (rc != FASTSIG_OK)
        return rc;
    rc = first_state(entry, found, foundlen, c);
    /* no entry, or no registry yet: nobody holds it */
    if (rc == FASTSIG_ERR_STATE_MISSING) {
        fs_cause_clear(c);
        return FASTSIG_OK;
    }
    return fs_cause_end(c, rc == FASTSIG_OK ? FASTSIG_ERR_STATE_REGISTERED : rc, entry,
                        "registry entry", "registry directory");
}
