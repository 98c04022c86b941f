/* hss.c - see hss.h. */
#include <stdlib.h>
#include <string.h>
#include "ctgrind.h"
#include "fastsig_err.h"
#include "lms/hss.h"
#include "lms/lms_chain.h"

struct hss_key {
    unsigned L;
    lms_params lp[LMS_MAX_LEVELS];
    lmots_params op[LMS_MAX_LEVELS];
    lms_tree *tree[LMS_MAX_LEVELS];
    uint64_t tree_idx[LMS_MAX_LEVELS]; /* which tree of its level */
    lms_tree *next[LMS_MAX_LEVELS];    /* tree_idx + 1, being built, or NULL */
    uint8_t *sig[LMS_MAX_LEVELS];      /* sig[i]: level i-1's signature of pub_i */
    unsigned below[LMS_MAX_LEVELS];    /* sum of the heights under level i */
    unsigned threads;                  /* for whole trees built at once */
    uint64_t first, last;              /* the indices it signs: first .. last */
};

int hss_child_seed(const lmots_params *parent_ots, const uint8_t I[LMS_I_BYTES],
                   const uint8_t *seed, uint32_t q, uint8_t *child_seed,
                   uint8_t child_I[LMS_I_BYTES])
{
    const lms_chain_job jobs[2] = { { q, 0xfffe, 0xff, 1 }, { q, 0xffff, 0xff, 1 } };
    uint8_t out[2 * LMS_MAX_N];
    int rc = lms_chains_ref(parent_ots, I, jobs, 2, seed, 0, out);
    if (rc == FASTSIG_OK) {
        memcpy(child_seed, out, parent_ots->n);
        memcpy(child_I, out + parent_ots->n, LMS_I_BYTES);
        FS_DECLASSIFY(child_I, LMS_I_BYTES); /* I' is in the child's public key */
    }
    explicit_bzero(out, sizeof(out));
    return rc;
}

/* Level i's (>= 1) tree number t becomes current: level i-1's current
 * tree, its parent, signs its public key at leaf t mod 2^h_{i-1}. */
static int adopt(hss_key *k, unsigned i, uint64_t t, lms_tree *nt)
{
    uint8_t pub[4 + 4 + LMS_I_BYTES + LMS_MAX_N];
    uint32_t q = (uint32_t)(t & (((uint64_t)1 << k->lp[i - 1].h) - 1));
    lms_tree_pub(nt, pub);
    int rc = lms_tree_sign(k->tree[i - 1], q, pub, lms_pub_bytes(&k->lp[i]), k->sig[i]);
    if (rc != FASTSIG_OK)
        return rc;
    lms_tree_free(k->tree[i]);
    k->tree[i] = nt;
    k->tree_idx[i] = t;
    return FASTSIG_OK;
}

/* Starts level i's tree number t (SEED and I from its parent: level i-1's
 * current or next tree, whichever is number t >> h_{i-1}); *nt stays NULL
 * when neither is (so past the level's last tree: the top level has one
 * tree and no next). */
static int start_tree(hss_key *k, unsigned i, uint64_t t, lms_tree **nt)
{
    unsigned ph = k->lp[i - 1].h;
    uint64_t pt = t >> ph;
    const lms_tree *parent = NULL;
    *nt = NULL;
    if (k->tree_idx[i - 1] == pt)
        parent = k->tree[i - 1];
    else if (k->next[i - 1] != NULL && k->tree_idx[i - 1] + 1 == pt)
        parent = k->next[i - 1];
    if (parent == NULL)
        return FASTSIG_OK;
    uint8_t seed[LMS_MAX_N], I[LMS_I_BYTES];
    int rc = hss_child_seed(&k->op[i - 1], lms_tree_I(parent), lms_tree_seed(parent),
                            (uint32_t)(t & (((uint64_t)1 << ph) - 1)), seed, I);
    if (rc == FASTSIG_OK)
        rc = lms_tree_start(nt, &k->lp[i], &k->op[i], I, seed, LMS_TOP_LEVELS);
    explicit_bzero(seed, sizeof(seed));
    return rc;
}

