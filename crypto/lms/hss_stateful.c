/* hss_stateful.c - LMS/HSS (hss.h) behind the stateful contract
 * (stateful.h): the levels, the private core bytes (secmem.h), the public
 * key and the signing core, built lazily (from the node cache when one is
 * imported, else at check) under the core's own mutex.
 *
 * Private core (the leading bytes of the private key encoding):
 *   u32str(L) || L x (u32str(lms type) || u32str(ots type)) || I || SEED || T[1]
 * T[1] is the public root, so a key that only verifies or exports its
 * public half builds no tree. The core's struct is hss_sf.h's; a message that
 * streams is signed in hss_stateful_msg.c. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "bytes.h"
#include "stateful_kinds.h"
#include "cpu.h"
#include "fastsig_err.h"
#include "secmem.h"
#include "lms/hss.h"
#include "lms/hss_cache.h"

#include "lms/hss_sf.h"

/* The sizes and name once the levels are filled in; why the levels may not
 * form one key (one hash family and n for all, each tree with its own
 * family's LM-OTS, heights summing to at most 63: the state's counter). */
static const char *levels_done(hss_sf *h, unsigned *bad)
{
    size_t pos = 0;
    h->total_h = 0;
    h->n = h->ots[0].n;
    h->sigbytes = 4;
    for (unsigned i = 0; i < h->L; i++) {
        *bad = i;
        if (!lms_pair_ok(&h->lms[i], &h->ots[i]))
            return "its LMS and LM-OTS sets use different hashes";
        if (h->ots[i].hash != h->ots[0].hash || h->ots[i].n != h->n || h->lms[i].m != h->n)
            return "one hash family and n for every level (SP 800-208)";
        h->total_h += h->lms[i].h;
        h->sigbytes += lms_sig_bytes(&h->lms[i], &h->ots[i])
                       + (i + 1 < h->L ? lms_pub_bytes(&h->lms[i + 1]) : 0);
        pos += (size_t)snprintf(h->name + pos, sizeof(h->name) - pos, "%s%s/%s",
                                i ? "," : "", h->lms[i].name, h->ots[i].name);
    }
    if (h->total_h > 63)
        return "the heights sum to more than 63 (the state's counter)";
    h->end = UINT64_C(1) << h->total_h;
    h->pklen = 4 + lms_pub_bytes(&h->lms[0]);
    return NULL;
}

static hss_sf *sf_alloc(void)
{
    hss_sf *h = calloc(1, sizeof(*h));
    if (h != NULL)
        pthread_mutex_init(&h->lock, NULL);
    return h;
}

static void sf_free(void *core)
{
    hss_sf *h = core;
    if (h == NULL)
        return;
    hss_key_free(h->core);
    fs_secmem_free(h->sk); /* wiped */
    pthread_mutex_destroy(&h->lock);
    free(h);
}

/* The levels of an encoding starting u32str(L) || L x types into h;
 * FASTSIG_ERR_BAD_KEY when they are not a key's. */
static int levels_of(hss_sf *h, const uint8_t *in, size_t len)
{
    unsigned bad;
    if (len < 4 || (h->L = fs_load_be32(in)) < 1 || h->L > LMS_MAX_LEVELS ||
        len < 4 + 8 * (size_t)h->L)
        return FASTSIG_ERR_BAD_KEY;
    for (unsigned i = 0; i < h->L; i++)
        if (lms_params_get(&h->lms[i], fs_load_be32(in + 4 + 8 * i)) != FASTSIG_OK
            || lmots_params_get(&h->ots[i], fs_load_be32(in + 8 + 8 * i)) != FASTSIG_OK)
            return FASTSIG_ERR_BAD_KEY;
    return levels_done(h, &bad) == NULL ? FASTSIG_OK : FASTSIG_ERR_BAD_KEY;
}

int fs_stateful_hss_new(unsigned L, const lms_params *lms, const lmots_params *ots,
                        unsigned *bad, const char **why, void **out)
{
    hss_sf *h;
    *why = NULL;
    if (L < 1 || L > LMS_MAX_LEVELS)
        return FASTSIG_ERR_UNSUPPORTED;
    if ((h = sf_alloc()) == NULL)
        return FASTSIG_ERR_NOMEM;
    h->L = L;
    memcpy(h->lms, lms, L * sizeof(*lms));
    memcpy(h->ots, ots, L * sizeof(*ots));
    h->sklen = 4 + 8 * (size_t)L + LMS_I_BYTES + 2 * (size_t)ots[0].n;
    if ((*why = levels_done(h, bad)) != NULL || (h->sk = fs_secmem_alloc(h->sklen)) == NULL) {
        sf_free(h);
        return *why != NULL ? FASTSIG_ERR_UNSUPPORTED : FASTSIG_ERR_NOMEM;
    }
    *out = h;
    return FASTSIG_OK;
}

