/* hss_adapter.c - the HSS row's adapter (alias LMS): crypto/lms HSS keys in
 * the key object of the stateful rows (hbs_keyobj.h), so that the state
 * file, its locking, reservation blocks and exhaustion are XMSS's.
 *
 * Parameters: `param:` names the levels top first, each as its LMS set and
 * its LM-OTS set joined by '/', levels joined by ','
 * (LMS_SHA256_M32_H10/LMOTS_SHA256_N32_W8,LMS_SHA256_M32_H10/LMOTS_SHA256_N32_W4).
 * `seed:` is SEED (n bytes) then I (16 bytes) of the top tree.
 *
 * Public key: the RFC 8554 HSS encoding (hss.h), as it is.
 * Private key core (then hbs_keyobj.h's framing: state path, and a shard's
 * range 0x01 || BE64(first) || BE64(end) of global HSS indices):
 *   u32str(L) || L x (u32str(lms type) || u32str(ots type)) || I || SEED || T[1]
 * T[1] is the public root, so a key that only verifies or exports its
 * public half builds no tree; the signing core is made at the first
 * signature (from the node cache file when it checks, hss_cache.c, else
 * built; a shard's with the lower trees of its first index) and its
 * public key checked against it. */
#include <stdio.h>
#include <string.h>
#include <openssl/crypto.h>
#include <openssl/params.h>
#include "hbs_keyobj.h"
#include "prov.h"
#include "fastsig_err.h"
#include "fastsig/provider.h"
#include "lms/hss.h"
#include "hss_cache.h"

#define HSS_DEFAULT_PARAM "LMS_SHA256_M32_H10/LMOTS_SHA256_N32_W4"
#define HSS_NAME_MAX (LMS_MAX_LEVELS * 48)

struct hbsa_hss {
    unsigned L, n, total_h;
    lms_params lms[LMS_MAX_LEVELS];
    lmots_params ots[LMS_MAX_LEVELS];
    char name[HSS_NAME_MAX];
    const char *spec;        /* the param: text while it is parsed, else NULL */
    size_t sigbytes;
    unsigned pub_levels;     /* a public key's L (0 for a private key): its
                              * lower levels are unknown, lms[0] is the top */
    hss_key *core;           /* built at keygen or the first signature */
    int core_err;            /* the build's result once tried */
    CRYPTO_RWLOCK *lock;     /* the core is not safe for concurrent signing */
};

static const HBSA_OPS hss_ops;

static uint32_t get_u32(const unsigned char *in)
{
    return (uint32_t)in[0] << 24 | (uint32_t)in[1] << 16 | (uint32_t)in[2] << 8 | in[3];
}

static void put_u32(unsigned char *out, uint32_t v)
{
    out[0] = (unsigned char)(v >> 24);
    out[1] = (unsigned char)(v >> 16);
    out[2] = (unsigned char)(v >> 8);
    out[3] = (unsigned char)v;
}

static void hss_free(struct hbsa_hss *h)
{
    if (h == NULL)
        return;
    hss_key_free(h->core);
    CRYPTO_THREAD_lock_free(h->lock);
    OPENSSL_free(h);
}

/* Notes why level i of a param: spec was refused, for the error the
 * generation raises (errors.c): FASTSIG_ERR_UNSUPPORTED. */
static int spec_why(const char *spec, unsigned i, const char *level, const char *why)
{
    char msg[512];
    snprintf(msg, sizeof(msg), "level %u (%s): %s", i + 1, level, why);
    fs_err_file_detail(FASTSIG_ERR_UNSUPPORTED, "parameter set", spec, 0, msg);
    return FASTSIG_ERR_UNSUPPORTED;
}

/* Decoding (no spec) notes nothing: its refusal is not an error raised. */
static int level_why(const struct hbsa_hss *h, unsigned i, const char *why)
{
    char level[2 * sizeof(h->lms[i].name) + 2];
    if (h->spec == NULL)
        return FASTSIG_ERR_UNSUPPORTED;
    snprintf(level, sizeof(level), "%s/%s", h->lms[i].name, h->ots[i].name);
    return spec_why(h->spec, i, level, why);
}