/* Level i's tree number t, now: the prepared next tree when it is that
 * one (finished first), else built from scratch. Then the next one is
 * started. */
static int descend(hss_key *k, unsigned i, uint64_t t)
{
    lms_tree *nt = NULL;
    int rc = FASTSIG_OK;
    if (k->next[i] != NULL && k->tree_idx[i] + 1 == t) {
        nt = k->next[i];
        k->next[i] = NULL;
    } else {
        lms_tree_free(k->next[i]);
        k->next[i] = NULL;
        rc = start_tree(k, i, t, &nt);
        if (rc == FASTSIG_OK && nt == NULL)
            rc = FASTSIG_ERR_INTERNAL; /* the parent is current: cannot happen */
    }
    if (rc == FASTSIG_OK)
        rc = lms_tree_build(nt, (uint64_t)1 << k->lp[i].h, k->threads, NULL, NULL);
    if (rc == FASTSIG_OK)
        rc = adopt(k, i, t, nt);
    if (rc != FASTSIG_OK) {
        lms_tree_free(nt);
        return rc;
    }
    return start_tree(k, i, t + 1, &k->next[i]);
}

/* After a signature at g: each level's next tree gets the share of its
 * leaves that this point of the current tree's life calls for, so it is
 * complete when the current one runs out (the bottom level one leaf per
 * signature, level i one per 2^(heights below i) signatures). */
static int prepare(hss_key *k, uint64_t g)
{
    for (unsigned i = 1; i < k->L; i++) {
        if (k->next[i] == NULL)
            continue;
        unsigned a = k->below[i] + k->lp[i].h;
        uint64_t pos = a >= 64 ? g : g & (((uint64_t)1 << a) - 1);
        uint64_t want = k->below[i] >= 64 ? 0 : (pos >> k->below[i]) + 1;
        int rc = lms_tree_build(k->next[i], want, 1, NULL, NULL);
        if (rc != FASTSIG_OK)
            return rc;
    }
    return FASTSIG_OK;
}

int hss_key_gen(hss_key **out, unsigned L, const lms_params *lms, const lmots_params *ots,
                const uint8_t *seed, const uint8_t I[LMS_I_BYTES], lms_progress_fn progress,
                void *parg)
{
    return hss_key_gen_mt(out, L, lms, ots, seed, I, 1, progress, parg);
}

int hss_key_new(hss_key **out, unsigned L, const lms_params *lms, const lmots_params *ots,
                unsigned threads)
{
    if (out == NULL || lms == NULL || ots == NULL)
        return FASTSIG_ERR_NULL_ARG;
    *out = NULL;
    if (L < 1 || L > LMS_MAX_LEVELS)
        return FASTSIG_ERR_UNSUPPORTED;
    unsigned total = 0;
    for (unsigned i = 0; i < L; i++) {
        if (!lms_pair_ok(&lms[i], &ots[i]) || lms[i].family != lms[0].family)
            return FASTSIG_ERR_UNSUPPORTED;
        total += lms[i].h;
    }
    if (total > 64)
        return FASTSIG_ERR_UNSUPPORTED; /* an index must fit 64 bits */
    hss_key *k = calloc(1, sizeof(*k));
    if (k == NULL)
        return FASTSIG_ERR_NOMEM;
    k->L = L;
    k->threads = threads;
    k->first = 0; /* the whole key until hss_key_set_range */
    k->last = total < 64 ? ((uint64_t)1 << total) - 1 : UINT64_MAX;
    for (unsigned i = 0; i < L; i++) {
        k->lp[i] = lms[i];
        k->op[i] = ots[i];
        total -= lms[i].h;
        k->below[i] = total;
        k->tree_idx[i] = i > 0 ? UINT64_MAX : 0; /* none yet */
        if (i > 0 && (k->sig[i] = malloc(lms_sig_bytes(&lms[i - 1], &ots[i - 1]))) == NULL) {
            hss_key_free(k);
            return FASTSIG_ERR_NOMEM;
        }
    }
    *out = k;
    return FASTSIG_OK;
}