int fs_stateful_hss_keygen(void *core, const uint8_t *seed, size_t seedlen, unsigned threads,
                           lms_progress_fn progress, void *parg)
{
    return fs_stateful_hss_keygen_resume(core, seed, seedlen, threads, progress, parg, NULL);
}

int fs_stateful_hss_keygen_resume(void *core, const uint8_t *seed, size_t seedlen,
                                  unsigned threads, lms_progress_fn progress, void *parg,
                                  const fs_keygen_resume *resume)
{
    hss_sf *h = core;
    uint8_t *I = h->sk + 4 + 8 * (size_t)h->L;
    int err;
    if (seedlen != h->n + LMS_I_BYTES)
        return FASTSIG_ERR_BAD_LENGTH;
    err = resume != NULL ? hss_key_gen_resume(&h->core, h->L, h->lms, h->ots, seed, seed + h->n,
                                              threads, resume, progress, parg)
                         : hss_key_gen_mt(&h->core, h->L, h->lms, h->ots, seed, seed + h->n,
                                          threads, progress, parg);
    if (err != FASTSIG_OK)
        return err;
    hss_pub(h->core, h->pk);
    fs_store_be32(h->sk, h->L);
    for (unsigned i = 0; i < h->L; i++) {
        fs_store_be32(h->sk + 4 + 8 * i, h->lms[i].type);
        fs_store_be32(h->sk + 8 + 8 * i, h->ots[i].type);
    }
    memcpy(I, seed + h->n, LMS_I_BYTES);
    memcpy(I + LMS_I_BYTES, seed, h->n);
    memcpy(h->sk + h->sklen - h->n, h->pk + h->pklen - h->n, h->n);
    h->checked = 1; /* made from these seeds */
    h->dirty = 1;   /* written at keygen, so that the first signer starts warm */
    return FASTSIG_OK;
}

static int from_sk(const uint8_t *in, size_t len, size_t *corelen, void **out)
{
    hss_sf *h = sf_alloc();
    const uint8_t *I;
    int err;
    if (h == NULL)
        return FASTSIG_ERR_NOMEM;
    err = levels_of(h, in, len);
    h->sklen = 4 + 8 * (size_t)h->L + LMS_I_BYTES + 2 * (size_t)h->n;
    if (err == FASTSIG_OK && len < h->sklen)
        err = FASTSIG_ERR_BAD_KEY;
    if (err == FASTSIG_OK && (h->sk = fs_secmem_alloc(h->sklen)) == NULL)
        err = FASTSIG_ERR_NOMEM;
    if (err != FASTSIG_OK) {
        sf_free(h);
        return err;
    }
    memcpy(h->sk, in, h->sklen);
    /* the public key: u32str(L) || top types || I || T[1] */
    I = in + 4 + 8 * (size_t)h->L;
    memcpy(h->pk, in, 12);
    memcpy(h->pk + 12, I, LMS_I_BYTES);
    memcpy(h->pk + 12 + LMS_I_BYTES, in + h->sklen - h->n, h->n);
    *corelen = h->sklen;
    *out = h;
    return FASTSIG_OK;
}

static int from_pk(const uint8_t *in, size_t len, void **out)
{
    hss_sf *h = sf_alloc();
    uint8_t top[12] = { 0, 0, 0, 1 };
    unsigned L = len >= 4 ? fs_load_be32(in) : 0;
    if (h == NULL)
        return FASTSIG_ERR_NOMEM;
    if (len >= 12)
        memcpy(top + 4, in + 4, 8);
    if (L < 1 || L > LMS_MAX_LEVELS || levels_of(h, top, sizeof(top)) != FASTSIG_OK
        || len != h->pklen) {
        sf_free(h);
        return FASTSIG_ERR_BAD_KEY;
    }
    h->pub_levels = L;
    h->sigbytes = 4 + (size_t)L * LMS_LEVEL_MAX; /* an upper bound */
    memcpy(h->pk, in, len);
    *out = h;
    return FASTSIG_OK;
}