/* The sizes and name once the levels are filled in: FASTSIG_ERR_UNSUPPORTED
 * when they may not form one key (one hash family and n for all, each tree
 * with its own family's LM-OTS, heights summing to at most 63: the state
 * file's counter). */
static int levels_done(struct hbsa_hss *h)
{
    size_t pos = 0;
    h->total_h = 0;
    h->n = h->ots[0].n;
    h->sigbytes = 4;
    for (unsigned i = 0; i < h->L; i++) {
        if (!lms_pair_ok(&h->lms[i], &h->ots[i]))
            return level_why(h, i, "its LMS and LM-OTS sets use different hashes");
        if (h->ots[i].hash != h->ots[0].hash || h->ots[i].n != h->n || h->lms[i].m != h->n)
            return level_why(h, i, "one hash family and n for every level (SP 800-208)");
        h->total_h += h->lms[i].h;
        h->sigbytes += lms_sig_bytes(&h->lms[i], &h->ots[i])
                       + (i + 1 < h->L ? lms_pub_bytes(&h->lms[i + 1]) : 0);
        pos += (size_t)snprintf(h->name + pos, sizeof(h->name) - pos, "%s%s/%s",
                                i ? "," : "", h->lms[i].name, h->ots[i].name);
    }
    if (h->total_h > 63)
        return level_why(h, h->L - 1, "the heights sum to more than 63 (the state's counter)");
    return FASTSIG_OK;
}

static struct hbsa_hss *hss_new(void)
{
    struct hbsa_hss *h = OPENSSL_zalloc(sizeof(*h));
    if (h != NULL && (h->lock = CRYPTO_THREAD_lock_new()) == NULL) {
        OPENSSL_free(h);
        h = NULL;
    }
    return h;
}

/* A key object for levels h (taken over), public key not yet set. */
static HBSA_KEY *key_new(struct hbsa_hss *h)
{
    HBSA_KEY *x = hbsa_new_ops(&hss_ops);
    if (x == NULL) {
        hss_free(h);
        return NULL;
    }
    x->kind_data = h;
    x->pklen = lms_pub_bytes(&h->lms[0]) + 4;
    x->end = UINT64_C(1) << h->total_h;
    return x;
}

/* The param: syntax above into h. */
static int parse_levels(struct hbsa_hss *h, const char *spec)
{
    char buf[HSS_NAME_MAX], *save = NULL, *lv;
    size_t len = strlen(spec);
    /* strtok_r skips empty fields: a stray ',' is refused here instead */
    const char *why = len >= sizeof(buf) ? "too long for 8 levels"
                      : len == 0 || spec[0] == ',' || spec[len - 1] == ',' || strstr(spec, ",,")
                          ? "an empty level (levels are joined by one ',')"
                          : NULL;
    if (why != NULL) {
        fs_err_file_detail(FASTSIG_ERR_UNSUPPORTED, "parameter set", spec, 0, why);
        return FASTSIG_ERR_UNSUPPORTED;
    }
    strcpy(buf, spec);
    h->L = 0;
    h->spec = spec;
    for (lv = strtok_r(buf, ",", &save); lv != NULL; lv = strtok_r(NULL, ",", &save)) {
        char *slash = strchr(lv, '/');
        if (h->L == LMS_MAX_LEVELS)
            return spec_why(spec, h->L, lv, "HSS has at most 8 levels");
        if (slash == NULL || strchr(slash + 1, '/') != NULL)
            return spec_why(spec, h->L, lv, "not one 'LMS set/LM-OTS set'");
        *slash = '\0';
        if (lms_params_by_name(&h->lms[h->L], lv) != FASTSIG_OK)
            return spec_why(spec, h->L, lv, "not an LMS set name (e.g. LMS_SHA256_M32_H10)");
        if (lmots_params_by_name(&h->ots[h->L], slash + 1) != FASTSIG_OK)
            return spec_why(spec, h->L, slash + 1,
                            "not an LM-OTS set name (e.g. LMOTS_SHA256_N32_W4)");
        h->L++;
    }
    int err = levels_done(h);
    h->spec = NULL; /* the caller's string */
    return err;
}

