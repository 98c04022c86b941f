/* hbs_adapter.c - the shared base of the WOTSP, XMSS and XMSS^MT adapters
 * (hbs_adapter.h): key object, state file wiring, private-key framing, key
 * and context parameters, text; and the XMSS / XMSS^MT signing itself with
 * its tree-node cache file (<state path>.cache: public nodes, authenticated
 * by the core with a key derived from SK_SEED, rebuilt when missing or bad). */
#define _GNU_SOURCE /* CPU_COUNT, F_OFD_SETLK */
#include <errno.h>
#include <sched.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include <openssl/crypto.h>
#include <openssl/params.h>
#include "prov.h"
#include "hbs_adapter.h"
#include "fastsig_err.h"
#include "fastsig/provider.h"
#include "hash/hash.h"

uint32_t hbsa_be32(const unsigned char *b)
{
    return (uint32_t)b[0] << 24 | (uint32_t)b[1] << 16 | (uint32_t)b[2] << 8 | b[3];
}

HBSA_KEY *hbsa_new(const hbs_params *p)
{
    HBSA_KEY *x = OPENSSL_zalloc(sizeof(*x));
    if (x == NULL)
        return NULL;
    x->p = p;
    x->pklen = 4 + 2 * (size_t)p->n;
    x->st_err = FASTSIG_ERR_BAD_KEY;
    x->batch = FASTSIG_STATE_DEFAULT_BATCH;
    pthread_mutex_init(&x->mu, NULL);
    return x;
}

const hbs_params *hbsa_params(int kind, const char *name)
{
    const hbs_params *p = hbs_params_by_name(name);
    return p != NULL && p->kind == kind ? p : NULL;
}

int hbsa_seed(const FS_GENOPTS *o, const hbs_params *p, uint8_t *seed)
{
    size_t len = 3 * (size_t)p->n;
    if (o->bits != 0)
        return FASTSIG_ERR_UNSUPPORTED;
    if (o->seed != NULL) {
        if (o->seedlen != len)
            return FASTSIG_ERR_BAD_LENGTH;
        memcpy(seed, o->seed, len);
        return FASTSIG_OK;
    }
    return o->rng(o->rng_arg, seed, len) ? FASTSIG_OK : FASTSIG_ERR_RNG;
}

static int key_id(HBSA_KEY *x)
{
    fs_hash_params hp = { FS_HASH_SHA256, 32, 32 };
    return fs_hash_many(&hp, x->key_id, x->pk, x->pklen, 1);
}

/* The state path stored in the key: absolute, so the key works from any
 * working directory. */
static int state_path(HBSA_KEY *x, const char *opt)
{
    char buf[4096], dir[4096];
    int err;

    if (opt == NULL || opt[0] == '\0') {
        const char *cfg = fs_config_state_dir();
        if ((err = fastsig_state_default_dir(cfg, dir, sizeof(dir))) != FASTSIG_OK
            || (err = fastsig_state_make_dir(dir)) != FASTSIG_OK
            || (err = fastsig_state_default_path(cfg, x->key_id, buf, sizeof(buf))) != FASTSIG_OK)
            return err;
    } else if (opt[0] == '/') {
        if (strlen(opt) >= sizeof(buf))
            return FASTSIG_ERR_BAD_PARAM;
        strcpy(buf, opt);
    } else {
        if (getcwd(dir, sizeof(dir)) == NULL
            || (size_t)snprintf(buf, sizeof(buf), "%s/%s", dir, opt) >= sizeof(buf))
            return FASTSIG_ERR_BAD_PARAM;
    }
    if (strlen(buf) > 0xffff)
        return FASTSIG_ERR_BAD_PARAM;
    return (x->path = OPENSSL_strdup(buf)) != NULL ? FASTSIG_OK : FASTSIG_ERR_NOMEM;
}

