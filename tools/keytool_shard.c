/* keytool_shard.c - `fastsig-keytool shard`: carves ranges of an XMSS,
 * XMSS^MT or HSS key's unspent indices into shard keys with state files of
 * their own (doc/state.md "Several signing hosts"), through the provider's
 * documented "shard-range" key parameter (fastsig/provider.h), so that
 * encrypted PEM keys work as with openssl.
 *
 * Exit status: 0 every shard written; 1 a shard could not be carved or
 * written (the ones before it are done; see the messages); 2 usage. */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <openssl/core_names.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/params.h>
#include <openssl/pem.h>
#include <openssl/provider.h>
#include "fastsig/provider.h"
#include "fastsig_err.h"
#include "keytool_keyio.h"
#include "state/shard.h"

#include "keytool_cmds.h"

typedef struct {
    const char *in, *out_prefix, *passin, *passout, *cipher, *state, *range, *provider_path;
    uint64_t count, size;
    int nocrypt;
} OPTS;

static void usage(FILE *f)
{
    fprintf(f,
            "usage: fastsig-keytool shard --in KEY.pem --out-prefix PREFIX\n"
            "           [--count N] [--size S] [--range A-B]\n"
            "           [-passin ARG] [-passout ARG | -nocrypt] [-cipher NAME]\n"
            "           [-state PATH]\n"
            "           [-provider-path DIR]\n"
            "  Carves shards out of the unspent indices [next, end) of an XMSS,\n"
            "  XMSS^MT or HSS private key: its state file moves past each shard first,\n"
            "  then the shard's state file and PREFIX<i>.pem (i = 1, 2, ...; mode 0600)\n"
            "  are written. Nothing moves while a key file exists or a directory to\n"
            "  write in is missing.\n"
            "  --count N        N shards of equal size sharing all unspent indices\n"
            "                   (boundaries on bottom-subtree multiples where they fit)\n"
            "  --size S         shards of S indices each (N of them with --count, else 1)\n"
            "  --range A-B      one shard of indices A .. B-1 (inside [next, end))\n"
            "  -passin ARG      KEY.pem's passphrase: pass:TEXT, env:VAR or file:PATH\n"
            "  -passout ARG     encrypts the shard keys (PKCS#8, -cipher, default\n"
            "                   AES-256-CBC) with this passphrase; the shards of an\n"
            "                   encrypted KEY.pem are encrypted with its passphrase\n"
            "                   unless -passout gives another\n"
            "  -nocrypt         the shards of an encrypted KEY.pem unencrypted (warns)\n"
            "  -state PATH      a directory for the shard states (default: the key's\n"
            "                   state directory; names <key id>.<A>-<B>.state), or with\n"
            "                   one shard the state file itself\n"
            "  -provider-path   where fastsig.so is (default: OPENSSL_MODULES, then\n"
            "                   libcrypto's module directory)\n");
}

static int get_u64(EVP_PKEY *k, const char *name, uint64_t *v)
{
    OSSL_PARAM p[] = { OSSL_PARAM_uint64(name, v), OSSL_PARAM_END };
    return EVP_PKEY_get_params(k, p);
}

static int get_str(EVP_PKEY *k, const char *name, char *buf, size_t len)
{
    OSSL_PARAM p[] = { OSSL_PARAM_utf8_string(name, buf, len), OSSL_PARAM_END };
    return EVP_PKEY_get_params(k, p);
}

/* The ranges to carve, as "A-B" / "+S" texts (*n of them, malloc'd array). */
static char **plan(const OPTS *o, uint64_t next, uint64_t end, uint64_t align, size_t *n)
{
    uint64_t left = end - next, count = o->count ? o->count : 1, size, a, b;
    char **r;

    if (o->range != NULL) {
        count = 1;
    } else if (o->size == 0 && (o->count == 0 || o->count > left)) {
        fprintf(stderr, "fastsig-keytool: %" PRIu64 " unspent indices [%" PRIu64 ", %" PRIu64
                ") cannot make %" PRIu64 " shard(s)\n", left, next, end, o->count);
        return NULL;
    } else if (o->size != 0 && (count > left / o->size)) {
        fprintf(stderr, "fastsig-keytool: %" PRIu64 " unspent indices cannot make %" PRIu64
                " shard(s) of %" PRIu64 "\n", left, count, o->size);
        return NULL;
    }
    if ((r = calloc(count, sizeof(*r))) == NULL)
        return NULL;
    size = o->size ? o->size : left / count;
    for (uint64_t i = 0; i < count; i++) {
        r[i] = malloc(48);
        if (r[i] == NULL)
            return NULL;
        if (o->range != NULL) {
            snprintf(r[i], 48, "%s", o->range);
        } else if (o->size != 0) {
            snprintf(r[i], 48, "+%" PRIu64, o->size); /* each from the next unspent */
        } else {
            /* equal shares; inner boundaries rounded down to a bottom
             * subtree where the share is larger than one */
            a = next + i * size;
            b = i + 1 == count ? end : next + (i + 1) * size;
            if (size > align) {
                if (i > 0)
                    a -= a % align;
                if (i + 1 < count)
                    b -= b % align;
            }
            snprintf(r[i], 48, "%" PRIu64 "-%" PRIu64, a, b);
        }
    }
    *n = count;
    return r;
}

