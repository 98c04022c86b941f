/* hss_cache.c - see hss_cache.h. */
#include <stdlib.h>
#include <string.h>
#include "bytes.h"
#include "fastsig_err.h"
#include "lms/hss_cache.h"
#include "lms/lms_chain.h"

#define HDR_BYTES(L) (6 + 8 * (size_t)(L))
#define LEVEL_FIELDS 17

/* Constant time: a wrong tag tells nothing about the right one. */
static int same(const uint8_t *a, const uint8_t *b, size_t n)
{
    uint8_t d = 0;
    for (size_t i = 0; i < n; i++)
        d |= a[i] ^ b[i];
    return d == 0;
}

static int cache_tag(const lms_params *lp, const uint8_t *I, const uint8_t *seed,
                     const uint8_t *data, size_t len, uint8_t *tag)
{
    static const char label[] = "fastsig hss node cache tag v1";
    const unsigned m = lp->m;
    uint8_t pre[23 + LMS_MAX_N], key[LMS_MAX_N];
    memcpy(pre, I, LMS_I_BYTES);
    fs_store_be32(pre + 16, 0xffffffffu);
    fs_store_be16(pre + 20, 0xfffc);
    pre[22] = 0xff;
    memcpy(pre + 23, seed, m);
    int rc = lms_hash_msg(lp->hash, m, key, pre, 23 + m, (const uint8_t *)label,
                          sizeof(label) - 1);
    if (rc == FASTSIG_OK)
        rc = lms_hash_msg(lp->hash, m, tag, key, m, data, len);
    explicit_bzero(pre, sizeof(pre));
    explicit_bzero(key, sizeof(key));
    return rc;
}

int hss_cache_seal(const lms_params *top, const uint8_t *seed, const uint8_t I[LMS_I_BYTES],
                   uint8_t *buf, size_t len)
{
    if (top == NULL || seed == NULL || I == NULL || buf == NULL)
        return FASTSIG_ERR_NULL_ARG;
    if (len < top->m)
        return FASTSIG_ERR_BAD_LENGTH;
    return cache_tag(top, I, seed, buf, len - top->m, buf + len - top->m);
}

static size_t sig_bytes_above(const hss_key *k, unsigned i)
{
    return i > 0 ? lms_sig_bytes(hss_level_lms(k, i - 1), hss_level_ots(k, i - 1)) : 0;
}

int hss_cache_export(hss_key *k, uint8_t **out, size_t *outlen)
{
    if (k == NULL || out == NULL || outlen == NULL)
        return FASTSIG_ERR_NULL_ARG;
    const unsigned L = hss_levels(k), m = hss_level_lms(k, 0)->m;
    const uint8_t *nodes;
    size_t sz = HDR_BYTES(L) + hss_pub_bytes(k) + m;
    for (unsigned i = 0; i < L; i++) {
        if (hss_level_tree(k, i) == NULL)
            return FASTSIG_ERR_INTERNAL;
        sz += LEVEL_FIELDS + lms_tree_nodes(hss_level_tree(k, i), &nodes) * m +
              sig_bytes_above(k, i);
        if (hss_level_next(k, i) != NULL)
            sz += lms_tree_nodes(hss_level_next(k, i), &nodes) * m;
    }
    uint8_t *buf = malloc(sz), *o = buf;
    if (buf == NULL)
        return FASTSIG_ERR_NOMEM;
    memcpy(o, "FSHS\1", 5);
    o[5] = (uint8_t)L;
    for (unsigned i = 0; i < L; i++) {
        fs_store_be32(o + 6 + 8 * i, hss_level_lms(k, i)->type);
        fs_store_be32(o + 10 + 8 * i, hss_level_ots(k, i)->type);
    }
    o += HDR_BYTES(L);
    hss_pub(k, o);
    o += hss_pub_bytes(k);
    for (unsigned i = 0; i < L; i++) {
        const lms_tree *t = hss_level_tree(k, i), *nt = hss_level_next(k, i);
        o[0] = nt != NULL;
        fs_store_be64(o + 1, hss_level_index(k, i));
        fs_store_be64(o + 9, nt != NULL ? lms_tree_built(nt) : 0);
        o += LEVEL_FIELDS;
        size_t c = lms_tree_nodes(t, &nodes) * m;
        memcpy(o, nodes, c);
        o += c;
        if (i > 0) /* the top level has no parent signature (and no buffer) */
            memcpy(o, hss_level_sig(k, i), sig_bytes_above(k, i));
        o += sig_bytes_above(k, i);
        if (nt != NULL) {
            c = lms_tree_nodes(nt, &nodes) * m;
            memcpy(o, nodes, c);
            o += c;
        }
    }
    const lms_tree *top = hss_level_tree(k, 0);
    int rc = hss_cache_seal(lms_tree_lms(top), lms_tree_seed(top), lms_tree_I(top), buf, sz);
    if (rc != FASTSIG_OK) {
        free(buf);
        return rc;
    }
    *out = buf;
    *outlen = sz;
    return FASTSIG_OK;
}