void hbsa_attach(HBSA_KEY *x)
{
    if ((x->st_err = key_id(x)) != FASTSIG_OK)
        return;
    x->st_err = fastsig_state_open(x->path, x->key_id, &x->st);
    if (x->st != NULL && x->batch != FASTSIG_STATE_DEFAULT_BATCH)
        fastsig_state_set_batch(x->st, x->batch);
}

int hbsa_state_new(HBSA_KEY *x, const char *state_opt, uint64_t max)
{
    int err;
    if ((err = key_id(x)) != FASTSIG_OK || (err = state_path(x, state_opt)) != FASTSIG_OK
        || (err = fastsig_state_create(x->path, x->key_id, max, 0, 0)) != FASTSIG_OK)
        return err;
    hbsa_attach(x);
    return x->st_err;
}

int hbsa_priv_split(const unsigned char *in, size_t len, size_t corelen, char **path)
{
    size_t pl;
    if (len < corelen + 2)
        return FASTSIG_ERR_BAD_KEY;
    pl = (size_t)in[corelen] << 8 | in[corelen + 1];
    if (len != corelen + 2 + pl || pl == 0 || memchr(in + corelen + 2, 0, pl) != NULL)
        return FASTSIG_ERR_BAD_KEY;
    return (*path = OPENSSL_strndup((const char *)in + corelen + 2, pl)) != NULL
           ? FASTSIG_OK : FASTSIG_ERR_NOMEM;
}

int hbsa_priv_frame(const HBSA_KEY *x, const uint8_t *core, size_t corelen,
                    unsigned char *out, size_t *len)
{
    size_t pl = x->path != NULL ? strlen(x->path) : 0, need = corelen + 2 + pl;
    if (x->path == NULL)
        return FASTSIG_ERR_BAD_KEY;
    if (out != NULL) {
        if (*len < need)
            return FASTSIG_ERR_BAD_LENGTH;
        memcpy(out, core, corelen);
        out[corelen] = (unsigned char)(pl >> 8);
        out[corelen + 1] = (unsigned char)pl;
        memcpy(out + corelen + 2, x->path, pl);
    }
    *len = need;
    return FASTSIG_OK;
}

int hbsa_take(HBSA_KEY *x, const FS_SIGOPTS *o, uint64_t *idx)
{
    uint64_t want = o != NULL && o->v[0] > 0 ? (uint64_t)o->v[0] : 0;
    int err;

    if (x->st == NULL)
        return x->st_err;
    if (want == 0 || want == x->batch)
        return fastsig_state_take(x->st, idx);
    /* a signature context's own block size, for this take only */
    pthread_mutex_lock(&x->mu);
    fastsig_state_set_batch(x->st, want);
    err = fastsig_state_take(x->st, idx);
    fastsig_state_set_batch(x->st, x->batch);
    pthread_mutex_unlock(&x->mu);
    return err;
}

int hbsa_pub_decode(int kind, const unsigned char *in, size_t len, void **key)
{
    const hbs_params *p;
    HBSA_KEY *x;

    if (len < 4 || (p = hbs_params_by_oid(kind, hbsa_be32(in))) == NULL
        || len != 4 + 2 * (size_t)p->n)
        return FASTSIG_ERR_BAD_KEY;
    if ((x = hbsa_new(p)) == NULL)
        return FASTSIG_ERR_NOMEM;
    memcpy(x->pk, in, len);
    *key = x;
    return FASTSIG_OK;
}

/* ---- tree-node cache file (XMSS, XMSS^MT) ---- */

static char *cache_path(const HBSA_KEY *x)
{
    size_t l = strlen(x->path) + sizeof(".cache");
    char *c = OPENSSL_malloc(l);
    if (c != NULL)
        snprintf(c, l, "%s.cache", x->path);
    return c;
}

/* Whole-file lock of a cache file, waiting or not: OFD locks where the
 * kernel has them (descriptors of one process exclude each other too). */
