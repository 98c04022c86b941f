/* test_kernels.c - every primitive's kernel table through cpu.c's one
 * picker: FASTSIG_CPU narrows every primitive (RW's included), no row runs
 * without the features it needs, a cost override picks what it says, and
 * the calibration measures and picks only rows the usable set allows.
 * Nothing here depends on what the timings were. */
#include <stdlib.h>
#include <string.h>
#include "testutil.h"
#include "cpu.h"
#include "kernel_cost.h"
#include "hash/hash.h"
#include "hash/keccak.h"
#include "hash/lanes.h"
#include "hash/sha256.h"
#include "hash/sha256_chain.h"
#include "hash/sha512.h"
#include "rw/rw_internal.h"
#include "rw/rw_keccak_dot.h"
#include "rw/rw_sig.h"
#include "tz/tz_kernel.h"

static const fs_kernel_table *const tables[] = {
    &fs_sha256_table, &fs_sha512_table,  &fs_keccak_table,    &tz_kernel_table,
    &rw_keccak_dot_table, &rw_powm2_table, &rw_check_table, &rw_residues_table,
    &rw_from_be_table, &fs_wots_chain_table, &fs_lmots_chain_table,
};
#define NTABLES (sizeof(tables) / sizeof(tables[0]))

/* Feature masks to pick under: each name alone, common sets, all. */
static const unsigned masks[] = {
    0, FS_CPU_SHANI, FS_CPU_AVX2, FS_CPU_AVX512, FS_CPU_PCLMUL, FS_CPU_IFMA,
    FS_CPU_AVX512 | FS_CPU_IFMA, FS_CPU_AVX512 | FS_CPU_VPCLMUL, FS_CPU_SHANI | FS_CPU_AVX2,
    FS_CPU_AVX2 | FS_CPU_AVX512, ~0u,
};
#define NMASKS (sizeof(masks) / sizeof(masks[0]))

static size_t nrows(const fs_kernel_table *t)
{
    size_t n = 0;
    while (t->rows[n].name != NULL)
        n++;
    return n;
}

/* Each table names its rows once, fits the cost array, and has a portable
 * row that is no twin (so every mask has a choice but rw-keccak-dot's and
 * the fused chain tables', whose callers keep another path). */
static void test_tables(void)
{
    for (size_t i = 0; i < NTABLES; i++) {
        const fs_kernel_table *t = tables[i];
        size_t n = nrows(t);
        CU_ASSERT(n >= 1 && n <= FS_KERNEL_MAX_ROWS);
        for (size_t a = 0; a < n; a++) {
            CU_ASSERT(t->rows[a].fn != NULL && t->rows[a].lanes >= 1 && t->rows[a].cost >= 1);
            for (size_t b = a + 1; b < n; b++)
                CU_ASSERT(strcmp(t->rows[a].name, t->rows[b].name) != 0);
        }
        if (t != &rw_keccak_dot_table && t != &fs_wots_chain_table && t != &fs_lmots_chain_table)
            CU_ASSERT_PTR_NOT_NULL(fs_kernel_pick(t->rows, NULL, 0, 0, 1));
    }
}

/* Under every mask and group size, the picker (static and the process's
 * costs) returns a row whose features are all in the mask, never a twin,
 * and a row needing a feature outside the mask never comes back. */
static void test_cpu_honoured(void)
{
    for (size_t i = 0; i < NTABLES; i++)
        for (size_t m = 0; m < NMASKS; m++)
            for (unsigned lanes = 1; lanes <= 16; lanes++) {
                const fs_kernel_table *t = tables[i];
                const fs_kernel *s = fs_kernel_pick(t->rows, NULL, masks[m], 0, lanes);
                const fs_kernel *c = fs_kernel_choose(t, masks[m] & fs_cpu_features(), 0, lanes);
                if (s != NULL)
                    CU_ASSERT((s->cpu & ~masks[m]) == 0 && !(s->flags & FS_KERNEL_TWIN));
                if (c != NULL)
                    CU_ASSERT(fs_kernel_usable(c, masks[m] & fs_cpu_features(), 0));
            }
}

/* FASTSIG_CPU narrows every primitive: each one's process choice (and the
 * lane engine's, per family) is usable under fs_cpu_features(); without
 * the IFMA bit RW's rows are the GMP / portable twins. The plan is listed. */
