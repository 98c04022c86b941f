/* test_lanes_plan.c - the lane engine's group plan (lanes_plan.c) under
 * this process's measured kernel costs, on the FASTSIG_CPU path: groups of
 * up to half the widest row (16 lanes when no row is wider than 8) as the
 * picker chooses, wider ones the cheapest first group plus the plan of the
 * rest, the 32-lane SHA-256 kernel for full groups when it costs less per
 * lane than two 16-lane calls, and the 16-lane SHA-512 and Keccak kernels
 * for groups of 9..16 when they cost less than the split. Run also with
 * static costs and with costs under which the picker and the cheapest split
 * disagree (test/unit/hash/meson.build). */
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
            if (left <= fs_lanes_picker_lanes(t, mask, MAX_KERNEL_LANES)) {
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
static const fs_kernel *usable_row_of(const fs_kernel_table *t, const char *name)
{
    for (const fs_kernel *k = t->rows; k->name; k++)
        if (strcmp(k->name, name) == 0)
            return fs_kernel_usable(k, fs_cpu_features(), 0) ? k : NULL;
    return NULL;
}

/* Full groups go to avx512-x32 exactly when one call of it costs less than
 * two of the 16-lane plan's kernel. */
static void test_full_groups_x32(void)
{
    const fs_kernel *x32 = usable_row_of(&fs_sha256_table, "avx512-x32");
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

/* Groups of 9..16 lanes of table t: on its avx512-x16 row exactly when one
 * call of it costs less than the cheapest plan that starts with another row
 * (an 8-lane call and the plan of the rest, say), and the picker's row up
 * to 8 lanes once avx512-x16 is usable (half its width). Returns whether
 * the 16-lane group takes it. */
static int check_groups_x16(const fs_kernel_table *t)
{
    const fs_kernel *x16 = usable_row_of(t, "avx512-x16");
    unsigned mask = fs_cpu_features();
    const fs_kernel *plan[MAX_KERNEL_LANES + 1];
    fs_lanes_plan(t, mask, MAX_KERNEL_LANES, MAX_KERNEL_LANES, plan);
    unsigned picker = fs_lanes_picker_lanes(t, mask, MAX_KERNEL_LANES);
    printf("[picker up to %u, 16 lanes: %s]", picker, plan[16]->name);
    if (x16 == NULL) {
        CU_ASSERT_EQUAL(picker, 16);
        for (unsigned left = 1; left <= 16; left++)
            CU_ASSERT(strcmp(plan[left]->name, "avx512-x16") != 0);
        return 0;
    }
    CU_ASSERT_EQUAL(picker, 8);
    for (unsigned left = 9; left <= 16; left++) {
        unsigned long long other = ~0ull;
        for (const fs_kernel *k = t->rows; k->name; k++) {
            if (k == x16 || !fs_kernel_usable(k, mask, FS_KERNEL_PAIR))
                continue;
            unsigned used = left < k->lanes ? left : k->lanes;
            unsigned long long c = group_cost(t, k) + plan_cost(t, plan, left - used);
            other = c < other ? c : other;
        }
        int cheaper = group_cost(t, x16) < other;
        if ((plan[left] == x16) != cheaper)
            fprintf(stderr, "\n%u lanes: plan %s, avx512-x16 %llu, otherwise %llu\n", left,
                    plan[left]->name, group_cost(t, x16), other);
        CU_ASSERT_EQUAL(plan[left] == x16, cheaper);
    }
    return plan[16] == x16;
}

static void test_sha512_groups_x16(void)
{
    check_groups_x16(&fs_sha512_table);
}

/* SHAKE's lanes: the same, and the engine names the row it runs for 16. */
static void test_shake_groups_x16(void)
{
    int x16 = check_groups_x16(&fs_keccak_table);
    CU_ASSERT_EQUAL(strcmp(fs_hash_kernel_name(FS_HASH_SHAKE256), "avx512-x16") == 0, x16);
}

static const fs_test plan_tests[] = {
    { "wide groups: no cheaper first group", test_plan_cheapest },
    { "full SHA-256 groups on avx512-x32 when it costs less", test_full_groups_x32 },
    { "SHA-512 groups of 9..16 on avx512-x16 when it costs less", test_sha512_groups_x16 },
    { "SHAKE groups of 9..16 on avx512-x16 when it costs less", test_shake_groups_x16 },
    { NULL, NULL },
};

int main(void)
{
    const fs_suite suites[] = { { "lane engine plan", plan_tests }, { NULL, NULL } };
    return fs_cu_main(suites);
}
