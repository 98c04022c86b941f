/* cpu.c - CPUID/XGETBV detection, the FASTSIG_CPU override and the one
 * kernel picker. */
#define _GNU_SOURCE /* secure_getenv */
#include <stdio.h>
#include <stdlib.h>
#include <sched.h>
#include <string.h>
#include <unistd.h>
#include "cpu.h"

static const struct {
    const char *name;
    unsigned bit;
} names[] = {
    { "shani", FS_CPU_SHANI },   { "avx2", FS_CPU_AVX2 },       { "avx512", FS_CPU_AVX512 },
    { "pclmul", FS_CPU_PCLMUL }, { "vpclmul", FS_CPU_VPCLMUL }, { "ifma", FS_CPU_IFMA },
};
#define NNAMES (sizeof(names) / sizeof(names[0]))

#if defined(FASTSIG_HAVE_ASM) && defined(__x86_64__)
#include <cpuid.h>

static unsigned long long xgetbv0(void)
{
    unsigned eax, edx;
    __asm__ volatile("xgetbv" : "=a"(eax), "=d"(edx) : "c"(0));
    return ((unsigned long long)edx << 32) | eax;
}

unsigned fs_cpu_detected(void)
{
    unsigned a, b, c, d, mask = 0;
    if (!__get_cpuid(1, &a, &b, &c, &d))
        return 0;
    int sse41 = (c >> 19) & 1, pclmul = (c >> 1) & 1, osxsave = (c >> 27) & 1;
    int avx = (c >> 28) & 1;
    unsigned long long xcr0 = osxsave ? xgetbv0() : 0;
    int ymm_ok = avx && (xcr0 & 0x6) == 0x6;
    int zmm_ok = ymm_ok && (xcr0 & 0xe0) == 0xe0;
    if (sse41 && pclmul)
        mask |= FS_CPU_PCLMUL;
    if (__get_cpuid_max(0, NULL) >= 7) {
        __cpuid_count(7, 0, a, b, c, d);
        int avx2 = (b >> 5) & 1, bmi2 = (b >> 8) & 1, sha = (b >> 29) & 1;
        int avx512f = (b >> 16) & 1, avx512bw = (b >> 30) & 1, avx512vl = (b >> 31) & 1;
        int vpclmul = (c >> 10) & 1, ifma = (b >> 21) & 1;
        if (sha && sse41)
            mask |= FS_CPU_SHANI;
        if (ymm_ok && avx2 && bmi2)
            mask |= FS_CPU_AVX2;
        if (zmm_ok && avx512f && avx512bw && avx512vl)
            mask |= FS_CPU_AVX512;
        if (zmm_ok && vpclmul && avx512f)
            mask |= FS_CPU_VPCLMUL;
        if (zmm_ok && ifma && avx512f && avx512bw)
            mask |= FS_CPU_IFMA;
    }
    return mask;
}
#else
unsigned fs_cpu_detected(void)
{
    return 0;
}
#endif

int fs_cpu_parse(const char *spec, unsigned *mask)
{
    char buf[256];
    int bad = 0;
    *mask = 0;
    if (strcmp(spec, "native") == 0) {
        *mask = ~0u;
        return 0;
    }
    snprintf(buf, sizeof(buf), "%s", spec);
    for (char *save = NULL, *tok = strtok_r(buf, ", ", &save); tok != NULL;
         tok = strtok_r(NULL, ", ", &save)) {
        size_t i;
        if (strcmp(tok, "portable") == 0)
            continue;
        for (i = 0; i < NNAMES && strcmp(tok, names[i].name) != 0; i++)
            ;
        if (i == NNAMES)
            bad = 1;
        else
            *mask |= names[i].bit;
    }
    return bad ? -1 : 0;
}

/* The usable set with a "computed" bit, and whether FASTSIG_CPU had an
 * unknown name, published with one atomic store each: the computation is
 * deterministic, so threads racing through it store the same values, and
 * later calls cost one plain load. */
#define COMPUTED (1u << 31)
static unsigned features;
static int env_bad;

static unsigned compute_features(void)
{
    unsigned mask = fs_cpu_detected(), allow = ~0u;
    const char *env = secure_getenv("FASTSIG_CPU");
    int bad = env != NULL && *env && fs_cpu_parse(env, &allow) != 0;
    mask &= allow & ~COMPUTED;
    __atomic_store_n(&env_bad, bad, __ATOMIC_RELAXED);
    __atomic_store_n(&features, mask | COMPUTED, __ATOMIC_RELEASE);
    return mask;
}

unsigned fs_cpu_features(void)
{
    unsigned v = __atomic_load_n(&features, __ATOMIC_ACQUIRE);
    return (v & COMPUTED) ? v & ~COMPUTED : compute_features();
}

int fs_cpu_env_bad(void)
{
    fs_cpu_features();
    return __atomic_load_n(&env_bad, __ATOMIC_RELAXED);
}

const char *fs_cpu_names(unsigned mask, char *buf, unsigned buflen)
{
    size_t used = 0;
    buf[0] = 0;
    for (size_t i = 0; i < NNAMES; i++)
        if (mask & names[i].bit)
            used += (size_t)snprintf(buf + used, used < buflen ? buflen - used : 0, "%s%s",
                                     used ? "," : "", names[i].name);
    if (used == 0)
        snprintf(buf, buflen, "portable");
    return buf;
}

unsigned fs_cpu_threads(void)
{
    cpu_set_t set;
    long n = sched_getaffinity(0, sizeof(set), &set) == 0 ? CPU_COUNT(&set)
                                                          : sysconf(_SC_NPROCESSORS_ONLN);
    return n < 1 ? 1 : n > 8 ? 8 : (unsigned)n;
}