static void test_narrowed(void)
{
    unsigned have = fs_cpu_features();
    char buf[96];
    printf("[FASTSIG_CPU path %s]", fs_cpu_names(have, buf, sizeof(buf)));
    for (size_t i = 0; i < NTABLES; i++) {
        const fs_kernel *k = fs_kernel_default(tables[i]);
        printf(" %s=%s", tables[i]->name, k ? k->name : "none");
        if (k != NULL)
            CU_ASSERT(fs_kernel_usable(k, have, 0));
        if (k != NULL && tables[i] == &rw_powm2_table)
            CU_ASSERT_EQUAL(strcmp(k->name, "gmp") != 0,
                            (have & (FS_CPU_AVX512 | FS_CPU_IFMA)) ==
                                (FS_CPU_AVX512 | FS_CPU_IFMA) &&
                                getenv("FASTSIG_KERNEL_COSTS") == NULL);
    }
    printf(" ");
    CU_ASSERT_EQUAL(rw_ifma_usable(),
                    (have & (FS_CPU_AVX512 | FS_CPU_IFMA)) == (FS_CPU_AVX512 | FS_CPU_IFMA));
    static const struct {
        fs_hash_family f;
        const fs_kernel_table *t;
    } fams[] = { { FS_HASH_SHA256, &fs_sha256_table }, { FS_HASH_SHA512, &fs_sha512_table },
                 { FS_HASH_SHAKE128, &fs_keccak_table }, { FS_HASH_SHAKE256, &fs_keccak_table } };
    for (size_t i = 0; i < sizeof(fams) / sizeof(fams[0]); i++) {
        const char *name = fs_hash_kernel_name(fams[i].f);
        int found = 0;
        for (const fs_kernel *k = fams[i].t->rows; k->name; k++)
            found |= strcmp(k->name, name) == 0 && fs_kernel_usable(k, have, FS_KERNEL_PAIR);
        CU_ASSERT(found);
    }
    for (unsigned lanes = 1; lanes <= 8; lanes++)
        CU_ASSERT(fs_kernel_usable(fs_keccak_kernel_for(lanes), have, 0));
    CU_ASSERT(fs_kernel_usable(tz_kernel_for(have), have, 0));
    CU_ASSERT_STRING_EQUAL(tz_kernel_name(), tz_kernel_for(have)->name);
}

/* Rows of t that are no twin. */
static size_t dispatchable(const fs_kernel_table *t)
{
    size_t n = 0;
    for (const fs_kernel *k = t->rows; k->name; k++)
        n += !(k->flags & FS_KERNEL_TWIN);
    return n;
}

/* An override "TABLE:ROW=1" over costs of 1000 and more picks ROW under any
 * mask that allows it, for a group of its width; "=0" never picks it;
 * unknown tables and rows change nothing; "static" is reported. */
static void test_override(void)
{
    char spec[128];
    unsigned cost[FS_KERNEL_MAX_ROWS];
    for (size_t i = 0; i < NTABLES; i++) {
        const fs_kernel_table *t = tables[i];
        for (size_t r = 0; t->rows[r].name != NULL; r++) {
            const fs_kernel *k = &t->rows[r];
            if (k->flags & FS_KERNEL_TWIN)
                continue;
            for (size_t j = 0; j < FS_KERNEL_MAX_ROWS; j++)
                cost[j] = 1000 + 7 * (unsigned)j;
            snprintf(spec, sizeof(spec), "bogus:%s=1,%s:nosuchrow=1,%s:%s=1", k->name, t->name,
                     t->name, k->name);
            CU_ASSERT_EQUAL(fs_kernel_costs_parse(t, spec, cost), 0);
            CU_ASSERT_EQUAL(cost[r], 1);
            CU_ASSERT(fs_kernel_pick(t->rows, cost, k->cpu, 0, k->lanes) == k);
            CU_ASSERT(fs_kernel_pick(t->rows, cost, ~0u, 0, k->lanes) == k);
            snprintf(spec, sizeof(spec), "static %s:%s=0", t->name, k->name);
            CU_ASSERT_EQUAL(fs_kernel_costs_parse(t, spec, cost), 1);
            CU_ASSERT_EQUAL(cost[r], FS_KERNEL_COST_NONE - 1);
            if (dispatchable(t) > 1)
                CU_ASSERT(fs_kernel_pick(t->rows, cost, ~0u, 0, k->lanes) != k);
        }
    }
}

