/* tree_root.c - what verification needs of tree.h: one key's L-tree and
 * the root from an authentication path, on fixed stack buffers (no
 * allocation: it builds freestanding, libfastsig-verify). */
#include <string.h>
#include "fastsig_err.h"
#include "memops.h"
#include "xmss/tree.h"

/* Nodes per batch of the one-key L-tree's keys and bitmasks (one PRF call of
 * 3 x LTREE_GROUP lanes, taken in the tree's node order across levels, so
 * that a WOTS+ key's 66 L-tree nodes take two calls), levels per batch of
 * the auth-path walk's masks. The device build (FASTSIG_SMALL_STACK: one lane
 * per kernel call) batches 4. */
#ifdef FASTSIG_SMALL_STACK
#define LTREE_GROUP 4
#define AUTH_GROUP 4
#else
#define LTREE_GROUP 48
#define AUTH_GROUP 16
#endif

/* A node of an L-tree in its order (level by level, left to right): its
 * level h and index i, the level's node count half and width l. */
typedef struct {
    uint32_t h;
    size_t i, half, l;
} lt_pos;

static void lt_next(lt_pos *p)
{
    if (++p->i < p->half)
        return;
    p->l = (p->l + 1) / 2; /* the odd last node rises unchanged */
    p->h++;
    p->i = 0;
    p->half = p->l / 2;
}

/* The keys and bitmasks of the cnt nodes from at on: keys into km, then
 * every BM0, then every BM1 (cnt * n bytes each). */
static int lt_masks(const xmss_ctx *c, uint8_t *km, const xmss_adrs *ltree, lt_pos at,
                    size_t cnt)
{
    xmss_adrs a[3 * LTREE_GROUP];
    for (size_t j = 0; j < cnt; j++, lt_next(&at))
        for (unsigned k = 0; k < 3; k++) {
            xmss_adrs *x = &a[k * cnt + j];
            *x = *ltree;
            xmss_adrs_set_tree_height(x, at.h);
            xmss_adrs_set_tree_index(x, (uint32_t)at.i);
            xmss_adrs_word(x, 7, k);
        }
    return fs_hash_prf(&c->seeds, km, a[0].b, 3 * cnt);
}

int xmss_ltree_one(const xmss_ctx *c, uint8_t *out, uint8_t *pk, const xmss_adrs *ltree)
{
    const size_t n = c->p->n, total = (size_t)c->p->len - 1;
    uint8_t km[3 * LTREE_GROUP * XMSS_MAX_N], m[2 * LTREE_GROUP * XMSS_MAX_N];
    lt_pos pos = { 0, 0, c->p->len / 2u, c->p->len };
    size_t done = 0, first = 0, ready = 0; /* masks of nodes first .. ready - 1 in km */
    if (n > XMSS_MAX_N)
        return FASTSIG_ERR_BAD_PARAM;
    while (done < total) {
        if (done == ready) {
            size_t cnt = total - done < LTREE_GROUP ? total - done : LTREE_GROUP;
            int rc = lt_masks(c, km, ltree, pos, cnt);
            if (rc != FASTSIG_OK)
                return rc;
            first = done;
            ready = done + cnt;
        }
        /* the level's next nodes whose masks are at hand: level pos.h's nodes
         * i0 .. i0 + cnt - 1 into pk + i0 * n, from pk + 2 * i0 * n (read
         * into m before anything is written) */
        size_t i0 = pos.i, cnt = pos.half - i0 < ready - done ? pos.half - i0 : ready - done;
        size_t chunk = ready - first, off = done - first;
        for (size_t j = 0; j < cnt; j++) {
            const uint8_t *x = pk + 2 * (i0 + j) * n, *bm0 = km + (chunk + off + j) * n;
            const uint8_t *bm1 = km + (2 * chunk + off + j) * n;
            for (size_t b = 0; b < n; b++) { /* (left XOR BM0) || (right XOR BM1) */
                m[2 * j * n + b] = x[b] ^ bm0[b];
                m[(2 * j + 1) * n + b] = x[n + b] ^ bm1[b];
            }
        }
        int rc = fs_hash_H(&c->hp, pk + i0 * n, km + off * n, m, cnt);
        if (rc != FASTSIG_OK)
            return rc;
        done += cnt;
        pos.i += cnt;
        if (pos.i == pos.half) { /* the level is done */
            if (pos.l & 1) /* the odd last node rises (half < l - 1: not overwritten) */
                fs_move(pk + pos.half * n, pk + (pos.l - 1) * n, n);
            pos.i = pos.half - 1;
            lt_next(&pos);
        }
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
