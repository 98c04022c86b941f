/* keytool_state.c - see keytool_state.h. */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <openssl/params.h>
#include <openssl/x509.h>
#include "fastsig/provider.h"
#include "fastsig_err.h"
#include "keytool_keyio.h"
#include "keytool_state.h"
#include "lms/lms_params.h"
#include "state/registry.h"
#include "state/shard.h"
#include "xmss/params.h"
#include "xmss/xmss_hash.h"

int kt_key_id(EVP_PKEY *k, uint8_t id[FASTSIG_STATE_KEY_ID_LEN])
{
    X509_PUBKEY *xp = NULL;
    const unsigned char *pk = NULL;
    int pklen = 0, ok;

    ok = X509_PUBKEY_set(&xp, k) == 1 && X509_PUBKEY_get0_param(NULL, &pk, &pklen, NULL, xp) == 1
         && xmss_key_id(pk, (size_t)pklen, id) == FASTSIG_OK;
    X509_PUBKEY_free(xp);
    return ok;
}

void kt_hex(const uint8_t *b, size_t len, char *out)
{
    for (size_t i = 0; i < len; i++)
        sprintf(out + 2 * i, "%02x", b[i]);
    out[2 * len] = '\0';
}

int kt_set_height(const char *set)
{
    const xmss_params *p = xmss_params_by_name(set);
    char buf[512], *save = NULL, *lv;
    lms_params lp;
    int h = 0;

    if (p != NULL)
        return p->h;
    if (strlen(set) >= sizeof(buf))
        return -1;
    strcpy(buf, set);
    for (lv = strtok_r(buf, ",", &save); lv != NULL; lv = strtok_r(NULL, ",", &save)) {
        char *slash = strchr(lv, '/');
        if (slash != NULL)
            *slash = '\0';
        if (lms_params_by_name(&lp, lv) != FASTSIG_OK)
            return -1;
        h += (int)lp.h;
    }
    return h > 0 ? h : -1;
}

int kt_state_dir(OSSL_PROVIDER *fs, char *out, size_t len)
{
    OSSL_PARAM p[] = { OSSL_PARAM_utf8_string(FASTSIG_PROV_PARAM_STATE_DIR, out, len),
                       OSSL_PARAM_END };
    if (OSSL_PROVIDER_get_params(fs, p) != 1 || !OSSL_PARAM_modified(p)) {
        kt_die_ssl("the provider names no default state directory (no home directory?)");
        return 0;
    }
    return 1;
}

int kt_registry_states(const char *dir, const uint8_t id[FASTSIG_STATE_KEY_ID_LEN],
                       char (*paths)[PATH_MAX], int *err)
{
    char entry[PATH_MAX], buf[KT_MAX_STATES * 256];
    ssize_t got;
    int n = 0, fd;

    if (fastsig_registry_entry_path(dir, id, entry, sizeof(entry)) != FASTSIG_OK) {
        *err = ENAMETOOLONG;
        return -1;
    }
    if ((fd = open(entry, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC)) < 0) {
        *err = errno;
        return errno == ENOENT ? 0 : -1;
    }
    got = read(fd, buf, sizeof(buf) - 1);
    *err = errno;
    close(fd);
    if (got < 0)
        return -1;
    buf[got] = '\0';
    for (char *line = buf, *nl; (nl = strchr(line, '\n')) != NULL && n < KT_MAX_STATES;
         line = nl + 1) {
        *nl = '\0'; /* an unterminated last line is a torn append: left out */
        if (line[0] == '/' && strlen(line) < PATH_MAX)
            strcpy(paths[n++], line);
    }
    return n;
}

int kt_shard_states(const char *state, const char *idhex, char (*paths)[PATH_MAX], int n)
{
    char dir[PATH_MAX];
    size_t il = strlen(idhex);
    struct dirent *e;
    unsigned long long a, b;
    DIR *d;

    if (fastsig_state_dir_of(state, dir, sizeof(dir)) != FASTSIG_OK || (d = opendir(dir)) == NULL)
        return n;
    while (n < KT_MAX_STATES && (e = readdir(d)) != NULL) {
        char tail[16] = "";
        if (strncmp(e->d_name, idhex, il) != 0 || e->d_name[il] != '.'
            || sscanf(e->d_name + il + 1, "%llu-%llu%15s", &a, &b, tail) != 3
            || strcmp(tail, ".state") != 0)
            continue;
        if ((size_t)snprintf(paths[n], PATH_MAX, "%s/%s", dir, e->d_name) >= PATH_MAX)
            continue;
        int seen = 0; /* a shard's registry line names it already */
        for (int i = 0; i < n && !seen; i++)
            seen = strcmp(paths[i], paths[n]) == 0;
        n += !seen;
    }
    closedir(d);
    return n;
}

/* 1 when /proc/PID/fd holds a descriptor of dev/ino. */
static int holds(const char *pid, uint64_t dev, uint64_t ino)
{
    char path[64], fdpath[PATH_MAX];
    struct dirent *e;
    struct stat sb;
    DIR *d;
    int found = 0;

    snprintf(path, sizeof(path), "/proc/%s/fd", pid);
    if ((d = opendir(path)) == NULL)
        return 0; /* another user's, or gone */
    while (!found && (e = readdir(d)) != NULL)
        if (e->d_name[0] != '.' && snprintf(fdpath, sizeof(fdpath), "%s/%s", path, e->d_name) > 0
            && stat(fdpath, &sb) == 0)
            found = (uint64_t)sb.st_dev == dev && (uint64_t)sb.st_ino == ino;
    closedir(d);
    return found;
}

size_t kt_open_by(uint64_t dev, uint64_t ino, long *pids, size_t max)
{
    DIR *d = opendir("/proc");
    struct dirent *e;
    size_t n = 0;
    long self = (long)getpid();

    while (d != NULL && (e = readdir(d)) != NULL) {
        if (!isdigit((unsigned char)e->d_name[0]) || atol(e->d_name) == self)
            continue;
        if (holds(e->d_name, dev, ino) && n < max)
            pids[n++] = atol(e->d_name);
    }
    if (d != NULL)
        closedir(d);
    return n;
}
