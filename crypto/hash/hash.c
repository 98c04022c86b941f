/* hash.c - the RFC 8391 / SP 800-208 functions of hash.h as batches for the
 * lane engine (lanes.c): argument checks, toByte prefixes and midstates,
 * message assembly, bitmasks and the WOTS+ chain scheduler. */
#include <string.h>
#include "fastsig_err.h"
#include "hash/hash.h"
#include "hash/chains_fused.h"
#include "hash/lanes.h"

/* Per-lane messages are assembled here, this many bytes per batch. */
#define SCRATCH 16384
/* Lanes per internal batch of the keyed helpers (several kernel calls). */
#define BATCH 64

enum { DOM_F = 0, DOM_H = 1, DOM_HMSG = 2, DOM_PRF = 3, DOM_KEYGEN = 4 };

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

/* k = state after the whole blocks of toByte(domain, pad) || key. */
static void keyed_init(fs_hash_keyed *k, const fs_hash_params *p, unsigned domain,
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
    explicit_bzero(prefix, sizeof(prefix));
}

/* One piece of each lane's message (lanes.h). */
typedef fs_lanes_part part;

/* out_l = Hash(prefix || parts[0]_l || parts[1]_l ...), prefix given by k. */
static void run_parts(const fs_hash_params *p, const fs_hash_keyed *k, const part *parts,
                      unsigned nparts, uint8_t *out, size_t lanes)
{
    size_t per = k->restlen;
    for (unsigned i = 0; i < nparts; i++)
        per += parts[i].len;
    if (per > SCRATCH) {
        /* Long single-part messages (H_msg): complete the prefix's block
         * with the message's first bytes, then hash the rest in place. */
        size_t block = fs_lanes_block(p->family), head = block - k->restlen;
        uint8_t first[168];
        for (size_t l = 0; l < lanes; l++) {
            const uint8_t *m = parts[0].p + l * parts[0].stride;
            fs_hash_state st = k->mid;
            memcpy(first, k->rest, k->restlen);
            memcpy(first + k->restlen, m, head);
            fs_lanes_absorb(p->family, &st, first, 1);
            fs_lanes_run(p->family, &st, k->done + block, m + head, 0, parts[0].len - head,
                         out + l * p->n, 0, p->n, 1);
            explicit_bzero(&st, sizeof(st));
        }
        explicit_bzero(first, sizeof(first));
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
    explicit_bzero(buf, used);
}

/* Hash(toByte(domain, pad) || parts...) with an empty key. */
static void run_domain(const fs_hash_params *p, unsigned domain, const part *parts,
                       unsigned nparts, uint8_t *out, size_t lanes)
{
    fs_hash_keyed k;
    keyed_init(&k, p, domain, NULL, 0);
    run_parts(p, &k, parts, nparts, out, lanes);
}

int fs_hash_many(const fs_hash_params *p, uint8_t *out, const uint8_t *in, size_t inlen,
                 size_t lanes)
{
    int rc = check(p, out, lanes);
    if (rc == FASTSIG_OK && in == NULL && inlen)
        rc = FASTSIG_ERR_NULL_ARG;
    if (rc == FASTSIG_OK)
        fs_lanes_run(p->family, NULL, 0, in, inlen, inlen, out, p->n, p->n, lanes);
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

int fs_hash_F(const fs_hash_params *p, uint8_t *out, const uint8_t *key, const uint8_t *m,
              size_t lanes)
{
    int rc = check(p, out, lanes);
    if (rc == FASTSIG_OK && (key == NULL || m == NULL))
        rc = FASTSIG_ERR_NULL_ARG;
    if (rc == FASTSIG_OK) {
        part pt[2] = { { key, p->n, p->n }, { m, p->n, p->n } };
        run_domain(p, DOM_F, pt, 2, out, lanes);
    }
    return rc;
}

int fs_hash_H(const fs_hash_params *p, uint8_t *out, const uint8_t *key, const uint8_t *m,
              size_t lanes)
{
    int rc = check(p, out, lanes);
    if (rc == FASTSIG_OK && (key == NULL || m == NULL))
        rc = FASTSIG_ERR_NULL_ARG;
    if (rc == FASTSIG_OK) {
        part pt[2] = { { key, p->n, p->n }, { m, 2 * p->n, 2 * p->n } };
        run_domain(p, DOM_H, pt, 2, out, lanes);
    }
    return rc;
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
        keyed_init(&k, p, DOM_HMSG, key3n, 3 * p->n);
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
    keyed_init(&s->prf, p, DOM_PRF, pub_seed, p->n);
    if (sk_seed != NULL) {
        keyed_init(&s->keygen, p, DOM_KEYGEN, sk_seed, p->n);
        s->has_sk = 1;
    }
    return FASTSIG_OK;
}

void fs_hash_seeds_clear(fs_hash_seeds *s)
{
    if (s != NULL)
        explicit_bzero(s, sizeof(*s));
}

static int check_seeds(const fs_hash_seeds *s, const void *out, const void *in, size_t lanes)
{
    if (s == NULL || in == NULL)
        return FASTSIG_ERR_NULL_ARG;
    return check(&s->p, out, lanes);
}

int fs_hash_prf(const fs_hash_seeds *s, uint8_t *out, const uint8_t *m, size_t lanes)
{
    int rc = check_seeds(s, out, m, lanes);
    if (rc == FASTSIG_OK) {
        part pt = { m, FS_HASH_ADRS_BYTES, FS_HASH_ADRS_BYTES };
        run_parts(&s->p, &s->prf, &pt, 1, out, lanes);
    }
    return rc;
}

int fs_hash_prf_keygen(const fs_hash_seeds *s, uint8_t *out, const uint8_t *adrs, size_t lanes)
{
    int rc = check_seeds(s, out, adrs, lanes);
    if (rc == FASTSIG_OK && !s->has_sk)
        rc = FASTSIG_ERR_BAD_PARAM;
    if (rc == FASTSIG_OK) {
        part pt[2] = { { s->pub_seed, s->p.n, 0 }, { adrs, FS_HASH_ADRS_BYTES, FS_HASH_ADRS_BYTES } };
        run_parts(&s->p, &s->keygen, pt, 2, out, lanes);
    }
    return rc;
}

static void set_word(uint8_t *adrs, unsigned word, uint32_t v)
{
    fs_be32_store(adrs + 4 * word, v);
}

enum { ADRS_HASH = 6, ADRS_KEYMASK = 7 };

/* A padded message template: k's leftover prefix bytes, len message bytes
 * (left as they are, filled per lane), the padding. Returns its blocks. */
static size_t msg_template(fs_hash_family fam, const fs_hash_keyed *k, uint8_t *tmpl, size_t len)
{
    fs_copy(tmpl, k->rest, k->restlen);
    return fs_lanes_pad(fam, tmpl, k->restlen + len, k->done);
}

/* RAND_HASH batches: each lane's three PRF messages and its H message
 * toByte(1) || KEY || masked nodes, padded once per call from templates
 * (only ADRS, key and nodes change). Tree nodes are public: no wipes. */
#define RH_ARENA 24576

int fs_hash_rand_hash(const fs_hash_seeds *s, uint8_t *out, const uint8_t *in,
                      const uint8_t *adrs, size_t lanes)
{
    int rc = check_seeds(s, out, in, lanes);
    if (rc == FASTSIG_OK && adrs == NULL)
        rc = FASTSIG_ERR_NULL_ARG;
    if (rc != FASTSIG_OK)
        return rc;
    const fs_hash_params *p = &s->p;
    const fs_hash_keyed *kp = &s->prf;
    fs_hash_family fam = p->family;
    size_t n = p->n, block = fs_lanes_block(fam);
    fs_hash_keyed kh;
    keyed_init(&kh, p, DOM_H, NULL, 0);
    size_t aoff = kp->restlen, koff = kh.restlen, moff = koff + n;
    _Alignas(64) uint8_t ptmpl[4 * 168], htmpl[4 * 168];
    size_t pnb = msg_template(fam, kp, ptmpl, FS_HASH_ADRS_BYTES);
    size_t hnb = msg_template(fam, &kh, htmpl, 3 * n);
    size_t pbytes = pnb * block, hbytes = hnb * block;
    size_t batch = RH_ARENA / (3 * pbytes + hbytes);
    batch = batch > BATCH ? BATCH : batch < 1 ? 1 : batch;
    batch = batch > lanes ? lanes : batch;
    _Alignas(64) uint8_t arena[RH_ARENA];
    uint8_t *pm = arena, *hm = arena + 3 * batch * pbytes, prf[3 * BATCH * FS_HASH_MAX_N];
    const uint8_t *pptr[3 * BATCH], *hptr[BATCH];
    for (size_t l = 0; l < batch; l++) {
        for (unsigned km = 0; km < 3; km++) {
            uint8_t *m = pm + (3 * l + km) * pbytes;
            fs_copy(m, ptmpl, pbytes);
            set_word(m + aoff, ADRS_KEYMASK, km);
            pptr[3 * l + km] = m;
        }
        fs_copy(hm + l * hbytes, htmpl, hbytes);
        hptr[l] = hm + l * hbytes;
    }
    for (size_t base = 0; base < lanes; base += batch) {
        size_t cnt = lanes - base < batch ? lanes - base : batch;
        for (size_t l = 0; l < cnt; l++)
            for (unsigned km = 0; km < 3; km++) /* ADRS words 0..6; keyAndMask stays */
                fs_copy(pm + (3 * l + km) * pbytes + aoff, adrs + (base + l) * FS_HASH_ADRS_BYTES,
                        FS_HASH_ADRS_BYTES - 4);
        fs_lanes_run_ptrs(fam, &kp->mid, pptr, pnb, prf, n, n, 3 * cnt, 0);
        for (size_t l = 0; l < cnt; l++) {
            uint8_t *h = hm + l * hbytes;
            /* KEY, then left || right XOR BM0 || BM1 (adjacent PRF lanes) */
            const uint8_t *x = in + (base + l) * 2 * n, *bm = prf + (3 * l + 1) * n;
            fs_copy(h + koff, prf + 3 * l * n, n);
            for (size_t i = 0; i < 2 * n; i++)
                h[moff + i] = x[i] ^ bm[i];
        }
        fs_lanes_run_ptrs(fam, &kh.mid, hptr, hnb, out + base * n, n, n, cnt, 0);
    }
    return FASTSIG_OK;
}

/* The chain walk keeps up to MAX_SLOTS chains in flight (several kernel
 * widths, so each round's fixed costs are shared by many chains). A phase
 * first computes the keys and bitmasks (PRFs of public ADRS, independent
 * of the chain values) of the next R rounds of every slot in one batch,
 * R as many as the PRF pool holds, then runs R rounds of F. Each slot keeps
 * F's message toByte(0) || KEY || x padded in place; x lives there between
 * steps (F's digest is written back over it). PRF messages come from a
 * pool padded once per call. */
typedef struct {
    size_t chain;      /* index into the caller's arrays */
    uint32_t step, end;
    size_t pbase;      /* this phase's first PRF pair (key, bitmask) */
} slot;

#define MAX_SLOTS 128
#define PRF_POOL (2 * MAX_SLOTS)
/* Bytes of padded messages: 128 F slots and 256 PRFs of SHA-256 n = 32. */
#define CHAIN_ARENA 32768

int fs_hash_chains(const fs_hash_seeds *s, uint8_t *out, const uint8_t *in,
                   const uint8_t *adrs, const uint32_t *start, const uint32_t *steps,
                   size_t count)
{
    int rc = check_seeds(s, out, in, count);
    if (rc == FASTSIG_OK && (adrs == NULL || steps == NULL))
        rc = FASTSIG_ERR_NULL_ARG;
    for (size_t c = 0; rc == FASTSIG_OK && c < count; c++)
        if ((uint64_t)(start ? start[c] : 0) + steps[c] > UINT32_MAX)
            rc = FASTSIG_ERR_BAD_PARAM;
    if (rc != FASTSIG_OK)
        return rc;
    fs_sha256_chain_fn *fused = fs_chains_fused_kernel(s);
    if (fused != NULL)
        fs_chains_fused(fused, s, out, in, adrs, start, steps, count);
    else
        fs_hash_chains_lanes(s, out, in, adrs, start, steps, count);
    return FASTSIG_OK;
}

void fs_hash_chains_lanes(const fs_hash_seeds *s, uint8_t *out, const uint8_t *in,
                          const uint8_t *adrs, const uint32_t *start, const uint32_t *steps,
                          size_t count)
{
    const fs_hash_params *p = &s->p;
    const fs_hash_keyed *kp = &s->prf;
    fs_hash_family fam = p->family;
    size_t n = p->n, next = 0, active = 0, block = fs_lanes_block(fam);
    fs_hash_keyed kf;
    keyed_init(&kf, p, DOM_F, NULL, 0);
    /* padded templates: PRF = rest || ADRS, F = rest || KEY || x */
    size_t aoff = kp->restlen, koff = kf.restlen, xoff = koff + n;
    _Alignas(64) uint8_t ptmpl[4 * 168], ftmpl[4 * 168];
    size_t pnb = msg_template(fam, kp, ptmpl, FS_HASH_ADRS_BYTES);
    size_t fnb = msg_template(fam, &kf, ftmpl, 2 * n);
    size_t pbytes = pnb * block, fbytes = fnb * block;
    /* every chain at once when they fit (a WOTS+ key's 67 chains of equal
     * length would otherwise leave a tail of nearly empty rounds) */
    size_t nslots = count, fill = 0;
    if (nslots > CHAIN_ARENA / (2 * pbytes + fbytes))
        nslots = CHAIN_ARENA / (2 * pbytes + fbytes);
    nslots = nslots < 1 ? 1 : nslots > MAX_SLOTS ? MAX_SLOTS : nslots;
    size_t pool = (CHAIN_ARENA - nslots * fbytes) / pbytes; /* >= 2 * nslots */
    pool = pool > PRF_POOL ? PRF_POOL : pool;
    _Alignas(64) uint8_t arena[CHAIN_ARENA];
    uint8_t *fm = arena, *pm = arena + nslots * fbytes;
    const uint8_t *pptr[PRF_POOL], *fptr[MAX_SLOTS];
    uint8_t prf[PRF_POOL * FS_HASH_MAX_N];
    slot sl[MAX_SLOTS];
    for (size_t j = 0; j < pool; j++) {
        fs_copy(pm + j * pbytes, ptmpl, pbytes);
        pptr[j] = pm + j * pbytes;
    }
    for (;;) {
        /* Refill free slots; chains with no steps are copied through. */
        while (active < nslots && next < count) {
            size_t c = next++;
            uint32_t st = start ? start[c] : 0;
            if (steps[c] == 0) {
                memmove(out + c * n, in + c * n, n);
                continue;
            }
            size_t i = active++;
            if (i == fill) { /* first use: the constant prefix and padding */
                fs_copy(fm + i * fbytes, ftmpl, fbytes);
                fptr[i] = fm + i * fbytes;
                fill++;
            }
            sl[i] = (slot){ c, st, st + steps[c], 0 };
            fs_copy(fm + i * fbytes + xoff, in + c * n, n);
        }
        if (active == 0)
            break;
        /* the PRF pairs of up to R rounds of each slot, slot by slot */
        size_t R = pool / (2 * active), np = 0;
        for (size_t i = 0; i < active; i++) {
            uint32_t left = sl[i].end - sl[i].step, r = left < R ? left : (uint32_t)R;
            sl[i].pbase = np;
            for (uint32_t t = 0; t < r; t++, np++)
                for (unsigned km = 0; km < 2; km++) {
                    uint8_t *a = pm + (2 * np + km) * pbytes + aoff;
                    fs_copy(a, adrs + sl[i].chain * FS_HASH_ADRS_BYTES, FS_HASH_ADRS_BYTES);
                    set_word(a, ADRS_HASH, sl[i].step + t);
                    set_word(a, ADRS_KEYMASK, km);
                }
        }
        fs_lanes_run_ptrs(fam, &kp->mid, pptr, pnb, prf, n, n, 2 * np, 0);
        for (size_t t = 0; t < R && active; t++) {
            for (size_t i = 0; i < active; i++) {
                uint8_t *f = fm + i * fbytes;
                const uint8_t *key = prf + 2 * (sl[i].pbase + t) * n, *bm = key + n;
                fs_copy(f + koff, key, n);
                for (size_t j = 0; j < n; j++)
                    f[xoff + j] ^= bm[j];
            }
            fs_lanes_run_ptrs(fam, &kf.mid, fptr, fnb, fm + xoff, fbytes, n, active, 1);
            /* Advance; finished chains leave, the last slot fills the gap. */
            for (size_t i = 0; i < active;) {
                if (++sl[i].step < sl[i].end) {
                    i++;
                    continue;
                }
                fs_copy(out + sl[i].chain * n, fm + i * fbytes + xoff, n);
                active--;
                if (i == active)
                    continue;
                sl[i] = sl[active];
                fs_copy(fm + i * fbytes + xoff, fm + active * fbytes + xoff, n);
            }
        }
    }
    /* chain values and their F keys are secret; the PRFs are of PUB_SEED */
    explicit_bzero(fm, fill * fbytes);
}