static int cache_lock(int fd, short type, int wait)
{
    struct flock fl;
    int r;

    memset(&fl, 0, sizeof(fl));
    fl.l_type = type;
    fl.l_whence = SEEK_SET;
#ifdef F_OFD_SETLKW
    while ((r = fcntl(fd, wait ? F_OFD_SETLKW : F_OFD_SETLK, &fl)) != 0 && errno == EINTR)
        ;
    if (r == 0 || errno != EINVAL)
        return r;
#endif
    while ((r = fcntl(fd, wait ? F_SETLKW : F_SETLK, &fl)) != 0 && errno == EINTR)
        ;
    return r;
}

/* All of len bytes at offset 0, read or written; 1 when done. */
static int cache_io(int fd, uint8_t *buf, size_t len, int writing)
{
    size_t off = 0;
    while (off < len) {
        ssize_t r = writing ? pwrite(fd, buf + off, len - off, (off_t)off)
                            : pread(fd, buf + off, len - off, (off_t)off);
        if (r < 0 && errno == EINTR)
            continue;
        if (r <= 0)
            return 0;
        off += (size_t)r;
    }
    return 1;
}

/* Best effort: the cache is public and verified on import. Written in place
 * under an exclusive lock (loaders take a shared one, so none reads it half
 * written; a writer that finds it locked leaves it to the other). Not a new
 * file renamed over the old one: on ext4 that starts writeback of the whole
 * file (auto_da_alloc), most of a one-signature process's time with a
 * 135 KB cache. A writer killed midway leaves a torn file: the core's tag
 * refuses it and the next signer rebuilds and rewrites it. */
static void cache_save(HBSA_KEY *x)
{
    char *path = cache_path(x);
    uint8_t *buf = NULL;
    size_t len = 0;
    int fd = -1;

    if (path == NULL || hbs_cache_export(x->k, &buf, &len) != FASTSIG_OK
        || (fd = open(path, O_WRONLY | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0600)) < 0
        || cache_lock(fd, F_WRLCK, 0) != 0)
        goto done;
    if (!cache_io(fd, buf, len, 1) || ftruncate(fd, (off_t)len) != 0) {
        /* torn or too long: the loader's size and tag checks refuse it */
    }
done:
    if (fd >= 0)
        close(fd); /* drops the lock */
    free(buf);
    OPENSSL_free(path);
}

static void cache_load(HBSA_KEY *x)
{
    char *path = cache_path(x);
    uint8_t *buf = NULL;
    struct stat sb;
    int fd = -1;

    if (path == NULL || (fd = open(path, O_RDONLY | O_CLOEXEC)) < 0
        || cache_lock(fd, F_RDLCK, 1) != 0 || fstat(fd, &sb) != 0
        || sb.st_size <= 0 || sb.st_size > (64 << 20)
        || (buf = OPENSSL_malloc((size_t)sb.st_size)) == NULL)
        goto done;
    /* a mismatching or damaged cache is refused by the core: then signing
     * rebuilds what it needs and that process rewrites the file when it
     * frees the key (a process that changes nothing, e.g. one that only
     * reads the key or signs inside an XMSS tree kept whole, leaves it
     * alone) */
    if (cache_io(fd, buf, (size_t)sb.st_size, 0))
        hbs_cache_import(x->k, buf, (size_t)sb.st_size);
done:
    if (fd >= 0)
        close(fd);
    OPENSSL_free(buf);
    OPENSSL_free(path);
}

/* ---- shared hooks ---- */

void hbsa_free(void *key)
{
    HBSA_KEY *x = key;
    if (x == NULL)
        return;
    if (x->k != NULL && x->st != NULL && hbs_cache_changes(x->k) != x->saved)
        cache_save(x);
    fastsig_state_close(x->st);
    hbs_key_free(x->k);
    if (x->sk != NULL)
        OPENSSL_secure_clear_free(x->sk, x->sklen);
    OPENSSL_free(x->path);
    OPENSSL_free(x->ltkm);
    pthread_mutex_destroy(&x->mu);
    OPENSSL_free(x);
}

int hbsa_has_private(const void *key)
{
    const HBSA_KEY *x = key;
    return x->k != NULL || x->sk != NULL;
}

