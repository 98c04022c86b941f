/* lanes.c - the lane engine's runs: padding, the group loops over the
 * planned kernels (lanes_select.c), finalisation.
 *
 * Kernels keep N lanes in a transposed state (word i of lane l at st[i*N+l]).
 * A call covers `lanes` messages in groups, each on the kernel that does it
 * for the least cost (cpu.c's picker over the family's measured costs), as
 * planned when the selection was built.
 * Whole input blocks are read in place; only the padded tail is copied. */
#include <string.h>
#include "memops.h"
#include "bytes.h"
#include "hash/keccak.h"
#include "hash/lanes_select.h"

#define MAX_BLOCK 168

void fs_lanes_iv(fs_hash_family f, fs_hash_state *st)
{
    memset(st, 0, sizeof(*st));
    if (f == FS_HASH_SHA256)
        memcpy(st->w32, fs_sha256_iv, sizeof(fs_sha256_iv));
    else if (f == FS_HASH_SHA512)
        memcpy(st->w64, fs_sha512_iv, sizeof(fs_sha512_iv));
}

/* The kernel for the next call when `left` lanes remain. */
static inline const lane_kernel *pick(const family *fm, size_t left)
{
    return fm->plan[left < MAX_KERNEL_LANES ? left : MAX_KERNEL_LANES];
}

/* The same in groups of at most PARTS_GROUP lanes (fs_lanes_run_parts:
 * the 32-lane SHA-256 kernel measured slower there, doc/performance.md
 * section 5). */
static inline const lane_kernel *pick_parts(const family *fm, size_t left)
{
    return fm->plan[left < PARTS_GROUP ? left : PARTS_GROUP];
}

static void compress(const family *fm, const lane_kernel *k, void *st,
                     const uint8_t *const in[], size_t nblocks)
{
    if (nblocks == 0)
        return;
    if (k->sha256)
        k->sha256(st, in, nblocks);
    else if (k->sha512)
        k->sha512(st, in, nblocks);
    else
        fs_keccak_absorb_blocks(k->keccak, st, fm->block, in, k->lanes, nblocks * fm->block);
}

/* fill_state writes each row of 4..15 lanes as a run of this many. */
#define FILL_RUN 16

/* Bytes of a transposed state of N lanes that fill_state may have written
 * (one lane: no spill). */
static size_t state_bytes(const family *fm, unsigned N)
{
    if (N == 1)
        return (size_t)fm->words * fm->wordsize;
    return ((size_t)(fm->words - 1) * N + (N > FILL_RUN ? N : FILL_RUN)) * fm->wordsize;
}

/* Every lane of an N-lane 32-bit state = s (inlined with constant N). */
static inline __attribute__((always_inline)) void fill32(uint32_t *t32, unsigned N,
                                                         const fs_hash_state *s)
{
    for (unsigned i = 0; i < 8; i++)
        for (unsigned l = 0; l < N; l++)
            t32[i * N + l] = s->w32[i];
}

/* Lane l of a transposed state back to a canonical one. */
static void get_lane(const family *fm, unsigned N, const void *st, unsigned l, fs_hash_state *s)
{
    if (fm->wordsize == 4)
        for (unsigned i = 0; i < 8; i++)
            s->w32[i] = ((const uint32_t *)st)[i * N + l];
    else
        for (unsigned i = 0; i < fm->words; i++)
            s->w64[i] = ((const uint64_t *)st)[i * N + l];
}

/* Every lane of a transposed state = s. From 4 lanes on, each row is
 * written as a run of at least FILL_RUN (one vector store that also covers
 * the kernel's row load, so it forwards); the spill past a row's N lanes
 * lands in the next row, written after it, and ts has room for the last
 * row's spill. One lane is the canonical layout: one copy. */
