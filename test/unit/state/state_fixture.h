/* state_fixture.h - what the state tests share: a scratch directory on the
 * real filesystem, key ids, file surgery, child processes. */
#ifndef FASTSIG_STATE_FIXTURE_H
#define FASTSIG_STATE_FIXTURE_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>
#include "state/statefile.h"

/* The scratch directory (created on first use under $TMPDIR or /tmp, mode
 * 0711, removed at exit by the process that created it). */
const char *sf_dir(void);
/* out = <scratch>/<name>; returns out (PATH_MAX bytes). */
char *sf_path(char *out, const char *name);
/* A key id that differs for every tag. */
void sf_key(uint8_t id[FASTSIG_STATE_KEY_ID_LEN], unsigned tag);
/* Creates <scratch>/<name> for key `tag` (removing an old one), path to out. */
int sf_create(char *out, const char *name, unsigned tag, uint64_t max, uint64_t next);
/* Opens the state of key `tag`; *rc (if non-NULL) gets the result. */
fastsig_state *sf_open(const char *path, unsigned tag, int *rc);
/* The file's `next` as peek sees it (UINT64_MAX on error). */
uint64_t sf_file_next(const char *path, unsigned tag);

/* Whole-file I/O for the corruption tests; 0 on success. */
int sf_read_file(const char *path, uint8_t *buf, size_t len);
int sf_write_file(const char *path, const uint8_t *buf, size_t len);

/* Runs fn(arg) in a child process and returns its exit status (fn's return
 * value), or -1 if it did not exit normally. With drop_root, a child running
 * as root switches to uid/gid 65534 first, so that file modes bind it. */
int sf_in_child(int (*fn)(void *), void *arg, int drop_root);

/* 1 if this thread's last FASTSIG_ERR_STATE_UNTRUSTED refused path (a
 * directory when is_dir) for a reason containing why; else prints what it
 * refused and returns 0. */
int sf_refused(const fastsig_cause *cause, const char *path, int is_dir, const char *why);
/* 1 if this test may give files to another user (root: chown to
 * SF_OTHER_UID); else prints that the ownership case of `what` is skipped
 * (CUnit 2 has no skip: the mode cases still run) and returns 0. */
#define SF_OTHER_UID 65534
int sf_can_chown(const char *what);

/* 1 if the environment asks for the long soak runs (FASTSIG_SOAK=1). */
int sf_soak(void);

#endif