int hbsa_pub_encode(const void *key, unsigned char *out, size_t *len)
{
    const HBSA_KEY *x = key;
    if (out != NULL) {
        if (*len < x->pklen)
            return FASTSIG_ERR_BAD_LENGTH;
        memcpy(out, x->pk, x->pklen);
    }
    *len = x->pklen;
    return FASTSIG_OK;
}

const char *hbsa_param_name(const void *key)
{
    return ((const HBSA_KEY *)key)->p->name;
}

int hbsa_state(const void *key, FS_STATEINFO *out)
{
    const HBSA_KEY *x = key;
    if (!hbsa_has_private(x))
        return FASTSIG_ERR_BAD_KEY;
    if (x->st == NULL)
        return x->st_err;
    return fastsig_state_query(x->st, &out->index, &out->remaining, &out->max);
}

/* Signature-context option v[0]: reservation block size, 0 = the key's. */
const OSSL_PARAM hbsa_ctx_params[] = {
    OSSL_PARAM_uint64(FASTSIG_PKEY_PARAM_BATCH, NULL),
    OSSL_PARAM_END
};
const OSSL_PARAM hbsa_key_gettable[] = {
    OSSL_PARAM_uint64(FASTSIG_PKEY_PARAM_BATCH, NULL),
    OSSL_PARAM_utf8_string(FASTSIG_PKEY_PARAM_STATE, NULL, 0),
    OSSL_PARAM_END
};
const OSSL_PARAM hbsa_key_settable[] = {
    OSSL_PARAM_uint64(FASTSIG_PKEY_PARAM_BATCH, NULL),
    OSSL_PARAM_END
};

void hbsa_sigopts_default(const FS_SIGALG *alg, FS_SIGOPTS *o)
{
    memset(o, 0, sizeof(*o));
}

static int get_batch(const OSSL_PARAM params[], uint64_t *v)
{
    const OSSL_PARAM *p = OSSL_PARAM_locate_const(params, FASTSIG_PKEY_PARAM_BATCH);
    if (p == NULL)
        return 0;
    if (p->data_type == OSSL_PARAM_UTF8_STRING) { /* -pkeyopt / -sigopt text */
        char *end = NULL;
        if (p->data == NULL || ((const char *)p->data)[0] == '-')
            return -1;
        *v = strtoull(p->data, &end, 10);
        if (end == p->data || *end != '\0')
            return -1;
    } else if (!OSSL_PARAM_get_uint64(p, v)) {
        return -1;
    }
    return *v >= 1 && *v <= (1u << 30) ? 1 : -1;
}

int hbsa_ctx_set(FS_SIGOPTS *o, const OSSL_PARAM params[])
{
    uint64_t v = 0;
    int r = get_batch(params, &v);
    if (r < 0)
        return FASTSIG_ERR_BAD_PARAM;
    if (r > 0)
        o->v[0] = (int)v;
    return FASTSIG_OK;
}

int hbsa_ctx_get(const FS_SIGOPTS *o, OSSL_PARAM params[])
{
    OSSL_PARAM *p = OSSL_PARAM_locate(params, FASTSIG_PKEY_PARAM_BATCH);
    if (p != NULL && !OSSL_PARAM_set_uint64(p, (uint64_t)o->v[0]))
        return FASTSIG_ERR_BAD_PARAM;
    return FASTSIG_OK;
}

int hbsa_get_params(const void *key, OSSL_PARAM params[])
{
    const HBSA_KEY *x = key;
    OSSL_PARAM *p;
    if ((p = OSSL_PARAM_locate(params, FASTSIG_PKEY_PARAM_BATCH)) != NULL
        && !OSSL_PARAM_set_uint64(p, x->batch))
        return FASTSIG_ERR_BAD_PARAM;
    if ((p = OSSL_PARAM_locate(params, FASTSIG_PKEY_PARAM_STATE)) != NULL && x->path != NULL
        && !OSSL_PARAM_set_utf8_string(p, x->path))
        return FASTSIG_ERR_BAD_PARAM;
    return FASTSIG_OK;
}

