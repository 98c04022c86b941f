/* registrymove.c - fastsig_registry_move_state: a key's registry entry
 * follows its state file to a new path (fastsig-keytool move). The entry
 * is rewritten whole, never in place: the new lines go to a temporary file
 * (fsync'd), which then replaces every name the entry has (its key id's and
 * its seed fingerprint's are one file under two names: each name that
 * shares the entry's inode gets the new file), and the directory is fsync'd.
 * A crash in between leaves some names with the old path and some with the
 * new: either is a whole entry that refuses a second key generation. */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "fastsig_err.h"
#include "state/fileio.h"
#include "state/registry.h"

#define MOVE_ENTRY_MAX 65536

/* cap bytes: entry's lines with every line equal to from replaced by to;
 * *count how many were. */
static int rewrite_lines(const char *in, const char *from, const char *to, char *out, size_t cap,
                         int *count)
{
    size_t used = 0, fl = strlen(from);
    const char *line = in, *nl;

    *count = 0;
    out[0] = '\0';
    for (; (nl = strchr(line, '\n')) != NULL; line = nl + 1) {
        int same = (size_t)(nl - line) == fl && memcmp(line, from, fl) == 0;
        int w = snprintf(out + used, cap - used, "%.*s\n", same ? (int)strlen(to) : (int)(nl - line),
                         same ? to : line);
        if (w < 0 || (size_t)w >= cap - used)
            return FASTSIG_ERR_BAD_PARAM;
        used += (size_t)w;
        *count += same;
    }
    return FASTSIG_OK; /* an unterminated last line (a torn append) is dropped */
}

/* Every name in the registry directory dir that is the file dev/ino gets
 * the file tmp (a new link each, moved over the name). */
static int replace_names(const char *dir, const char *tmp, dev_t dev, ino_t ino, fastsig_cause *c)
{
    char name[PATH_MAX], link_tmp[PATH_MAX + 64];
    struct dirent *e;
    struct stat sb;
    DIR *d = opendir(dir);
    int rc = FASTSIG_OK;

    if (d == NULL)
        return fs_cause_sys(c, FASTSIG_ERR_STATE_IO, dir);
    while (rc == FASTSIG_OK && (e = readdir(d)) != NULL) {
        if ((size_t)snprintf(name, sizeof(name), "%s/%s", dir, e->d_name) >= sizeof(name)
            || lstat(name, &sb) != 0 || sb.st_dev != dev || sb.st_ino != ino)
            continue;
        snprintf(link_tmp, sizeof(link_tmp), "%s.l", tmp);
        if (link(tmp, link_tmp) != 0 || fs_file_install(link_tmp, name, 1) != 0) {
            rc = fs_cause_sys(c, FASTSIG_ERR_STATE_IO, name);
            unlink(link_tmp);
        }
    }
    closedir(d);
    return rc;
}

int fastsig_registry_move_state(const char *state_dir,
                                const uint8_t key_id[FASTSIG_STATE_KEY_ID_LEN],
                                const char *from, const char *to, int *moved,
                                fastsig_cause *cause)
{
    fastsig_cause local, *c = fs_cause_start(cause, &local);
    char entry[PATH_MAX], tmp[PATH_MAX + 32], dir[PATH_MAX];
    char *in = malloc(MOVE_ENTRY_MAX), *out = malloc(MOVE_ENTRY_MAX + PATH_MAX);
    struct stat sb;
    ssize_t n;
    int fd = -1, rc;

    *moved = 0;
    if (in == NULL || out == NULL)
        rc = FASTSIG_ERR_NOMEM;
    else if ((rc = fastsig_registry_entry_path(state_dir, key_id, entry, sizeof(entry)))
             != FASTSIG_OK)
        ;
    else if ((fd = fs_file_open(entry, O_RDWR, 0, c)) < 0)
        rc = c->code == FASTSIG_ERR_STATE_MISSING ? FASTSIG_OK : c->code; /* no entry */
    else if (fs_file_lock(fd, F_WRLCK, 1) != 0) /* appends (a shard's line) wait */
        rc = fs_file_lock_failed(c, entry);
    else if ((n = fs_file_read_all(fd, (uint8_t *)in, MOVE_ENTRY_MAX - 1, 0)) < 0
             || fstat(fd, &sb) != 0)
        rc = fs_cause_sys(c, FASTSIG_ERR_STATE_IO, entry);
    else if ((in[n] = '\0', rc = rewrite_lines(in, from, to, out, MOVE_ENTRY_MAX + PATH_MAX,
                                               moved)) != FASTSIG_OK || *moved == 0)
        ;
    else if (snprintf(tmp, sizeof(tmp), "%s.move.tmp.%ld", entry, (long)getpid()) < 0
             || fs_file_write_new(tmp, (const uint8_t *)out, strlen(out), c) != 0)
        rc = fs_cause_set(c, FASTSIG_ERR_STATE_IO, entry, c->sys_errno);
    else {
        snprintf(dir, sizeof(dir), "%.*s", (int)(strrchr(entry, '/') - entry), entry);
        rc = replace_names(dir, tmp, sb.st_dev, sb.st_ino, c);
        unlink(tmp);
        if (rc == FASTSIG_OK && fs_file_sync_dir_of(entry, c) != 0)
            rc = fs_cause_set(c, FASTSIG_ERR_STATE_IO, entry, c->sys_errno);
    }
    if (fd >= 0) {
        fs_file_unlock(fd);
        close(fd);
    }
    free(in);
    free(out);
    return fs_cause_end(c, rc, entry, "registry entry", "registry directory");
}
