/* wotsp_scheme.c - see wotsp_scheme.h. */
#include <stdlib.h>
#include <string.h>
#include "bytes.h"
#include "ctgrind.h"
#include "fastsig_err.h"
#include "hbs/hbs_hash.h"
#include "hbs/tree.h"
#include "hbs/wots_chain.h"
#include "hbs/wotsp_scheme.h"
#include "hbs/hbs_test_hook.h"

const hbs_params *hbs_wotsp_params_of(const uint8_t *key, size_t keylen)
{
    if (key == NULL || keylen < 4)
        return NULL;
    return hbs_params_by_oid(HBS_KIND_WOTSP, fs_load_be32(key));
}

static void key_adrs(hbs_adrs *ots, hbs_adrs *lt)
{
    hbs_adrs_init(ots, 0, 0, HBS_ADRS_OTS);
    hbs_adrs_init(lt, 0, 0, HBS_ADRS_LTREE);
}

/* root = L-tree(WOTS+ pk) of the key with these seeds. */
static int key_root(const hbs_ctx *c, uint8_t *root)
{
    uint8_t wpk[HBS_MAX_LEN * HBS_MAX_N];
    hbs_adrs ots, lt;
    key_adrs(&ots, &lt);
    int rc = hbs_wots_pkgen(c, wpk, &ots, 1);
    if (rc == FASTSIG_OK)
        rc = hbs_ltree(c, root, wpk, &lt, 1);
    return rc;
}

int hbs_wotsp_keygen(const hbs_params *p, const uint8_t *seed, size_t seedlen, uint8_t *sk,
                     size_t sklen, uint8_t *pk, size_t pklen)
{
    if (seed == NULL || sk == NULL || pk == NULL)
        return FASTSIG_ERR_NULL_ARG;
    if (p == NULL || p->kind != HBS_KIND_WOTSP)
        return FASTSIG_ERR_BAD_PARAM;
    size_t n = p->n;
    if (seedlen != 3 * n || sklen != hbs_sk_bytes(p) || pklen != hbs_pk_bytes(p))
        return FASTSIG_ERR_BAD_LENGTH;
    hbs_ctx c;
    int rc = hbs_ctx_init(&c, p, seed + 2 * n, seed, NULL);
    uint8_t root[HBS_MAX_N];
    if (rc == FASTSIG_OK)
        rc = key_root(&c, root);
    hbs_ctx_clear(&c);
    if (rc != FASTSIG_OK)
        return rc;
    fs_store_be32(sk, p->oid);
    memcpy(sk + 4, seed, 2 * n);
    memcpy(sk + 4 + 2 * n, root, n);
    memcpy(sk + 4 + 3 * n, seed + 2 * n, n);
    fs_store_be32(pk, p->oid);
    memcpy(pk + 4, root, n);
    memcpy(pk + 4 + n, seed + 2 * n, n);
    return FASTSIG_OK;
}

/* The row of a sk, with its length checked. */
static int sk_row(const uint8_t *sk, size_t sklen, const hbs_params **p)
{
    if (sk == NULL)
        return FASTSIG_ERR_NULL_ARG;
    if (sklen < 4)
        return FASTSIG_ERR_BAD_LENGTH;
    if ((*p = hbs_wotsp_params_of(sk, sklen)) == NULL)
        return FASTSIG_ERR_BAD_KEY;
    return sklen == hbs_sk_bytes(*p) ? FASTSIG_OK : FASTSIG_ERR_BAD_LENGTH;
}

int hbs_wotsp_pk_from_sk(const uint8_t *sk, size_t sklen, uint8_t *pk, size_t pklen)
{
    const hbs_params *p;
    int rc = sk_row(sk, sklen, &p);
    if (rc != FASTSIG_OK)
        return rc;
    if (pk == NULL)
        return FASTSIG_ERR_NULL_ARG;
    size_t n = p->n;
    if (pklen != hbs_pk_bytes(p))
        return FASTSIG_ERR_BAD_LENGTH;
    hbs_ctx c;
    uint8_t root[HBS_MAX_N];
    rc = hbs_ctx_init(&c, p, sk + 4 + 3 * n, sk + 4, NULL);
    if (rc == FASTSIG_OK)
        rc = key_root(&c, root);
    hbs_ctx_clear(&c);
    if (rc == FASTSIG_OK && memcmp(root, sk + 4 + 2 * n, n) != 0)
        rc = FASTSIG_ERR_KEY_MISMATCH;
    if (rc != FASTSIG_OK)
        return rc;
    fs_store_be32(pk, p->oid);
    memcpy(pk + 4, sk + 4 + 2 * n, 2 * n);
    return FASTSIG_OK;
}

int hbs_wotsp_sign(const uint8_t *sk, size_t sklen, const uint8_t *msg, size_t msglen,
                   uint8_t *sig, size_t siglen)
{
    const hbs_params *p;
    int rc = sk_row(sk, sklen, &p);
    if (rc != FASTSIG_OK)
        return rc;
    if (sig == NULL || (msg == NULL && msglen != 0))
        return FASTSIG_ERR_NULL_ARG;
    if (siglen != hbs_sig_bytes(p))
        return FASTSIG_ERR_BAD_LENGTH;
    size_t n = p->n;
    const uint8_t *root = sk + 4 + 2 * n;
    hbs_ctx c;
    uint8_t digest[HBS_MAX_N];
    hbs_adrs ots, lt;
    key_adrs(&ots, &lt);
    rc = hbs_ctx_init(&c, p, sk + 4 + 3 * n, sk + 4, sk + 4 + n);
    if (rc == FASTSIG_OK)
        rc = hbs_prf_msg(&c, sig, 0);
    if (rc == FASTSIG_OK)
        rc = hbs_hash_msg(&c, digest, sig, root, 0, msg, msglen);
    if (rc == FASTSIG_OK)
        rc = hbs_wots_sign(&c, sig + n, digest, &ots);
    hbs_ctx_clear(&c);
    if (rc == FASTSIG_OK && hbs_fault_hook != NULL)
        hbs_fault_hook(HBS_FAULT_SIG, sig, siglen);
    if (rc != FASTSIG_OK)
        memset(sig, 0, siglen);
    return rc;
}