int hbsa_set_params(void *key, const OSSL_PARAM params[])
{
    HBSA_KEY *x = key;
    uint64_t v = 0;
    int r = get_batch(params, &v);
    if (r < 0)
        return FASTSIG_ERR_BAD_PARAM;
    if (r > 0) {
        pthread_mutex_lock(&x->mu);
        x->batch = v;
        if (x->st != NULL)
            fastsig_state_set_batch(x->st, v);
        pthread_mutex_unlock(&x->mu);
    }
    return FASTSIG_OK;
}

int hbsa_text(const void *key, int selection, BIO *out)
{
    const HBSA_KEY *x = key;
    if ((selection & OSSL_KEYMGMT_SELECT_PRIVATE_KEY) && x->path != NULL
        && BIO_printf(out, "state file: %s\n", x->path) <= 0)
        return FASTSIG_ERR_INTERNAL;
    return fs_text_hex(out, "pub", x->pk, x->pklen) ? FASTSIG_OK : FASTSIG_ERR_INTERNAL;
}

/* ---- XMSS and XMSS^MT ---- */

/* genpkey prints a '.' per call with potential 0 and a newline for 3:
 * about 40 dots over a key generation. */
typedef struct {
    const FS_GENOPTS *o;
    uint64_t shown;
} HBSA_PROGRESS;

static int progress(void *arg, uint64_t done, uint64_t total)
{
    HBSA_PROGRESS *g = arg;
    uint64_t step = total > 0 ? done * 40 / total : 40;
    int go = 1;
    for (; g->shown < step && go; g->shown++)
        go = g->o->progress(g->o->progress_arg, 0, (int)g->shown);
    return !go; /* hbs: nonzero = stop; FS_GENOPTS: 0 = stop */
}

/* Key-generation threads by default: the CPUs this process may run on
 * (its affinity mask, so taskset and cpusets count), at most 8. */
static unsigned default_threads(void)
{
    cpu_set_t set;
    long n = sched_getaffinity(0, sizeof(set), &set) == 0 ? CPU_COUNT(&set)
                                                          : sysconf(_SC_NPROCESSORS_ONLN);
    return n < 1 ? 1 : n > 8 ? 8 : (unsigned)n;
}

const OSSL_PARAM hbsa_xmss_gen_settable[] = {
    OSSL_PARAM_uint(FASTSIG_PKEY_PARAM_THREADS, NULL),
    OSSL_PARAM_END
};

int hbsa_xmss_gen(int kind, const FS_GENOPTS *o, void **key)
{
    const char *name = o->param != NULL ? o->param
                       : kind == HBS_KIND_XMSS ? "XMSS-SHA2_10_256" : "XMSSMT-SHA2_20/4_256";
    const hbs_params *p = hbsa_params(kind, name);
    uint8_t seed[3 * HBS_MAX_N];
    HBSA_PROGRESS pg = { o, 0 };
    HBSA_KEY *x;
    int err;

    if (p == NULL || o->mode != NULL)
        return FASTSIG_ERR_UNSUPPORTED;
    if ((err = hbsa_seed(o, p, seed)) != FASTSIG_OK)
        return err;
    if ((x = hbsa_new(p)) == NULL) {
        OPENSSL_cleanse(seed, sizeof(seed));
        return FASTSIG_ERR_NOMEM;
    }
    err = hbs_keygen(p, seed, 3 * (size_t)p->n, o->threads ? o->threads : default_threads(),
                     progress, &pg, &x->k);
    OPENSSL_cleanse(seed, sizeof(seed));
    if (err == FASTSIG_OK) {
        o->progress(o->progress_arg, 3, 0);
        err = hbs_key_export_pk(x->k, x->pk, x->pklen);
    }
    if (err == FASTSIG_OK)
        err = hbsa_state_new(x, o->state, hbs_last_index(p) + 1);
    if (err != FASTSIG_OK) {
        hbsa_free(x);
        return err;
    }
    cache_save(x); /* so that the first signer process starts warm */
    x->saved = hbs_cache_changes(x->k);
    *key = x;
    return FASTSIG_OK;
}

