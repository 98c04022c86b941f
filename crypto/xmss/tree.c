/* tree.c - see tree.h: building trees (leaves on threads, nodes, L-trees
 * of many keys); one key's L-tree and the root from an auth path, which
 * verification needs, are in tree_root.c. */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include "fastsig_err.h"
#include "memops.h"
#include "xmss/tree.h"
#include "xmss/wots_chain.h"

/* Leaves per batch: 16 keys keep every engine lane busy (16 * len chains)
 * while the scratch stays in L2. */
#define LEAF_GROUP 16

/* rand_hash in chunks the engine accepts. */
static int rand_hash_many(const xmss_ctx *c, uint8_t *out, const uint8_t *in, const xmss_adrs *a,
                          size_t lanes)
{
    size_t n = c->p->n;
    for (size_t off = 0; off < lanes; off += FS_HASH_MAX_LANES) {
        size_t m = lanes - off < FS_HASH_MAX_LANES ? lanes - off : FS_HASH_MAX_LANES;
        int rc = fs_hash_rand_hash(&c->seeds, out + off * n, in + off * 2 * n, a[off].b, m);
        if (rc != FASTSIG_OK)
            return rc;
    }
    return FASTSIG_OK;
}

size_t xmss_ltree_masks_bytes(const xmss_params *p)
{
    return 3 * (size_t)(p->len - 1) * p->n;
}

/* One key's L-tree: the keys and bitmasks of all its len - 1 nodes depend
 * only on their addresses, so one PRF batch makes them all in full lane
 * groups (lanes: every node's key, then every BM0, then every BM1, level by
 * level); each level is then one H call (xmss_ltree_with). */
int xmss_ltree_masks(const xmss_ctx *c, uint8_t *km, const xmss_adrs *ltree)
{
    size_t l = c->p->len, nodes = l - 1, base = 0;
    xmss_adrs *a = calloc(3 * nodes, sizeof(*a));
    if (a == NULL)
        return FASTSIG_ERR_NOMEM;
    for (size_t h = 0, w = l; w > 1; h++, w = (w + 1) / 2)
        for (size_t i = 0; i < w / 2; i++, base++)
            for (unsigned k = 0; k < 3; k++) {
                xmss_adrs *x = &a[k * nodes + base];
                *x = *ltree;
                xmss_adrs_set_tree_height(x, (uint32_t)h);
                xmss_adrs_set_tree_index(x, (uint32_t)i);
                xmss_adrs_word(x, 7, k);
            }
    int rc = fs_hash_prf(&c->seeds, km, a[0].b, 3 * nodes);
    free(a);
    return rc;
}

int xmss_ltree_with(const xmss_ctx *c, uint8_t *out, uint8_t *pk, const uint8_t *km)
{
    size_t n = c->p->n, l = c->p->len, nodes = l - 1, base = 0;
    uint8_t *m = malloc(l / 2 * 2 * n);
    int rc = m != NULL ? FASTSIG_OK : FASTSIG_ERR_NOMEM;
    while (l > 1 && rc == FASTSIG_OK) {
        size_t half = l / 2;
        /* H's message: (left XOR BM0) || (right XOR BM1) */
        for (size_t i = 0; i < half; i++) {
            const uint8_t *x = pk + 2 * i * n, *bm0 = km + (nodes + base + i) * n;
            const uint8_t *bm1 = km + (2 * nodes + base + i) * n;
            uint8_t *y = m + 2 * i * n;
            for (size_t j = 0; j < n; j++) {
                y[j] = x[j] ^ bm0[j];
                y[n + j] = x[n + j] ^ bm1[j];
            }
        }
        rc = fs_hash_H(&c->hp, pk, km + base * n, m, half);
        if (l & 1) /* the odd last node rises unchanged (half < l - 1: not yet overwritten) */
            fs_move(pk + half * n, pk + (l - 1) * n, n);
        base += half;
        l = (l + 1) / 2;
    }
    if (rc == FASTSIG_OK)
        memcpy(out, pk, n);
    free(m);
    return rc;
}

