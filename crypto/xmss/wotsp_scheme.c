/* wotsp_scheme.c - see wotsp_scheme.h. */
#include <stdlib.h>
#include <string.h>
#include "bytes.h"
#include "ctgrind.h"
#include "fastsig_err.h"
#include "xmss/xmss_hash.h"
#include "xmss/tree.h"
#include "xmss/wots_chain.h"
#include "xmss/wotsp_scheme.h"
#include "xmss/xmss_test_hook.h"

const xmss_params *xmss_wotsp_params_of(const uint8_t *key, size_t keylen)
{
    if (key == NULL || keylen < 4)
        return NULL;
    return xmss_params_by_oid(XMSS_KIND_WOTSP, fs_load_be32(key));
}

static void key_adrs(xmss_adrs *ots, xmss_adrs *lt)
{
    xmss_adrs_init(ots, 0, 0, XMSS_ADRS_OTS);
    xmss_adrs_init(lt, 0, 0, XMSS_ADRS_LTREE);
}

/* root = L-tree(WOTS+ pk) of the key with these seeds. */
static int key_root(const xmss_ctx *c, uint8_t *root)
{
    uint8_t wpk[XMSS_MAX_LEN * XMSS_MAX_N];
    xmss_adrs ots, lt;
    key_adrs(&ots, &lt);
    int rc = xmss_wots_pkgen(c, wpk, &ots, 1);
    if (rc == FASTSIG_OK)
        rc = xmss_ltree(c, root, wpk, &lt, 1);
    return rc;
}