/* The private core's size for h (layout above). */
static size_t core_bytes(const struct hbsa_hss *h)
{
    return 4 + 8 * (size_t)h->L + LMS_I_BYTES + 2 * (size_t)h->n;
}

/* ---- the key object's operations (hbs_keyobj.h) ---- */

static uint64_t hss_op_max(const HBSA_KEY *x)
{
    return UINT64_C(1) << ((const struct hbsa_hss *)x->kind_data)->total_h;
}

static size_t hss_op_sig_bytes(const HBSA_KEY *x)
{
    return ((const struct hbsa_hss *)x->kind_data)->sigbytes;
}

static unsigned hss_op_n(const HBSA_KEY *x)
{
    return ((const struct hbsa_hss *)x->kind_data)->n;
}

/* The param: syntax. */
static const char *hss_op_name(const HBSA_KEY *x)
{
    return ((const struct hbsa_hss *)x->kind_data)->name;
}

/* `pkey -text` lines: the levels, top first. */
static int hss_op_text(const HBSA_KEY *x, BIO *out)
{
    const struct hbsa_hss *h = x->kind_data;
    if (h->pub_levels != 0)
        return BIO_printf(out, "levels: %u (top: %s / %s; the lower ones come with each "
                          "signature)\n", h->pub_levels, h->lms[0].name, h->ots[0].name) > 0
               ? FASTSIG_OK : FASTSIG_ERR_INTERNAL;
    if (BIO_printf(out, "levels: %u (total height %u)\n", h->L, h->total_h) <= 0)
        return FASTSIG_ERR_INTERNAL;
    for (unsigned i = 0; i < h->L; i++)
        if (BIO_printf(out, "  level %u: %s / %s (height %u, w %u)\n", i, h->lms[i].name,
                       h->ots[i].name, h->lms[i].h, h->ots[i].w) <= 0)
            return FASTSIG_ERR_INTERNAL;
    return FASTSIG_OK;
}

/* The signing core from the private bytes (x->sk), h->lock held: from the
 * node cache file when it is this key's and checks, else built. */
static int build_core(HBSA_KEY *x)
{
    struct hbsa_hss *h = x->kind_data;
    const unsigned char *I = x->sk + 4 + 8 * (size_t)h->L;
    uint8_t pk[4 + 8 + LMS_I_BYTES + LMS_MAX_N];
    int err = hbsa_hss_cache_load(x, h->L, h->lms, h->ots, I + LMS_I_BYTES, I,
                                  hbsa_default_threads(), &h->core);
    if (err == FASTSIG_OK && (x->first != 0 || x->end != 0) &&
        hss_key_set_range(h->core, x->first, x->end) != FASTSIG_OK) {
        hss_key_free(h->core); /* not this shard's: build its own */
        h->core = NULL;
        err = FASTSIG_ERR_BAD_PARAM;
    }
    if (err != FASTSIG_OK) {
        err = hss_key_gen_range(&h->core, h->L, h->lms, h->ots, I + LMS_I_BYTES, I,
                                hbsa_default_threads(), x->first, x->end, NULL, NULL);
        if (err == FASTSIG_OK)
            hbsa_hss_cache_built(x, h->core);
    }
    if (err != FASTSIG_OK)
        return err;
    hss_pub(h->core, pk);
    return CRYPTO_memcmp(pk, x->pk, x->pklen) == 0 ? FASTSIG_OK : FASTSIG_ERR_KEY_MISMATCH;
}

/* The signing core built (once) from x->sk and its public key checked
 * against x->pk: FASTSIG_ERR_KEY_MISMATCH when they differ. */