/* PREFIX<i + 1>.pem into path: 1, else 0 (too long). */
static int key_path(const OPTS *o, size_t i, char *path, size_t len)
{
    if ((size_t)snprintf(path, len, "%s%zu.pem", o->out_prefix, i + 1) < len)
        return 1;
    fprintf(stderr, "fastsig-keytool: %s: prefix too long\n", o->out_prefix);
    return 0;
}

/* Before the parent's state moves: none of the n key files exists, their
 * directory takes new files, and a -state that is not a directory (one
 * state file) is for one shard only. The shard states' places the provider
 * checks as it carves, again before the parent moves. */
static int outputs_free(const OPTS *o, size_t n)
{
    char path[4200], dir[4200];
    struct stat sb;
    fastsig_cause cause = { 0 }; /* no errno when the name does not fit */

    for (size_t i = 0; i < n; i++) {
        if (!key_path(o, i, path, sizeof(path)))
            return 0;
        if (lstat(path, &sb) == 0) {
            fprintf(stderr, "fastsig-keytool: %s exists: not overwritten (nothing carved)\n",
                    path);
            return 0;
        }
    }
    key_path(o, 0, path, sizeof(path)); /* all n in its directory */
    if (fastsig_state_dir_of(path, dir, sizeof(dir)) != FASTSIG_OK
        || fastsig_state_dir_writable(dir, &cause) != FASTSIG_OK) {
        fprintf(stderr, "fastsig-keytool: cannot create %s in the directory %s: %s"
                        " (nothing carved)\n", path, dir, strerror(cause.sys_errno));
        return 0;
    }
    if (n > 1 && o->state != NULL && !(stat(o->state, &sb) == 0 && S_ISDIR(sb.st_mode))) {
        fprintf(stderr, "fastsig-keytool: -state %s is no directory: it names the state file of"
                        " one shard, not of %zu (nothing carved)\n", o->state, n);
        return 0;
    }
    return 1;
}

/* Loads the parent key again, turns that object into the shard `range` and
 * writes it. */
static int one_shard(const OPTS *o, const char *range, size_t i, const EVP_CIPHER *cipher,
                     KT_PASSIN *in, const char *passout)
{
    char path[4200], state[4200] = "", got[64] = "";
    OSSL_PARAM set[3];
    EVP_PKEY *k;
    int ok = 0, n = 0;

    if (!key_path(o, i, path, sizeof(path)) || (k = kt_load_key(o->in, in)) == NULL)
        return 0;
    set[n++] = OSSL_PARAM_construct_utf8_string(FASTSIG_PKEY_PARAM_SHARD_RANGE,
                                                (char *)range, 0);
    if (o->state != NULL)
        set[n++] = OSSL_PARAM_construct_utf8_string(FASTSIG_PKEY_PARAM_SHARD_STATE,
                                                    (char *)o->state, 0);
    set[n] = OSSL_PARAM_construct_end();
    if (EVP_PKEY_set_params(k, set) != 1) {
        fprintf(stderr, "fastsig-keytool: shard %s of %s:\n", range, o->in);
        kt_die_ssl("cannot carve the shard");
    } else if (kt_write_key(k, path, cipher, passout)) {
        get_str(k, FASTSIG_PKEY_PARAM_SHARD_RANGE, got, sizeof(got));
        get_str(k, FASTSIG_PKEY_PARAM_STATE, state, sizeof(state));
        printf("%s: indices %s, state %s\n", path, got, state);
        ok = 1;
    }
    EVP_PKEY_free(k); /* writes the shard's node cache */
    return ok;
}

/* The shard keys' passphrase: -passout's, else an encrypted parent's
 * (unless -nocrypt, with a warning), else none (NULL). */
static const char *out_pass(const OPTS *o, const KT_PASSIN *in, const char *passout)
{
    if (o->passout != NULL)
        return passout;
    if (in->encrypted && o->nocrypt)
        fprintf(stderr, "fastsig-keytool: warning: %s is encrypted, but -nocrypt writes its"
                        " shard keys unencrypted\n", o->in);
    return in->encrypted && !o->nocrypt ? in->pass : NULL;
}