int xmss_ltree(const xmss_ctx *c, uint8_t *out, uint8_t *pk, const xmss_adrs *ltree, size_t keys)
{
    if (keys == 1)
        return xmss_ltree_one(c, out, pk, ltree);
    const xmss_params *p = c->p;
    size_t n = p->n, l = p->len, half = l / 2;
    uint8_t *in = malloc(keys * half * 2 * n);
    uint8_t *res = malloc(keys * half * n);
    xmss_adrs *a = malloc(keys * half * sizeof(*a));
    int rc = FASTSIG_ERR_NOMEM;
    if (in == NULL || res == NULL || a == NULL)
        goto done;
    /* pk holds each key's l current nodes at pk + k * l * n (l shrinks) */
    for (uint32_t height = 0; l > 1; height++) {
        half = l / 2;
        for (size_t k = 0; k < keys; k++) {
            memcpy(in + k * half * 2 * n, pk + k * l * n, half * 2 * n);
            for (size_t i = 0; i < half; i++) {
                xmss_adrs *x = &a[k * half + i];
                *x = ltree[k];
                xmss_adrs_set_tree_height(x, height);
                xmss_adrs_set_tree_index(x, (uint32_t)i);
            }
        }
        rc = rand_hash_many(c, res, in, a, keys * half);
        if (rc != FASTSIG_OK)
            goto done;
        size_t nl = (l + 1) / 2;
        for (size_t k = 0; k < keys; k++) {
            /* the odd node first: its source may be overwritten below */
            if (l & 1)
                fs_move(pk + (k * nl + half) * n, pk + (k * l + l - 1) * n, n);
            memcpy(pk + k * nl * n, res + k * half * n, half * n);
        }
        l = nl;
    }
    for (size_t k = 0; k < keys; k++)
        memcpy(out + k * n, pk + k * n, n);
    rc = FASTSIG_OK;
done:
    free(in);
    free(res);
    free(a);
    return rc;
}

/* Leaves of one contiguous range, LEAF_GROUP at a time. */
typedef struct {
    const xmss_ctx *c;
    uint8_t *out;
    uint32_t layer;
    uint64_t tree;
    uint32_t first;
    size_t count;
    uint64_t *done; /* shared counter, atomically updated */
    xmss_progress_fn progress;
    void *parg;
    uint64_t pbase, ptotal;
    int rc;
} leaf_job;

static int leaves_range(leaf_job *j)
{
    const xmss_params *p = j->c->p;
    size_t n = p->n;
    uint8_t *pk = malloc((size_t)LEAF_GROUP * p->len * n);
    if (pk == NULL)
        return FASTSIG_ERR_NOMEM;
    xmss_adrs ots[LEAF_GROUP], lt[LEAF_GROUP];
    int rc = FASTSIG_OK;
    for (size_t i = 0; i < j->count && rc == FASTSIG_OK; i += LEAF_GROUP) {
        size_t g = j->count - i < LEAF_GROUP ? j->count - i : LEAF_GROUP;
        for (size_t k = 0; k < g; k++) {
            uint32_t leaf = j->first + (uint32_t)(i + k);
            xmss_adrs_init(&ots[k], j->layer, j->tree, XMSS_ADRS_OTS);
            xmss_adrs_set_ots(&ots[k], leaf);
            xmss_adrs_init(&lt[k], j->layer, j->tree, XMSS_ADRS_LTREE);
            xmss_adrs_set_ltree(&lt[k], leaf);
        }
        rc = xmss_wots_pkgen(j->c, pk, ots, g);
        if (rc == FASTSIG_OK)
            rc = xmss_ltree(j->c, j->out + i * n, pk, lt, g);
        uint64_t d = __atomic_add_fetch(j->done, g, __ATOMIC_RELAXED);
        if (rc == FASTSIG_OK && j->progress != NULL &&
            j->progress(j->parg, j->pbase + d, j->ptotal) != 0)
            rc = FASTSIG_ERR_INTERNAL;
    }
    free(pk);
    return rc;
}

