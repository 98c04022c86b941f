/* tree_root.c - what verification needs of tree.h: one key's L-tree and
 * the root from an authentication path, on fixed stack buffers (no
 * allocation: it builds freestanding, libfastsig-verify). */
#include <string.h>
#include "fastsig_err.h"
#include "memops.h"
#include "xmss/tree.h"

/* Nodes per batch of the one-key L-tree: their keys and bitmasks are one
 * PRF call (3 x 16 lanes), their hashes one H call; levels per batch of the
 * auth-path walk's masks. The device build (FASTSIG_SMALL_STACK: one lane
 * per kernel call) batches 4. */
#ifdef FASTSIG_SMALL_STACK
#define LTREE_GROUP 4
#define AUTH_GROUP 4
#else
#define LTREE_GROUP 16
#define AUTH_GROUP 16
#endif

/* Level h's nodes i0 .. i0 + cnt - 1 of an L-tree, into pk + i0 * n, from
 * the level below at pk + 2 * i0 * n (read before anything is written). */
static int ltree_group(const xmss_ctx *c, uint8_t *pk, const xmss_adrs *ltree, uint32_t h,
                       size_t i0, size_t cnt)
{
    size_t n = c->p->n;
    uint8_t km[3 * LTREE_GROUP * XMSS_MAX_N], m[2 * LTREE_GROUP * XMSS_MAX_N];
    xmss_adrs a[3 * LTREE_GROUP];
    /* lanes: every node's key, then every BM0, then every BM1 */
    for (size_t j = 0; j < cnt; j++)
        for (unsigned k = 0; k < 3; k++) {
            xmss_adrs *x = &a[k * cnt + j];
            *x = *ltree;
            xmss_adrs_set_tree_height(x, h);
            xmss_adrs_set_tree_index(x, (uint32_t)(i0 + j));
            xmss_adrs_word(x, 7, k);
        }
    int rc = fs_hash_prf(&c->seeds, km, a[0].b, 3 * cnt);
    if (rc != FASTSIG_OK)
        return rc;
    /* H's message: (left XOR BM0) || (right XOR BM1) */
    for (size_t j = 0; j < cnt; j++) {
        const uint8_t *x = pk + 2 * (i0 + j) * n, *bm0 = km + (cnt + j) * n;
        const uint8_t *bm1 = km + (2 * cnt + j) * n;
        for (size_t b = 0; b < n; b++) {
            m[2 * j * n + b] = x[b] ^ bm0[b];
            m[(2 * j + 1) * n + b] = x[n + b] ^ bm1[b];
        }
    }
    return fs_hash_H(&c->hp, pk + i0 * n, km, m, cnt);
}

int xmss_ltree_one(const xmss_ctx *c, uint8_t *out, uint8_t *pk, const xmss_adrs *ltree)
{
    size_t n = c->p->n, l = c->p->len;
    if (n > XMSS_MAX_N)
        return FASTSIG_ERR_BAD_PARAM;
    for (uint32_t h = 0; l > 1; h++) {
        size_t half = l / 2;
        for (size_t i0 = 0; i0 < half; i0 += LTREE_GROUP) {
            int rc = ltree_group(c, pk, ltree, h, i0,
                                 half - i0 < LTREE_GROUP ? half - i0 : LTREE_GROUP);
            if (rc != FASTSIG_OK)
                return rc;
        }
        if (l & 1) /* the odd last node rises unchanged (half < l - 1: not overwritten) */
            fs_move(pk + half * n, pk + (l - 1) * n, n);
        l = (l + 1) / 2;
    }
    memcpy(out, pk, n);
    return FASTSIG_OK;
}

/* RAND_HASH up the auth path: the keys and bitmasks depend only on the
 * addresses, so each batch of levels gets all of them from one PRF call
 * (full lane groups); only the H calls follow the path one by one. */
int xmss_root_from_auth(const xmss_ctx *c, uint8_t *root, const uint8_t *leaf, uint64_t leaf_idx,
                       const uint8_t *auth, unsigned t, uint32_t layer, uint64_t tree)
{
    size_t n = c->p->n;
    uint8_t buf[2 * XMSS_MAX_N], km[3 * AUTH_GROUP * XMSS_MAX_N];
    xmss_adrs a[3 * AUTH_GROUP];
    if (n > XMSS_MAX_N)
        return FASTSIG_ERR_BAD_PARAM;
    fs_move(root, leaf, n);
    for (unsigned l0 = 0; l0 < t; l0 += AUTH_GROUP) {
        unsigned cnt = t - l0 < AUTH_GROUP ? t - l0 : AUTH_GROUP;
        for (unsigned j = 0; j < cnt; j++)
            for (unsigned m = 0; m < 3; m++) {
                xmss_adrs *x = &a[3 * j + m];
                xmss_adrs_init(x, layer, tree, XMSS_ADRS_TREE);
                xmss_adrs_set_tree_height(x, l0 + j);
                xmss_adrs_set_tree_index(x, (uint32_t)(leaf_idx >> (j + 1)));
                xmss_adrs_word(x, 7, m);
            }
        int rc = fs_hash_prf(&c->seeds, km, a[0].b, 3 * (size_t)cnt);
        for (unsigned j = 0; j < cnt && rc == FASTSIG_OK; j++, leaf_idx >>= 1) {
            const uint8_t *sib = auth + (size_t)(l0 + j) * n;
            const uint8_t *left = (leaf_idx & 1) ? sib : root, *right = (leaf_idx & 1) ? root : sib;
            const uint8_t *bm0 = km + (3 * j + 1) * n, *bm1 = km + (3 * j + 2) * n;
            for (size_t i = 0; i < n; i++) {
                buf[i] = left[i] ^ bm0[i];
                buf[n + i] = right[i] ^ bm1[i];
            }
            rc = fs_hash_H(&c->hp, root, km + 3 * j * n, buf, 1);
        }
        if (rc != FASTSIG_OK)
            return rc;
    }
    return FASTSIG_OK;
}
