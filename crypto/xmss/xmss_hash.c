/* xmss_hash.c - see xmss_hash.h. */
#include <string.h>
#include "memops.h"
#include "bytes.h"
#include "fastsig_err.h"
#include "hash/hash_internal.h"
#include "xmss/xmss_hash.h"
#include "ctgrind.h"

/* The engine descriptor of a row (FASTSIG_ERR_UNSUPPORTED for a bad row). */
static int hash_params_of(const xmss_params *p, fs_hash_params *hp)
{
    static const fs_hash_family fam[XMSS_FAMILY_COUNT] = {
        [XMSS_SHA2_256] = FS_HASH_SHA256,     [XMSS_SHA2_512] = FS_HASH_SHA512,
        [XMSS_SHAKE128_256] = FS_HASH_SHAKE128, [XMSS_SHAKE256_512] = FS_HASH_SHAKE256,
        [XMSS_SHA2_192] = FS_HASH_SHA256,     [XMSS_SHAKE256_256] = FS_HASH_SHAKE256,
        [XMSS_SHAKE256_192] = FS_HASH_SHAKE256,
    };
    if (p == NULL || p->family >= XMSS_FAMILY_COUNT)
        return FASTSIG_ERR_UNSUPPORTED;
    hp->family = fam[p->family];
    hp->n = p->n;
    hp->pad = p->pad_len;
    return fs_hash_params_check(hp);
}

int xmss_key_id(const uint8_t *pk, size_t pklen, uint8_t id[FASTSIG_STATE_KEY_ID_LEN])
{
    fs_hash_params hp = { FS_HASH_SHA256, FASTSIG_STATE_KEY_ID_LEN, 32 };
    return fs_hash_many(&hp, id, pk, pklen, 1);
}

int xmss_seed_fp(const xmss_params *p, const uint8_t *seed, size_t seedlen,
                uint8_t fp[XMSS_SEED_FP_LEN])
{
    static const char domain[] = "fastsig seed fingerprint v1 xmss";
    fs_hash_params hp = { FS_HASH_SHA256, XMSS_SEED_FP_LEN, 32 };
    uint8_t in[sizeof(domain) - 1 + 2 * XMSS_MAX_N];
    if (p == NULL || seed == NULL || fp == NULL)
        return FASTSIG_ERR_NULL_ARG;
    if (seedlen != 3 * (size_t)p->n)
        return FASTSIG_ERR_BAD_LENGTH;
    size_t d = sizeof(domain) - 1, n = p->n;
    memcpy(in, domain, d);
    memcpy(in + d, seed, n);              /* SK_SEED */
    memcpy(in + d + n, seed + 2 * n, n);  /* PUB_SEED */
    int rc = fs_hash_many(&hp, fp, in, d + 2 * n, 1);
    fs_wipe(in, sizeof(in));
    return rc;
}

int xmss_ctx_init(xmss_ctx *c, const xmss_params *p, const uint8_t *pub_seed,
                 const uint8_t *sk_seed, const uint8_t *sk_prf)
{
    memset(c, 0, sizeof(*c));
    c->p = p;
    int rc = hash_params_of(p, &c->hp);
    if (rc == FASTSIG_OK)
        rc = fs_hash_seeds_init(&c->seeds, &c->hp, pub_seed, sk_seed);
    if (rc == FASTSIG_OK && sk_prf != NULL) {
        rc = fs_hash_seeds_init(&c->prf_sk, &c->hp, sk_prf, NULL);
        c->has_prf = rc == FASTSIG_OK;
    }
    if (rc != FASTSIG_OK)
        xmss_ctx_clear(c);
    return rc;
}

void xmss_ctx_clear(xmss_ctx *c)
{
    fs_hash_seeds_clear(&c->seeds);
    fs_hash_seeds_clear(&c->prf_sk);
    c->has_prf = 0;
}

int xmss_prf_msg(const xmss_ctx *c, uint8_t *r, uint64_t idx)
{
    uint8_t m[32];
    if (!c->has_prf)
        return FASTSIG_ERR_BAD_PARAM;
    fs_store_be(m, sizeof(m), idx);
    int rc = fs_hash_prf(&c->prf_sk, r, m, 1);
    FS_DECLASSIFY(r, c->p->n);   /* r is sent in the signature */
    return rc;
}

/* H_msg's KEY: r || root || toByte(idx, n), 3n bytes. */
static void hmsg_key(const xmss_ctx *c, const uint8_t *r, const uint8_t *root, uint64_t idx,
                     uint8_t key[3 * XMSS_MAX_N])
{
    size_t n = c->p->n;
    memcpy(key, r, n);
    memcpy(key + n, root, n);
    fs_store_be(key + 2 * n, n, idx);
}

int xmss_hash_msg(const xmss_ctx *c, uint8_t *out, const uint8_t *r, const uint8_t *root,
                 uint64_t idx, const uint8_t *msg, size_t msglen)
{
    uint8_t key[3 * XMSS_MAX_N];
    hmsg_key(c, r, root, idx, key);
    return fs_hash_msg(&c->hp, out, key, msg, msglen);
}

/* The streamed form (signing, xmss_stream.c; verifying, xmss_verify.c). */
int xmss_hash_msg_begin(const xmss_ctx *c, fs_hash_stream *h, const uint8_t *r,
                        const uint8_t *root, uint64_t idx)
{
    uint8_t key[3 * XMSS_MAX_N];
    if (h == NULL)
        return FASTSIG_ERR_NULL_ARG;
    hmsg_key(c, r, root, idx, key);
    return fs_hash_stream_keyed(h, &c->hp, FS_DOM_HMSG, key, 3 * (size_t)c->p->n);
}
