/* fastsig-keytool - operations on fastsig private keys that openssl's own
 * commands have no verb for. Today: `shard`, which carves ranges of an XMSS,
 * XMSS^MT or HSS key's unspent indices into shard keys with state files of their
 * own (doc/state.md "Several signing hosts"), through the provider's
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
#include <unistd.h>
#include <openssl/core_names.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/params.h>
#include <openssl/pem.h>
#include <openssl/provider.h>
#include "fastsig/provider.h"

#define PASS_MAX 1024

typedef struct {
    const char *in, *out_prefix, *passin, *passout, *cipher, *state, *range, *provider_path;
    uint64_t count, size;
} OPTS;

static void usage(FILE *f)
{
    fprintf(f,
            "usage: fastsig-keytool shard --in KEY.pem --out-prefix PREFIX\n"
            "           [--count N] [--size S] [--range A-B]\n"
            "           [-passin ARG] [-passout ARG] [-cipher NAME] [-state PATH]\n"
            "           [-provider-path DIR]\n"
            "  Carves shards out of the unspent indices [next, end) of an XMSS,\n"
            "  XMSS^MT or HSS private key: its state file moves past each shard first,\n"
            "  then the shard's state file and PREFIX<i>.pem (i = 1, 2, ...) are\n"
            "  written.\n"
            "  --count N        N shards of equal size sharing all unspent indices\n"
            "                   (boundaries on bottom-subtree multiples where they fit)\n"
            "  --size S         shards of S indices each (N of them with --count, else 1)\n"
            "  --range A-B      one shard of indices A .. B-1 (inside [next, end))\n"
            "  -passin ARG      KEY.pem's passphrase: pass:TEXT, env:VAR or file:PATH\n"
            "  -passout ARG     encrypts the shard keys (PKCS#8, -cipher, default\n"
            "                   AES-256-CBC) with this passphrase\n"
            "  -state PATH      a directory for the shard states (default: the key's\n"
            "                   state directory; names <key id>.<A>-<B>.state), or with\n"
            "                   one shard the state file itself\n"
            "  -provider-path   where fastsig.so is (default: OPENSSL_MODULES, then\n"
            "                   libcrypto's module directory)\n");
}

static void die_ssl(const char *what)
{
    fprintf(stderr, "fastsig-keytool: %s\n", what);
    ERR_print_errors_fp(stderr);
}

/* openssl's passphrase arguments: pass:TEXT, env:VAR, file:PATH (first line). */
static int read_pass(const char *arg, char *out, size_t len)
{
    const char *v = NULL;
    if (strncmp(arg, "pass:", 5) == 0) {
        v = arg + 5;
    } else if (strncmp(arg, "env:", 4) == 0) {
        if ((v = getenv(arg + 4)) == NULL) {
            fprintf(stderr, "fastsig-keytool: no environment variable %s\n", arg + 4);
            return 0;
        }
    } else if (strncmp(arg, "file:", 5) == 0) {
        FILE *f = fopen(arg + 5, "r");
        if (f == NULL || fgets(out, (int)len, f) == NULL) {
            fprintf(stderr, "fastsig-keytool: cannot read %s: %s\n", arg + 5,
                    f == NULL ? strerror(errno) : "empty file");
            if (f != NULL)
                fclose(f);
            return 0;
        }
        fclose(f);
        out[strcspn(out, "\r\n")] = '\0';
        return 1;
    } else {
        fprintf(stderr, "fastsig-keytool: passphrase argument %s: use pass:, env: or file:\n",
                arg);
        return 0;
    }
    if (strlen(v) >= len) {
        fprintf(stderr, "fastsig-keytool: passphrase too long\n");
        return 0;
    }
    strcpy(out, v);
    return 1;
}

static EVP_PKEY *load_key(const char *path, const char *pass)
{
    BIO *in = BIO_new_file(path, "r");
    EVP_PKEY *k = NULL;
    if (in == NULL) {
        fprintf(stderr, "fastsig-keytool: cannot open %s: %s\n", path, strerror(errno));
        return NULL;
    }
    /* u is the passphrase when no callback is given (NULL: prompt) */
    k = PEM_read_bio_PrivateKey_ex(in, NULL, NULL, (void *)pass, NULL, NULL);
    BIO_free(in);
    if (k == NULL)
        die_ssl("cannot load the private key");
    return k;
}

/* Writes k to path through a temporary name, so that a crash leaves no
 * half key under the final name (its state file exists already: a shard
 * without a key just loses its range). */
