/* hash.c - the RFC 8391 / SP 800-208 functions of hash.h as batches for the
 * lane engine (lanes.c): argument checks, toByte prefixes and midstates,
 * message assembly (short messages in the kernels' padded blocks, long ones
 * in place after their prefix's block), bitmasks. */
#include <string.h>
#include "memops.h"
#include "fastsig_err.h"
#include "hash/hash.h"
#include "hash/hash_internal.h"
#include "hash/lanes.h"

/* Per-lane messages are assembled here, this many bytes per batch (a
 * multi-part message is always far shorter). Lanes per internal batch of
 * the keyed helpers (several kernel calls). FASTSIG_SMALL_STACK: the
 * device verifier's frames (libfastsig-verify, one lane per kernel call). */
#ifdef FASTSIG_SMALL_STACK
#define SCRATCH 2048
#define BATCH 16
#else
#define SCRATCH 16384
#define BATCH 64
#endif

int fs_hash_params_check(const fs_hash_params *p)
{
    if (p == NULL)
        return FASTSIG_ERR_NULL_ARG;
    unsigned digest = p->family == FS_HASH_SHA256 ? 32 : 64;
    if (fs_lanes_block(p->family) == 0 || (p->n != 24 && p->n != 32 && p->n != 64) ||
        p->n > digest || (p->pad != 4 && p->pad != 32 && p->pad != 64))
        return FASTSIG_ERR_UNSUPPORTED;
    return FASTSIG_OK;
}

static int check(const fs_hash_params *p, const void *out, size_t lanes)
{
    int rc = fs_hash_params_check(p);
    if (rc != FASTSIG_OK)
        return rc;
    if (out == NULL)
        return FASTSIG_ERR_NULL_ARG;
    if (lanes == 0 || lanes > FS_HASH_MAX_LANES)
        return FASTSIG_ERR_BAD_LANES;
    return FASTSIG_OK;
}

void fs_hash_keyed_init(fs_hash_keyed *k, const fs_hash_params *p, unsigned domain,
                       const uint8_t *key, size_t keylen)
{
    uint8_t prefix[64 + 3 * FS_HASH_MAX_N];
    size_t len = p->pad + keylen, block = fs_lanes_block(p->family), whole = len / block;
    memset(prefix, 0, p->pad);
    prefix[p->pad - 1] = (uint8_t)domain;
    if (keylen)
        memcpy(prefix + p->pad, key, keylen);
    fs_lanes_iv(p->family, &k->mid);
    if (whole) /* the unkeyed F and H prefixes fill no block */
        fs_lanes_absorb(p->family, &k->mid, prefix, whole);
    k->done = whole * block;
    k->restlen = (unsigned)(len - k->done);
    memcpy(k->rest, prefix + k->done, k->restlen);
    fs_wipe(prefix, sizeof(prefix));
}

/* One piece of each lane's message (lanes.h). */
typedef fs_lanes_part part;

/* One message Hash(prefix || msg) on top of mid (done bytes absorbed;
 * NULL: the IV), plen < block: the prefix's block is completed with msg's
 * first bytes, the rest of msg is hashed in place. */
static void prefix_then_msg(fs_hash_family f, const fs_hash_state *mid, uint64_t done,
                            const uint8_t *prefix, size_t plen, const uint8_t *msg, size_t mlen,
                            uint8_t *out, size_t n)
{
    size_t block = fs_lanes_block(f), take = mlen < block - plen ? mlen : block - plen;
    uint8_t first[168];
    fs_hash_state st;
    if (mid != NULL)
        st = *mid;
    else
        fs_lanes_iv(f, &st);
    memcpy(first, prefix, plen);
    if (take) /* an empty message may be NULL */
        memcpy(first + plen, msg, take);
    if (take == mlen) {
        fs_lanes_run(f, &st, done, first, 0, plen + take, out, 0, n, 1);
    } else {
        fs_lanes_absorb(f, &st, first, 1);
        fs_lanes_run(f, &st, done + block, msg + take, 0, mlen - take, out, 0, n, 1);
    }
    fs_wipe(&st, sizeof(st));
    fs_wipe(first, sizeof(first));
}

