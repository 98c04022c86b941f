/* lms_tree.c - see lms_tree.h. */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include "bytes.h"
#include "ctgrind.h"
#include "fastsig_err.h"
#include "secmem.h"
#include "lms/lms_tree.h"
#include "lms/lmots.h"
#include "lms/lms_chain.h"


struct lms_tree {
    lms_params lp;
    lmots_params op;
    uint8_t I[LMS_I_BYTES];
    uint8_t seed[LMS_MAX_N];
    unsigned cut;
    uint8_t *top;      /* levels cut .. h */
    uint8_t *bot;      /* levels 0 .. cut-1 of bottom subtree bot_idx */
    uint64_t bot_idx;
    int bot_ok;
    uint64_t built;    /* leaves done, in order */
    int complete;      /* every level up to the root */
};

/* Node offset (in nodes) of level l in a level array whose lowest level
 * is lo and top level h: levels below l hold 2^(h-k) nodes each. */
static size_t level_off(unsigned h, unsigned lo, unsigned l)
{
    return ((size_t)2 << (h - lo)) - ((size_t)2 << (h - l));
}

/* Every leaf any tree of this process computed (lms_leaves_computed). */
static uint64_t leaves_computed;

/* Leaves first .. first+count-1 into out (count * m bytes). */
static int leaves(const lms_tree *t, uint32_t first, size_t count, uint8_t *out)
{
    const unsigned m = t->lp.m, len = 22 + m;
    __atomic_add_fetch(&leaves_computed, count, __ATOMIC_RELAXED);
    uint8_t *in = malloc(count * len);
    if (in == NULL)
        return FASTSIG_ERR_NOMEM;
    int rc = lmots_leaf_keys(&t->op, t->I, t->seed, first, count, out);
    for (size_t l = 0; l < count && rc == FASTSIG_OK; l++) {
        uint8_t *d = in + l * len;
        memcpy(d, t->I, LMS_I_BYTES);
        fs_store_be32(d + 16, ((uint32_t)1 << t->lp.h) + first + (uint32_t)l);
        fs_store_be16(d + 20, LMS_D_LEAF);
        memcpy(d + 22, out + l * m, m);
    }
    if (rc == FASTSIG_OK)
        rc = lms_hash_lanes(t->lp.hash, m, out, in, len, count);
    free(in);
    return rc;
}

/* Parents of `count` (even) adjacent nodes at level l starting at index
 * x0 of that level: count/2 nodes into out. */
static int parents(const lms_tree *t, unsigned l, uint64_t x0, size_t count, const uint8_t *kids,
                   uint8_t *out)
{
    const unsigned m = t->lp.m, len = 22 + 2 * m;
    size_t np = count / 2;
    uint8_t *in = malloc(np * len);
    if (in == NULL)
        return FASTSIG_ERR_NOMEM;
    uint32_t r0 = ((uint32_t)1 << (t->lp.h - l - 1)) + (uint32_t)(x0 / 2);
    for (size_t k = 0; k < np; k++) {
        uint8_t *d = in + k * len;
        memcpy(d, t->I, LMS_I_BYTES);
        fs_store_be32(d + 16, r0 + (uint32_t)k);
        fs_store_be16(d + 20, LMS_D_INTR);
        memcpy(d + 22, kids + 2 * k * m, 2 * m);
    }
    int rc = lms_hash_lanes(t->lp.hash, m, out, in, len, np);
    free(in);
    return rc;
}

/* Levels 0 .. cut of bottom subtree b: levels 0 .. cut-1 into bot (if
 * keep) and its root into the top array. */
static int bottom(lms_tree *t, uint64_t b, int keep)
{
    const unsigned c = t->cut, m = t->lp.m;
    size_t nodes = ((size_t)2 << c) - 1;
    uint8_t *buf = malloc(nodes * m);
    if (buf == NULL)
        return FASTSIG_ERR_NOMEM;
    int rc = leaves(t, (uint32_t)(b << c), (size_t)1 << c, buf);
    for (unsigned l = 0; l < c && rc == FASTSIG_OK; l++)
        rc = parents(t, l, b << (c - l), (size_t)1 << (c - l), buf + level_off(c, 0, l) * m,
                     buf + level_off(c, 0, l + 1) * m);
    if (rc == FASTSIG_OK) {
        memcpy(t->top + b * m, buf + level_off(c, 0, c) * m, m);
        if (keep) {
            memcpy(t->bot, buf, level_off(c, 0, c) * m);
            t->bot_idx = b;
            t->bot_ok = 1;
        }
    }
    explicit_bzero(buf, nodes * m);
    free(buf);
    return rc;
}

int lms_tree_gen(lms_tree **out, const lms_params *lp, const lmots_params *op,
                 const uint8_t I[LMS_I_BYTES], const uint8_t *seed, lms_progress_fn progress,
                 void *parg)
{
    return lms_tree_gen_top(out, lp, op, I, seed, LMS_TOP_LEVELS, 1, progress, parg);
}

