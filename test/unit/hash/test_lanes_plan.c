/* test_lanes_plan.c - the lane engine's group plan (lanes_plan.c) under
 * this process's measured kernel costs, on the FASTSIG_CPU path: groups of
 * up to 16 lanes as the picker chooses, wider ones the cheapest first group
 * plus the plan of the rest, and the 32-lane SHA-256 kernel for full groups
 * when it costs less per lane than two 16-lane calls; the same for SHAKE's
 * 16-lane Keccak kernel against two 8-lane calls. */
#include <string.h>
#include "cpu.h"
#include "kernel_cost.h"
#include "hash/hash.h"
#include "hash/keccak.h"
#include "hash/lanes_select.h"
#include "testutil.h"

static const fs_kernel_table *const tables[] = { &fs_sha256_table, &fs_sha512_table,
                                                 &fs_keccak_table };

static unsigned long long group_cost(const fs_kernel_table *t, const fs_kernel *k)
{
    return (unsigned long long)fs_kernel_costs(t)[k - t->rows] * k->lanes;
}

/* What the run loops spend on `left` lanes following plan. */
static unsigned long long plan_cost(const fs_kernel_table *t, const fs_kernel *const plan[],
                                    unsigned left)
{
    unsigned long long c = 0;
    while (left > 0) {
        const fs_kernel *k = plan[left];
        c += group_cost(t, k);
        left -= left < k->lanes ? left : k->lanes;
    }
    return c;
}

static void test_plan_cheapest(void)
{
    unsigned mask = fs_cpu_features();
    for (size_t i = 0; i < sizeof(tables) / sizeof(tables[0]); i++) {
        const fs_kernel_table *t = tables[i];
        const fs_kernel *plan[MAX_KERNEL_LANES + 1];
        fs_lanes_plan(t, mask, MAX_KERNEL_LANES, MAX_KERNEL_LANES, plan);
        for (unsigned left = 1; left <= MAX_KERNEL_LANES; left++) {
            CU_ASSERT_FATAL(plan[left] != NULL);
            CU_ASSERT(fs_kernel_usable(plan[left], mask, FS_KERNEL_PAIR));
            if (left <= 16) {
                CU_ASSERT_PTR_EQUAL(plan[left], fs_kernel_choose(t, mask, FS_KERNEL_PAIR, left));
                continue;
            }
            /* no other first group with the plan of the rest costs less */
            unsigned long long have = plan_cost(t, plan, left);
            for (const fs_kernel *k = t->rows; k->name; k++) {
                if (!fs_kernel_usable(k, mask, FS_KERNEL_PAIR) || k->lanes > MAX_KERNEL_LANES)
                    continue;
                unsigned used = left < k->lanes ? left : k->lanes;
                unsigned long long alt = group_cost(t, k) + plan_cost(t, plan, left - used);
                if (alt < have)
                    fprintf(stderr, "\n%s, %u lanes: %s first costs %llu < %llu\n", t->name, left,
                            k->name, alt, have);
                CU_ASSERT(alt >= have);
            }
        }
    }
}

/* The row named name in table t, when this path may run it. */
static const fs_kernel *usable_in(const fs_kernel *rows, const char *name)
{
    for (const fs_kernel *k = rows; k->name; k++)
        if (strcmp(k->name, name) == 0)
            return fs_kernel_usable(k, fs_cpu_features(), 0) ? k : NULL;
    return NULL;
}

static const fs_kernel *usable_row(const char *name)
{
    return usable_in(fs_sha256_kernels, name);
}

/* Full groups go to avx512-x32 exactly when one call of it costs less than
 * two of the 16-lane plan's kernel. */
static void test_full_groups_x32(void)
{
    const fs_kernel *x32 = usable_row("avx512-x32");
    const char *name = fs_hash_kernel_name(FS_HASH_SHA256);
    const fs_kernel *plan[MAX_KERNEL_LANES + 1];
    fs_lanes_plan(&fs_sha256_table, fs_cpu_features(), MAX_KERNEL_LANES, MAX_KERNEL_LANES, plan);
    printf("[%s]", name);
    if (x32 == NULL) {
        CU_ASSERT(strcmp(name, "avx512-x32") != 0);
        return;
    }
    int cheaper = group_cost(&fs_sha256_table, x32) < plan_cost(&fs_sha256_table, plan, 16) * 2;
    CU_ASSERT_EQUAL(strcmp(name, "avx512-x32") == 0, cheaper);
}

/* Where AVX-512 runs, SHAKE groups of 9..16 lanes go to avx512-x16 exactly
 * when one call of it costs less than two avx512-x8 calls (their lanes'
 * measured costs), and full groups then start with it. */
static void test_shake_groups_x16(void)
{
    if (!fs_cpu_allows(FS_CPU_AVX512)) {
        CU_ASSERT(usable_in(fs_keccak_kernels, "avx512-x16") == NULL);
        return;
    }
    const fs_kernel *x16 = usable_in(fs_keccak_kernels, "avx512-x16");
    const fs_kernel *x8 = usable_in(fs_keccak_kernels, "avx512-x8");
    CU_ASSERT_FATAL(x16 != NULL && x8 != NULL);
    const fs_kernel *plan[MAX_KERNEL_LANES + 1];
    fs_lanes_plan(&fs_keccak_table, fs_cpu_features(), MAX_KERNEL_LANES, MAX_KERNEL_LANES, plan);
    int cheaper = group_cost(&fs_keccak_table, x16) < group_cost(&fs_keccak_table, x8) * 2;
    printf("[%s]", plan[16]->name);
    CU_ASSERT_EQUAL(plan[16] == x16, cheaper);
    CU_ASSERT_EQUAL(strcmp(fs_hash_kernel_name(FS_HASH_SHAKE256), "avx512-x16") == 0, cheaper);
}

static const fs_test plan_tests[] = {
    { "groups of 17..32 lanes: no cheaper first group", test_plan_cheapest },
    { "full SHA-256 groups on avx512-x32 when it costs less", test_full_groups_x32 },
    { "SHAKE groups of 16 on avx512-x16 when it costs less", test_shake_groups_x16 },
    { NULL, NULL },
};

int main(void)
{
    const fs_suite suites[] = { { "lane engine plan", plan_tests }, { NULL, NULL } };
    return fs_cu_main(suites);
}