/* A tree of level i whose parent (level i-1) is `parent`, signing it at
 * leaf number t of that level (or the top tree when parent is NULL), with
 * `built` leaves' nodes from *in (avail bytes; advanced). */
static int load_tree(hss_key *k, unsigned i, const lms_tree *parent, uint64_t t,
                     const uint8_t *seed, const uint8_t *I, uint64_t built, const uint8_t **in,
                     size_t *avail, lms_tree **out)
{
    const lms_params *lp = hss_level_lms(k, i);
    uint8_t cseed[LMS_MAX_N], cI[LMS_I_BYTES];
    int rc = FASTSIG_OK;
    *out = NULL;
    if (parent != NULL) {
        uint64_t q = t & (((uint64_t)1 << lms_tree_lms(parent)->h) - 1);
        rc = hss_child_seed(lms_tree_ots(parent), lms_tree_I(parent), lms_tree_seed(parent),
                            (uint32_t)q, cseed, cI);
        seed = cseed;
        I = cI;
    }
    if (rc == FASTSIG_OK)
        rc = lms_tree_start(out, lp, hss_level_ots(k, i), I, seed, LMS_TOP_LEVELS);
    explicit_bzero(cseed, sizeof(cseed));
    if (rc != FASTSIG_OK)
        return rc;
    size_t count = built <= (uint64_t)1 << lp->h ? lms_tree_nodes_for(*out, built) : 0;
    if (built > (uint64_t)1 << lp->h || count > *avail / lp->m ||
        lms_tree_load(*out, built, *in, count) != FASTSIG_OK) {
        lms_tree_free(*out);
        *out = NULL;
        return FASTSIG_ERR_BAD_PARAM;
    }
    *in += count * lp->m;
    *avail -= count * lp->m;
    return FASTSIG_OK;
}

/* Level i's fields and nodes at *in into k (the levels above are in). */
static int load_level(hss_key *k, unsigned i, const uint8_t *seed, const uint8_t *I,
                      const uint8_t **in, size_t *avail)
{
    const uint8_t *f = *in;
    if (*avail < LEVEL_FIELDS)
        return FASTSIG_ERR_BAD_PARAM;
    const uint64_t t = fs_load_be64(f + 1), built = fs_load_be64(f + 9);
    const lms_tree *parent = NULL, *nparent = NULL;
    if (i > 0) {
        const unsigned ph = hss_level_lms(k, i - 1)->h;
        const uint64_t pt = hss_level_index(k, i - 1);
        if (t >> ph != pt) /* the current tree's parent is the current one above */
            return FASTSIG_ERR_BAD_PARAM;
        parent = hss_level_tree(k, i - 1);
        if ((t + 1) >> ph == pt)
            nparent = parent;
        else if (hss_level_next(k, i - 1) != NULL && (t + 1) >> ph == pt + 1)
            nparent = hss_level_next(k, i - 1);
    } else if (t != 0) {
        return FASTSIG_ERR_BAD_PARAM; /* the top level has one tree */
    }
    if (f[0] > 1 || (f[0] == 1 && nparent == NULL) || (f[0] == 0 && built != 0))
        return FASTSIG_ERR_BAD_PARAM;
    *in += LEVEL_FIELDS;
    *avail -= LEVEL_FIELDS;
    lms_tree *tree = NULL, *next = NULL;
    int rc = load_tree(k, i, parent, t, seed, I, (uint64_t)1 << hss_level_lms(k, i)->h, in,
                       avail, &tree);
    size_t sl = sig_bytes_above(k, i);
    if (rc == FASTSIG_OK && *avail < sl)
        rc = FASTSIG_ERR_BAD_PARAM;
    if (rc == FASTSIG_OK) {
        if (sl != 0) /* the top level has no parent signature (and no buffer) */
            memcpy(hss_level_sig(k, i), *in, sl);
        *in += sl;
        *avail -= sl;
        if (f[0] == 1)
            rc = load_tree(k, i, nparent, t + 1, seed, I, built, in, avail, &next);
    }
    if (rc != FASTSIG_OK) {
        lms_tree_free(tree);
        return rc;
    }
    hss_level_set(k, i, t, tree, next);
    return FASTSIG_OK;
}

