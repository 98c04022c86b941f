/* statepath.c - where state files live by default, and making that place. */
#define _GNU_SOURCE
#include <errno.h>
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "fastsig_err.h"
#include "statefile.h"

static const char *nonempty(const char *s)
{
    return s != NULL && *s != 0 ? s : NULL;
}

static const char *home_dir(void)
{
    const char *home = nonempty(secure_getenv("HOME"));
    if (home == NULL) {
        struct passwd *pw = getpwuid(getuid());
        home = pw ? nonempty(pw->pw_dir) : NULL;
    }
    return home;
}

int fastsig_state_default_dir(const char *config_dir, char *out, size_t outlen)
{
    if (out == NULL)
        return FASTSIG_ERR_NULL_ARG;
    const char *dir = nonempty(secure_getenv("FASTSIG_STATE_DIR"));
    if (dir == NULL)
        dir = nonempty(config_dir);
    const char *base = NULL, *sub = "";
    if (dir == NULL) {
        const char *xdg = nonempty(secure_getenv("XDG_STATE_HOME"));
        if (xdg != NULL && xdg[0] == '/') /* the XDG spec ignores relative values */
            base = xdg, sub = "/fastsig";
        else if ((base = home_dir()) != NULL)
            sub = "/.local/state/fastsig";
        else
            return FASTSIG_ERR_BAD_PARAM;
        dir = base;
    }
    int n = snprintf(out, outlen, "%s%s", dir, sub);
    return n < 0 || (size_t)n >= outlen ? FASTSIG_ERR_BAD_PARAM : FASTSIG_OK;
}

int fastsig_state_key_path(const char *dir, const uint8_t key_id[FASTSIG_STATE_KEY_ID_LEN],
                           char *out, size_t outlen)
{
    if (dir == NULL || key_id == NULL || out == NULL)
        return FASTSIG_ERR_NULL_ARG;
    size_t len = strlen(dir);
    size_t need = len + 1 + 2 * FASTSIG_STATE_KEY_ID_LEN + sizeof(FASTSIG_STATE_FILE_SUFFIX);
    if (need > outlen)
        return FASTSIG_ERR_BAD_PARAM;
    memmove(out, dir, len); /* dir may be out */
    char *p = out + len;
    *p++ = '/';
    for (size_t i = 0; i < FASTSIG_STATE_KEY_ID_LEN; i++) {
        *p++ = "0123456789abcdef"[key_id[i] >> 4];
        *p++ = "0123456789abcdef"[key_id[i] & 15];
    }
    memcpy(p, FASTSIG_STATE_FILE_SUFFIX, sizeof(FASTSIG_STATE_FILE_SUFFIX));
    return FASTSIG_OK;
}

int fastsig_state_default_path(const char *config_dir,
                               const uint8_t key_id[FASTSIG_STATE_KEY_ID_LEN], char *out,
                               size_t outlen)
{
    if (key_id == NULL || out == NULL)
        return FASTSIG_ERR_NULL_ARG;
    int rc = fastsig_state_default_dir(config_dir, out, outlen);
    return rc != FASTSIG_OK ? rc : fastsig_state_key_path(out, key_id, out, outlen);
}

int fastsig_state_resolve_dir(const char *dir, char *out, size_t outlen, fastsig_cause *cause)
{
    fastsig_cause local, *c = fs_cause_start(cause, &local);
    if (dir == NULL || out == NULL)
        return FASTSIG_ERR_NULL_ARG;
    char *real = realpath(dir, NULL);
    if (real == NULL)
        return fs_cause_end(c, fs_cause_sys(c, errno == ENOENT || errno == ENOTDIR
                                                   ? FASTSIG_ERR_STATE_NO_DIR
                                                   : FASTSIG_ERR_STATE_IO, dir),
                            dir, "state directory", "state directory");
    int n = snprintf(out, outlen, "%s", real);
    free(real);
    return (size_t)n >= outlen ? FASTSIG_ERR_BAD_PARAM : FASTSIG_OK;
}

int fastsig_state_make_dir(const char *dir, fastsig_cause *cause)
{
    fastsig_cause local, *c = fs_cause_start(cause, &local);
    if (dir == NULL)
        return FASTSIG_ERR_NULL_ARG;
    size_t len = strlen(dir);
    if (len == 0)
        return FASTSIG_ERR_BAD_PARAM;
    char *buf = strdup(dir);
    if (buf == NULL)
        return FASTSIG_ERR_NOMEM;
    int rc = FASTSIG_OK;
    /* every prefix ending before a '/', then the whole path */
    for (size_t i = 1; i <= len && rc == FASTSIG_OK; i++) {
        if (i < len && buf[i] != '/')
            continue;
        char sep = buf[i];
        buf[i] = 0;
        struct stat sb;
        if ((mkdir(buf, 0700) != 0 && errno != EEXIST) || stat(buf, &sb) != 0)
            rc = fs_cause_sys(c, FASTSIG_ERR_STATE_IO, dir);
        else if (!S_ISDIR(sb.st_mode)) /* ENOTDIR, not the EEXIST of mkdir */
            rc = fs_cause_set(c, FASTSIG_ERR_STATE_IO, dir, errno = ENOTDIR);
        buf[i] = sep;
    }
    free(buf);
    return fs_cause_end(c, rc, dir, "state directory", "state directory");
}
