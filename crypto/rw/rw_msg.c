/* rw_msg.c - message representatives: the SHAKE256 full-domain hash with its
 * one-bit deterministic randomizer (format "RW"), computed as parallel
 * SHAKE256 lanes on crypto/hash's multi-lane Keccak kernels, and IEEE 1363
 * EMSA2. */
#include <string.h>
#include "bytes.h"
#include "fastsig_err.h"
#include "cpu.h"
#include "hash/keccak.h"
#include "rw/rw_hash.h"
#include "rw/rw_keccak_dot.h"
#include "rw/rw_msg.h"

int rw_randomizer_bit(const rw_key *k, const uint8_t *msg, size_t msglen)
{
    static const char dom[] = "FASTSIG-RW-R-v1";
    uint8_t out;
    fs_shake_ctx x;
    fs_shake_init(&x, FS_SHAKE256_RATE);
    fs_shake_absorb(&x, dom, sizeof(dom) - 1);
    fs_shake_absorb(&x, k->prf, RW_PRF_BYTES);
    fs_shake_absorb(&x, msg, msglen);
    fs_shake_squeeze(&x, &out, 1);
    fs_shake_wipe(&x);
    return out & 1;
}

/* ---- the full-domain hash, as parallel SHAKE256 lanes -------------------- */

#define RATE FS_SHAKE256_RATE

/* The lanes' sponge: every lane absorbs the same stream, xored straight into
 * the interleaved state (no staging copies); pos is the byte position in the
 * current block. */
typedef struct {
    uint64_t *st;             /* 25 * k->lanes words */
    const fs_kernel *k;
    rw_keccak_dot_job *job;   /* non-NULL: the last permutation runs it (two lanes) */
    size_t pos;
    unsigned used;
} lane_sponge;

/* Word i of both lanes of a two-lane state as one 16-byte access (the pair
 * the x2 kernel loads as one xmm). */
typedef uint64_t pair64 __attribute__((vector_size(16), aligned(8), may_alias));

/* Xors v << (8 * (pos % 8)) into the word of pos in every used lane (both
 * lanes of a two-lane state: an unused lane's content does not matter). */
static inline void xor_at(lane_sponge *z, size_t pos, uint64_t v)
{
    unsigned n = z->k->lanes;
    uint64_t *w = z->st + pos / 8 * n;
    v <<= 8 * (pos % 8);
    if (n == 2) {
        *(pair64 *)w ^= (pair64){ v, v };
        return;
    }
    for (unsigned l = 0; l < z->used; l++)
        w[l] ^= v;
}

/* Xors `words` little-endian words of src into state words w0.. of every lane. */
static void xor_words(lane_sponge *z, size_t w0, const uint8_t *src, size_t words)
{
    unsigned n = z->k->lanes;
    uint64_t *w = z->st + w0 * n;
    if (n == 2) {
        for (size_t i = 0; i < words; i++) {
            uint64_t v = fs_load_le64(src + 8 * i);
            *(pair64 *)(w + 2 * i) ^= (pair64){ v, v };
        }
        return;
    }
    for (size_t i = 0; i < words; i++) {
        uint64_t v = fs_load_le64(src + 8 * i);
        for (unsigned l = 0; l < z->used; l++)
            w[i * n + l] ^= v;
    }
}

static void feed(lane_sponge *z, const uint8_t *src, size_t len)
{
    while (len > 0) {
        if (z->pos == 0 && len >= RATE) {  /* whole blocks: the absorb kernel */
            const uint8_t *in[FS_KECCAK_MAX_LANES];
            size_t n = len - len % RATE;
            for (unsigned l = 0; l < z->used; l++)
                in[l] = src;
            fs_keccak_absorb_blocks(z->k, z->st, RATE, in, z->used, n);
            src += n;
            len -= n;
            continue;
        }
        size_t take = RATE - z->pos < len ? RATE - z->pos : len;
        if (z->pos % 8 == 0 && take >= 8) {   /* whole words in one tight loop */
            size_t words = take / 8;
            xor_words(z, z->pos / 8, src, words);
            z->pos += 8 * words;
            src += 8 * words;
            len -= 8 * words;
        } else {
            xor_at(z, z->pos++, *src++);
            len--;
        }
        if (z->pos == RATE) {
            fs_keccak_perm(z->k)(z->st);
            z->pos = 0;
        }
    }
}

