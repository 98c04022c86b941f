/* fileowner.h - whether a file or directory of crypto/state may be trusted
 * (doc/state.md, section 3): another user who can write a state file, a
 * node cache, a registry entry or the directory holding one could forge a
 * state that hands out spent indices again. Like OpenSSH's StrictModes:
 * a file must be owned by the effective user and writable by nobody else;
 * the directory holding it must not be writable by group or others unless
 * it is sticky (like /tmp, where only a file's owner may rename or remove
 * it). Root gets no exception: a file another user owns is that user's to
 * forge. No OpenSSL. */
#ifndef FASTSIG_FILEOWNER_H
#define FASTSIG_FILEOWNER_H

#include <stddef.h>
#include <sys/stat.h>
#include "statecause.h"

/* Checks sb (fstat of an open descriptor, never a stat of a path: the
 * object itself, not whatever the path names a moment later) of path, a
 * directory when is_dir: 0 when trusted, else -1 with errno EPERM and c
 * filled (STATE_UNTRUSTED, path, is_dir, and why in words, e.g. "owned by
 * uid 65534, not by this user (uid 0)", "writable by group or others (mode
 * 0666)", "writable by group or others without the sticky bit (mode
 * 0777)"). Internal to crypto/state (fileio.c calls it on every open). */
int fs_owner_check(const struct stat *sb, const char *path, int is_dir, fastsig_cause *c);

#endif
