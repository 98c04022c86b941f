/* lms_verify.c - LMS verification (RFC 8554 Algorithm 6a), one signature
 * or several side by side; see lms_tree.h. No allocation: it builds
 * freestanding (libfastsig-verify). */
#include <string.h>
#include "bytes.h"
#include "fastsig_err.h"
#include "lms/lms_tree.h"
#include "lms/lmots.h"

/* Room for a node (22 + 2m bytes) and its padding (up to 2 blocks). */
#define ROOM (3 * 168)
/* A K message: the prefix, then the chain ends. */
#define KMSG (LMOTS_PBLC_PREFIX + LMS_MAX_P * LMS_MAX_N)
/* K messages on the stack at once (8.5 KB each): an L = 2 HSS signature's
 * two levels hash their K side by side; deeper ones go by pairs. The
 * device build (FASTSIG_SMALL_STACK, one lane per kernel call) takes one. */
#ifdef FASTSIG_SMALL_STACK
#define KMSGS 1
#else
#define KMSGS 2
#endif

int lms_sig_len(const uint8_t *sig, size_t avail, size_t *len)
{
    lmots_params op;
    lms_params lp;
    if (avail < 8 || lmots_params_get(&op, fs_load_be32(sig + 4)) != FASTSIG_OK)
        return FASTSIG_ERR_BAD_SIGNATURE;
    size_t at = 4 + lmots_sig_bytes(&op);
    if (avail < at + 4 || lms_params_get(&lp, fs_load_be32(sig + at)) != FASTSIG_OK ||
        avail < lms_sig_bytes(&lp, &op))
        return FASTSIG_ERR_BAD_SIGNATURE;
    *len = lms_sig_bytes(&lp, &op);
    return FASTSIG_OK;
}

int lms_sig_parse(lms_sig_view *v, const uint8_t *pub, size_t publen, const uint8_t *sig,
                  size_t siglen)
{
    size_t len;
    if (publen < 8 || lms_params_get(&v->lp, fs_load_be32(pub)) != FASTSIG_OK ||
        lmots_params_get(&v->op, fs_load_be32(pub + 4)) != FASTSIG_OK ||
        publen != lms_pub_bytes(&v->lp) || !lms_pair_ok(&v->lp, &v->op))
        return FASTSIG_ERR_BAD_KEY;
    if (lms_sig_len(sig, siglen, &len) != FASTSIG_OK || len != siglen ||
        fs_load_be32(sig + 4) != v->op.type ||
        fs_load_be32(sig + 4 + lmots_sig_bytes(&v->op)) != v->lp.type)
        return FASTSIG_ERR_BAD_SIGNATURE;
    v->q = fs_load_be32(sig);
    v->Q = NULL;
    if (v->q >> v->lp.h)
        return FASTSIG_ERR_BAD_SIGNATURE;
    v->I = pub + 8;
    v->T1 = pub + 24;
    v->ots_sig = sig + 4;
    v->path = sig + 4 + lmots_sig_bytes(&v->op) + 4;
    return FASTSIG_OK;
}

/* The K of signatures first .. end-1 (at most KMSGS), which share one
 * LM-OTS set: each one's message (prefix and chain ends, written where the
 * chains ended) is a lane of one engine call; K lands in the leaf message
 * at leaf + 22. */
static int keys_side_by_side(const lms_sig_view *v, size_t first, size_t end,
                             const uint8_t *const msg[], const size_t mlen[], uint8_t *leaf)
{
    uint8_t kmsg[KMSGS * KMSG];
    int rc = FASTSIG_OK;
    for (size_t i = first; i < end && rc == FASTSIG_OK; i++) {
        uint8_t *km = kmsg + (i - first) * KMSG;
        size_t olen = lmots_sig_bytes(&v[i].op);
        lmots_pblc_prefix(v[i].I, v[i].q, km);
        if (v[i].Q != NULL)
            rc = lmots_ends_from_digest(&v[i].op, v[i].I, v[i].q, v[i].ots_sig, olen, v[i].Q,
                                        km + LMOTS_PBLC_PREFIX);
        else
            rc = lmots_ends_from_sig(&v[i].op, v[i].I, v[i].q, v[i].ots_sig, olen, msg[i],
                                     mlen[i], km + LMOTS_PBLC_PREFIX);
    }
    if (rc != FASTSIG_OK)
        return rc;
    const lmots_params *op = &v[first].op;
    fs_hash_params hp = lms_hash_params(op->hash, op->n);
    return fs_hash_many_strided(&hp, leaf + first * ROOM + 22, ROOM, kmsg, KMSG,
                                LMOTS_PBLC_PREFIX + (size_t)op->p * op->n, end - first);
}

static int same_ots(const lmots_params *a, const lmots_params *b)
{
    return a->hash == b->hash && a->n == b->n && a->p == b->p;
}

/* Step s of every signature whose tree is at least s high (s = 0 the
 * leaf, s > 0 the node s levels up), as lanes: signatures grouped by hash,
 * digest size and block count. Digests go to dig + i*LMS_MAX_N. */