static int hss_op_check(HBSA_KEY *x)
{
    struct hbsa_hss *h = x->kind_data;
    int err;
    if (x->sk == NULL)
        return FASTSIG_ERR_BAD_KEY;
    if (!CRYPTO_THREAD_write_lock(h->lock))
        return FASTSIG_ERR_INTERNAL;
    if (h->core == NULL && h->core_err == FASTSIG_OK && (h->core_err = build_core(x)) != FASTSIG_OK) {
        hss_key_free(h->core);
        h->core = NULL;
    }
    err = h->core_err;
    CRYPTO_THREAD_unlock(h->lock);
    return err;
}

static int hss_op_sign(HBSA_KEY *x, uint64_t idx, int verify, const unsigned char *msg,
                       size_t msglen, unsigned char *sig, size_t siglen)
{
    struct hbsa_hss *h = x->kind_data;
    int err;
    if (siglen != h->sigbytes)
        return FASTSIG_ERR_BAD_LENGTH;
    if (!CRYPTO_THREAD_write_lock(h->lock))
        return FASTSIG_ERR_INTERNAL;
    err = h->core != NULL ? hss_sign(h->core, idx, msg, msglen, sig) : FASTSIG_ERR_BAD_KEY;
    CRYPTO_THREAD_unlock(h->lock);
    if (err == FASTSIG_OK && verify)
        err = hss_verify(x->pk, x->pklen, msg, msglen, sig, siglen);
    return err;
}

static void hss_op_free(HBSA_KEY *x)
{
    hss_free(x->kind_data);
}

/* A core built already (the parent's, carving) gets the shard's range; one
 * built later is built for it (build_core). */
static int hss_op_set_range(HBSA_KEY *x, int carved)
{
    struct hbsa_hss *h = x->kind_data;
    int err;
    (void)carved;
    if (!CRYPTO_THREAD_write_lock(h->lock))
        return FASTSIG_ERR_INTERNAL;
    err = h->core != NULL ? hss_key_set_range(h->core, x->first, x->end) : FASTSIG_OK;
    CRYPTO_THREAD_unlock(h->lock);
    return err;
}

/* A bottom tree: a shard starting on one starts its next-tree preparation
 * from the first leaf (an L = 1 key prepares nothing). */
static uint64_t hss_op_shard_align(const HBSA_KEY *x)
{
    const struct hbsa_hss *h = x->kind_data;
    return h->L > 1 ? UINT64_C(1) << h->lms[h->L - 1].h : 1;
}

/* The top level's (SEED, I): every level below derives from them. */
static int hss_op_seed_fp(const HBSA_KEY *x, const uint8_t *seed, size_t seedlen,
                          uint8_t fp[HBSA_SEED_FP_LEN])
{
    const struct hbsa_hss *h = x->kind_data;
    return seedlen != h->n + LMS_I_BYTES ? FASTSIG_ERR_BAD_LENGTH
                                         : hss_seed_fp(seed, h->n, seed + h->n, fp);
}

static const HBSA_OPS hss_ops = {
    .max = hss_op_max, .sig_bytes = hss_op_sig_bytes, .n = hss_op_n, .name = hss_op_name,
    .check = hss_op_check, .sign = hss_op_sign, .free = hss_op_free, .text = hss_op_text,
    .set_range = hss_op_set_range, .shard_align = hss_op_shard_align,
    .seed_fp = hss_op_seed_fp,
};

/* ---- adapter ---- */

