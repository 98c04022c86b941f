/* stateful_shard.c - shards of XMSS, XMSS^MT and HSS keys (stateful_key.h): a key object
 * turned into the signer of a range of its key's indices, with a state file
 * of its own; the range in the key encoding checked against that file. The
 * file work is crypto/state/shard.c. */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <openssl/crypto.h>
#include "prov.h"
#include "stateful_key.h"
#include "fastsig_err.h"
#include "state/shard.h"

int stateful_range_check(const STATEFUL_KEY *x, uint64_t max, uint64_t next)
{
    /* The file's checksums prove it was written whole, not that it is this
     * key's: a larger max would hand out indices the key does not have (a
     * one-time key signing twice), a next below a shard's first index ones
     * that belong to the parent or another shard. */
    uint64_t first, end;
    stateful_range(x, &first, &end);
    return max == end && next >= first ? FASTSIG_OK : FASTSIG_ERR_STATE_MAX;
}

void stateful_range_why(const STATEFUL_KEY *x, uint64_t max, uint64_t next, char *why, size_t whylen)
{
    uint64_t first, end;
    stateful_range(x, &first, &end);
    if (max != end)
        snprintf(why, whylen, "max %" PRIu64 " does not match the key's %" PRIu64, max, end);
    else
        snprintf(why, whylen, "next %" PRIu64 " is below the shard's first index %" PRIu64,
                 next, first);
}

void stateful_state_why(const STATEFUL_KEY *x, int err, char *why, size_t whylen)
{
    uint64_t first, end;
    stateful_range(x, &first, &end);
    if (err == FASTSIG_ERR_OTS_USED)
        snprintf(why, whylen, "its one signature is spent (a one-time key signs once)");
    else if (err != FASTSIG_ERR_KEY_EXHAUSTED)
        stateful_range_why(x, x->st_max, x->st_next, why, whylen);
    else if (first == 0 && end == x->ops->max(x->core))
        snprintf(why, whylen, "all %" PRIu64 " indices of the key are spent", end);
    else
        snprintf(why, whylen, "all indices of the shard's range %" PRIu64 "-%" PRIu64
                 " are spent", first, end);
}

void stateful_range_text(const STATEFUL_KEY *x, char *out, size_t outlen)
{
    uint64_t first, end;
    stateful_range(x, &first, &end);
    snprintf(out, outlen, "%" PRIu64 "-%" PRIu64, first, end);
}

uint64_t stateful_shard_align(const STATEFUL_KEY *x)
{
    return x->ops->shard_align(x->core);
}

/* "A-B" (indices A .. B-1) or "+N" (the next N unspent). */
static int parse_range(const char *s, uint64_t *first, uint64_t *count)
{
    char *end = NULL;
    uint64_t a, b;

    if (s == NULL || s[0] == '-' || s[0] == ' ')
        return FASTSIG_ERR_BAD_PARAM;
    errno = 0;
    if (s[0] == '+') {
        if (s[1] < '0' || s[1] > '9')
            return FASTSIG_ERR_BAD_PARAM;
        *count = strtoull(s + 1, &end, 10);
        *first = FASTSIG_STATE_FROM_NEXT;
        return errno == 0 && *end == '\0' && *count > 0 ? FASTSIG_OK : FASTSIG_ERR_BAD_PARAM;
    }
    a = strtoull(s, &end, 10);
    if (errno != 0 || end == s || *end != '-' || end[1] < '0' || end[1] > '9')
        return FASTSIG_ERR_BAD_PARAM;
    b = strtoull(end + 1, &end, 10);
    if (errno != 0 || *end != '\0' || b <= a)
        return FASTSIG_ERR_BAD_PARAM;
    *first = a;
    *count = b - a;
    return FASTSIG_OK;
}

/* Where the shard's state goes: a directory (*dir) or a file (*file), both
 * absolute; by default the parent's state directory. */
