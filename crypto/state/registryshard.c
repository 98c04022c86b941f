/* registryshard.c - fastsig_registry_add_state: a later state of a
 * registered key (a shard carved from it) added to the key id's entry as
 * one more line, so that `fastsig-keytool status PUB.pem` finds the shard
 * wherever its state lives (registry.h: the entry's lines). One write at
 * the end of the entry's last whole line (a torn last line, which readers
 * ignore, is written over), under the entry's exclusive lock, then
 * fdatasync: the line is there whole or not at all. The key id's and the
 * seed fingerprint's names are one file, so the line shows under both. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "fastsig_err.h"
#include "state/fileio.h"
#include "state/registry.h"

#define ADD_ENTRY_MAX 65536

/* Whether entry's text (len bytes) has line `path` already, and where its
 * last whole line ends (*end): the append goes there. */
static int has_line(const char *text, size_t len, const char *path, size_t *end)
{
    size_t pl = strlen(path);
    int found = 0;
    *end = 0;
    for (size_t at = 0; at < len;) {
        const char *nl = memchr(text + at, '\n', len - at);
        if (nl == NULL)
            break; /* a torn append: not a line */
        size_t ll = (size_t)(nl - (text + at));
        found |= ll == pl && memcmp(text + at, path, pl) == 0;
        at += ll + 1;
        *end = at;
    }
    return found;
}

/* The entry still at path is the file fd holds (a move replaces the entry
 * with a new file: an append to the old one would be lost). */
static int still_there(int fd, const char *path)
{
    struct stat a, b;
    return fstat(fd, &a) == 0 && stat(path, &b) == 0 && a.st_dev == b.st_dev
           && a.st_ino == b.st_ino;
}

int fastsig_registry_add_state(const char *state_dir,
                               const uint8_t key_id[FASTSIG_STATE_KEY_ID_LEN],
                               const char *state_path, int *added, fastsig_cause *cause)
{
    fastsig_cause local, *c = fs_cause_start(cause, &local);
    char entry[4096] = "", *text = malloc(ADD_ENTRY_MAX), line[4097];
    size_t pl = state_path != NULL ? strlen(state_path) : 0, end = 0;
    int rc = FASTSIG_OK, fd = -1;
    ssize_t n;

    *added = 0;
    if (text == NULL)
        return FASTSIG_ERR_NOMEM;
    if (state_path == NULL || state_path[0] != '/' || pl >= sizeof(line) - 1
        || memchr(state_path, '\n', pl) != NULL)
        rc = FASTSIG_ERR_BAD_PARAM;
    else
        rc = fastsig_registry_entry_path(state_dir, key_id, entry, sizeof(entry));
    for (int tries = 0; rc == FASTSIG_OK && tries < 8; tries++) {
        if ((fd = fs_file_open(entry, O_RDWR, 0, c)) < 0) {
            /* no entry: a key registered elsewhere (or never): nothing to add to */
            rc = c->code == FASTSIG_ERR_STATE_MISSING ? FASTSIG_OK : c->code;
            break;
        }
        if (fs_file_lock(fd, F_WRLCK, 1) != 0) {
            rc = fs_file_lock_failed(c, entry);
            close(fd);
            fd = -1;
            break;
        }
        if (still_there(fd, entry))
            break;
        fs_file_unlock(fd); /* moved meanwhile: the new entry */
        close(fd);
        fd = -1;
    }
    if (rc == FASTSIG_OK && fd >= 0) {
        if ((n = fs_file_read_all(fd, (uint8_t *)text, ADD_ENTRY_MAX, 0)) < 0)
            rc = fs_cause_sys(c, FASTSIG_ERR_STATE_IO, entry);
        else if (has_line(text, (size_t)n, state_path, &end))
            ; /* there already (a shard carved again to a file it names) */
        else if (end + pl + 1 > ADD_ENTRY_MAX)
            rc = fs_cause_set(c, FASTSIG_ERR_BAD_PARAM, entry, EFBIG);
        else {
            memcpy(line, state_path, pl);
            line[pl] = '\n';
            if (fs_file_write_all(fd, (const uint8_t *)line, pl + 1, (off_t)end) != 0
                || ftruncate(fd, (off_t)(end + pl + 1)) != 0 || fs_file_sync(fd, 1) != 0)
                rc = fs_cause_sys(c, FASTSIG_ERR_STATE_IO, entry);
            else
                *added = 1;
        }
    }
    if (fd >= 0) {
        fs_file_unlock(fd);
        close(fd);
    }
    free(text);
    return fs_cause_end(c, rc, entry, "registry entry", "registry directory");
}