int hss_key_gen_mt(hss_key **out, unsigned L, const lms_params *lms, const lmots_params *ots,
                   const uint8_t *seed, const uint8_t I[LMS_I_BYTES], unsigned threads,
                   lms_progress_fn progress, void *parg)
{
    return hss_key_gen_range(out, L, lms, ots, seed, I, threads, 0, 0, progress, parg);
}

int hss_key_gen_range(hss_key **out, unsigned L, const lms_params *lms,
                      const lmots_params *ots, const uint8_t *seed,
                      const uint8_t I[LMS_I_BYTES], unsigned threads, uint64_t first,
                      uint64_t end, lms_progress_fn progress, void *parg)
{
    if (out == NULL || seed == NULL || I == NULL)
        return FASTSIG_ERR_NULL_ARG;
    *out = NULL;
    hss_key *k;
    int rc = hss_key_new(&k, L, lms, ots, threads);
    if (rc != FASTSIG_OK)
        return rc;
    if (!(first == 0 && end == 0)) /* 0, 0: the whole key */
        rc = hss_key_set_range(k, first, end);
    if (rc == FASTSIG_OK)
        rc = lms_tree_gen_top(&k->tree[0], &lms[0], &ots[0], I, seed, LMS_TOP_LEVELS, threads,
                              progress, parg);
    /* the lower trees of the first index signed: a shard never uses the
     * ones before it */
    for (unsigned i = 1; i < L && rc == FASTSIG_OK; i++) {
        unsigned a = k->below[i] + k->lp[i].h;
        rc = descend(k, i, a >= 64 ? 0 : k->first >> a);
    }
    if (rc != FASTSIG_OK) {
        hss_key_free(k);
        return rc;
    }
    *out = k;
    return FASTSIG_OK;
}

void hss_key_free(hss_key *k)
{
    if (k == NULL)
        return;
    for (unsigned i = 0; i < k->L; i++) {
        lms_tree_free(k->tree[i]);
        lms_tree_free(k->next[i]);
        free(k->sig[i]);
    }
    free(k);
}

int hss_key_set_range(hss_key *k, uint64_t first, uint64_t end)
{
    if (k == NULL)
        return FASTSIG_ERR_NULL_ARG;
    /* a range only shrinks: a shard never signs outside its parent's
     * (end 0 stands for 2^64, as in the key) */
    if (first < k->first || end - 1 < first || end - 1 > k->last)
        return FASTSIG_ERR_BAD_PARAM;
    k->first = first;
    k->last = end - 1;
    return FASTSIG_OK;
}

unsigned hss_levels(const hss_key *k)
{
    return k->L;
}

unsigned hss_total_height(const hss_key *k)
{
    return k->below[0] + k->lp[0].h;
}

size_t hss_pub_bytes(const hss_key *k)
{
    return 4 + lms_pub_bytes(&k->lp[0]);
}

size_t hss_sig_bytes(const hss_key *k)
{
    size_t sz = 4;
    for (unsigned i = 0; i < k->L; i++)
        sz += lms_sig_bytes(&k->lp[i], &k->op[i]) + (i > 0 ? lms_pub_bytes(&k->lp[i]) : 0);
    return sz;
}

void hss_pub(const hss_key *k, uint8_t *pub)
{
    lms_put32(pub, k->L);
    lms_tree_pub(k->tree[0], pub + 4);
}

/* Bits a..a+n-1 of g (n < 64). */
static uint64_t bits(uint64_t g, unsigned a, unsigned n)
{
    return a >= 64 ? 0 : (g >> a) & (((uint64_t)1 << n) - 1);
}