int hbsa_xmss_priv_encode(const void *key, unsigned char *out, size_t *len)
{
    const HBSA_KEY *x = key;
    uint8_t core[4 + 8 + 4 * HBS_MAX_N];
    size_t sk = hbs_sk_bytes(x->p);
    uint64_t next = 0;
    int err;

    if (x->k == NULL)
        return FASTSIG_ERR_BAD_KEY;
    if (out == NULL)
        return hbsa_priv_frame(x, core, sk, NULL, len);
    /* informational only (never read back): the state's next index */
    if (x->st == NULL || fastsig_state_query(x->st, &next, NULL, NULL) != FASTSIG_OK
        || next > hbs_last_index(x->p))
        next = 0;
    if ((err = hbs_key_export_sk(x->k, next, core, sk)) == FASTSIG_OK)
        err = hbsa_priv_frame(x, core, sk, out, len);
    OPENSSL_cleanse(core, sizeof(core));
    return err;
}

int hbsa_xmss_priv_decode(int kind, const unsigned char *in, size_t len, void **key)
{
    const hbs_params *p;
    uint64_t idx;
    HBSA_KEY *x;
    int err;

    if (len < 4 || (p = hbs_params_by_oid(kind, hbsa_be32(in))) == NULL)
        return FASTSIG_ERR_BAD_KEY;
    if ((x = hbsa_new(p)) == NULL)
        return FASTSIG_ERR_NOMEM;
    if ((err = hbsa_priv_split(in, len, hbs_sk_bytes(p), &x->path)) != FASTSIG_OK
        || (err = hbs_key_from_sk(kind, in, hbs_sk_bytes(p), &idx, &x->k)) != FASTSIG_OK
        || (err = hbs_key_export_pk(x->k, x->pk, x->pklen)) != FASTSIG_OK) {
        hbsa_free(x);
        return err == FASTSIG_ERR_BAD_LENGTH ? FASTSIG_ERR_BAD_KEY : err;
    }
    hbsa_attach(x); /* an unusable state still gives a key (verify, public export) */
    if (x->st != NULL)
        cache_load(x);
    x->saved = hbs_cache_changes(x->k); /* signing that changes nothing writes nothing */
    *key = x;
    return FASTSIG_OK;
}

void hbsa_xmss_sizes(const void *key, FS_KEYSIZES *out)
{
    const HBSA_KEY *x = key;
    out->bits = 8 * x->p->n;
    out->security_bits = 8 * x->p->n;
    out->max_sig = hbs_sig_bytes(x->p);
}

int hbsa_xmss_sign(void *key, const FS_SIGOPTS *o, unsigned char *sig, size_t *siglen,
                   const unsigned char *msg, size_t msglen)
{
    HBSA_KEY *x = key;
    size_t need = hbs_sig_bytes(x->p);
    uint64_t idx;
    int err;

    if (x->k == NULL)
        return FASTSIG_ERR_BAD_KEY;
    if (*siglen < need)
        return FASTSIG_ERR_BAD_LENGTH; /* before anything is spent */
    if ((err = hbsa_take(x, o, &idx)) != FASTSIG_OK)
        return err;
    if ((err = hbs_sign(x->k, idx, msg, msglen, sig, need)) != FASTSIG_OK) {
        OPENSSL_cleanse(sig, need);
        return err;
    }
    *siglen = need;
    return FASTSIG_OK;
}

int hbsa_xmss_verify(const void *key, const FS_SIGOPTS *o, const unsigned char *sig,
                     size_t siglen, const unsigned char *msg, size_t msglen)
{
    const HBSA_KEY *x = key;
    return hbs_verify_p(x->p, x->pk, x->pklen, msg, msglen, sig, siglen);
}