static int write_key(EVP_PKEY *k, const char *path, const EVP_CIPHER *cipher, const char *pass)
{
    char tmp[4300];
    BIO *out;
    int ok;

    if (access(path, F_OK) == 0) {
        fprintf(stderr, "fastsig-keytool: %s exists: not overwritten\n", path);
        return 0;
    }
    if ((size_t)snprintf(tmp, sizeof(tmp), "%s.tmp.%ld", path, (long)getpid()) >= sizeof(tmp))
        return 0;
    if ((out = BIO_new_file(tmp, "wx")) == NULL) {
        fprintf(stderr, "fastsig-keytool: cannot create %s: %s\n", tmp, strerror(errno));
        return 0;
    }
    ok = PEM_write_bio_PrivateKey(out, k, cipher, NULL, 0, NULL, (void *)pass) == 1;
    ok = BIO_flush(out) == 1 && ok;
    BIO_free(out);
    if (ok && link(tmp, path) != 0) {
        fprintf(stderr, "fastsig-keytool: cannot write %s: %s\n", path, strerror(errno));
        ok = 0;
    } else if (!ok) {
        die_ssl("cannot encode the shard key");
    }
    unlink(tmp);
    return ok;
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

/* Loads the parent key again, turns that object into the shard `range` and
 * writes it. */
static int one_shard(const OPTS *o, const char *range, size_t i, const EVP_CIPHER *cipher,
                     const char *passin, const char *passout)
{
    char path[4200], state[4200] = "", got[64] = "";
    OSSL_PARAM set[3];
    EVP_PKEY *k = load_key(o->in, passin);
    int ok = 0, n = 0;

    if (k == NULL)
        return 0;
    set[n++] = OSSL_PARAM_construct_utf8_string(FASTSIG_PKEY_PARAM_SHARD_RANGE,
                                                (char *)range, 0);
    if (o->state != NULL)
        set[n++] = OSSL_PARAM_construct_utf8_string(FASTSIG_PKEY_PARAM_SHARD_STATE,
                                                    (char *)o->state, 0);
    set[n] = OSSL_PARAM_construct_end();
    snprintf(path, sizeof(path), "%s%zu.pem", o->out_prefix, i + 1);
    if (EVP_PKEY_set_params(k, set) != 1) {
        fprintf(stderr, "fastsig-keytool: shard %s of %s:\n", range, o->in);
        die_ssl("cannot carve the shard");
    } else if (write_key(k, path, cipher, passout)) {
        get_str(k, FASTSIG_PKEY_PARAM_SHARD_RANGE, got, sizeof(got));
        get_str(k, FASTSIG_PKEY_PARAM_STATE, state, sizeof(state));
        printf("%s: indices %s, state %s\n", path, got, state);
        ok = 1;
    }
    EVP_PKEY_free(k); /* writes the shard's node cache */
    return ok;
}

static int shard(const OPTS *o)
{
    char passin[PASS_MAX] = "", passout[PASS_MAX] = "", range[64];
    uint64_t next = 0, remaining = 0, align = 1, a = 0, b = 0;
    EVP_CIPHER *cipher = NULL;
    EVP_PKEY *k;
    char **ranges;
    size_t n = 0;
    int ok = 1;

    if ((o->passin != NULL && !read_pass(o->passin, passin, sizeof(passin)))
        || (o->passout != NULL && !read_pass(o->passout, passout, sizeof(passout))))
        return 2;
    if (o->passout != NULL
        && (cipher = EVP_CIPHER_fetch(NULL, o->cipher ? o->cipher : "AES-256-CBC", NULL)) == NULL) {
        die_ssl("unknown -cipher");
        return 2;
    }
    if ((k = load_key(o->in, o->passin ? passin : NULL)) == NULL)
        return 1;
    /* the key's own range: its end, and where its unspent part starts */
    if (!get_u64(k, FASTSIG_PKEY_PARAM_INDEX, &next)
        || !get_u64(k, FASTSIG_PKEY_PARAM_REMAINING, &remaining)
        || !get_str(k, FASTSIG_PKEY_PARAM_SHARD_RANGE, range, sizeof(range))
        || sscanf(range, "%" SCNu64 "-%" SCNu64, &a, &b) != 2
        || !get_u64(k, FASTSIG_PKEY_PARAM_SHARD_ALIGN, &align)) {
        die_ssl("this key has no usable signature state (an XMSS, XMSS^MT or HSS private key?)");
        EVP_PKEY_free(k);
        EVP_CIPHER_free(cipher);
        return 1;
    }
    EVP_PKEY_free(k);
    if ((ranges = plan(o, next, next + remaining, align ? align : 1, &n)) == NULL) {
        EVP_CIPHER_free(cipher);
        return 1;
    }
    for (size_t i = 0; i < n; i++) {
        if (ok)
            ok = one_shard(o, ranges[i], i, cipher, o->passin ? passin : NULL,
                           o->passout ? passout : NULL);
        free(ranges[i]);
    }
    free(ranges);
    EVP_CIPHER_free(cipher);
    OPENSSL_cleanse(passin, sizeof(passin));
    OPENSSL_cleanse(passout, sizeof(passout));
    return ok ? 0 : 1;
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

int main(int argc, char **argv)
{
    OPTS o = { 0 };
    OSSL_PROVIDER *fs, *dflt;
    int rc;

    if (argc < 2 || strcmp(argv[1], "shard") != 0) {
        usage(argc >= 2 && strcmp(argv[1], "-h") == 0 ? stdout : stderr);
        return argc >= 2 && strcmp(argv[1], "-h") == 0 ? 0 : 2;
    }
    for (int i = 2; i < argc; i++) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        int used = 1;
        if (a[0] == '-' && a[1] == '-')
            a++; /* --opt and -opt alike */
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
    if (o.provider_path != NULL && !OSSL_PROVIDER_set_default_search_path(NULL, o.provider_path)) {
        die_ssl("cannot set the provider path");
        return 2;
    }
    if ((fs = OSSL_PROVIDER_load(NULL, FASTSIG_PROVIDER_NAME)) == NULL
        || (dflt = OSSL_PROVIDER_load(NULL, "default")) == NULL) {
        die_ssl("cannot load the fastsig and default providers");
        return 1;
    }
    rc = shard(&o);
    OSSL_PROVIDER_unload(dflt);
    OSSL_PROVIDER_unload(fs);
    return rc;
}