static int shard_dest(const STATEFUL_KEY *x, const char *opt, char *dir, char *file, size_t len)
{
    struct stat sb;
    const char *slash;

    dir[0] = file[0] = '\0';
    if (opt == NULL || opt[0] == '\0') {
        slash = strrchr(x->path, '/');
        if (slash == NULL || (size_t)(slash - x->path) >= len)
            return FASTSIG_ERR_BAD_PARAM;
        memcpy(dir, x->path, (size_t)(slash - x->path));
        dir[slash - x->path] = '\0';
        return FASTSIG_OK;
    }
    if (stat(opt, &sb) == 0 && S_ISDIR(sb.st_mode))
        return fastsig_state_resolve_dir(opt, dir, len, NULL);
    /* a file path: absolute, as every state path a key stores */
    if (opt[0] == '/')
        return (size_t)snprintf(file, len, "%s", opt) < len ? FASTSIG_OK : FASTSIG_ERR_BAD_PARAM;
    if (getcwd(dir, len) == NULL || (size_t)snprintf(file, len, "%s/%s", dir, opt) >= len)
        return FASTSIG_ERR_BAD_PARAM;
    dir[0] = '\0';
    return FASTSIG_OK;
}

/* Fills d with why the shard's state cannot go to path (a file, or the
 * directory unless is_file); cause as fastsig_state_carve_check filled it. */
static int dest_refused(int err, int is_file, const char *path, const fastsig_cause *cause,
                        FSP_ERRDETAIL *d)
{
    int sys = err == FASTSIG_ERR_STATE_IO || err == FASTSIG_ERR_STATE_NO_DIR
              ? cause->sys_errno : 0;
    fsp_detail_file(d, err, is_file || err == FASTSIG_ERR_STATE_EXISTS ? "state file"
                                                                       : "state directory",
                       path, sys, NULL);
    return err;
}

int stateful_shard(STATEFUL_KEY *x, const char *range, const char *state_opt, FSP_ERRDETAIL *d)
{
    char dir[4096], file[4096], path[4096], *copy;
    uint64_t first, count, got = UINT64_MAX;
    fastsig_cause cause;
    int err;

    if (!stateful_has_private(x))
        return FASTSIG_ERR_BAD_KEY;
    if (x->ops->set_range == NULL) /* a one-time key: nothing to share out */
        return FASTSIG_ERR_UNSUPPORTED;
    if ((err = parse_range(range, &first, &count)) != FASTSIG_OK
        || (err = shard_dest(x, state_opt, dir, file, sizeof(dir))) != FASTSIG_OK)
        return err;
    /* every output checked before the parent moves, the refusal naming its
     * path (EVP users carve through here too, not only the keytool) */
    if ((err = fastsig_state_carve_check(x->key_id, first, count, dir[0] ? dir : NULL,
                                         file[0] ? file : NULL, path, sizeof(path), &cause))
        != FASTSIG_OK)
        return dest_refused(err, file[0] != '\0', path, &cause, d);
    fastsig_state *st = stateful_state_of(x, &err, d);
    if (st == NULL)
        return err;
    stateful_cache_read(x); /* the parent's nodes go to the shard's cache file */
    err = fastsig_state_carve(st, x->key_id, first, count, dir[0] ? dir : NULL,
                              file[0] ? file : NULL, path, sizeof(path), &got, &cause);
    if (err != FASTSIG_OK) {
        if (err == FASTSIG_ERR_STATE_RANGE)
            fsp_detail_state_why(d, err, x->path, "the range asked for is not inside the unspent"
                             " indices [next, max) of this state");
        else if (got == UINT64_MAX) /* the parent's file */
            stateful_state_error(x, err, &cause, d);
        else /* the parent moved on: the range is lost, never reissued */
            fsp_detail_state(d, err, path, cause.sys_errno);
        return err;
    }
    if ((copy = OPENSSL_strdup(path)) == NULL)
        return FASTSIG_ERR_NOMEM;
    /* from here on this object is the shard */
    fastsig_state_close(x->st);
    x->st = NULL;
    OPENSSL_free(x->path);
    x->path = copy;
    stateful_register_shard(x);
    /* the core's range (its node cache goes to the shard's cache file when
     * the object is freed, so that the shard's first signer starts warm) */
    if ((err = x->ops->set_range(x->core, got, got + count)) != FASTSIG_OK)
        return err;
    /* the new state is opened and checked against the range now, not at
     * the shard's first signature */
    return stateful_state_of(x, &err, d) != NULL ? FASTSIG_OK : err;
}