static int export_sk(void *core, uint64_t next, uint8_t *out, size_t *len)
{
    hss_sf *h = core;
    (void)next; /* the state file keeps it */
    return fs_stateful_put_sk(h->sk, h->sklen, out, len);
}

static int has_sk(const void *core)
{
    return ((const hss_sf *)core)->sk != NULL;
}

static const uint8_t *pk(const void *core, size_t *pklen)
{
    const hss_sf *h = core;
    *pklen = h->pklen;
    return h->pk;
}

/* The signing core for the range (lock held), unless the cache gave one. */
static int build_locked(hss_sf *h)
{
    const uint8_t *I = h->sk + 4 + 8 * (size_t)h->L;
    uint8_t pub[sizeof(h->pk)];
    int err = FASTSIG_OK;
    if (h->core == NULL) {
        err = hss_key_gen_range(&h->core, h->L, h->lms, h->ots, I + LMS_I_BYTES, I,
                                fs_cpu_threads(), h->first, h->end, NULL, NULL);
        h->dirty = err == FASTSIG_OK;
    }
    if (err != FASTSIG_OK)
        return err;
    hss_pub(h->core, pub);
    return memcmp(pub, h->pk, h->pklen) == 0 ? FASTSIG_OK : FASTSIG_ERR_KEY_MISMATCH;
}

/* The signing core made once and its public key checked against the
 * stored one: FASTSIG_ERR_KEY_MISMATCH for good when they differ. */
static int check(void *core)
{
    hss_sf *h = core;
    int err;
    if (h->sk == NULL)
        return FASTSIG_ERR_BAD_KEY;
    pthread_mutex_lock(&h->lock);
    if (!h->checked) {
        h->checked = 1;
        if ((h->core_err = build_locked(h)) != FASTSIG_OK) {
            hss_key_free(h->core);
            h->core = NULL;
            h->dirty = 0;
        }
    }
    err = h->core_err;
    pthread_mutex_unlock(&h->lock);
    return err;
}

static int verify(void *core, const uint8_t *msg, size_t msglen, const uint8_t *sig,
                  size_t siglen)
{
    hss_sf *h = core;
    return hss_verify(h->pk, h->pklen, msg, msglen, sig, siglen);
}

static int sign(void *core, uint64_t idx, int verify_it, const uint8_t *msg, size_t msglen,
                uint8_t *sig, size_t siglen)
{
    hss_sf *h = core;
    int err;
    if (siglen != h->sigbytes)
        return FASTSIG_ERR_BAD_LENGTH;
    pthread_mutex_lock(&h->lock);
    err = h->core != NULL && h->core_err == FASTSIG_OK
          ? hss_sign(h->core, idx, msg, msglen, sig) : FASTSIG_ERR_BAD_KEY;
    pthread_mutex_unlock(&h->lock);
    if (err == FASTSIG_OK && verify_it && verify(h, msg, msglen, sig, siglen) != FASTSIG_OK)
        err = FASTSIG_ERR_FAULT;
    if (err != FASTSIG_OK)
        memset(sig, 0, siglen);
    return err;
}

static int cache_export(void *core, uint8_t **out, size_t *outlen)
{
    hss_sf *h = core;
    int err = FASTSIG_ERR_BAD_KEY;
    pthread_mutex_lock(&h->lock);
    if (h->core != NULL && (err = hss_cache_export(h->core, out, outlen)) == FASTSIG_OK) {
        h->saved = hss_cache_stamp(h->core);
        h->dirty = 0;
    }
    pthread_mutex_unlock(&h->lock);
    return err;
}

/* Only into a core whose trees are not built yet (the first signature's):
 * a cache that is not this key's, or not this shard's, leaves it so. */
static int cache_import(void *core, const uint8_t *in, size_t inlen)
{
    hss_sf *h = core;
    const uint8_t *I = h->sk != NULL ? h->sk + 4 + 8 * (size_t)h->L : NULL;
    hss_key *k = NULL;
    int err = FASTSIG_ERR_BAD_PARAM;
    pthread_mutex_lock(&h->lock);
    if (I != NULL && h->core == NULL && !h->checked)
        err = hss_cache_import(&k, h->L, h->lms, h->ots, I + LMS_I_BYTES, I, h->pk,
                               fs_cpu_threads(), in, inlen);
    if (err == FASTSIG_OK && (h->first != 0 || h->end != UINT64_C(1) << h->total_h))
        err = hss_key_set_range(k, h->first, h->end);
    if (err == FASTSIG_OK) {
        h->core = k;
        h->saved = hss_cache_stamp(k);
        h->dirty = 0;
    } else {
        hss_key_free(k);
    }
    pthread_mutex_unlock(&h->lock);
    return err;
}