/* out_l = Hash(prefix || parts[0]_l || parts[1]_l ...), prefix given by k. */
static void run_parts(const fs_hash_params *p, const fs_hash_keyed *k, const part *parts,
                      unsigned nparts, uint8_t *out, size_t lanes)
{
    size_t per = k->restlen;
    for (unsigned i = 0; i < nparts; i++)
        per += parts[i].len;
    if (per > SCRATCH) { /* long single-part messages (H_msg): hashed in place */
        for (size_t l = 0; l < lanes; l++)
            prefix_then_msg(p->family, &k->mid, k->done, k->rest, k->restlen,
                            parts[0].p + l * parts[0].stride, parts[0].len, out + l * p->n, p->n);
        return;
    }
    /* short messages go straight into the kernels' padded blocks */
    if (fs_lanes_run_parts(p->family, &k->mid, k->done, k->rest, k->restlen, parts, nparts, out,
                           p->n, lanes) == 0)
        return;
    uint8_t buf[SCRATCH];
    size_t chunk = SCRATCH / (per ? per : 1), used = 0;
    for (size_t base = 0; base < lanes; base += chunk) {
        size_t cnt = lanes - base < chunk ? lanes - base : chunk;
        for (size_t l = 0; l < cnt; l++) {
            uint8_t *d = buf + l * per;
            fs_copy(d, k->rest, k->restlen);
            d += k->restlen;
            for (unsigned i = 0; i < nparts; i++) {
                if (parts[i].len) /* an empty H_msg message may be NULL */
                    fs_copy(d, parts[i].p + (base + l) * parts[i].stride, parts[i].len);
                d += parts[i].len;
            }
        }
        fs_lanes_run(p->family, &k->mid, k->done, buf, per, per, out + base * p->n, p->n, p->n,
                     cnt);
        used = cnt * per > used ? cnt * per : used;
    }
    fs_wipe(buf, used);
}

/* Hash(toByte(domain, pad) || parts...) with an empty key. */
static void run_domain(const fs_hash_params *p, unsigned domain, const part *parts,
                       unsigned nparts, uint8_t *out, size_t lanes)
{
    fs_hash_keyed k;
    fs_hash_keyed_init(&k, p, domain, NULL, 0);
    run_parts(p, &k, parts, nparts, out, lanes);
}

int fs_hash_many_strided(const fs_hash_params *p, uint8_t *out, size_t ostride,
                         const uint8_t *in, size_t istride, size_t inlen, size_t lanes)
{
    int rc = check(p, out, lanes);
    if (rc == FASTSIG_OK && in == NULL && inlen)
        rc = FASTSIG_ERR_NULL_ARG;
    if (rc == FASTSIG_OK)
        fs_lanes_run(p->family, NULL, 0, in, istride, inlen, out, ostride, p->n, lanes);
    return rc;
}

int fs_hash_many(const fs_hash_params *p, uint8_t *out, const uint8_t *in, size_t inlen,
                 size_t lanes)
{
    return fs_hash_many_strided(p, out, p ? p->n : 0, in, inlen, inlen, lanes);
}

int fs_hash_prefixed_msg(const fs_hash_params *p, uint8_t *out, const uint8_t *prefix,
                         size_t plen, const uint8_t *msg, size_t mlen)
{
    int rc = check(p, out, 1);
    if (rc == FASTSIG_OK && plen >= fs_lanes_block(p->family))
        rc = FASTSIG_ERR_BAD_PARAM;
    if (rc == FASTSIG_OK && ((prefix == NULL && plen) || (msg == NULL && mlen)))
        rc = FASTSIG_ERR_NULL_ARG;
    if (rc == FASTSIG_OK)
        prefix_then_msg(p->family, NULL, 0, prefix, plen, msg, mlen, out, p->n);
    return rc;
}

size_t fs_hash_pad(fs_hash_family f, uint8_t *msg, size_t len)
{
    return fs_lanes_block(f) ? fs_lanes_pad(f, msg, len, 0) : 0;
}

int fs_hash_padded(const fs_hash_params *p, const uint8_t *const msgs[], size_t nblocks,
                   uint8_t *out, size_t ostride, size_t lanes)
{
    int rc = check(p, out, lanes);
    if (rc == FASTSIG_OK && msgs == NULL)
        rc = FASTSIG_ERR_NULL_ARG;
    if (rc == FASTSIG_OK) {
        fs_hash_state iv;
        fs_lanes_iv(p->family, &iv);
        fs_lanes_run_ptrs(p->family, &iv, msgs, nblocks, out, ostride, p->n, lanes, 0);
    }
    return rc;
}

int fs_hash_prefixed(const fs_hash_params *p, unsigned domain, uint8_t *out, const uint8_t *in,
                     size_t inlen, size_t lanes)
{
    int rc = check(p, out, lanes);
    if (rc == FASTSIG_OK && in == NULL && inlen)
        rc = FASTSIG_ERR_NULL_ARG;
    if (rc == FASTSIG_OK && domain > 255)
        rc = FASTSIG_ERR_BAD_PARAM;
    if (rc == FASTSIG_OK) {
        part pt = { in, inlen, inlen };
        run_domain(p, domain, &pt, 1, out, lanes);
    }
    return rc;
}