static void fill_state(const family *fm, unsigned N, void *st, const fs_hash_state *s)
{
    uint32_t *t32 = st;
    uint64_t *t64 = st;
    if (N == 16 && fm->wordsize == 4) { /* constant bounds: vector stores */
        fill32(t32, 16, s);
    } else if (N == 32 && fm->wordsize == 4) {
        fill32(t32, 32, s);
    } else if (N == 1) {
        memcpy(st, s, (size_t)fm->words * fm->wordsize);
    } else if (N < 4) {
        for (unsigned j = 0; j < fm->words * N; j++) {
            if (fm->wordsize == 4)
                t32[j] = s->w32[j / N];
            else
                t64[j] = s->w64[j / N];
        }
    } else if (fm->wordsize == 4) {
        for (unsigned i = 0; i < 8; i++)
            for (unsigned l = 0; l < FILL_RUN; l++)
                t32[i * N + l] = s->w32[i];
    } else {
        for (unsigned i = 0; i < fm->words; i++)
            for (unsigned l = 0; l < FILL_RUN; l++)
                t64[i * N + l] = s->w64[i];
    }
}

/* The first n digest bytes of lane l of a final transposed state:
 * big-endian words for SHA-2, little-endian for Keccak (n <= rate). */
static void output(const family *fm, unsigned N, const void *st, unsigned l, uint8_t *out,
                   size_t n)
{
    size_t ws = fm->wordsize, w = 0;
    uint8_t last[8];
    for (; w * ws < n; w++) {
        uint8_t *dst = (w + 1) * ws <= n ? out + w * ws : last; /* whole words in place */
        if (ws == 4) {
            uint32_t v = __builtin_bswap32(((const uint32_t *)st)[w * N + l]);
            __builtin_memcpy(dst, &v, 4);
        } else {
            uint64_t v = ((const uint64_t *)st)[w * N + l];
            v = fm->lenbytes ? __builtin_bswap64(v) : v; /* Keccak words are little-endian */
            __builtin_memcpy(dst, &v, 8);
        }
        if (dst == last)
            fs_copy(out + w * ws, last, n - w * ws);
    }
}

/* The first `words` big-endian words of lanes 0..used-1 of an N-lane
 * 32-bit state to out + l*ostride (inlined with constant N and words). */
static inline __attribute__((always_inline)) void outputs32(const uint32_t *st, unsigned N,
                                                            unsigned used, uint8_t *out,
                                                            size_t ostride, size_t words)
{
    for (unsigned l = 0; l < used; l++)
        for (size_t w = 0; w < words; w++) {
            uint32_t v = __builtin_bswap32(st[w * N + l]);
            __builtin_memcpy(out + l * ostride + 4 * w, &v, 4);
        }
}

/* The digests of lanes 0..used-1 to out + l*ostride: whole words stored
 * straight from the transposed state when n is a multiple of the word. */
static void outputs(const family *fm, unsigned N, const void *st, unsigned used, uint8_t *out,
                    size_t ostride, size_t n)
{
    if (fm->wordsize == 4 && N == 16 && n == 32) {
        outputs32(st, 16, used, out, ostride, 8); /* the hot shapes, unrolled */
    } else if (fm->wordsize == 4 && N == 32 && n == 32) {
        outputs32(st, 32, used, out, ostride, 8);
    } else if (fm->wordsize == 4 && n % 4 == 0) {
        outputs32(st, N, used, out, ostride, n / 4);
    } else if (fm->wordsize == 8 && n % 8 == 0) {
        for (unsigned l = 0; l < used; l++)
            for (size_t w = 0; w < n / 8; w++) {
                uint64_t v = ((const uint64_t *)st)[w * N + l];
                v = fm->lenbytes ? __builtin_bswap64(v) : v; /* Keccak words are little-endian */
                __builtin_memcpy(out + l * ostride + 8 * w, &v, 8);
            }
    } else {
        for (unsigned l = 0; l < used; l++)
            output(fm, N, st, l, out + l * ostride, n);
    }
}

/* The padding that follows rem message bytes of a message of total bytes,
 * as whole blocks (bytes before rem untouched); returns the count. */
