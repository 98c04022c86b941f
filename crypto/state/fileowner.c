/* fileowner.c - see fileowner.h. */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <unistd.h>
#include "fileowner.h"

static _Thread_local struct {
    char path[PATH_MAX];
    char why[96];
    int is_dir;
} refusal;

static int refuse(const char *path, int is_dir)
{
    snprintf(refusal.path, sizeof(refusal.path), "%s", path);
    refusal.is_dir = is_dir;
    errno = EPERM;
    return -1;
}

int fs_owner_check(const struct stat *sb, const char *path, int is_dir)
{
    unsigned mode = (unsigned)sb->st_mode & 07777;
    int others_write = (sb->st_mode & (S_IWGRP | S_IWOTH)) != 0;
    uid_t me = geteuid();

    if (is_dir) {
        /* sticky: others may add names, but not rename or remove ours */
        if (!others_write || (sb->st_mode & S_ISVTX) != 0)
            return 0;
        snprintf(refusal.why, sizeof(refusal.why),
                 "writable by group or others without the sticky bit (mode %04o)", mode);
        return refuse(path, 1);
    }
    if (sb->st_uid != me)
        snprintf(refusal.why, sizeof(refusal.why), "owned by uid %lu, not by this user (uid %lu)",
                 (unsigned long)sb->st_uid, (unsigned long)me);
    else if (others_write)
        snprintf(refusal.why, sizeof(refusal.why), "writable by group or others (mode %04o)",
                 mode);
    else
        return 0;
    return refuse(path, 0);
}

void fastsig_state_refusal(char *path, size_t pathlen, char *why, size_t whylen, int *is_dir)
{
    if (path != NULL && pathlen > 0)
        snprintf(path, pathlen, "%s", refusal.path);
    if (why != NULL && whylen > 0)
        snprintf(why, whylen, "%s", refusal.why);
    if (is_dir != NULL)
        *is_dir = refusal.is_dir;
}