/* The process's costs: a measured table has a cost for exactly the rows the
 * usable set allows (twins and other rows unmeasured), and the default
 * row is one of them. With FASTSIG_KERNEL_COSTS as meson's second run sets
 * it: nothing measured, and the overridden rows win. */
static void test_calibration(void)
{
    const char *env = getenv("FASTSIG_KERNEL_COSTS");
    unsigned have = fs_cpu_features();
    for (size_t i = 0; i < NTABLES; i++) {
        const fs_kernel_table *t = tables[i];
        const unsigned *cost = fs_kernel_costs(t);
        if (!fs_kernel_costs_measured(t)) {
            CU_ASSERT(t->trial == NULL || env != NULL);
            continue;
        }
        for (size_t r = 0; t->rows[r].name != NULL; r++)
            CU_ASSERT_EQUAL(cost[r] != FS_KERNEL_COST_NONE,
                            fs_kernel_usable(&t->rows[r], have, 0));
    }
    if (env != NULL && strcmp(env, "static,sha256:portable-x1=1,tz:pclmul=1,rw-powm2:gmp=1") == 0) {
        CU_ASSERT_STRING_EQUAL(fs_kernel_choose(&fs_sha256_table, have, 0, 1)->name, "portable-x1");
        CU_ASSERT_STRING_EQUAL(fs_kernel_default(&rw_powm2_table)->name, "gmp");
        if (have & FS_CPU_PCLMUL)
            CU_ASSERT_STRING_EQUAL(tz_kernel_name(), "pclmul");
        CU_ASSERT_EQUAL(fs_kernel_costs(&fs_sha512_table)[0], fs_sha512_kernels[0].cost);
    }
    CU_ASSERT(fs_kernel_calibration_ns() > 0 || env != NULL);
}

/* The order a table's rows are timed in: a fake table whose trial notes
 * each call. Every usable row warmed up once, then rounds of one call of
 * each usable row in turn (the clock of a fresh process moves; timed row
 * after row, one row would get all of a slow moment); none of the row that
 * needs features no CPU has. */
static void noop_kernel(void)
{
}
static char order[64];
static size_t norder;
static void note_trial(const fs_kernel *k)
{
    if (norder < sizeof(order) - 1)
        order[norder++] = k->name[0];
}
static const fs_kernel fake_rows[] = {
    { "a", FS_KERNEL_FN(noop_kernel), NULL, 1, 0, 0, 10 },
    { "b", FS_KERNEL_FN(noop_kernel), NULL, 2, 0, 0, 10 },
    { "n", FS_KERNEL_FN(noop_kernel), NULL, 4, ~0u, 0, 10 },
    { "c", FS_KERNEL_FN(noop_kernel), NULL, 4, 0, 0, 10 },
    FS_KERNEL_END,
};
FS_KERNEL_TABLE(fake_table, "fake", fake_rows, note_trial);

static void test_calibration_order(void)
{
    const unsigned *cost = fs_kernel_costs(&fake_table);
    printf("[%s]", order);
    if (!fs_kernel_costs_measured(&fake_table)) { /* FASTSIG_KERNEL_COSTS=static */
        CU_ASSERT_EQUAL(norder, 0);
        return;
    }
    CU_ASSERT_STRING_EQUAL(order, "abcabcabcabcabcabc");
    CU_ASSERT_EQUAL(cost[2], FS_KERNEL_COST_NONE);
    CU_ASSERT(cost[0] != FS_KERNEL_COST_NONE && cost[3] != FS_KERNEL_COST_NONE);
}

/* The twin row of a table with k's lanes (the first such row). */
static const fs_kernel *chain_twin(const fs_kernel_table *t, const fs_kernel *k)
{
    for (const fs_kernel *r = t->rows; r->name; r++)
        if ((r->flags & FS_KERNEL_TWIN) && r->lanes == k->lanes)
            return r;
    return NULL;
}

/* The fused chain tables: every row this CPU path allows, the twins
 * included, against the kind's twin of its lanes (16: the first row; 32:
 * two groups) on random lanes, and the lane engine's kernels of each kind
 * are fs_chain_pick_rows's: a 16-lane row for a group (none without
 * AVX-512), a 32-lane one only where cheaper per lane. */