static size_t pad_template(const family *fm, uint8_t *tail, size_t rem, uint64_t total)
{
    size_t nb = (fm->lenbytes && rem + 1 + fm->lenbytes > fm->block) ? 2 : 1;
    memset(tail + rem, 0, nb * fm->block - rem);
    if (fm->lenbytes == 0) {
        tail[rem] ^= FS_SHAKE_DS;
        tail[fm->block - 1] ^= 0x80;
        return 1;
    }
    tail[rem] = 0x80;
    uint64_t bits = total * 8;
    fs_store_be64(tail + nb * fm->block - 8, bits);
    return nb;
}

size_t fs_lanes_pad(fs_hash_family f, uint8_t *msg, size_t len, uint64_t done)
{
    const family *fm = ready(f);
    size_t whole = len / fm->block;
    return whole + pad_template(fm, msg + whole * fm->block, len % fm->block, done + len);
}

void fs_lanes_run_ptrs(fs_hash_family f, const fs_hash_state *mid, const uint8_t *const msgs[],
                       size_t nblocks, uint8_t *out, size_t ostride, size_t n, size_t lanes,
                       int secret)
{
    const family *fm = ready(f);
    _Alignas(64) uint64_t ts[25 * LANE_BUF];
    const uint8_t *ptr[LANE_BUF];
    unsigned widest = 0;
    for (size_t base = 0; base < lanes;) {
        const lane_kernel *k = pick(fm, lanes - base);
        unsigned N = k->lanes, used = (unsigned)(lanes - base < N ? lanes - base : N);
        const uint8_t *const *in = msgs + base;
        if (used < N) { /* a short group repeats its first message */
            for (unsigned l = 0; l < N; l++)
                ptr[l] = msgs[base + (l < used ? l : 0)];
            in = ptr;
        }
        fill_state(fm, N, ts, mid);
        compress(fm, k, ts, in, nblocks);
        outputs(fm, N, ts, used, out + base * ostride, ostride, n);
        base += used;
        widest = N > widest ? N : widest;
    }
    if (secret)
        fs_wipe(ts, state_bytes(fm, widest));
}

void fs_lanes_absorb(fs_hash_family f, fs_hash_state *st, const uint8_t *data, size_t nblocks)
{
    const family *fm = ready(f);
    const lane_kernel *k = pick(fm, 1);
    _Alignas(64) uint64_t ts[25 * LANE_BUF];
    const uint8_t *in[LANE_BUF];
    fill_state(fm, k->lanes, ts, st);
    for (unsigned l = 0; l < k->lanes; l++)
        in[l] = data;
    compress(fm, k, ts, in, nblocks);
    get_lane(fm, k->lanes, ts, 0, st);
    fs_wipe(ts, state_bytes(fm, k->lanes));
}

void fs_lanes_run(fs_hash_family f, const fs_hash_state *mid, uint64_t done, const uint8_t *in,
                  size_t stride, size_t len, uint8_t *out, size_t ostride, size_t n, size_t lanes)
{
    const family *fm = ready(f);
    fs_hash_state iv;
    _Alignas(64) uint64_t ts[25 * LANE_BUF];
    _Alignas(64) uint8_t tail[LANE_BUF][2 * MAX_BLOCK];
    _Alignas(64) uint8_t tmpl[2 * MAX_BLOCK];
    const uint8_t *ptr[LANE_BUF];
    size_t nfull = len / fm->block, rem = len % fm->block;
    size_t ntail = pad_template(fm, tmpl, rem, done + len), tbytes = ntail * fm->block;
    unsigned wiped_lanes = 0;
    if (mid == NULL) {
        fs_lanes_iv(f, &iv);
        mid = &iv;
    }
    for (size_t base = 0; base < lanes;) {
        const lane_kernel *k = pick(fm, lanes - base);
        unsigned N = k->lanes, used = (unsigned)(lanes - base < N ? lanes - base : N);
        fill_state(fm, N, ts, mid);
        for (unsigned l = 0; l < N; l++)
            ptr[l] = in + (base + (l < used ? l : 0)) * stride;
        compress(fm, k, ts, ptr, nfull);
        /* the tail blocks: message bytes, then the shared padding (the
         * padding alone when the message ends on a block boundary) */
        for (unsigned l = 0; l < N; l++) {
            if (rem == 0) {
                ptr[l] = tmpl;
                continue;
            }
            if (l < used) {
                fs_copy(tail[l], ptr[l] + nfull * fm->block, rem);
                fs_copy(tail[l] + rem, tmpl + rem, tbytes - rem);
            }
            ptr[l] = tail[l < used ? l : 0];
        }
        compress(fm, k, ts, ptr, ntail);
        outputs(fm, N, ts, used, out + base * ostride, ostride, n);
        base += used;
        if (N > wiped_lanes)
            wiped_lanes = N;
    }
    /* inputs may be secret (WOTS+ chains): wipe what was used */
    fs_wipe(ts, state_bytes(fm, wiped_lanes));
    if (rem)
        for (unsigned l = 0; l < wiped_lanes; l++)
            fs_wipe(tail[l], tbytes);
}