static int cache_dirty(void *core)
{
    hss_sf *h = core;
    int dirty;
    pthread_mutex_lock(&h->lock);
    dirty = h->core != NULL && (h->dirty || hss_cache_stamp(h->core) != h->saved);
    pthread_mutex_unlock(&h->lock);
    return dirty;
}

/* A core built already (the parent's, carving) gets the range at once; one
 * built later is built for it. */
static int set_range(void *core, uint64_t first, uint64_t end)
{
    hss_sf *h = core;
    int err = FASTSIG_ERR_BAD_PARAM;
    pthread_mutex_lock(&h->lock);
    if (first >= h->first && end <= h->end && first < end)
        err = h->core != NULL ? hss_key_set_range(h->core, first, end) : FASTSIG_OK;
    if (err == FASTSIG_OK) {
        h->first = first;
        h->end = end;
        h->dirty = h->core != NULL; /* the cache goes to the new range's file */
    }
    pthread_mutex_unlock(&h->lock);
    return err;
}

static void range(void *core, uint64_t *first, uint64_t *end)
{
    hss_sf *h = core;
    pthread_mutex_lock(&h->lock);
    *first = h->first;
    *end = h->end;
    pthread_mutex_unlock(&h->lock);
}

static uint64_t max(const void *core)
{
    return UINT64_C(1) << ((const hss_sf *)core)->total_h;
}

static size_t sig_bytes(const void *core)
{
    return ((const hss_sf *)core)->sigbytes;
}

static unsigned n(const void *core)
{
    return ((const hss_sf *)core)->n;
}

/* The param: syntax. */
static const char *name(const void *core)
{
    return ((const hss_sf *)core)->name;
}

/* A bottom tree: a shard starting on one starts its next-tree preparation
 * from the first leaf (an L = 1 key prepares nothing). */
static uint64_t shard_align(const void *core)
{
    const hss_sf *h = core;
    return h->L > 1 ? UINT64_C(1) << h->lms[h->L - 1].h : 1;
}

/* The top level's (SEED, I): every level below derives from them. */
static int seed_fp(const void *core, const uint8_t *seed, size_t seedlen,
                   uint8_t fp[FS_STATEFUL_SEED_FP_LEN])
{
    const hss_sf *h = core;
    return seedlen != h->n + LMS_I_BYTES ? FASTSIG_ERR_BAD_LENGTH
                                         : hss_seed_fp(seed, h->n, seed + h->n, fp);
}

/* `pkey -text` lines: the levels, top first. */
static int text(const void *core, char *buf, size_t len)
{
    const hss_sf *h = core;
    size_t pos;
    if (h->pub_levels != 0)
        return (size_t)snprintf(buf, len, "levels: %u (top: %s / %s; the lower ones come with "
                                "each signature)\n", h->pub_levels, h->lms[0].name,
                                h->ots[0].name) < len ? FASTSIG_OK : FASTSIG_ERR_INTERNAL;
    pos = (size_t)snprintf(buf, len, "levels: %u (total height %u)\n", h->L, h->total_h);
    for (unsigned i = 0; i < h->L && pos < len; i++)
        pos += (size_t)snprintf(buf + pos, len - pos, "  level %u: %s / %s (height %u, w %u)\n",
                                i, h->lms[i].name, h->ots[i].name, h->lms[i].h, h->ots[i].w);
    return pos < len ? FASTSIG_OK : FASTSIG_ERR_INTERNAL;
}

const fs_stateful_ops fs_stateful_hss = {
    .from_sk = from_sk, .from_pk = from_pk, .export_sk = export_sk, .has_sk = has_sk,
    .pk = pk, .check = check, .sign = sign, .verify = verify, .cache_export = cache_export,
    .cache_import = cache_import, .cache_dirty = cache_dirty, .set_range = set_range,
    .range = range, .max = max, .sig_bytes = sig_bytes, .n = n, .name = name,
    .shard_align = shard_align, .seed_fp = seed_fp, .text = text, .free = sf_free,
    .msg_sign_init = hss_sf_msg_sign_init, .msg_sign_final = hss_sf_msg_sign_final,
    .msg_verify_init = hss_sf_msg_verify_init, .msg_verify_final = hss_sf_msg_verify_final,
};