/* The trees held against SEED and the public key (see hss_cache.h). */
static int check_levels(hss_key *k, const uint8_t *pub)
{
    const unsigned L = hss_levels(k);
    uint8_t mine[4 + 8 + LMS_I_BYTES + LMS_MAX_N], child[8 + LMS_I_BYTES + LMS_MAX_N];
    hss_pub(k, mine);
    if (memcmp(mine, pub, hss_pub_bytes(k)) != 0)
        return FASTSIG_ERR_KEY_MISMATCH;
    int rc = FASTSIG_OK;
    for (unsigned i = 0; i < L && rc == FASTSIG_OK; i++) {
        lms_tree *t = hss_level_tree(k, i), *nt = hss_level_next(k, i);
        const lms_params *lp = hss_level_lms(k, i);
        /* the leaf that signed the tree below (the bottom level: leaf 0) */
        uint64_t q = i + 1 < L ? hss_level_index(k, i + 1) & (((uint64_t)1 << lp->h) - 1) : 0;
        rc = lms_tree_check(t, (uint32_t)q);
        if (rc == FASTSIG_OK && nt != NULL && lms_tree_built(nt) > 0)
            rc = lms_tree_check(nt, 0);
        if (rc == FASTSIG_OK && i > 0) {
            const lms_tree *parent = hss_level_tree(k, i - 1);
            const lms_params *pp = lms_tree_lms(parent);
            const uint8_t *sig = hss_level_sig(k, i);
            uint8_t ppub[8 + LMS_I_BYTES + LMS_MAX_N];
            lms_tree_pub(parent, ppub);
            lms_tree_pub(t, child);
            if (fs_load_be32(sig) != (hss_level_index(k, i) & (((uint64_t)1 << pp->h) - 1)) ||
                lms_verify(ppub, lms_pub_bytes(pp), child, lms_pub_bytes(lp), sig,
                           lms_sig_bytes(pp, lms_tree_ots(parent))) != FASTSIG_OK)
                rc = FASTSIG_ERR_BAD_PARAM;
        }
    }
    return rc;
}

int hss_cache_import(hss_key **out, unsigned L, const lms_params *lms,
                     const lmots_params *ots, const uint8_t *seed,
                     const uint8_t I[LMS_I_BYTES], const uint8_t *pub, unsigned threads,
                     const uint8_t *in, size_t inlen)
{
    if (out == NULL || seed == NULL || I == NULL || pub == NULL || in == NULL)
        return FASTSIG_ERR_NULL_ARG;
    *out = NULL;
    hss_key *k;
    int rc = hss_key_new(&k, L, lms, ots, threads);
    if (rc != FASTSIG_OK)
        return rc;
    const unsigned m = lms[0].m;
    const size_t hdr = HDR_BYTES(L) + hss_pub_bytes(k);
    uint8_t tag[LMS_MAX_N];
    rc = FASTSIG_ERR_BAD_PARAM;
    if (inlen >= hdr + m && cache_tag(&lms[0], I, seed, in, inlen - m, tag) == FASTSIG_OK &&
        same(tag, in + inlen - m, m) && memcmp(in, "FSHS\1", 5) == 0 && in[5] == L &&
        memcmp(in + HDR_BYTES(L), pub, hss_pub_bytes(k)) == 0)
        rc = FASTSIG_OK;
    for (unsigned i = 0; i < L && rc == FASTSIG_OK; i++)
        if (fs_load_be32(in + 6 + 8 * i) != lms[i].type ||
            fs_load_be32(in + 10 + 8 * i) != ots[i].type)
            rc = FASTSIG_ERR_BAD_PARAM;
    const uint8_t *p = in + hdr;
    size_t avail = rc == FASTSIG_OK ? inlen - hdr - m : 0;
    for (unsigned i = 0; i < L && rc == FASTSIG_OK; i++)
        rc = load_level(k, i, seed, I, &p, &avail);
    if (rc == FASTSIG_OK && avail != 0)
        rc = FASTSIG_ERR_BAD_PARAM; /* bytes left over */
    if (rc == FASTSIG_OK)
        rc = check_levels(k, pub);
    if (rc != FASTSIG_OK) {
        hss_key_free(k);
        return rc;
    }
    *out = k;
    return FASTSIG_OK;
}

uint64_t hss_cache_stamp(hss_key *k)
{
    uint64_t s = UINT64_C(0xcbf29ce484222325);
    for (unsigned i = 0; i < hss_levels(k); i++) {
        const lms_tree *nt = hss_level_next(k, i);
        uint64_t v[2] = { hss_level_index(k, i),
                          nt != NULL ? ((lms_tree_built(nt) << 4) >> hss_level_lms(k, i)->h) + 1
                                     : 0 };
        for (int j = 0; j < 2; j++)
            s = (s ^ v[j]) * UINT64_C(0x100000001b3);
    }
    return s;
}