/* Lane buffers of fs_lanes_run_parts: whole padded messages up to this size
 * (F, H, PRF and PRF_keygen of every parameter set fit). */
#define PARTS_MAX 512

int fs_lanes_run_parts(fs_hash_family f, const fs_hash_state *mid, uint64_t done,
                       const uint8_t *head, size_t headlen, const fs_lanes_part *parts,
                       unsigned nparts, uint8_t *out, size_t n, size_t lanes)
{
    const family *fm = ready(f);
    _Alignas(64) uint64_t ts[25 * LANE_BUF];
    _Alignas(64) uint8_t blk[LANE_BUF][PARTS_MAX];
    _Alignas(64) uint8_t tmpl[2 * MAX_BLOCK];
    const uint8_t *ptr[LANE_BUF];
    size_t per = headlen;
    for (unsigned i = 0; i < nparts; i++)
        per += parts[i].len;
    size_t nfull = per / fm->block, rem = per % fm->block;
    size_t ntail = pad_template(fm, tmpl, rem, done + per), tbytes = ntail * fm->block;
    size_t nb = nfull + ntail, bytes = nb * fm->block;
    if (bytes > PARTS_MAX)
        return -1;
    /* the shared head and padding go into the lane buffers once; each
     * group then writes only its lanes' parts, straight into place */
    unsigned wiped_lanes = (unsigned)(lanes < fm->widest_parts ? lanes : fm->widest_parts);
    unsigned widest = 0;
    for (unsigned l = 0; l < wiped_lanes; l++) {
        fs_copy(blk[l], head, headlen);
        fs_copy(blk[l] + per, tmpl + rem, tbytes - rem);
    }
    for (size_t base = 0; base < lanes;) {
        const lane_kernel *k = pick_parts(fm, lanes - base);
        unsigned N = k->lanes, used = (unsigned)(lanes - base < N ? lanes - base : N);
        fill_state(fm, N, ts, mid);
        for (unsigned l = 0; l < used; l++) {
            uint8_t *d = blk[l] + headlen;
            for (unsigned i = 0; i < nparts; i++) {
                if (parts[i].len) /* an empty part may be NULL */
                    fs_copy(d, parts[i].p + (base + l) * parts[i].stride, parts[i].len);
                d += parts[i].len;
            }
            ptr[l] = blk[l];
        }
        for (unsigned l = used; l < N; l++)
            ptr[l] = blk[0];
        compress(fm, k, ts, ptr, nb);
        outputs(fm, N, ts, used, out + base * n, n, n);
        base += used;
        widest = N > widest ? N : widest;
    }
    /* inputs may be secret (WOTS+ chains, PRF_keygen): wipe what was used */
    fs_wipe(ts, state_bytes(fm, widest));
    for (unsigned l = 0; l < wiped_lanes; l++)
        fs_wipe(blk[l], bytes);
    return 0;
}