static int hss_gen(const FS_SIGALG *alg, const FS_GENOPTS *o, void **key)
{
    struct hbsa_hss *h = hss_new();
    HBSA_PROGRESS pg = { o, 0 };
    uint8_t seed[LMS_MAX_N + LMS_I_BYTES];
    HBSA_KEY *x;
    size_t slen;
    int err;

    if (h == NULL)
        return FASTSIG_ERR_NOMEM;
    if (o->mode != NULL || o->bits != 0
        || (err = parse_levels(h, o->param != NULL ? o->param : HSS_DEFAULT_PARAM)) != FASTSIG_OK) {
        hss_free(h);
        return FASTSIG_ERR_UNSUPPORTED;
    }
    if ((x = key_new(h)) == NULL)
        return FASTSIG_ERR_NOMEM;
    slen = h->n + LMS_I_BYTES;
    if (o->seed != NULL) {
        err = o->seedlen == slen ? FASTSIG_OK : FASTSIG_ERR_BAD_LENGTH;
        if (err == FASTSIG_OK)
            memcpy(seed, o->seed, slen);
    } else {
        err = o->rng(o->rng_arg, seed, slen) ? FASTSIG_OK : FASTSIG_ERR_RNG;
    }
    if (err == FASTSIG_OK) /* a seed some key has is refused before the trees are built */
        err = hbsa_seed_check(x, seed, slen);
    if (err == FASTSIG_OK)
        err = hss_key_gen_mt(&h->core, h->L, h->lms, h->ots, seed, seed + h->n,
                             o->threads ? o->threads : hbsa_default_threads(), hbsa_progress, &pg);
    if (err == FASTSIG_OK) {
        o->progress(o->progress_arg, 3, 0);
        hss_pub(h->core, x->pk);
        x->sklen = core_bytes(h);
        if ((x->sk = fs_secmem_alloc(x->sklen)) == NULL)
            err = FASTSIG_ERR_NOMEM;
    }
    if (err == FASTSIG_OK) {
        put_u32(x->sk, h->L);
        for (unsigned i = 0; i < h->L; i++) {
            put_u32(x->sk + 4 + 8 * i, h->lms[i].type);
            put_u32(x->sk + 8 + 8 * i, h->ots[i].type);
        }
        memcpy(x->sk + 4 + 8 * h->L, seed + h->n, LMS_I_BYTES);
        memcpy(x->sk + 4 + 8 * h->L + LMS_I_BYTES, seed, h->n);
        memcpy(x->sk + x->sklen - h->n, x->pk + x->pklen - h->n, h->n);
        err = hbsa_state_new(x, o->state);
    }
    OPENSSL_cleanse(seed, sizeof(seed));
    if (err != FASTSIG_OK) {
        hbsa_free(x);
        return err;
    }
    hbsa_hss_cache_save(x, h->core); /* so that the first signer process starts warm */
    *key = x;
    return FASTSIG_OK;
}

static void hss_key_obj_free(void *key)
{
    HBSA_KEY *x = key;
    struct hbsa_hss *h = x != NULL ? x->kind_data : NULL;
    if (h != NULL)
        hbsa_hss_cache_close(x, h->core);
    hbsa_free(x);
}

static int hss_priv_encode(const void *key, unsigned char *out, size_t *len)
{
    const HBSA_KEY *x = key;
    if (x->sk == NULL)
        return FASTSIG_ERR_BAD_KEY;
    return hbsa_priv_frame(x, x->sk, x->sklen, out, len);
}

/* The levels of an encoding starting u32str(L) || L x types into h;
 * FASTSIG_ERR_BAD_KEY when they are not a key's. */
static int levels_of(struct hbsa_hss *h, const unsigned char *in, size_t len)
{
    if (len < 4 || (h->L = get_u32(in)) < 1 || h->L > LMS_MAX_LEVELS || len < 4 + 8 * (size_t)h->L)
        return FASTSIG_ERR_BAD_KEY;
    for (unsigned i = 0; i < h->L; i++)
        if (lms_params_get(&h->lms[i], get_u32(in + 4 + 8 * i)) != FASTSIG_OK
            || lmots_params_get(&h->ots[i], get_u32(in + 8 + 8 * i)) != FASTSIG_OK)
            return FASTSIG_ERR_BAD_KEY;
    return levels_done(h) == FASTSIG_OK ? FASTSIG_OK : FASTSIG_ERR_BAD_KEY;
}

