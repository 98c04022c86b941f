/* xmss_verify.c - XMSS / XMSS^MT verification (see xmss.h): whole, from a
 * message digest given (streaming callers), and the start of a streamed
 * H_msg. No allocation: it builds freestanding (libfastsig-verify). */
#include "bytes.h"
#include "fastsig_err.h"
#include "hash/hash_internal.h"
#include "xmss/xmss.h"
#include "xmss/xmss_key.h"
#include "xmss/wots_chain.h"

/* The XMSS / XMSS^MT row named by the oid in a key's first 4 bytes. */
int xmss_tree_row_of(int kind, const uint8_t *key, size_t len, const xmss_params **p)
{
    if (len < 4)
        return FASTSIG_ERR_BAD_LENGTH;
    *p = xmss_params_by_oid(kind, fs_load_be32(key));
    return *p == NULL || kind == XMSS_KIND_WOTSP ? FASTSIG_ERR_BAD_KEY : FASTSIG_OK;
}

/* Every check that needs no hash; *idx gets the signature's index. */
static int check(const xmss_params *p, const uint8_t *pk, size_t pklen, const uint8_t *sig,
                 size_t siglen, uint64_t *idx)
{
    if (p == NULL || pk == NULL || sig == NULL)
        return FASTSIG_ERR_NULL_ARG;
    if (p->kind != XMSS_KIND_XMSS && p->kind != XMSS_KIND_XMSSMT)
        return FASTSIG_ERR_BAD_PARAM;
    if (pklen != xmss_pk_bytes(p))
        return FASTSIG_ERR_BAD_LENGTH;
    if (fs_load_be32(pk) != p->oid)
        return FASTSIG_ERR_BAD_KEY;
    if (siglen != xmss_sig_bytes(p) || p->len > XMSS_TREE_MAX_LEN)
        return FASTSIG_ERR_BAD_SIGNATURE;
    *idx = fs_load_be(sig, p->idx_bytes);
    if (*idx > xmss_last_index(p))
        return FASTSIG_ERR_BAD_SIGNATURE;
    return FASTSIG_OK;
}

/* The layers from the message digest node up to the root, compared. */
static int layers(const xmss_ctx *c, const uint8_t *pk, const uint8_t *sig, uint64_t idx,
                  uint8_t node[XMSS_MAX_N])
{
    const xmss_params *p = c->p;
    const size_t n = p->n, wsig = xmss_wots_sig_bytes(p);
    uint8_t wpk[XMSS_TREE_MAX_LEN * XMSS_MAX_N];
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
            rc = xmss_ltree_one(c, node, wpk, &lt);
        s += wsig;
        if (rc == FASTSIG_OK)
            rc = xmss_root_from_auth(c, node, node, leaf, s, p->tree_h, L, tree);
        s += (size_t)p->tree_h * n;
    }
    if (rc == FASTSIG_OK) {
        const uint8_t *root = pk + 4;
        uint8_t diff = 0;
        for (size_t i = 0; i < n; i++)
            diff |= node[i] ^ root[i];
        rc = diff ? FASTSIG_ERR_VERIFY : FASTSIG_OK;
    }
    return rc;
}

/* msg NULL: dmsg is H_msg already. */
static int verify(const xmss_params *p, const uint8_t *pk, size_t pklen, const uint8_t *msg,
                  size_t msglen, const uint8_t *dmsg, const uint8_t *sig, size_t siglen)
{
    uint64_t idx;
    int rc = check(p, pk, pklen, sig, siglen, &idx);
    if (rc != FASTSIG_OK)
        return rc;
    xmss_ctx c;
    rc = xmss_ctx_init(&c, p, pk + 4 + p->n, NULL, NULL);
    if (rc != FASTSIG_OK)
        return rc;
    uint8_t node[XMSS_MAX_N];
    if (dmsg == NULL)
        rc = xmss_hash_msg(&c, node, sig + p->idx_bytes, pk + 4, idx, msg, msglen);
    else
        memcpy(node, dmsg, p->n);
    if (rc == FASTSIG_OK)
        rc = layers(&c, pk, sig, idx, node);
    xmss_ctx_clear(&c);
    return rc;
}

int xmss_verify_p(const xmss_params *p, const uint8_t *pk, size_t pklen, const uint8_t *msg,
                 size_t msglen, const uint8_t *sig, size_t siglen)
{
    if (msg == NULL && msglen != 0)
        return FASTSIG_ERR_NULL_ARG;
    static const uint8_t empty[1];
    return verify(p, pk, pklen, msg ? msg : empty, msglen, NULL, sig, siglen);
}

int xmss_verify_digest(const xmss_params *p, const uint8_t *pk, size_t pklen,
                       const uint8_t *dmsg, const uint8_t *sig, size_t siglen)
{
    if (dmsg == NULL)
        return FASTSIG_ERR_NULL_ARG;
    return verify(p, pk, pklen, NULL, 0, dmsg, sig, siglen);
}

int xmss_verify_begin(const xmss_params *p, const uint8_t *pk, size_t pklen, const uint8_t *sig,
                      size_t siglen, fs_hash_stream *h)
{
    uint64_t idx;
    int rc = h == NULL ? FASTSIG_ERR_NULL_ARG : check(p, pk, pklen, sig, siglen, &idx);
    if (rc != FASTSIG_OK)
        return rc;
    xmss_ctx c;
    rc = xmss_ctx_init(&c, p, pk + 4 + p->n, NULL, NULL); /* for its hash descriptor */
    if (rc == FASTSIG_OK)
        rc = xmss_hash_msg_begin(&c, h, sig + p->idx_bytes, pk + 4, idx);
    xmss_ctx_clear(&c);
    return rc;
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
