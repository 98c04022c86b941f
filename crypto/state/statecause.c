/* statecause.c - see statecause.h. */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include "statecause.h"

int fs_cause_set(fastsig_cause *c, int code, const char *path, int sys_errno)
{
    c->code = code;
    c->sys_errno = sys_errno;
    c->what = NULL;
    c->is_dir = 0;
    c->sentence = 0;
    snprintf(c->path, sizeof(c->path), "%s", path != NULL ? path : "");
    c->why[0] = '\0';
    return code;
}

int fs_cause_sys(fastsig_cause *c, int code, const char *path)
{
    return fs_cause_set(c, code, path, errno);
}

void fs_cause_why(fastsig_cause *c, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(c->why, sizeof(c->why), fmt, ap);
    va_end(ap);
}

void fs_cause_clear(fastsig_cause *c)
{
    fs_cause_set(c, 0, NULL, 0);
}

fastsig_cause *fs_cause_start(fastsig_cause *cause, fastsig_cause *local)
{
    fastsig_cause *c = cause != NULL ? cause : local;
    c->code = 0;
    c->path[0] = '\0';
    return c;
}

int fs_cause_end(fastsig_cause *c, int rc, const char *path, const char *file_what,
                 const char *dir_what)
{
    if (c == NULL || rc == 0)
        return rc;
    if (c->code == 0)
        fs_cause_set(c, rc, path, 0);
    c->code = rc;
    if (c->path[0] == '\0' && path != NULL)
        snprintf(c->path, sizeof(c->path), "%s", path);
    if (c->what == NULL)
        c->what = c->is_dir ? dir_what : file_what;
    return rc;
}
