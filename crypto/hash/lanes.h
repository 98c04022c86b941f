/* lanes.h - internal: the lane engine under hash.h. It runs equal-length
 * messages through the kernels of one family, and pads and finalises them
 * (SHA-2 or SHAKE). The kernels come from the current selection: for the
 * features fs_cpu_features() allows (crypto/cpu.h), narrowed by
 * fs_hash_select, every family's kernels and a plan for short groups are
 * worked out once; a call reads them with one load. */
#ifndef FASTSIG_HASH_LANES_H
#define FASTSIG_HASH_LANES_H

#include <stddef.h>
#include <stdint.h>
#include "bytes.h"
#include "hash/hash.h"
#include "hash/sha256_chain.h"

/* memcpy for the short, variable-length copies of the hot paths: inline,
 * 16 then 8 bytes at a time (a libc call costs more than these copies). */
static inline void fs_copy(void *dst, const void *src, size_t len)
{
    uint8_t *d = dst;
    const uint8_t *s = src;
    for (; len >= 16; len -= 16, d += 16, s += 16) {
        __builtin_memcpy(d, s, 16);
        __asm__("" : "+r"(d)); /* keeps gcc from turning the loop into memcpy */
    }
    for (; len >= 8; len -= 8, d += 8, s += 8) {
        __builtin_memcpy(d, s, 8);
        __asm__("" : "+r"(d)); /* keeps gcc from turning the loop into memcpy */
    }
    for (; len; len--)
        *d++ = *s++;
}

/* Block (rate) bytes of a family; 0 for an unknown one. */
unsigned fs_lanes_block(fs_hash_family f);
/* The current selection's fused chain kernel of a kind (sha256_chain.h),
 * or NULL when it allows none. */
fs_chain_fn *fs_lanes_chain_kernel(fs_chain_kind kind);
/* Its row of 32 lanes (two groups, sha256_chain.h) when the costs choose
 * it for 32 chains over two calls of 16, else NULL. */
fs_chain_fn *fs_lanes_chain_kernel_x32(fs_chain_kind kind);
/* The family's initial state. */
void fs_lanes_iv(fs_hash_family f, fs_hash_state *st);
/* One lane: absorbs nblocks whole blocks of data into st (no padding). */
void fs_lanes_absorb(fs_hash_family f, fs_hash_state *st, const uint8_t *data, size_t nblocks);
/* Lane l hashes in + l*stride (len bytes) on top of mid (done bytes already
 * absorbed, a multiple of the block; mid NULL = the IV), pads, and writes the
 * first n bytes of its digest to out + l*ostride. Each lane's input is read
 * before its output is written. lanes may be any count. */
void fs_lanes_run(fs_hash_family f, const fs_hash_state *mid, uint64_t done, const uint8_t *in,
                  size_t stride, size_t len, uint8_t *out, size_t ostride, size_t n, size_t lanes);

/* One piece of each lane's message: lane l's bytes at p + l*stride
 * (stride 0: the same bytes for every lane). */
typedef struct {
    const uint8_t *p;
    size_t len, stride;
} fs_lanes_part;

/* Lane l hashes head (headlen bytes, the same for every lane) || part 0 of
 * lane l || part 1 ... on top of mid (done bytes absorbed, a multiple of the
 * block), writing n digest bytes to out + l*n. Each lane's message is
 * written once, into its padded blocks, and the kernel runs once per group.
 * Returns 0, or -1 (nothing done) when a padded message exceeds 512 bytes:
 * use fs_lanes_run for those. Lane inputs are read before outputs of the
 * same lanes are written. */
int fs_lanes_run_parts(fs_hash_family f, const fs_hash_state *mid, uint64_t done,
                       const uint8_t *head, size_t headlen, const fs_lanes_part *parts,
                       unsigned nparts, uint8_t *out, size_t n, size_t lanes);

/* Pads a message of len bytes at msg (done bytes before it were absorbed
 * into a midstate, a multiple of the block): writes the padding after it,
 * to the end of its last block, and returns the message's block count.
 * msg needs room for len + 2 blocks. */
size_t fs_lanes_pad(fs_hash_family f, uint8_t *msg, size_t len, uint64_t done);

/* Lane l compresses the nblocks padded blocks at msgs[l] (fs_lanes_pad) on
 * top of mid and writes n digest bytes to out + l*ostride. For callers that
 * keep messages padded in place and change only some bytes between calls.
 * mid must not be NULL. Lane l's output may overlap its own message, not
 * another lane's. secret: wipe the kernel states after use. */
void fs_lanes_run_ptrs(fs_hash_family f, const fs_hash_state *mid, const uint8_t *const msgs[],
                       size_t nblocks, uint8_t *out, size_t ostride, size_t n, size_t lanes,
                       int secret);

#endif
