/* xmss_verify.c - XMSS / XMSS^MT verification (see xmss.h): of a message, or
 * of its H_msg digest computed elsewhere (streaming, xmss_stream.c). */
#include <string.h>
#include "bytes.h"
#include "fastsig_err.h"
#include "xmss/xmss.h"
#include "xmss/xmss_key.h"
#include "xmss/wots_chain.h"

/* ---- verification --------------------------------------------------------- */

int xmss_verify_checks(const xmss_params *p, const uint8_t *pk, size_t pklen,
                       const uint8_t *sig, size_t siglen)
{
    if (p == NULL || pk == NULL || sig == NULL)
        return FASTSIG_ERR_NULL_ARG;
    if (p->kind != XMSS_KIND_XMSS && p->kind != XMSS_KIND_XMSSMT)
        return FASTSIG_ERR_BAD_PARAM;
    if (pklen != xmss_pk_bytes(p))
        return FASTSIG_ERR_BAD_LENGTH;
    if (fs_load_be32(pk) != p->oid)
        return FASTSIG_ERR_BAD_KEY;
    if (siglen != xmss_sig_bytes(p))
        return FASTSIG_ERR_BAD_SIGNATURE;
    if (fs_load_be(sig, p->idx_bytes) > xmss_last_index(p))
        return FASTSIG_ERR_BAD_SIGNATURE;
    return FASTSIG_OK;
}

/* From the message digest (node) up the layers to the root. */
static int walk(const xmss_ctx *c, uint8_t *node, const uint8_t *root, const uint8_t *sig)
{
    const xmss_params *p = c->p;
    const size_t n = p->n, wsig = xmss_wots_sig_bytes(p);
    uint64_t idx = fs_load_be(sig, p->idx_bytes);
    uint8_t wpk[XMSS_MAX_LEN * XMSS_MAX_N];
    const uint8_t *s = sig + p->idx_bytes + n;
    int rc = FASTSIG_OK;
    for (unsigned L = 0; L < p->d && rc == FASTSIG_OK; L++) {
        uint64_t g = idx >> (p->tree_h * L);
        uint64_t tree = g >> p->tree_h, leaf = g & (((uint64_t)1 << p->tree_h) - 1);
        xmss_adrs ots, lt;
        xmss_adrs_init(&ots, L, tree, XMSS_ADRS_OTS);
        xmss_adrs_set_ots(&ots, (uint32_t)leaf);
        xmss_adrs_init(&lt, L, tree, XMSS_ADRS_LTREE);
        xmss_adrs_set_ltree(&lt, (uint32_t)leaf);
        rc = xmss_wots_pk_from_sig(c, wpk, s, node, &ots);
        if (rc == FASTSIG_OK)
            rc = xmss_ltree(c, node, wpk, &lt, 1);
        s += wsig;
        if (rc == FASTSIG_OK)
            rc = xmss_root_from_auth(c, node, node, leaf, s, p->tree_h, L, tree);
        s += (size_t)p->tree_h * n;
    }
    if (rc == FASTSIG_OK) {
        uint8_t diff = 0;
        for (size_t i = 0; i < n; i++)
            diff |= node[i] ^ root[i];
        rc = diff ? FASTSIG_ERR_VERIFY : FASTSIG_OK;
    }
    return rc;
}

/* digest NULL: H_msg of msg, else the digest given. */
static int verify_any(const xmss_params *p, const uint8_t *pk, size_t pklen,
                      const uint8_t *digest, const uint8_t *msg, size_t msglen,
                      const uint8_t *sig, size_t siglen)
{
    int rc = xmss_verify_checks(p, pk, pklen, sig, siglen);
    if (rc != FASTSIG_OK)
        return rc;
    const size_t n = p->n;
    const uint8_t *root = pk + 4;
    xmss_ctx c;
    uint8_t node[XMSS_MAX_N];
    if ((rc = xmss_ctx_init(&c, p, pk + 4 + n, NULL, NULL)) != FASTSIG_OK)
        return rc;
    if (digest == NULL)
        rc = xmss_hash_msg(&c, node, sig + p->idx_bytes, root, fs_load_be(sig, p->idx_bytes),
                           msg, msglen);
    else
        memcpy(node, digest, n);
    if (rc == FASTSIG_OK)
        rc = walk(&c, node, root, sig);
    xmss_ctx_clear(&c);
    return rc;
}

int xmss_verify_p(const xmss_params *p, const uint8_t *pk, size_t pklen, const uint8_t *msg,
                 size_t msglen, const uint8_t *sig, size_t siglen)
{
    if (msg == NULL && msglen != 0)
        return FASTSIG_ERR_NULL_ARG;
    return verify_any(p, pk, pklen, NULL, msg, msglen, sig, siglen);
}

int xmss_verify_digest(const xmss_params *p, const uint8_t *pk, size_t pklen,
                       const uint8_t *digest, const uint8_t *sig, size_t siglen)
{
    if (digest == NULL)
        return FASTSIG_ERR_NULL_ARG;
    return verify_any(p, pk, pklen, digest, NULL, 0, sig, siglen);
}

int xmss_verify(int kind, const uint8_t *pk, size_t pklen, const uint8_t *msg, size_t msglen,
               const uint8_t *sig, size_t siglen)
{
    if (pk == NULL)
        return FASTSIG_ERR_NULL_ARG;
    const xmss_params *p;
    int rc = xmss_tree_row_of(kind, pk, pklen, &p);
    return rc != FASTSIG_OK ? rc : xmss_verify_p(p, pk, pklen, msg, msglen, sig, siglen);
}