int hss_sign(hss_key *k, uint64_t g, const uint8_t *msg, size_t mlen, uint8_t *sig)
{
    if (k == NULL || sig == NULL || (msg == NULL && mlen))
        return FASTSIG_ERR_NULL_ARG;
    unsigned H = hss_total_height(k);
    if (H < 64 && g >> H)
        return FASTSIG_ERR_BAD_PARAM;
    if (g < k->first || g > k->last)
        return FASTSIG_ERR_KEY_EXHAUSTED; /* outside a shard's range */
    int rc = FASTSIG_OK;
    for (unsigned i = 1; i < k->L && rc == FASTSIG_OK; i++) {
        unsigned a = k->below[i] + k->lp[i].h;
        uint64_t t = a >= 64 ? 0 : g >> a;
        if (k->tree_idx[i] != t)
            rc = descend(k, i, t);
    }
    if (rc != FASTSIG_OK)
        return rc;
    uint8_t *p = sig;
    lms_put32(p, k->L - 1);
    p += 4;
    for (unsigned i = 1; i < k->L; i++) {
        size_t sl = lms_sig_bytes(&k->lp[i - 1], &k->op[i - 1]);
        memcpy(p, k->sig[i], sl);
        p += sl;
        lms_tree_pub(k->tree[i], p);
        p += lms_pub_bytes(&k->lp[i]);
    }
    unsigned last = k->L - 1;
    rc = lms_tree_sign(k->tree[last], (uint32_t)bits(g, 0, k->lp[last].h), msg, mlen, p);
    return rc == FASTSIG_OK ? prepare(k, g) : rc;
}

/* The length of the LMS public key at pub (avail bytes). */
static int pub_len(const uint8_t *pub, size_t avail, size_t *len)
{
    lms_params lp;
    if (avail < 4 || lms_params_get(&lp, lms_get32(pub)) != FASTSIG_OK ||
        avail < lms_pub_bytes(&lp))
        return FASTSIG_ERR_BAD_SIGNATURE;
    *len = lms_pub_bytes(&lp);
    return FASTSIG_OK;
}

/* The checks before the levels: arguments, level counts. */
static int check_outer(const uint8_t *pub, size_t publen, const uint8_t *msg, size_t mlen,
                       const uint8_t *sig, size_t siglen)
{
    if (pub == NULL || sig == NULL || (msg == NULL && mlen))
        return FASTSIG_ERR_NULL_ARG;
    if (publen < 4 || lms_get32(pub) < 1 || lms_get32(pub) > LMS_MAX_LEVELS)
        return FASTSIG_ERR_BAD_KEY;
    if (siglen < 4 || lms_get32(sig) + 1 != lms_get32(pub))
        return FASTSIG_ERR_BAD_SIGNATURE;
    return FASTSIG_OK;
}

/* The lengths of a level's signature and (unless last) of the next
 * level's public key after it, at p (left bytes); the last signature
 * must end the bytes. */
static int level_parts(const uint8_t *p, size_t left, int last, size_t *sl, size_t *pl)
{
    *pl = 0;
    int rc = lms_sig_len(p, left, sl);
    if (rc == FASTSIG_OK && !last)
        rc = pub_len(p + *sl, left - *sl, pl);
    if (rc == FASTSIG_OK && last && *sl != left)
        rc = FASTSIG_ERR_BAD_SIGNATURE; /* bytes after the last signature */
    return rc;
}

/* RFC 8554 section 6.3 with the levels side by side: every level is
 * parsed first (the checks of the serial algorithm, in its order), then
 * the roots of the levels that parsed are computed together. The first
 * level that fails, by a wrong root or a malformed part, gives the code:
 * the one the serial algorithm returns. */