int lms_tree_start(lms_tree **out, const lms_params *lp, const lmots_params *op,
                   const uint8_t I[LMS_I_BYTES], const uint8_t *seed, unsigned top_levels)
{
    if (out == NULL || lp == NULL || op == NULL || I == NULL || seed == NULL)
        return FASTSIG_ERR_NULL_ARG;
    *out = NULL;
    if (!lms_pair_ok(lp, op))
        return FASTSIG_ERR_UNSUPPORTED;
    lms_tree *t = fs_secmem_alloc(sizeof(*t)); /* SEED: out of core dumps */
    if (t == NULL)
        return FASTSIG_ERR_NOMEM;
    t->lp = *lp;
    t->op = *op;
    memcpy(t->I, I, LMS_I_BYTES);
    memcpy(t->seed, seed, lp->m);
    const unsigned h = lp->h, m = lp->m;
    t->cut = h > top_levels ? h - top_levels : 0;
    t->top = malloc((((size_t)2 << (h - t->cut)) - 1) * m);
    t->bot = malloc((level_off(t->cut, 0, t->cut) + 1) * m);
    if (t->top == NULL || t->bot == NULL) {
        lms_tree_free(t);
        return FASTSIG_ERR_NOMEM;
    }
    *out = t;
    return FASTSIG_OK;
}

/* One thread of a build: it takes the next unit of leaves (a whole bottom
 * subtree when cut > 0, else up to 256 leaves) from the shared cursor
 * until none is left below `to`, so both cores stay busy to the end
 * whatever else the machine runs (a fixed half each left one core idle
 * for seconds under load). Counted in *done; stops when *stop is set.
 * Only the caller's thread has a progress callback (it reports every
 * thread's leaves). */
struct range {
    lms_tree *t;
    uint64_t *cursor, to, base, reported;
    uint64_t *done;
    int *stop;
    lms_progress_fn progress;
    void *parg;
    int rc;
};

static void run_range(struct range *r)
{
    lms_tree *t = r->t;
    const unsigned m = t->lp.m;
    const uint64_t total = (uint64_t)1 << t->lp.h, chunk = t->cut ? (uint64_t)1 << t->cut : 256;
    while (r->rc == FASTSIG_OK) {
        if (__atomic_load_n(r->stop, __ATOMIC_RELAXED)) {
            r->rc = FASTSIG_ERR_INTERNAL;
            break;
        }
        uint64_t x = __atomic_fetch_add(r->cursor, chunk, __ATOMIC_RELAXED);
        if (x >= r->to)
            break;
        uint64_t n = t->cut ? chunk : (r->to - x < chunk ? r->to - x : chunk);
        r->rc = t->cut ? bottom(t, x >> t->cut, x == 0)
                       : leaves(t, (uint32_t)x, (size_t)n, t->top + x * m);
        uint64_t d = __atomic_add_fetch(r->done, n, __ATOMIC_RELAXED);
        if (r->rc == FASTSIG_OK && r->progress != NULL) {
            r->reported = r->base + d;
            if (r->progress(r->parg, r->reported, total))
                r->rc = FASTSIG_ERR_INTERNAL;
        }
        if (r->rc != FASTSIG_OK)
            __atomic_store_n(r->stop, 1, __ATOMIC_RELAXED);
    }
}

static void *range_thread(void *arg)
{
    run_range(arg);
    return NULL;
}