/* Ends each lane's input with its lane index, then SHAKE's ds byte and the
 * final bit, and permutes. When the lane index fills the block, the padding
 * follows in a block of its own. */
static void finish_lanes(lane_sponge *z, unsigned j0)
{
    const fs_kernel *k = z->k;
    unsigned n = k->lanes;
    size_t pos = z->pos;
    uint64_t *jw = z->st + pos / 8 * n;
    unsigned sh = 8 * (pos % 8);
    if (n == 2)
        *(pair64 *)jw ^= (pair64){ (uint64_t)(uint8_t)j0 << sh, (uint64_t)(uint8_t)(j0 + 1) << sh };
    else
        for (unsigned l = 0; l < z->used; l++)
            jw[l] ^= (uint64_t)(uint8_t)(j0 + l) << sh;
    if (++pos == RATE) {
        fs_keccak_perm(k)(z->st);
        pos = 0;
    }
    xor_at(z, pos, FS_SHAKE_DS);
    xor_at(z, RATE - 1, 0x80);
    if (z->job != NULL)
        rw_keccak_dot()(z->st, z->job);
    else
        fs_keccak_perm(k)(z->st);
}

/* Lanes j0 .. j0+used-1 of the hash; their first output blocks are left in
 * z->st (word i of lane l at st[i * lanes + l], little-endian). */
static void fdh_lanes(lane_sponge *z, const uint8_t *prefix, size_t plen, const uint8_t *msg,
                      size_t msglen, unsigned j0, unsigned used)
{
    memset(z->st, 0, sizeof(uint64_t) * 25 * z->k->lanes);
    z->pos = 0;
    z->used = used;
    feed(z, prefix, plen);
    feed(z, msg, msglen);
    finish_lanes(z, j0);
}

/* Output lanes of the hash for this key: one per started 136-byte block. */
static unsigned fdh_lanes_for(const rw_key *k)
{
    return (unsigned)((k->nbytes + RATE - 1) / RATE);
}

/* The hash input's prefix: "FASTSIG-RW-H-v1" || kid || r. */
#define PREFIX_DOM "FASTSIG-RW-H-v1"
#define PREFIX_LEN (sizeof(PREFIX_DOM) - 1 + 32 + 1)
static void fdh_prefix(const rw_key *k, int r, uint8_t prefix[PREFIX_LEN])
{
    memcpy(prefix, PREFIX_DOM, sizeof(PREFIX_DOM) - 1);
    memcpy(prefix + sizeof(PREFIX_DOM) - 1, k->kid, 32);
    prefix[PREFIX_LEN - 1] = (uint8_t)r;
}

/* h is whole limbs of the output stream, byte-swapped, when nbytes is a
 * multiple of 8: read them straight from the states (stream word w is limb
 * nl-1-w). */
static int fdh_direct(const rw_key *k)
{
    return k->nbytes == 8 * mpz_size(k->n);
}

int rw_fdh_dot_usable(const rw_key *k)
{
    return fdh_lanes_for(k) == 2 && fdh_direct(k) && mpz_size(k->n) <= RW_KECCAK_DOT_LEN &&
           rw_keccak_dot() != NULL && (fs_keccak_kernel_for(2)->flags & FS_KERNEL_PAIR);
}

#if defined(FASTSIG_HAVE_ASM) && defined(__x86_64__)
#include <immintrin.h>

/* One-block input (prefix || msg || lane byte || padding, PREFIX_LEN +
 * msglen + 1 < RATE) straight into both lanes' state words, built in
 * registers and stored as whole 64-byte vectors: byte-wise building in
 * memory would make the kernel's loads wait for the stores to retire (no
 * store-to-load forwarding across several stores). The prefix is 6 words,
 * so the message lands on word boundaries: an align by 2 words. Lane l's
 * index byte is l: only lane 1's word differs. Only for the two-lane asm
 * kernel's CPUs (AVX-512 F and BW). */