int hbs_wotsp_sign_verified(const uint8_t *sk, size_t sklen, const uint8_t *msg,
                            size_t msglen, uint8_t *sig, size_t siglen)
{
    int rc = hbs_wotsp_sign(sk, sklen, msg, msglen, sig, siglen);
    if (rc != FASTSIG_OK)
        return rc;
    /* the public key is in the sk core: oid || root || PUB_SEED */
    size_t n = hbs_wotsp_params_of(sk, sklen)->n;
    uint8_t pk[4 + 2 * HBS_MAX_N];
    memcpy(pk, sk, 4);
    memcpy(pk + 4, sk + 4 + 2 * n, 2 * n);
    FS_DECLASSIFY(sig, siglen); /* as in hbs_sign_verified */
    if (hbs_wotsp_verify(pk, 4 + 2 * n, msg, msglen, sig, siglen) != FASTSIG_OK) {
        memset(sig, 0, siglen);
        return FASTSIG_ERR_FAULT;
    }
    return FASTSIG_OK;
}

/* The L-tree masks of the cache, made and published on first use; NULL when
 * out of memory. */
static const uint8_t *cached_masks(hbs_wotsp_verify_cache *cache, const hbs_ctx *c,
                                   const hbs_adrs *lt)
{
    uint8_t *km = __atomic_load_n(&cache->ltree_masks, __ATOMIC_ACQUIRE), *mine;
    if (km != NULL)
        return km;
    if ((mine = malloc(hbs_ltree_masks_bytes(c->p))) == NULL
        || hbs_ltree_masks(c, mine, lt) != FASTSIG_OK) {
        free(mine);
        return NULL;
    }
    if (__atomic_compare_exchange_n(&cache->ltree_masks, &km, mine, 0, __ATOMIC_ACQ_REL,
                                    __ATOMIC_ACQUIRE))
        return mine;
    free(mine); /* another thread's came first: km holds it */
    return km;
}

void hbs_wotsp_verify_cache_clear(hbs_wotsp_verify_cache *cache)
{
    if (cache == NULL)
        return;
    free(cache->ltree_masks);
    cache->ltree_masks = NULL;
    cache->p = NULL;
}

int hbs_wotsp_verify(const uint8_t *pk, size_t pklen, const uint8_t *msg, size_t msglen,
                     const uint8_t *sig, size_t siglen)
{
    return hbs_wotsp_verify_cached(NULL, pk, pklen, msg, msglen, sig, siglen);
}

int hbs_wotsp_verify_cached(hbs_wotsp_verify_cache *cache, const uint8_t *pk, size_t pklen,
                            const uint8_t *msg, size_t msglen, const uint8_t *sig,
                            size_t siglen)
{
    if (pk == NULL || sig == NULL || (msg == NULL && msglen != 0))
        return FASTSIG_ERR_NULL_ARG;
    if (pklen < 4)
        return FASTSIG_ERR_BAD_LENGTH;
    /* the cache's row when it has one for this oid: no table search */
    const hbs_params *p = cache != NULL ? __atomic_load_n(&cache->p, __ATOMIC_ACQUIRE) : NULL;
    if (p == NULL || p->oid != fs_load_be32(pk)) {
        if ((p = hbs_wotsp_params_of(pk, pklen)) == NULL)
            return FASTSIG_ERR_BAD_KEY;
        if (cache != NULL)
            __atomic_store_n(&cache->p, p, __ATOMIC_RELEASE);
    }
    if (pklen != hbs_pk_bytes(p))
        return FASTSIG_ERR_BAD_LENGTH;
    if (siglen != hbs_sig_bytes(p))
        return FASTSIG_ERR_BAD_SIGNATURE;
    size_t n = p->n;
    const uint8_t *root = pk + 4;
    const uint8_t *km = NULL;
    hbs_ctx c;
    uint8_t digest[HBS_MAX_N], node[HBS_MAX_N], wpk[HBS_MAX_LEN * HBS_MAX_N];
    hbs_adrs ots, lt;
    key_adrs(&ots, &lt);
    int rc = hbs_ctx_init(&c, p, pk + 4 + n, NULL, NULL);
    if (rc == FASTSIG_OK && cache != NULL && (km = cached_masks(cache, &c, &lt)) == NULL)
        rc = FASTSIG_ERR_NOMEM;
    if (rc == FASTSIG_OK)
        rc = hbs_hash_msg(&c, digest, sig, root, 0, msg, msglen);
    if (rc == FASTSIG_OK)
        rc = hbs_wots_pk_from_sig(&c, wpk, sig + n, digest, &ots);
    if (rc == FASTSIG_OK)
        rc = km != NULL ? hbs_ltree_with(&c, node, wpk, km) : hbs_ltree(&c, node, wpk, &lt, 1);
    hbs_ctx_clear(&c);
    if (rc != FASTSIG_OK)
        return rc;
    uint8_t diff = 0;
    for (size_t i = 0; i < n; i++)
        diff |= node[i] ^ root[i];
    return diff ? FASTSIG_ERR_VERIFY : FASTSIG_OK;
}