int lms_tree_build(lms_tree *t, uint64_t upto, unsigned threads, lms_progress_fn progress,
                   void *parg)
{
    const unsigned h = t->lp.h, m = t->lp.m;
    const uint64_t total = (uint64_t)1 << h;
    /* shares: whole bottom subtrees, or at least 16 leaves when cut = 0 */
    const uint64_t unit = t->cut ? (uint64_t)1 << t->cut : 16;
    int rc = FASTSIG_OK;
    if (upto > total)
        upto = total;
    if (t->cut)
        upto = (upto + unit - 1) & ~(unit - 1);
    if (t->built < upto) {
        uint64_t units = (upto - t->built + unit - 1) / unit, done = 0, cursor = t->built;
        int stop = 0;
        if (threads < 1)
            threads = 1;
        if (threads > LMS_MAX_THREADS)
            threads = LMS_MAX_THREADS;
        if (threads > units)
            threads = (unsigned)units;
        struct range r[LMS_MAX_THREADS];
        pthread_t th[LMS_MAX_THREADS];
        int started[LMS_MAX_THREADS] = { 0 };
        for (unsigned i = 0; i < threads; i++) {
            struct range ri = { t, &cursor, upto, t->built, 0, &done, &stop,
                                i == 0 ? progress : NULL, parg, FASTSIG_OK };
            r[i] = ri;
            if (i > 0)
                started[i] = pthread_create(&th[i], NULL, range_thread, &r[i]) == 0;
        }
        run_range(&r[0]);
        for (unsigned i = 1; i < threads; i++) {
            if (started[i]) /* one that did not start: the others took its units */
                pthread_join(th[i], NULL);
        }
        for (unsigned i = 0; i < threads && rc == FASTSIG_OK; i++)
            rc = r[i].rc;
        if (rc == FASTSIG_OK) {
            t->built = upto;
            if (progress != NULL && r[0].reported != upto && progress(parg, upto, total))
                rc = FASTSIG_ERR_INTERNAL;
        }
    }
    if (rc == FASTSIG_OK && t->built == total && !t->complete) {
        for (unsigned l = t->cut; l < h && rc == FASTSIG_OK; l++)
            rc = parents(t, l, 0, (size_t)1 << (h - l), t->top + level_off(h, t->cut, l) * m,
                         t->top + level_off(h, t->cut, l + 1) * m);
        t->complete = rc == FASTSIG_OK;
        /* T[1] is the public key (for a lower level, signed by its parent) */
        FS_DECLASSIFY(t->top + level_off(h, t->cut, h) * m, m);
    }
    return rc;
}

int lms_tree_complete(const lms_tree *t)
{
    return t->complete;
}

int lms_tree_gen_top(lms_tree **out, const lms_params *lp, const lmots_params *op,
                     const uint8_t I[LMS_I_BYTES], const uint8_t *seed, unsigned top_levels,
                     unsigned threads, lms_progress_fn progress, void *parg)
{
    if (out == NULL)
        return FASTSIG_ERR_NULL_ARG;
    *out = NULL;
    lms_tree *t = NULL;
    int rc = lms_tree_start(&t, lp, op, I, seed, top_levels);
    if (rc == FASTSIG_OK)
        rc = lms_tree_build(t, (uint64_t)1 << lp->h, threads, progress, parg);
    if (rc != FASTSIG_OK) {
        lms_tree_free(t);
        return rc;
    }
    *out = t;
    return FASTSIG_OK;
}

void lms_tree_free(lms_tree *t)
{
    if (t == NULL)
        return;
    if (t->bot != NULL)
        explicit_bzero(t->bot, (level_off(t->cut, 0, t->cut) + 1) * t->lp.m);
    free(t->top);
    free(t->bot);
    fs_secmem_free(t); /* wiped */
}

const lms_params *lms_tree_lms(const lms_tree *t)
{
    return &t->lp;
}

const lmots_params *lms_tree_ots(const lms_tree *t)
{
    return &t->op;
}

const uint8_t *lms_tree_I(const lms_tree *t)
{
    return t->I;
}

const uint8_t *lms_tree_seed(const lms_tree *t)
{
    return t->seed;
}

void lms_tree_pub(const lms_tree *t, uint8_t *pub)
{
    fs_store_be32(pub, t->lp.type);
    fs_store_be32(pub + 4, t->op.type);
    memcpy(pub + 8, t->I, LMS_I_BYTES);
    memcpy(pub + 24, t->top + level_off(t->lp.h, t->cut, t->lp.h) * t->lp.m, t->lp.m);
}

int lms_randomizer(const lmots_params *op, const uint8_t I[LMS_I_BYTES], const uint8_t *seed,
                   uint32_t q, uint8_t *C)
{
    /* C = H(I || u32str(q) || u16str(0xfffd) || 0xff || SEED) */
    lms_chain_job cj = { q, 0xfffd, 0xff, 1 };
    int rc = lms_chains_ref(op, I, &cj, 1, seed, 0, C);
    FS_DECLASSIFY(C, op->n); /* C is sent in the signature */
    return rc;
}

/* The signature at q: of msg (Q NULL: C and Q computed here), or of the
 * digest Q made with C (a streamed message). */