__attribute__((target("avx512f,avx512bw"))) static void
one_block_pairs(const rw_key *k, int r, const uint8_t *msg, size_t msglen, uint64_t st[2 * 25])
{
    uint64_t kw[4];
    for (int i = 0; i < 4; i++)
        kw[i] = fs_load_le64(k->kid + 8 * i);
    /* "FASTSIG-RW-H-v1" is 15 bytes: the kid starts at byte 15 */
    uint64_t p1 = (fs_load_le64((const uint8_t *)PREFIX_DOM + 8) & ((1ULL << 56) - 1)) | kw[0] << 56;
    __m512i pre = _mm512_set_epi64((int64_t)(kw[3] >> 8 | (uint64_t)(uint8_t)r << 56),
                                   (int64_t)(kw[2] >> 8 | kw[3] << 56),
                                   (int64_t)(kw[1] >> 8 | kw[2] << 56),
                                   (int64_t)(kw[0] >> 8 | kw[1] << 56), (int64_t)p1,
                                   (int64_t)fs_load_le64((const uint8_t *)PREFIX_DOM), 0, 0);
    size_t n0 = msglen < 64 ? msglen : 64;
    __m512i m0 = _mm512_maskz_loadu_epi8(n0 == 64 ? ~0ULL : (1ULL << n0) - 1, msg);
    __m512i m1 = msglen > 64 ? _mm512_maskz_loadu_epi8((1ULL << (msglen - 64)) - 1, msg + 64)
                             : _mm512_setzero_si512();
    __m512i w[3] = {   /* block words 0..7, 8..15, 16 */
        _mm512_alignr_epi64(m0, pre, 2), _mm512_alignr_epi64(m1, m0, 2),
        _mm512_alignr_epi64(_mm512_setzero_si512(), m1, 2)
    };
    size_t ds = PREFIX_LEN + msglen + 1;
    for (unsigned v = 0; v < 3; v++) {
        __mmask64 dm = ds / 64 == v ? 1ULL << (ds % 64) : 0;
        w[v] = _mm512_xor_si512(w[v], _mm512_maskz_set1_epi8(dm, FS_SHAKE_DS));
    }
    w[2] = _mm512_xor_si512(w[2], _mm512_maskz_set1_epi8(1ULL << 7, (char)0x80));  /* byte 135 */
    const __m512i lo = _mm512_set_epi64(3, 3, 2, 2, 1, 1, 0, 0);
    const __m512i hi = _mm512_set_epi64(7, 7, 6, 6, 5, 5, 4, 4);
    __m512i pairs[5] = {
        _mm512_permutexvar_epi64(lo, w[0]), _mm512_permutexvar_epi64(hi, w[0]),
        _mm512_permutexvar_epi64(lo, w[1]), _mm512_permutexvar_epi64(hi, w[1]),
        _mm512_maskz_permutexvar_epi64(0x03, lo, w[2])
    };
    size_t lb = 8 * (2 * ((PREFIX_LEN + msglen) / 8) + 1) + (PREFIX_LEN + msglen) % 8;
    for (unsigned v = 0; v < 5; v++) {
        __mmask64 lm = lb / 64 == v ? 1ULL << (lb % 64) : 0;
        _mm512_storeu_si512(st + 8 * v, _mm512_xor_si512(pairs[v], _mm512_maskz_set1_epi8(lm, 1)));
    }
    _mm512_storeu_si512(st + 40, _mm512_setzero_si512());
    _mm_storeu_si128((__m128i *)(st + 48), _mm_setzero_si128());
}
#else
static void one_block_pairs(const rw_key *k, int r, const uint8_t *msg, size_t msglen,
                            uint64_t st[2 * 25])
{
    (void)k; (void)r; (void)msg; (void)msglen; (void)st;   /* no dot kernel: never called */
}
#endif

void rw_fdh_dot(const rw_key *k, int r, const uint8_t *msg, size_t msglen, uint64_t st[2 * 25],
                rw_keccak_dot_job *job)
{
    if (PREFIX_LEN + msglen + 1 < RATE) {
        one_block_pairs(k, r, msg, msglen, st);
        rw_keccak_dot()(st, job);
        return;
    }
    uint8_t prefix[PREFIX_LEN];
    lane_sponge z = { st, fs_keccak_kernel_for(2), job, 0, 0 };
    fdh_prefix(k, r, prefix);
    fdh_lanes(&z, prefix, sizeof(prefix), msg, msglen, 0, 2);
}

/* The limbs of lanes j and j+1 in a two-lane state (direct keys). */
static void pairs_to_limbs(const uint64_t *st, size_t nl, unsigned j, mp_limb_t *h)
{
    size_t w0 = (size_t)j * (RATE / 8), w1 = w0 + RATE / 8, i = 0;
    size_t c0 = nl - w0 < RATE / 8 ? nl - w0 : RATE / 8;
    size_t c1 = nl - w1 < RATE / 8 ? nl - w1 : RATE / 8;   /* lane 1 is used: nl > w1 */
    for (; i < c1; i++) {   /* word pairs read as the kernel stored them */
        pair64 v = *(const pair64 *)(st + 2 * i);
        h[nl - 1 - w0 - i] = __builtin_bswap64(v[0]);
        h[nl - 1 - w1 - i] = __builtin_bswap64(v[1]);
    }
    for (; i < c0; i++)
        h[nl - 1 - w0 - i] = __builtin_bswap64(st[2 * i]);
}

