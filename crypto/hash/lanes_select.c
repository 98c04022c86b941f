/* lanes_select.c - the lane engine's kernel selection: for every subset of
 * the CPU features the hash kernels use, each family's kernels and its plan
 * (the kernel for a group of each size, as cpu.c's picker chooses by the
 * measured costs), and the fused chain kernels of each kind, built once;
 * fs_hash_select publishes one. */
#include "kernel_cost.h"
#include "once.h"
#include "hash/keccak.h"
#include "hash/lanes_select.h"

static const family shapes[5] = {
    [FS_HASH_SHA256] = { FS_SHA256_BLOCK, 4, 8, 8, { { 0 } }, { 0 } },
    [FS_HASH_SHA512] = { FS_SHA512_BLOCK, 8, 8, 16, { { 0 } }, { 0 } },
    [FS_HASH_SHAKE128] = { FS_SHAKE128_RATE, 8, 25, 0, { { 0 } }, { 0 } },
    [FS_HASH_SHAKE256] = { FS_SHAKE256_RATE, 8, 25, 0, { { 0 } }, { 0 } },
};

static const fs_kernel_table *table_of(fs_hash_family f)
{
    return f == FS_HASH_SHA256 ? &fs_sha256_table
           : f == FS_HASH_SHA512 ? &fs_sha512_table
                                 : &fs_keccak_table;
}

/* Family f's kernels and plan under mask: for every group size, the row
 * lanes_plan.c plans (two-lane kernels left out: the engine splits
 * batches by width; e.g. one H_msg on an AVX-512 machine runs on SHA-NI,
 * not in 1 of 16 lanes). */
static void build_family(family *fm, fs_hash_family f, unsigned mask)
{
    const fs_kernel_table *t = table_of(f);
    *fm = shapes[f];
    for (size_t i = 0; t->rows[i].name != NULL; i++) {
        const fs_kernel *k = &t->rows[i];
        fm->kernel[i] = (lane_kernel){ k->name, k->lanes, NULL, NULL, NULL };
        if (f == FS_HASH_SHA256)
            fm->kernel[i].sha256 = fs_sha256_fn(k);
        else if (f == FS_HASH_SHA512)
            fm->kernel[i].sha512 = fs_sha512_fn(k);
        else
            fm->kernel[i].keccak = k;
    }
    const fs_kernel *plan[MAX_KERNEL_LANES + 1];
    fs_lanes_plan(t, mask, LANE_BUF, MAX_KERNEL_LANES, plan);
    fm->widest_parts = 1;
    for (unsigned left = 1; left <= MAX_KERNEL_LANES; left++) {
        fm->plan[left] = &fm->kernel[plan[left] - t->rows];
        if (left <= PARTS_GROUP && plan[left]->lanes > fm->widest_parts)
            fm->widest_parts = plan[left]->lanes;
    }
}

static void build(selection *sel, unsigned mask)
{
    for (unsigned f = FS_HASH_SHA256; f <= FS_HASH_SHAKE256; f++)
        build_family(&sel->fams[f], f, mask);
    for (unsigned kind = 0; kind < FS_CHAIN_KINDS; kind++) {
        const fs_chain_pick p = fs_chain_pick_rows(fs_chain_table(kind), mask);
        sel->chain[kind] = p.x16 != NULL ? fs_chain_fn_of(p.x16) : NULL;
        sel->chain32[kind] = p.x32 != NULL ? fs_chain_fn_of(p.x32) : NULL;
    }
}

/* The features the hash kernels depend on (a kernel table entry that needs
 * another one must add it here); a selection exists for every subset of
 * them, built once, so that switching is a pointer store. */
static const unsigned hash_bits[] = { FS_CPU_SHANI, FS_CPU_AVX2, FS_CPU_AVX512 };
#define NBITS (sizeof(hash_bits) / sizeof(hash_bits[0]))
#ifdef FASTSIG_SMALL_STACK
#define NSEL 1 /* the device build has no extension (cpu_none.c): one selection, 4 KB */
#else
#define NSEL (1u << NBITS)
#endif
static selection selections[NSEL];
const selection *fs_lanes_current;
static fs_once_flag built_once = FS_ONCE_INIT;

static void build_all(void)
{
    for (unsigned i = 0; i < NSEL; i++) {
        unsigned mask = 0;
        for (unsigned b = 0; b < NBITS; b++)
            mask |= (i >> b & 1) ? hash_bits[b] : 0;
        build(&selections[i], mask);
    }
}

const selection *fs_lanes_selection_for(unsigned mask)
{
    unsigned i = 0;
    fs_once(&built_once, build_all);
    mask &= fs_cpu_features();
    for (unsigned b = 0; b < NBITS; b++)
        i |= (mask & hash_bits[b]) ? 1u << b : 0;
    return &selections[i < NSEL ? i : 0];
}

void fs_hash_select(unsigned mask)
{
    __atomic_store_n(&fs_lanes_current, fs_lanes_selection_for(mask), __ATOMIC_RELEASE);
}

const char *fs_hash_kernel_name(fs_hash_family f)
{
    const family *fm = ready(f);
    return fm ? fm->plan[MAX_KERNEL_LANES]->name : "none";
}

unsigned fs_lanes_block(fs_hash_family f)
{
    return known(f) ? shapes[f].block : 0;
}

fs_chain_fn *fs_lanes_chain_kernel(fs_chain_kind kind)
{
    return selected()->chain[kind];
}

fs_chain_fn *fs_lanes_chain_kernel_x32(fs_chain_kind kind)
{
    return selected()->chain32[kind];
}