/* The parent's unspent indices [*next, *end) and its shard-align (>= 1). */
static int key_range(EVP_PKEY *k, uint64_t *next, uint64_t *end, uint64_t *align)
{
    char range[64];
    uint64_t remaining = 0, a = 0, b = 0;

    if (!get_u64(k, FASTSIG_PKEY_PARAM_INDEX, next)
        || !get_u64(k, FASTSIG_PKEY_PARAM_REMAINING, &remaining)
        || !get_str(k, FASTSIG_PKEY_PARAM_SHARD_RANGE, range, sizeof(range))
        || sscanf(range, "%" SCNu64 "-%" SCNu64, &a, &b) != 2
        || !get_u64(k, FASTSIG_PKEY_PARAM_SHARD_ALIGN, align)) {
        kt_die_ssl("this key has no usable signature state (an XMSS, XMSS^MT or HSS private key?)");
        return 0;
    }
    *end = *next + remaining;
    *align = *align ? *align : 1;
    return 1;
}

static int shard(const OPTS *o)
{
    char passout[KT_PASS_MAX] = "";
    KT_PASSIN in = { .known = o->passin != NULL };
    uint64_t next = 0, end = 0, align = 1;
    EVP_CIPHER *cipher = NULL;
    const char *outpass = NULL;
    EVP_PKEY *k = NULL;
    char **ranges = NULL;
    size_t n = 0;
    int rc = 2;

    if ((o->passin != NULL && !kt_read_pass(o->passin, in.pass, sizeof(in.pass)))
        || (o->passout != NULL && !kt_read_pass(o->passout, passout, sizeof(passout))))
        goto done;
    rc = 1;
    if ((k = kt_load_key(o->in, &in)) == NULL || !key_range(k, &next, &end, &align))
        goto done;
    if ((outpass = out_pass(o, &in, passout)) != NULL
        && (cipher = EVP_CIPHER_fetch(NULL, o->cipher ? o->cipher : "AES-256-CBC", NULL)) == NULL) {
        kt_die_ssl("unknown -cipher");
        rc = 2;
        goto done;
    }
    if ((ranges = plan(o, next, end, align, &n)) == NULL || !outputs_free(o, n))
        goto done;
    rc = 0;
    for (size_t i = 0; i < n && rc == 0; i++)
        rc = one_shard(o, ranges[i], i, cipher, &in, outpass) ? 0 : 1;
done:
    for (size_t i = 0; ranges != NULL && i < n; i++)
        free(ranges[i]);
    free(ranges);
    EVP_PKEY_free(k);
    EVP_CIPHER_free(cipher);
    OPENSSL_cleanse(&in, sizeof(in));
    OPENSSL_cleanse(passout, sizeof(passout));
    return rc;
}

static int parse_u64(const char *s, uint64_t *v)
{
    char *end = NULL;
    errno = 0;
    if (s == NULL || s[0] < '0' || s[0] > '9')
        return 0;
    *v = strtoull(s, &end, 10);
    return errno == 0 && *end == '\0' && *v > 0;
}

int kt_cmd_shard(int argc, char **argv)
{
    OPTS o = { 0 };
    OSSL_PROVIDER *fs, *dflt;
    int rc;

    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        int used = 1;
        if (a[0] == '-' && a[1] == '-')
            a++; /* --opt and -opt alike */
        if (strcmp(a, "-h") == 0 || strcmp(a, "-help") == 0) {
            usage(stdout);
            return 0;
        }
        if (strcmp(a, "-nocrypt") == 0) { /* the one option without a value */
            o.nocrypt = 1;
            continue;
        }
        if (strcmp(a, "-in") == 0 && v)
            o.in = v;
        else if (strcmp(a, "-out-prefix") == 0 && v)
            o.out_prefix = v;
        else if (strcmp(a, "-count") == 0 && v && parse_u64(v, &o.count))
            ;
        else if (strcmp(a, "-size") == 0 && v && parse_u64(v, &o.size))
            ;
        else if (strcmp(a, "-range") == 0 && v)
            o.range = v;
        else if (strcmp(a, "-passin") == 0 && v)
            o.passin = v;
        else if (strcmp(a, "-passout") == 0 && v)
            o.passout = v;
        else if (strcmp(a, "-cipher") == 0 && v)
            o.cipher = v;
        else if (strcmp(a, "-state") == 0 && v)
            o.state = v;
        else if (strcmp(a, "-provider-path") == 0 && v)
            o.provider_path = v;
        else
            used = 0;
        if (!used) {
            fprintf(stderr, "fastsig-keytool: bad option or value: %s\n", argv[i]);
            usage(stderr);
            return 2;
        }
        i++;
    }
    if (o.in == NULL || o.out_prefix == NULL || (o.range != NULL && (o.count || o.size))) {
        fprintf(stderr, "fastsig-keytool: shard needs --in and --out-prefix, and --range"
                        " goes alone (not with --count or --size)\n");
        return 2;
    }
    if (o.nocrypt && (o.passout != NULL || o.cipher != NULL)) {
        fprintf(stderr, "fastsig-keytool: -nocrypt goes without -passout and -cipher\n");
        return 2;
    }
    if (!kt_provider_path(o.provider_path))
        return 2;
    if (!kt_load_providers(&fs, &dflt))
        return 1;
    rc = shard(&o);
    OSSL_PROVIDER_unload(dflt);
    OSSL_PROVIDER_unload(fs);
    return rc;
}