int xmss_wotsp_keygen(const xmss_params *p, const uint8_t *seed, size_t seedlen, uint8_t *sk,
                     size_t sklen, uint8_t *pk, size_t pklen)
{
    if (seed == NULL || sk == NULL || pk == NULL)
        return FASTSIG_ERR_NULL_ARG;
    if (p == NULL || p->kind != XMSS_KIND_WOTSP)
        return FASTSIG_ERR_BAD_PARAM;
    size_t n = p->n;
    if (seedlen != 3 * n || sklen != xmss_sk_bytes(p) || pklen != xmss_pk_bytes(p))
        return FASTSIG_ERR_BAD_LENGTH;
    xmss_ctx c;
    int rc = xmss_ctx_init(&c, p, seed + 2 * n, seed, NULL);
    uint8_t root[XMSS_MAX_N];
    if (rc == FASTSIG_OK)
        rc = key_root(&c, root);
    xmss_ctx_clear(&c);
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
static int sk_row(const uint8_t *sk, size_t sklen, const xmss_params **p)
{
    if (sk == NULL)
        return FASTSIG_ERR_NULL_ARG;
    if (sklen < 4)
        return FASTSIG_ERR_BAD_LENGTH;
    if ((*p = xmss_wotsp_params_of(sk, sklen)) == NULL)
        return FASTSIG_ERR_BAD_KEY;
    return sklen == xmss_sk_bytes(*p) ? FASTSIG_OK : FASTSIG_ERR_BAD_LENGTH;
}

int xmss_wotsp_pk_from_sk(const uint8_t *sk, size_t sklen, uint8_t *pk, size_t pklen)
{
    const xmss_params *p;
    int rc = sk_row(sk, sklen, &p);
    if (rc != FASTSIG_OK)
        return rc;
    if (pk == NULL)
        return FASTSIG_ERR_NULL_ARG;
    size_t n = p->n;
    if (pklen != xmss_pk_bytes(p))
        return FASTSIG_ERR_BAD_LENGTH;
    xmss_ctx c;
    uint8_t root[XMSS_MAX_N];
    rc = xmss_ctx_init(&c, p, sk + 4 + 3 * n, sk + 4, NULL);
    if (rc == FASTSIG_OK)
        rc = key_root(&c, root);
    xmss_ctx_clear(&c);
    if (rc == FASTSIG_OK && memcmp(root, sk + 4 + 2 * n, n) != 0)
        rc = FASTSIG_ERR_KEY_MISMATCH;
    if (rc != FASTSIG_OK)
        return rc;
    fs_store_be32(pk, p->oid);
    memcpy(pk + 4, sk + 4 + 2 * n, 2 * n);
    return FASTSIG_OK;
}

/* The signature of msg, or (digest non-NULL) of the H_msg digest a
 * streamed message gave with the same R (wotsp_stream.c). */
static int sign_any(const uint8_t *sk, size_t sklen, const uint8_t *dg, const uint8_t *msg,
                    size_t msglen, uint8_t *sig, size_t siglen)
{
    const xmss_params *p;
    int rc = sk_row(sk, sklen, &p);
    if (rc != FASTSIG_OK)
        return rc;
    if (sig == NULL || (msg == NULL && msglen != 0))
        return FASTSIG_ERR_NULL_ARG;
    if (siglen != xmss_sig_bytes(p))
        return FASTSIG_ERR_BAD_LENGTH;
    size_t n = p->n;
    const uint8_t *root = sk + 4 + 2 * n;
    xmss_ctx c;
    uint8_t digest[XMSS_MAX_N];
    xmss_adrs ots, lt;
    key_adrs(&ots, &lt);
    rc = xmss_ctx_init(&c, p, sk + 4 + 3 * n, sk + 4, sk + 4 + n);
    if (rc == FASTSIG_OK)
        rc = xmss_prf_msg(&c, sig, 0);
    if (rc == FASTSIG_OK && dg != NULL)
        memcpy(digest, dg, n);
    else if (rc == FASTSIG_OK)
        rc = xmss_hash_msg(&c, digest, sig, root, 0, msg, msglen);
    if (rc == FASTSIG_OK)
        rc = xmss_wots_sign(&c, sig + n, digest, &ots);
    xmss_ctx_clear(&c);
    if (rc == FASTSIG_OK && xmss_fault_hook != NULL)
        xmss_fault_hook(XMSS_FAULT_SIG, sig, siglen);
    if (rc != FASTSIG_OK)
        memset(sig, 0, siglen);
    return rc;
}

int xmss_wotsp_sign(const uint8_t *sk, size_t sklen, const uint8_t *msg, size_t msglen,
                   uint8_t *sig, size_t siglen)
{
    return sign_any(sk, sklen, NULL, msg, msglen, sig, siglen);
}

int xmss_wotsp_sign_digest(const uint8_t *sk, size_t sklen, const uint8_t *digest, uint8_t *sig,
                           size_t siglen)
{
    return digest == NULL ? FASTSIG_ERR_NULL_ARG : sign_any(sk, sklen, digest, NULL, 0, sig, siglen);
}

int xmss_wotsp_sign_verified(const uint8_t *sk, size_t sklen, const uint8_t *msg,
                            size_t msglen, uint8_t *sig, size_t siglen)
{
    int rc = xmss_wotsp_sign(sk, sklen, msg, msglen, sig, siglen);
    if (rc != FASTSIG_OK)
        return rc;
    /* the public key is in the sk core: oid || root || PUB_SEED */
    size_t n = xmss_wotsp_params_of(sk, sklen)->n;
    uint8_t pk[4 + 2 * XMSS_MAX_N];
    memcpy(pk, sk, 4);
    memcpy(pk + 4, sk + 4 + 2 * n, 2 * n);
    FS_DECLASSIFY(sig, siglen); /* as in xmss_sign_verified */
    if (xmss_wotsp_verify(pk, 4 + 2 * n, msg, msglen, sig, siglen) != FASTSIG_OK) {
        memset(sig, 0, siglen);
        return FASTSIG_ERR_FAULT;
    }
    return FASTSIG_OK;
}

/* The L-tree masks of the cache, made and published on first use; NULL when
 * out of memory. */
static const uint8_t *cached_masks(xmss_wotsp_verify_cache *cache, const xmss_ctx *c,
                                   const xmss_adrs *lt)
{
    uint8_t *km = __atomic_load_n(&cache->ltree_masks, __ATOMIC_ACQUIRE), *mine;
    if (km != NULL)
        return km;
    if ((mine = malloc(xmss_ltree_masks_bytes(c->p))) == NULL
        || xmss_ltree_masks(c, mine, lt) != FASTSIG_OK) {
        free(mine);
        return NULL;
    }
    if (__atomic_compare_exchange_n(&cache->ltree_masks, &km, mine, 0, __ATOMIC_ACQ_REL,
                                    __ATOMIC_ACQUIRE))
        return mine;
    free(mine); /* another thread's came first: km holds it */
    return km;
}

void xmss_wotsp_verify_cache_clear(xmss_wotsp_verify_cache *cache)
{
    if (cache == NULL)
        return;
    free(cache->ltree_masks);
    cache->ltree_masks = NULL;
    cache->p = NULL;
}

int xmss_wotsp_verify(const uint8_t *pk, size_t pklen, const uint8_t *msg, size_t msglen,
                     const uint8_t *sig, size_t siglen)
{
    return xmss_wotsp_verify_cached(NULL, pk, pklen, msg, msglen, sig, siglen);
}

/* Of msg, or (digest non-NULL) of a streamed message's H_msg digest. */
static int verify_any(xmss_wotsp_verify_cache *cache, const uint8_t *pk, size_t pklen,
                      const uint8_t *dg, const uint8_t *msg, size_t msglen, const uint8_t *sig,
                      size_t siglen)
{
    if (pk == NULL || sig == NULL || (msg == NULL && msglen != 0))
        return FASTSIG_ERR_NULL_ARG;
    if (pklen < 4)
        return FASTSIG_ERR_BAD_LENGTH;
    /* the cache's row when it has one for this oid: no table search */
    const xmss_params *p = cache != NULL ? __atomic_load_n(&cache->p, __ATOMIC_ACQUIRE) : NULL;
    if (p == NULL || p->oid != fs_load_be32(pk)) {
        if ((p = xmss_wotsp_params_of(pk, pklen)) == NULL)
            return FASTSIG_ERR_BAD_KEY;
        if (cache != NULL)
            __atomic_store_n(&cache->p, p, __ATOMIC_RELEASE);
    }
    if (pklen != xmss_pk_bytes(p))
        return FASTSIG_ERR_BAD_LENGTH;
    if (siglen != xmss_sig_bytes(p))
        return FASTSIG_ERR_BAD_SIGNATURE;
    size_t n = p->n;
    const uint8_t *root = pk + 4;
    const uint8_t *km = NULL;
    xmss_ctx c;
    uint8_t digest[XMSS_MAX_N], node[XMSS_MAX_N], wpk[XMSS_MAX_LEN * XMSS_MAX_N];
    xmss_adrs ots, lt;
    key_adrs(&ots, &lt);
    int rc = xmss_ctx_init(&c, p, pk + 4 + n, NULL, NULL);
    if (rc == FASTSIG_OK && cache != NULL && (km = cached_masks(cache, &c, &lt)) == NULL)
        rc = FASTSIG_ERR_NOMEM;
    if (rc == FASTSIG_OK && dg != NULL)
        memcpy(digest, dg, n);
    else if (rc == FASTSIG_OK)
        rc = xmss_hash_msg(&c, digest, sig, root, 0, msg, msglen);
    if (rc == FASTSIG_OK)
        rc = xmss_wots_pk_from_sig(&c, wpk, sig + n, digest, &ots);
    if (rc == FASTSIG_OK)
        rc = km != NULL ? xmss_ltree_with(&c, node, wpk, km) : xmss_ltree(&c, node, wpk, &lt, 1);
    xmss_ctx_clear(&c);
    if (rc != FASTSIG_OK)
        return rc;
    uint8_t diff = 0;
    for (size_t i = 0; i < n; i++)
        diff |= node[i] ^ root[i];
    return diff ? FASTSIG_ERR_VERIFY : FASTSIG_OK;
}

int xmss_wotsp_verify_cached(xmss_wotsp_verify_cache *cache, const uint8_t *pk, size_t pklen,
                            const uint8_t *msg, size_t msglen, const uint8_t *sig,
                            size_t siglen)
{
    return verify_any(cache, pk, pklen, NULL, msg, msglen, sig, siglen);
}

int xmss_wotsp_verify_digest(xmss_wotsp_verify_cache *cache, const uint8_t *pk, size_t pklen,
                             const uint8_t *digest, const uint8_t *sig, size_t siglen)
{
    return digest == NULL ? FASTSIG_ERR_NULL_ARG
                          : verify_any(cache, pk, pklen, digest, NULL, 0, sig, siglen);
}
