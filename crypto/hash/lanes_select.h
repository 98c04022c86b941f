/* lanes_select.h - what the lane engine's files share: the selection's
 * types (each family's kernels and plan for one set of allowed features,
 * built by lanes_select.c) and the one-load lookup the run loops in lanes.c
 * make per call (inline: it is on every hash call's path). */
#ifndef FASTSIG_HASH_LANES_SELECT_H
#define FASTSIG_HASH_LANES_SELECT_H

#include "cpu.h"
#include "hash/lanes.h"
#include "hash/sha256.h"
#include "hash/sha512.h"
#include "hash/sha256_chain.h"

/* The widest kernel's lanes (avx512-x32); plans cover groups of 1..32. */
#define MAX_KERNEL_LANES 32
/* fs_lanes_run_parts's widest group: its plan stops here (lanes.c). */
#define PARTS_GROUP 16
/* Lanes the run loops' buffers hold: every kernel's. The device verifier's
 * build (FASTSIG_SMALL_STACK, libfastsig-verify: portable kernels, a device's
 * stack) holds one, and its plans name one-lane kernels only
 * (lanes_select.c). */
#ifdef FASTSIG_SMALL_STACK
#define LANE_BUF 1
#else
#define LANE_BUF MAX_KERNEL_LANES
#endif

/* A row of a family's kernel table, with its entry point resolved. */
typedef struct {
    const char *name;
    unsigned lanes;
    fs_sha256_compress_fn *sha256;
    fs_sha512_compress_fn *sha512;
    const fs_kernel *keccak;
} lane_kernel;

/* A family's padding shape and the kernels one selection offers it:
 * kernel[i] is row i of its table; plan[left] the kernel for a group of
 * `left` lanes (plan[MAX_KERNEL_LANES] for full groups), as the picker
 * chose it by the process's kernel costs when the selection was built, so a
 * call only looks it up. */
typedef struct {
    unsigned block, wordsize, words, lenbytes; /* lenbytes 0: SHAKE padding */
    lane_kernel kernel[FS_KERNEL_MAX_ROWS];
    const lane_kernel *plan[MAX_KERNEL_LANES + 1];
    unsigned widest_parts; /* the most lanes plan[1..PARTS_GROUP] takes */
} family;

/* plan[1..max]: the kernel for a group of each size (lanes_plan.c), among
 * t's rows that mask allows, none wider than buf lanes. */
void fs_lanes_plan(const fs_kernel_table *t, unsigned mask, unsigned buf, unsigned max,
                   const fs_kernel *plan[]);
/* Up to how many lanes that plan takes the picker's row: half of the
 * widest such row when it has more than 8 lanes (32-lane SHA-256: 16,
 * 16-lane SHA-512: 8), else 16. */
unsigned fs_lanes_picker_lanes(const fs_kernel_table *t, unsigned mask, unsigned buf);

/* Every kernel choice for one set of allowed CPU features. */
typedef struct {
    family fams[5];
    fs_chain_fn *chain[FS_CHAIN_KINDS]; /* each kind's fused chain kernel, or NULL */
    fs_chain_fn *chain32[FS_CHAIN_KINDS]; /* its row of 32 lanes when cheaper, or NULL */
} selection;

/* The published selection (NULL until the first use or fs_hash_select). */
extern const selection *fs_lanes_current;
/* The selection for the features of mask the CPU allows (built once). */
const selection *fs_lanes_selection_for(unsigned mask);

static inline int known(fs_hash_family f)
{
    return f >= FS_HASH_SHA256 && f <= FS_HASH_SHAKE256;
}

/* The current selection: one load once published (the default, all the
 * allowed features, on first use). */
static inline const selection *selected(void)
{
    const selection *sel = __atomic_load_n(&fs_lanes_current, __ATOMIC_ACQUIRE);
    if (__builtin_expect(sel == NULL, 0)) {
        const selection *def = fs_lanes_selection_for(~0u);
        /* a concurrent fs_hash_select wins over the default */
        if (!__atomic_compare_exchange_n(&fs_lanes_current, &sel, def, 0,
                                         __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE))
            return sel;
        sel = def;
    }
    return sel;
}

static inline const family *ready(fs_hash_family f)
{
    return known(f) ? &selected()->fams[f] : NULL;
}

#endif