void rw_fdh_state_to_h(const rw_key *k, const uint64_t st[2 * 25], mp_limb_t *h)
{
    size_t nl = mpz_size(k->n);
    pairs_to_limbs(st, nl, 0, h);
    h[nl - 1] &= ~((mp_limb_t)1 << 63);   /* h < 2^(bits-1) < n */
}

void rw_fdh(const rw_key *k, int r, const uint8_t *msg, size_t msglen, mp_limb_t *h)
{
    uint8_t prefix[PREFIX_LEN];
    uint8_t buf[(RW_MAX_BITS / 8 / RATE + 1) * RATE];
    _Alignas(64) uint64_t st[25 * FS_KECCAK_MAX_LANES];
    size_t nb = k->nbytes, nl = mpz_size(k->n);
    int direct = fdh_direct(k);
    unsigned lanes = fdh_lanes_for(k);
    lane_sponge z = { st, fs_keccak_kernel_for(lanes), NULL, 0, 0 };
    unsigned n = z.k->lanes;
    fdh_prefix(k, r, prefix);
    for (unsigned j = 0; j < lanes; j += n) {
        unsigned used = lanes - j < n ? lanes - j : n;
        fdh_lanes(&z, prefix, sizeof(prefix), msg, msglen, j, used);
        if (direct && n == 2 && used == 2) {
            pairs_to_limbs(st, nl, j, h);
            continue;
        }
        for (unsigned l = 0; l < used; l++) {
            size_t w0 = (size_t)(j + l) * (RATE / 8);
            if (direct) {
                size_t words = nl - w0 < RATE / 8 ? nl - w0 : RATE / 8;
                for (size_t i = 0; i < words; i++)
                    h[nl - 1 - w0 - i] = __builtin_bswap64(st[i * n + l]);
                continue;
            }
            for (size_t i = 0; i < RATE / 8; i++)
                for (unsigned b = 0; b < 8; b++)
                    buf[8 * (w0 + i) + b] = (uint8_t)(st[i * n + l] >> (8 * b));
        }
    }
    if (direct) {
        h[nl - 1] &= ~((mp_limb_t)1 << 63);   /* h < 2^(bits-1) < n */
        return;
    }
    buf[0] &= 0x7f;
    rw_from_be(h, nl, buf, nb);
}

int rw_emsa2(const rw_key *k, int format, unsigned flags, const uint8_t *msg, size_t msglen,
             mp_limb_t *F)
{
    uint8_t buf[RW_MAX_BITS / 8], digest[RW_SHA256_BYTES];
    size_t hlen = format == RW_FMT_P1363_SHA1 ? RW_SHA1_BYTES : RW_SHA256_BYTES;
    uint8_t id = format == RW_FMT_P1363_SHA1 ? 0x33 : 0x34;
    size_t nb = k->nbytes;
    int empty = msglen == 0;
    if (flags & RW_SIGN_PREHASHED) {
        if (msglen != hlen)
            return FASTSIG_ERR_BAD_LENGTH;
        memcpy(digest, msg, hlen);
        empty = 0;   /* a caller that pre-hashes cannot tell us; IEEE 1363 says 0x6B */
    } else if (format == RW_FMT_P1363_SHA1) {
        rw_sha1(digest, msg, msglen);
    } else {
        rw_sha256(digest, msg, msglen);
    }
    if (nb < hlen + 4)
        return FASTSIG_ERR_BAD_KEY;
    /* 0x6B/0x4B || 0xBB.. || 0xBA || H || id || 0xCC  (bits - 1 bits) */
    memset(buf, 0xbb, nb);
    buf[0] = empty ? 0x4b : 0x6b;
    buf[nb - hlen - 3] = 0xba;
    memcpy(buf + nb - hlen - 2, digest, hlen);
    buf[nb - 2] = id;
    buf[nb - 1] = 0xcc;
    rw_from_be(F, mpz_size(k->n), buf, nb);
    return FASTSIG_OK;
}