int hss_verify(const uint8_t *pub, size_t publen, const uint8_t *msg, size_t mlen,
               const uint8_t *sig, size_t siglen)
{
    int rc = check_outer(pub, publen, msg, mlen, sig, siglen);
    if (rc != FASTSIG_OK)
        return rc;
    unsigned nspk = lms_get32(sig), parsed = 0;
    lms_sig_view v[LMS_MAX_LEVELS];
    const uint8_t *lmsg[LMS_MAX_LEVELS];
    size_t lmlen[LMS_MAX_LEVELS];
    const uint8_t *key = pub + 4, *p = sig + 4;
    size_t keylen = publen - 4, left = siglen - 4;
    int bad = FASTSIG_OK;
    for (unsigned i = 0; i <= nspk && bad == FASTSIG_OK; i++) {
        size_t sl, pl;
        bad = level_parts(p, left, i == nspk, &sl, &pl);
        if (bad == FASTSIG_OK)
            bad = lms_sig_parse(&v[i], key, keylen, p, sl);
        if (bad == FASTSIG_ERR_BAD_KEY && i > 0)
            bad = FASTSIG_ERR_BAD_SIGNATURE; /* a lower key is part of the signature */
        if (bad != FASTSIG_OK)
            break;
        /* level i's key signs the next public key, the last one the message */
        lmsg[i] = i < nspk ? p + sl : msg;
        lmlen[i] = i < nspk ? pl : mlen;
        parsed++;
        key = p + sl;
        keylen = pl;
        p += sl + pl;
        left -= sl + pl;
    }
    if (parsed > 0) {
        uint8_t roots[LMS_MAX_LEVELS * LMS_MAX_N];
        rc = lms_roots(v, lmsg, lmlen, parsed, roots);
        if (rc != FASTSIG_OK)
            return rc;
        for (unsigned i = 0; i < parsed; i++)
            if (memcmp(roots + i * LMS_MAX_N, v[i].T1, v[i].lp.m) != 0)
                return FASTSIG_ERR_VERIFY;
    }
    return bad;
}

int hss_verify_serial(const uint8_t *pub, size_t publen, const uint8_t *msg, size_t mlen,
                      const uint8_t *sig, size_t siglen)
{
    int rc = check_outer(pub, publen, msg, mlen, sig, siglen);
    if (rc != FASTSIG_OK)
        return rc;
    unsigned nspk = lms_get32(sig);
    const uint8_t *key = pub + 4, *p = sig + 4;
    size_t keylen = publen - 4, left = siglen - 4;
    for (unsigned i = 0; i <= nspk; i++) {
        size_t sl, pl;
        rc = level_parts(p, left, i == nspk, &sl, &pl);
        if (rc != FASTSIG_OK)
            return rc;
        /* level i's key signs the next public key, the last one the message */
        if (i < nspk)
            rc = lms_verify(key, keylen, p + sl, pl, p, sl);
        else
            rc = lms_verify(key, keylen, msg, mlen, p, sl);
        if (rc == FASTSIG_ERR_BAD_KEY && i > 0)
            rc = FASTSIG_ERR_BAD_SIGNATURE; /* a lower key is part of the signature */
        if (rc != FASTSIG_OK)
            return rc;
        key = p + sl;
        keylen = pl;
        p += sl + pl;
        left -= sl + pl;
    }
    return FASTSIG_OK;
}

/* ---- the levels' working data, for the node cache (hss_cache.c) ---- */

const lms_params *hss_level_lms(const hss_key *k, unsigned i)
{
    return &k->lp[i];
}

const lmots_params *hss_level_ots(const hss_key *k, unsigned i)
{
    return &k->op[i];
}

lms_tree *hss_level_tree(const hss_key *k, unsigned i)
{
    return k->tree[i];
}

uint64_t hss_level_index(const hss_key *k, unsigned i)
{
    return k->tree_idx[i];
}

lms_tree *hss_level_next(const hss_key *k, unsigned i)
{
    return k->next[i];
}

uint8_t *hss_level_sig(hss_key *k, unsigned i)
{
    return k->sig[i];
}

void hss_level_set(hss_key *k, unsigned i, uint64_t idx, lms_tree *t, lms_tree *nt)
{
    if (k->tree[i] != t)
        lms_tree_free(k->tree[i]);
    if (k->next[i] != nt)
        lms_tree_free(k->next[i]);
    k->tree[i] = t;
    k->next[i] = nt;
    k->tree_idx[i] = idx;
}