static void *leaves_thread(void *arg)
{
    leaf_job *j = arg;
    j->rc = leaves_range(j);
    return NULL;
}

int xmss_leaves(const xmss_ctx *c, uint8_t *out, uint32_t layer, uint64_t tree, uint32_t first,
               size_t count, unsigned threads, xmss_progress_fn progress, void *parg,
               uint64_t progress_base, uint64_t progress_total)
{
    uint64_t done = 0;
    size_t groups = (count + LEAF_GROUP - 1) / LEAF_GROUP, nt = threads;
    if (nt > XMSS_MAX_THREADS)
        nt = XMSS_MAX_THREADS;
    if (nt > groups)
        nt = groups;
    leaf_job job[XMSS_MAX_THREADS];
    job[0] = (leaf_job){ c, out, layer, tree, first, count, &done, progress, parg,
                         progress_base, progress_total, FASTSIG_OK };
    if (nt < 2)
        return leaves_range(&job[0]);
    /* thread t takes whole groups [t * groups / nt, (t + 1) * groups / nt);
     * only the caller's thread (t = 0) calls the progress callback: OpenSSL's
     * lives there */
    pthread_t th[XMSS_MAX_THREADS];
    int started[XMSS_MAX_THREADS] = { 0 };
    for (size_t t = nt; t-- > 0;) {
        size_t lo = t * groups / nt * LEAF_GROUP, hi = (t + 1) * groups / nt * LEAF_GROUP;
        job[t] = job[0];
        job[t].out = out + lo * c->p->n;
        job[t].first = first + (uint32_t)lo;
        job[t].count = (hi < count ? hi : count) - lo;
        if (t > 0) {
            job[t].progress = NULL;
            started[t] = pthread_create(&th[t], NULL, leaves_thread, &job[t]) == 0;
        }
    }
    int rc = leaves_range(&job[0]);
    for (size_t t = 1; t < nt; t++) {
        if (started[t])
            pthread_join(th[t], NULL);
        else /* no thread to be had: this one does it */
            job[t].rc = rc == FASTSIG_OK ? leaves_range(&job[t]) : rc;
        if (rc == FASTSIG_OK)
            rc = job[t].rc;
    }
    if (rc == FASTSIG_OK && progress != NULL &&
        progress(parg, progress_base + count, progress_total) != 0)
        rc = FASTSIG_ERR_INTERNAL;
    return rc;
}

int xmss_nodes_up(const xmss_ctx *c, uint8_t *nodes, unsigned b, uint32_t layer, uint64_t tree,
                 unsigned base_level, uint64_t base_index)
{
    size_t n = c->p->n;
    xmss_adrs *a = malloc(((size_t)1 << (b ? b - 1 : 0)) * sizeof(*a));
    if (a == NULL)
        return FASTSIG_ERR_NOMEM;
    int rc = FASTSIG_OK;
    for (unsigned l = 1; l <= b && rc == FASTSIG_OK; l++) {
        size_t cnt = (size_t)1 << (b - l);
        for (size_t j = 0; j < cnt; j++) {
            xmss_adrs_init(&a[j], layer, tree, XMSS_ADRS_TREE);
            xmss_adrs_set_tree_height(&a[j], base_level + l - 1);
            xmss_adrs_set_tree_index(&a[j], (uint32_t)((base_index >> l) + j));
        }
        rc = rand_hash_many(c, nodes + xmss_level_off(b, l) * n,
                            nodes + xmss_level_off(b, l - 1) * n, a, cnt);
    }
    free(a);
    return rc;
}

void xmss_auth_from(const xmss_params *p, uint8_t *auth, const uint8_t *nodes, unsigned b,
                   uint64_t leaf)
{
    size_t n = p->n;
    for (unsigned l = 0; l < b; l++)
        memcpy(auth + l * n, nodes + (xmss_level_off(b, l) + ((leaf >> l) ^ 1)) * n, n);
}