/* Hash(toByte(domain, pad) || KEY || M): F (M is n bytes) and H (2n). */
static int keyed_pair(const fs_hash_params *p, unsigned domain, uint8_t *out, const uint8_t *key,
                      const uint8_t *m, unsigned mlen_n, size_t lanes)
{
    int rc = check(p, out, lanes);
    if (rc == FASTSIG_OK && (key == NULL || m == NULL))
        rc = FASTSIG_ERR_NULL_ARG;
    if (rc == FASTSIG_OK) {
        part pt[2] = { { key, p->n, p->n }, { m, mlen_n * p->n, mlen_n * p->n } };
        run_domain(p, domain, pt, 2, out, lanes);
    }
    return rc;
}

int fs_hash_F(const fs_hash_params *p, uint8_t *out, const uint8_t *key, const uint8_t *m,
              size_t lanes)
{
    return keyed_pair(p, FS_DOM_F, out, key, m, 1, lanes);
}

int fs_hash_H(const fs_hash_params *p, uint8_t *out, const uint8_t *key, const uint8_t *m,
              size_t lanes)
{
    return keyed_pair(p, FS_DOM_H, out, key, m, 2, lanes);
}

int fs_hash_msg(const fs_hash_params *p, uint8_t *out, const uint8_t *key3n, const uint8_t *msg,
                size_t msglen)
{
    int rc = check(p, out, 1);
    if (rc == FASTSIG_OK && (key3n == NULL || (msg == NULL && msglen)))
        rc = FASTSIG_ERR_NULL_ARG;
    if (rc == FASTSIG_OK) {
        fs_hash_keyed k;
        part pt = { msg, msglen, 0 };
        fs_hash_keyed_init(&k, p, FS_DOM_HMSG, key3n, 3 * p->n);
        run_parts(p, &k, &pt, 1, out, 1);
    }
    return rc;
}

int fs_hash_seeds_init(fs_hash_seeds *s, const fs_hash_params *p, const uint8_t *pub_seed,
                       const uint8_t *sk_seed)
{
    int rc = fs_hash_params_check(p);
    if (rc != FASTSIG_OK)
        return rc;
    if (s == NULL || pub_seed == NULL)
        return FASTSIG_ERR_NULL_ARG;
    memset(s, 0, sizeof(*s));
    s->p = *p;
    memcpy(s->pub_seed, pub_seed, p->n);
    fs_hash_keyed_init(&s->prf, p, FS_DOM_PRF, pub_seed, p->n);
    if (sk_seed != NULL) {
        fs_hash_keyed_init(&s->keygen, p, FS_DOM_KEYGEN, sk_seed, p->n);
        s->has_sk = 1;
    }
    return FASTSIG_OK;
}

void fs_hash_seeds_clear(fs_hash_seeds *s)
{
    if (s != NULL)
        fs_wipe(s, sizeof(*s));
}

int fs_hash_check_seeds(const fs_hash_seeds *s, const void *out, const void *in, size_t lanes)
{
    if (s == NULL || in == NULL)
        return FASTSIG_ERR_NULL_ARG;
    return check(&s->p, out, lanes);
}

int fs_hash_prf(const fs_hash_seeds *s, uint8_t *out, const uint8_t *m, size_t lanes)
{
    int rc = fs_hash_check_seeds(s, out, m, lanes);
    if (rc == FASTSIG_OK) {
        part pt = { m, FS_HASH_ADRS_BYTES, FS_HASH_ADRS_BYTES };
        run_parts(&s->p, &s->prf, &pt, 1, out, lanes);
    }
    return rc;
}

int fs_hash_prf_keygen(const fs_hash_seeds *s, uint8_t *out, const uint8_t *adrs, size_t lanes)
{
    int rc = fs_hash_check_seeds(s, out, adrs, lanes);
    if (rc == FASTSIG_OK && !s->has_sk)
        rc = FASTSIG_ERR_BAD_PARAM;
    if (rc == FASTSIG_OK) {
        part pt[2] = { { s->pub_seed, s->p.n, 0 }, { adrs, FS_HASH_ADRS_BYTES, FS_HASH_ADRS_BYTES } };
        run_parts(&s->p, &s->keygen, pt, 2, out, lanes);
    }
    return rc;
}