static int sign_any(lms_tree *t, uint32_t q, const uint8_t *Cin, const uint8_t *Q,
                    const uint8_t *msg, size_t mlen, uint8_t *sig)
{
    if (t == NULL || sig == NULL)
        return FASTSIG_ERR_NULL_ARG;
    const unsigned h = t->lp.h, m = t->lp.m, c = t->cut;
    if (h < 32 && q >> h)
        return FASTSIG_ERR_BAD_PARAM;
    if (!t->complete)
        return FASTSIG_ERR_INTERNAL; /* a tree still being built */
    int rc = FASTSIG_OK;
    if (c && (!t->bot_ok || t->bot_idx != q >> c))
        rc = bottom(t, q >> c, 1);
    if (rc != FASTSIG_OK)
        return rc;
    uint8_t C[LMS_MAX_N];
    if (Q == NULL)
        rc = lms_randomizer(&t->op, t->I, t->seed, q, C);
    if (rc != FASTSIG_OK)
        return rc;
    fs_store_be32(sig, q);
    rc = Q == NULL ? lmots_sign(&t->op, t->I, t->seed, q, C, msg, mlen, sig + 4)
                   : lmots_sign_digest(&t->op, t->I, t->seed, q, Cin, Q, sig + 4);
    explicit_bzero(C, sizeof(C));
    if (rc != FASTSIG_OK)
        return rc;
    uint8_t *p = sig + 4 + lmots_sig_bytes(&t->op);
    fs_store_be32(p, t->lp.type);
    p += 4;
    for (unsigned l = 0; l < h; l++, p += m) {
        uint64_t x = (uint64_t)(q >> l) ^ 1;
        if (l < c)
            memcpy(p, t->bot + (level_off(c, 0, l) + x - (t->bot_idx << (c - l))) * m, m);
        else
            memcpy(p, t->top + (level_off(h, c, l) + x) * m, m);
    }
    return FASTSIG_OK;
}

int lms_tree_sign(lms_tree *t, uint32_t q, const uint8_t *msg, size_t mlen, uint8_t *sig)
{
    if (msg == NULL && mlen)
        return FASTSIG_ERR_NULL_ARG;
    return sign_any(t, q, NULL, NULL, msg, mlen, sig);
}

int lms_tree_sign_digest(lms_tree *t, uint32_t q, const uint8_t *C, const uint8_t *Q,
                         uint8_t *sig)
{
    if (C == NULL || Q == NULL)
        return FASTSIG_ERR_NULL_ARG;
    return sign_any(t, q, C, Q, NULL, 0, sig);
}

/* ---- the nodes as bytes, for a node cache file (hss_cache.c) ---- */

/* A complete tree's nodes are its whole top array; a partial one's are the
 * first built >> cut nodes of level cut, the array's first row. */
static size_t cache_count(const lms_tree *t, uint64_t built)
{
    if (built == (uint64_t)1 << t->lp.h)
        return ((size_t)2 << (t->lp.h - t->cut)) - 1;
    return (size_t)(built >> t->cut);
}

uint64_t lms_tree_built(const lms_tree *t)
{
    return t->built;
}

size_t lms_tree_nodes(const lms_tree *t, const uint8_t **nodes)
{
    *nodes = t->top;
    return cache_count(t, t->built);
}

size_t lms_tree_nodes_for(const lms_tree *t, uint64_t built)
{
    return cache_count(t, built);
}

int lms_tree_load(lms_tree *t, uint64_t built, const uint8_t *nodes, size_t count)
{
    const uint64_t total = (uint64_t)1 << t->lp.h;
    if (built > total || (t->cut && built != total && built & (((uint64_t)1 << t->cut) - 1))
        || count != cache_count(t, built))
        return FASTSIG_ERR_BAD_PARAM;
    memcpy(t->top, nodes, count * t->lp.m);
    t->built = built;
    t->bot_ok = 0;
    t->complete = built == total;
    return FASTSIG_OK;
}

int lms_tree_check(lms_tree *t, uint32_t q)
{
    const unsigned h = t->lp.h, m = t->lp.m, c = t->cut;
    uint64_t b = q >> c;
    uint8_t kept[LMS_MAX_N], node[LMS_MAX_N], kids[2 * LMS_MAX_N];
    if ((h < 32 && q >> h) || b >= t->built >> c)
        return FASTSIG_ERR_BAD_PARAM;
    memcpy(kept, t->top + b * m, m);
    /* the row node from the seed: the leaf, or the root of its bottom
     * subtree (kept as the bottom cache of a complete tree: the first
     * signature there needs it) */
    int rc = c ? bottom(t, b, t->complete) : leaves(t, q, 1, node);
    if (c) {
        memcpy(node, t->top + b * m, m);
        memcpy(t->top + b * m, kept, m);
    }
    if (rc == FASTSIG_OK && memcmp(node, kept, m) != 0)
        rc = FASTSIG_ERR_KEY_MISMATCH;
    for (unsigned l = c; l < h && rc == FASTSIG_OK && t->complete; l++, b >>= 1) {
        memcpy(kids + (b & 1 ? m : 0), node, m);
        memcpy(kids + (b & 1 ? 0 : m), t->top + (level_off(h, c, l) + (b ^ 1)) * m, m);
        rc = parents(t, l, b & ~(uint64_t)1, 2, kids, node);
    }
    if (rc == FASTSIG_OK && t->complete && memcmp(node, t->top + level_off(h, c, h) * m, m) != 0)
        rc = FASTSIG_ERR_KEY_MISMATCH;
    return rc;
}

uint64_t lms_leaves_computed(void)
{
    return __atomic_load_n(&leaves_computed, __ATOMIC_RELAXED);
}
