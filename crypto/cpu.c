/* cpu.c - CPUID/XGETBV detection and the FASTSIG_CPU override. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cpu.h"

static const struct {
    const char *name;
    unsigned bit;
} names[] = {
    { "shani", FS_CPU_SHANI },   { "avx2", FS_CPU_AVX2 },       { "avx512", FS_CPU_AVX512 },
    { "pclmul", FS_CPU_PCLMUL }, { "vpclmul", FS_CPU_VPCLMUL },
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
        int vpclmul = (c >> 10) & 1;
        if (sha && sse41)
            mask |= FS_CPU_SHANI;
        if (ymm_ok && avx2 && bmi2)
            mask |= FS_CPU_AVX2;
        if (zmm_ok && avx512f && avx512bw && avx512vl)
            mask |= FS_CPU_AVX512;
        if (zmm_ok && vpclmul && avx512f)
            mask |= FS_CPU_VPCLMUL;
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

unsigned fs_cpu_features(void)
{
    /* Computed on first use; a benign race (same value) between threads. */
    static volatile int done;
    static volatile unsigned features;
    if (!done) {
        unsigned mask = fs_cpu_detected();
        const char *env = getenv("FASTSIG_CPU");
        if (env != NULL && *env) {
            unsigned allow;
            if (fs_cpu_parse(env, &allow) != 0)
                fprintf(stderr, "fastsig: FASTSIG_CPU=%s has an unknown name; "
                        "known: portable, native, shani, avx2, avx512, pclmul, vpclmul\n", env);
            mask &= allow;
        }
        features = mask;
        done = 1;
    }
    return features;
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