size_t fs_hash_msg_template(fs_hash_family fam, const fs_hash_keyed *k, uint8_t *tmpl, size_t len)
{
    fs_copy(tmpl, k->rest, k->restlen);
    return fs_lanes_pad(fam, tmpl, k->restlen + len, k->done);
}

void fs_hash_tmpl_init(fs_hash_tmpl *t, const fs_hash_seeds *s, unsigned domain, size_t mlen)
{
    const fs_hash_params *p = &s->p;
    size_t block = fs_lanes_block(p->family);
    fs_hash_keyed_init(&t->k, p, domain, NULL, 0);
    t->aoff = s->prf.restlen;
    t->koff = t->k.restlen;
    t->pnb = fs_hash_msg_template(p->family, &s->prf, t->ptmpl, FS_HASH_ADRS_BYTES);
    t->mnb = fs_hash_msg_template(p->family, &t->k, t->mtmpl, p->n + mlen);
    t->pbytes = t->pnb * block;
    t->mbytes = t->mnb * block;
}

/* RAND_HASH batches: each lane's three PRF messages and its H message
 * toByte(1) || KEY || masked nodes, padded once per call from templates
 * (only ADRS, key and nodes change). Tree nodes are public: no wipes. */
#ifdef FASTSIG_SMALL_STACK
#define RH_ARENA 4096
#else
#define RH_ARENA 24576
#endif

int fs_hash_rand_hash(const fs_hash_seeds *s, uint8_t *out, const uint8_t *in,
                      const uint8_t *adrs, size_t lanes)
{
    int rc = fs_hash_check_seeds(s, out, in, lanes);
    if (rc == FASTSIG_OK && adrs == NULL)
        rc = FASTSIG_ERR_NULL_ARG;
    if (rc != FASTSIG_OK)
        return rc;
    const fs_hash_params *p = &s->p;
    const fs_hash_keyed *kp = &s->prf;
    fs_hash_family fam = p->family;
    size_t n = p->n;
    fs_hash_tmpl t;
    fs_hash_tmpl_init(&t, s, FS_DOM_H, 2 * n);
    size_t aoff = t.aoff, koff = t.koff, moff = koff + n, pbytes = t.pbytes, hbytes = t.mbytes;
    size_t batch = RH_ARENA / (3 * pbytes + hbytes);
    batch = batch > BATCH ? BATCH : batch < 1 ? 1 : batch;
    batch = batch > lanes ? lanes : batch;
    _Alignas(64) uint8_t arena[RH_ARENA];
    uint8_t *pm = arena, *hm = arena + 3 * batch * pbytes, prf[3 * BATCH * FS_HASH_MAX_N];
    const uint8_t *pptr[3 * BATCH], *hptr[BATCH];
    for (size_t l = 0; l < batch; l++) {
        for (unsigned km = 0; km < 3; km++) {
            uint8_t *m = pm + (3 * l + km) * pbytes;
            fs_copy(m, t.ptmpl, pbytes);
            fs_adrs_set_word(m + aoff, FS_ADRS_KEYMASK, km);
            pptr[3 * l + km] = m;
        }
        fs_copy(hm + l * hbytes, t.mtmpl, hbytes);
        hptr[l] = hm + l * hbytes;
    }
    for (size_t base = 0; base < lanes; base += batch) {
        size_t cnt = lanes - base < batch ? lanes - base : batch;
        for (size_t l = 0; l < cnt; l++)
            for (unsigned km = 0; km < 3; km++) /* ADRS words 0..6; keyAndMask stays */
                fs_copy(pm + (3 * l + km) * pbytes + aoff, adrs + (base + l) * FS_HASH_ADRS_BYTES,
                        FS_HASH_ADRS_BYTES - 4);
        fs_lanes_run_ptrs(fam, &kp->mid, pptr, t.pnb, prf, n, n, 3 * cnt, 0);
        for (size_t l = 0; l < cnt; l++) {
            uint8_t *h = hm + l * hbytes;
            /* KEY, then left || right XOR BM0 || BM1 (adjacent PRF lanes) */
            const uint8_t *x = in + (base + l) * 2 * n, *bm = prf + (3 * l + 1) * n;
            fs_copy(h + koff, prf + 3 * l * n, n);
            for (size_t i = 0; i < 2 * n; i++)
                h[moff + i] = x[i] ^ bm[i];
        }
        fs_lanes_run_ptrs(fam, &t.k.mid, hptr, t.mnb, out + base * n, n, n, cnt, 0);
    }
    return FASTSIG_OK;
}