static void step_side_by_side(const lms_sig_view *v, size_t count, unsigned s,
                              uint8_t *const msg[], const size_t blocks[], uint8_t *dig)
{
    int done[LMS_MAX_LEVELS] = { 0 };
    for (size_t i = 0; i < count; i++) {
        if (done[i] || v[i].lp.h < s)
            continue;
        const uint8_t *in[LMS_MAX_LEVELS];
        size_t lane[LMS_MAX_LEVELS], k = 0;
        for (size_t j = i; j < count; j++)
            if (!done[j] && v[j].lp.h >= s && v[j].lp.hash == v[i].lp.hash &&
                v[j].lp.m == v[i].lp.m && blocks[j] == blocks[i]) {
                done[j] = 1;
                in[k] = msg[j];
                lane[k++] = j;
            }
        uint8_t out[LMS_MAX_LEVELS * LMS_MAX_N];
        fs_hash_params hp = lms_hash_params(v[i].lp.hash, v[i].lp.m);
        (void)fs_hash_padded(&hp, in, blocks[i], out, LMS_MAX_N, k);
        for (size_t l = 0; l < k; l++)
            memcpy(dig + lane[l] * LMS_MAX_N, out + l * LMS_MAX_N, v[i].lp.m);
    }
}

int lms_roots(const lms_sig_view *v, const uint8_t *const msg[], const size_t mlen[],
              size_t count, uint8_t *roots)
{
    if (count == 0 || count > LMS_MAX_LEVELS)
        return FASTSIG_ERR_BAD_PARAM;
    uint8_t leaf[LMS_MAX_LEVELS * ROOM], node[LMS_MAX_LEVELS * ROOM];
    int rc = FASTSIG_OK;
    for (size_t i = 0, end; i < count && rc == FASTSIG_OK; i = end) {
        for (end = i + 1; end < count && end - i < KMSGS && same_ots(&v[end].op, &v[i].op); end++)
            ;
        rc = keys_side_by_side(v, i, end, msg, mlen, leaf);
    }
    if (rc != FASTSIG_OK)
        return rc;
    /* the leaf and node messages, padded once; each step then writes a
     * digest on its side of the next node and the path node on the other */
    uint8_t *in[LMS_MAX_LEVELS], dig[LMS_MAX_LEVELS * LMS_MAX_N];
    size_t blocks[LMS_MAX_LEVELS], nblocks[LMS_MAX_LEVELS];
    uint32_t r[LMS_MAX_LEVELS];
    unsigned top = 0;
    for (size_t i = 0; i < count; i++) {
        const unsigned m = v[i].lp.m;
        uint8_t *lf = leaf + i * ROOM, *nd = node + i * ROOM;
        r[i] = ((uint32_t)1 << v[i].lp.h) + v[i].q;
        memcpy(lf, v[i].I, LMS_I_BYTES);
        fs_store_be32(lf + 16, r[i]);
        fs_store_be16(lf + 20, LMS_D_LEAF);
        memcpy(nd, v[i].I, LMS_I_BYTES);
        fs_store_be16(nd + 20, LMS_D_INTR);
        blocks[i] = fs_hash_pad(v[i].lp.hash, lf, 22 + m);
        nblocks[i] = fs_hash_pad(v[i].lp.hash, nd, 22 + 2 * (size_t)m);
        in[i] = lf;
        top = v[i].lp.h > top ? v[i].lp.h : top;
    }
    for (unsigned s = 0; s <= top; s++) {
        step_side_by_side(v, count, s, in, blocks, dig);
        for (size_t i = 0; i < count; i++) {
            const unsigned m = v[i].lp.m;
            if (v[i].lp.h < s)
                continue;
            if (s == v[i].lp.h) {
                memcpy(roots + i * LMS_MAX_N, dig + i * LMS_MAX_N, m);
                continue;
            }
            /* node r's digest is the left half of its parent when r is even */
            uint8_t *nd = node + i * ROOM;
            memcpy(nd + 22 + (r[i] & 1) * m, dig + i * LMS_MAX_N, m);
            memcpy(nd + 22 + (r[i] & 1 ? 0 : m), v[i].path + (size_t)s * m, m);
            r[i] >>= 1;
            fs_store_be32(nd + 16, r[i]);
            in[i] = nd;
            blocks[i] = nblocks[i];
        }
    }
    return FASTSIG_OK;
}

int lms_verify(const uint8_t *pub, size_t publen, const uint8_t *msg, size_t mlen,
               const uint8_t *sig, size_t siglen)
{
    if (pub == NULL || sig == NULL || (msg == NULL && mlen))
        return FASTSIG_ERR_NULL_ARG;
    lms_sig_view v;
    uint8_t root[LMS_MAX_N];
    int rc = lms_sig_parse(&v, pub, publen, sig, siglen);
    if (rc == FASTSIG_OK)
        rc = lms_roots(&v, &msg, &mlen, 1, root);
    if (rc != FASTSIG_OK)
        return rc;
    return memcmp(root, v.T1, v.lp.m) == 0 ? FASTSIG_OK : FASTSIG_ERR_VERIFY;
}
