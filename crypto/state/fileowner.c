/* fileowner.c - see fileowner.h. */
#include <errno.h>
#include <unistd.h>
#include "fastsig_err.h"
#include "fileowner.h"

/* Notes the refusal of path in c: errno EPERM, -1. */
static int refuse(fastsig_cause *c, const char *path, int is_dir)
{
    errno = EPERM;
    fs_cause_sys(c, FASTSIG_ERR_STATE_UNTRUSTED, path);
    c->is_dir = is_dir;
    return -1;
}

int fs_owner_check(const struct stat *sb, const char *path, int is_dir, fastsig_cause *c)
{
    unsigned mode = (unsigned)sb->st_mode & 07777;
    int others_write = (sb->st_mode & (S_IWGRP | S_IWOTH)) != 0;
    uid_t me = geteuid();

    if (is_dir) {
        /* sticky: others may add names, but not rename or remove ours */
        if (!others_write || (sb->st_mode & S_ISVTX) != 0)
            return 0;
        refuse(c, path, 1);
        fs_cause_why(c, "writable by group or others without the sticky bit (mode %04o)", mode);
        return -1;
    }
    if (sb->st_uid == me && !others_write)
        return 0;
    refuse(c, path, 0);
    if (sb->st_uid != me)
        fs_cause_why(c, "owned by uid %lu, not by this user (uid %lu)",
                     (unsigned long)sb->st_uid, (unsigned long)me);
    else
        fs_cause_why(c, "writable by group or others (mode %04o)", mode);
    return -1;
}