static int hss_priv_decode(const FS_SIGALG *alg, const unsigned char *in, size_t len,
                           void **key)
{
    struct hbsa_hss *h = hss_new();
    HBSA_KEY *x;
    size_t corelen;
    const unsigned char *I;
    int err;

    if (h == NULL)
        return FASTSIG_ERR_NOMEM;
    if ((err = levels_of(h, in, len)) != FASTSIG_OK) {
        hss_free(h);
        return err;
    }
    if ((x = key_new(h)) == NULL)
        return FASTSIG_ERR_NOMEM;
    corelen = core_bytes(h);
    err = hbsa_priv_tail(x, in, len, corelen); /* a shard's range too */
    if (err == FASTSIG_OK && (x->sk = fs_secmem_alloc(corelen)) == NULL)
        err = FASTSIG_ERR_NOMEM;
    if (err != FASTSIG_OK) {
        hbsa_free(x);
        return err;
    }
    memcpy(x->sk, in, corelen);
    x->sklen = corelen;
    /* the public key: u32str(L) || top types || I || T[1] */
    I = in + 4 + 8 * (size_t)h->L;
    memcpy(x->pk, in, 12);
    memcpy(x->pk + 12, I, LMS_I_BYTES);
    memcpy(x->pk + 12 + LMS_I_BYTES, in + corelen - h->n, h->n);
    hbsa_attach(x); /* the state opens at the first signature */
    *key = x;
    return FASTSIG_OK;
}

/* The largest LMS signature and public key of a level: a public key names
 * only its top level, the others come in each signature. */
#define LMS_LEVEL_MAX (4 + 4 + LMS_MAX_N * (LMS_MAX_P + 1) + 4 + LMS_MAX_N * LMS_MAX_H \
                       + 4 + 4 + LMS_I_BYTES + LMS_MAX_N)

static int hss_pub_decode(const FS_SIGALG *alg, const unsigned char *in, size_t len,
                          void **key)
{
    struct hbsa_hss *h = hss_new();
    unsigned char top[12] = { 0, 0, 0, 1 };
    unsigned L = len >= 4 ? get_u32(in) : 0;
    HBSA_KEY *x;

    if (h == NULL)
        return FASTSIG_ERR_NOMEM;
    if (len >= 12)
        memcpy(top + 4, in + 4, 8);
    if (L < 1 || L > LMS_MAX_LEVELS || levels_of(h, top, sizeof(top)) != FASTSIG_OK
        || len != 4 + lms_pub_bytes(&h->lms[0])) {
        hss_free(h);
        return FASTSIG_ERR_BAD_KEY;
    }
    h->pub_levels = L;
    h->sigbytes = 4 + (size_t)L * LMS_LEVEL_MAX; /* an upper bound */
    if ((x = key_new(h)) == NULL)
        return FASTSIG_ERR_NOMEM;
    memcpy(x->pk, in, len);
    *key = x;
    return FASTSIG_OK;
}

static int hss_verify_hook(const void *key, const FS_SIGOPTS *o, int prehashed,
                           const unsigned char *sig, size_t siglen, const unsigned char *msg,
                           size_t msglen)
{
    const HBSA_KEY *x = key;
    return hss_verify(x->pk, x->pklen, msg, msglen, sig, siglen);
}

static const OSSL_PARAM gen_settable[] = {
    OSSL_PARAM_uint(FASTSIG_PKEY_PARAM_THREADS, NULL),
    OSSL_PARAM_END
};

const FS_ADAPTER fs_hss_adapter = {
    .gen = hss_gen, .free = hss_key_obj_free, .has_private = hbsa_has_private,
    .sizes = hbsa_sizes, .pub_encode = hbsa_pub_encode, .pub_decode = hss_pub_decode,
    .priv_encode = hss_priv_encode, .priv_decode = hss_priv_decode,
    .sign = hbsa_sign, .verify = hss_verify_hook, .gen_settable = gen_settable,
    HBSA_COMMON_HOOKS
};
