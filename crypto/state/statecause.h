/* statecause.h - why a call of crypto/state failed, in a struct its caller
 * owns: the function that fails fills it at the failing call (errno read
 * right there), and the caller reads it right after the call, so that a
 * cause never waits in a thread-local for a later raise. The provider
 * turns it into an OpenSSL error ("WHAT PATH: why"; provider/errors.c). No
 * OpenSSL. */
#ifndef FASTSIG_STATECAUSE_H
#define FASTSIG_STATECAUSE_H

#include <limits.h>

/* why holds a sentence that may name a second file (a registry entry's
 * state, a mark file): a path and some words */
#define FASTSIG_CAUSE_WHY_LEN (PATH_MAX + 256)

typedef struct fastsig_cause {
    int code;         /* the fastsig_err code; FASTSIG_OK: nothing failed */
    int sys_errno;    /* errno of the failing system call; 0: none says more */
    const char *what; /* what path is: "state file", "state directory",
                       * "registry entry", ... (a string literal) */
    int is_dir;       /* path is the directory holding the file asked for */
    int sentence;     /* why goes on "WHAT PATH" as a sentence, not after ": " */
    char path[PATH_MAX];
    char why[FASTSIG_CAUSE_WHY_LEN]; /* "" or the cause in words */
} fastsig_cause;

/* Fills c (not NULL) with code, path and the errno of the call that just
 * failed (sys_errno: fs_cause_sys), or none (fs_cause_set); what and why
 * are cleared. Both return code. */
int fs_cause_sys(fastsig_cause *c, int code, const char *path);
int fs_cause_set(fastsig_cause *c, int code, const char *path, int sys_errno);
/* The cause in words (printf-style), after the cause was set. */
void fs_cause_why(fastsig_cause *c, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
/* Nothing failed yet. */
void fs_cause_clear(fastsig_cause *c);
/* The start of a public call: the caller's cause, or local when it passed
 * NULL (the call's own failures are noted somewhere all the same), cleared. */
fastsig_cause *fs_cause_start(fastsig_cause *cause, fastsig_cause *local);
/* The end of a public call (c may be NULL): for rc != 0, the code becomes
 * rc (an outer call may have translated the inner one), the path path when
 * none was noted, and what file_what or dir_what (is_dir) when no kind was
 * named. Returns rc. */
int fs_cause_end(fastsig_cause *c, int rc, const char *path, const char *file_what,
                 const char *dir_what);

#endif