static void test_chain_tables(void)
{
    enum { L = FS_CHAIN_LANES, ML = FS_CHAIN_MAX_LANES, W = FS_CHAIN_MAX_WORDS };
    unsigned have = fs_cpu_features();
    for (unsigned kind = 0; kind < FS_CHAIN_KINDS; kind++) {
        const fs_kernel_table *t = fs_chain_table(kind);
        CU_ASSERT_FATAL(t->rows[0].name != NULL && (t->rows[0].flags & FS_KERNEL_TWIN));
        for (const fs_kernel *k = t->rows; k->name; k++) {
            const fs_kernel *twin = chain_twin(t, k);
            CU_ASSERT_PTR_NOT_NULL_FATAL(twin);
            CU_ASSERT(k->lanes == L || k->lanes == ML);
            if (!fs_cpu_allows(k->cpu))
                continue;
            for (size_t steps = 0; steps < 4; steps++) {
                uint32_t x[8 * ML], w[W * ML], key[8], x2[8 * ML], w2[W * ML];
                fs_test_random((uint8_t *)x, sizeof(x));
                fs_test_random((uint8_t *)w, sizeof(w));
                fs_test_random((uint8_t *)key, sizeof(key));
                for (unsigned l = 0; kind == FS_CHAIN_LMOTS && l < ML; l++)
                    w[l / L * W * L + L + l % L] &= 0xffffff00u; /* i, j: low byte zero */
                memcpy(x2, x, sizeof(x));
                memcpy(w2, w, sizeof(w));
                fs_chain_fn_of(k)(x, w, key, steps, 32);
                fs_chain_fn_of(twin)(x2, w2, key, steps, 32);
                CU_ASSERT(memcmp(x, x2, sizeof(x)) == 0 && memcmp(w, w2, sizeof(w)) == 0);
            }
        }
        const fs_chain_pick c = fs_chain_pick_rows(t, have);
        CU_ASSERT(fs_lanes_chain_kernel((fs_chain_kind)kind) ==
                  (c.x16 ? fs_chain_fn_of(c.x16) : NULL));
        CU_ASSERT(fs_lanes_chain_kernel_x32((fs_chain_kind)kind) ==
                  (c.x32 ? fs_chain_fn_of(c.x32) : NULL));
        CU_ASSERT_EQUAL(c.x16 != NULL, (have & FS_CPU_AVX512) != 0);
        CU_ASSERT(c.x16 == NULL || c.x16->lanes == L);
        CU_ASSERT(c.x32 == NULL || c.x32->lanes == ML);
    }
}

/* Each asm row of the fused chain tables names, as aux, the SHA-256
 * compression row of its round layout and lanes (what its calibration
 * times): an asm row of fs_sha256_kernels of the row's lanes (x16, or x32
 * for the 32-lane row), the "-lean" one for a "-lean" row. */
static void test_chain_layouts(void)
{
    for (unsigned kind = 0; kind < FS_CHAIN_KINDS; kind++)
        for (const fs_kernel *k = fs_chain_table(kind)->rows; k->name; k++) {
            if (k->flags & FS_KERNEL_TWIN)
                continue;
            const fs_kernel *c = NULL;
            for (const fs_kernel *r = fs_sha256_kernels; r->name; r++)
                if (k->aux != NULL && r->fn == k->aux)
                    c = r;
            CU_ASSERT_PTR_NOT_NULL_FATAL(c);
            CU_ASSERT(c->lanes == k->lanes && c->cpu == k->cpu && !(c->flags & FS_KERNEL_TWIN));
            CU_ASSERT_EQUAL(strstr(k->name, "-lean") != NULL, strstr(c->name, "-lean") != NULL);
        }
}

int main(void)
{
    static const fs_test tests[] = {
        { "every table is well formed", test_tables },
        { "no row is picked without its CPU features", test_cpu_honoured },
        { "FASTSIG_CPU narrows every primitive", test_narrowed },
        { "a cost override picks what it says", test_override },
        { "the calibration measures and picks usable rows only", test_calibration },
        { "the calibration times the rows in turn", test_calibration_order },
        { "the fused chain tables: rows vs twins, the engine's pick", test_chain_tables },
        { "each fused chain row is timed on its layout's compression", test_chain_layouts },
        { NULL, NULL },
    };
    return fs_cu_run("kernels", tests);
}
