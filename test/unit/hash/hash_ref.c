/* hash_ref.c - the OpenSSL-based reference for the hash tests. */
#include <stdlib.h>
#include <string.h>
#include <openssl/evp.h>
#include <CUnit/CUnit.h>
#include "cpu.h"
#include "hash_ref.h"

const fs_hash_params test_params[NPARAMS] = {
    { FS_HASH_SHA256, 32, 32 },   { FS_HASH_SHA256, 24, 4 },    { FS_HASH_SHA512, 64, 64 },
    { FS_HASH_SHAKE128, 32, 32 }, { FS_HASH_SHAKE256, 64, 64 }, { FS_HASH_SHAKE256, 32, 32 },
    { FS_HASH_SHAKE256, 24, 4 },
};

const char *param_name(const fs_hash_params *p)
{
    static char buf[64];
    static const char *fam[] = { "?", "SHA-256", "SHA-512", "SHAKE128", "SHAKE256" };
    snprintf(buf, sizeof(buf), "%s n=%u pad=%u", fam[p->family], p->n, p->pad);
    return buf;
}

void ref_hash(fs_hash_family f, uint8_t *out, size_t n, const uint8_t *in, size_t len)
{
    const EVP_MD *md = f == FS_HASH_SHA256   ? EVP_sha256()
                       : f == FS_HASH_SHA512 ? EVP_sha512()
                       : f == FS_HASH_SHAKE128 ? EVP_shake128()
                                               : EVP_shake256();
    uint8_t full[64];
    EVP_MD_CTX *c = EVP_MD_CTX_new();
    EVP_DigestInit_ex(c, md, NULL);
    EVP_DigestUpdate(c, in, len);
    if (f == FS_HASH_SHAKE128 || f == FS_HASH_SHAKE256)
        EVP_DigestFinalXOF(c, full, n);
    else
        EVP_DigestFinal_ex(c, full, NULL);
    EVP_MD_CTX_free(c);
    memcpy(out, full, n);
}

void ref_prefixed(const fs_hash_params *p, unsigned domain, uint8_t *out, const uint8_t *a,
                  size_t alen, const uint8_t *b, size_t blen, const uint8_t *c, size_t clen)
{
    size_t len = p->pad + (a ? alen : 0) + (b ? blen : 0) + (c ? clen : 0);
    uint8_t *m = calloc(1, len), *d = m + p->pad;
    m[p->pad - 1] = (uint8_t)domain;
    if (a) {
        memcpy(d, a, alen);
        d += alen;
    }
    if (b) {
        memcpy(d, b, blen);
        d += blen;
    }
    if (c)
        memcpy(d, c, clen);
    ref_hash(p->family, out, p->n, m, len);
    free(m);
}

static void set_word(uint8_t *adrs, unsigned w, uint32_t v)
{
    for (int i = 0; i < 4; i++)
        adrs[4 * w + i] = (uint8_t)(v >> (24 - 8 * i));
}

void ref_chain(const fs_hash_params *p, const uint8_t *seed, uint8_t *x, const uint8_t *adrs,
               uint32_t start, uint32_t steps)
{
    uint8_t a[32], key[64], bm[64];
    memcpy(a, adrs, 32);
    for (uint32_t i = start; i < start + steps; i++) {
        set_word(a, 6, i);
        set_word(a, 7, 0);
        ref_prefixed(p, 3, key, seed, p->n, a, 32, NULL, 0);
        set_word(a, 7, 1);
        ref_prefixed(p, 3, bm, seed, p->n, a, 32, NULL, 0);
        for (unsigned j = 0; j < p->n; j++)
            bm[j] ^= x[j];
        ref_prefixed(p, 0, x, key, p->n, bm, p->n, NULL, 0);
    }
}

void ref_rand_hash(const fs_hash_params *p, const uint8_t *seed, uint8_t *out,
                   const uint8_t *in, const uint8_t *adrs)
{
    uint8_t a[32], key[64], bm[128];
    memcpy(a, adrs, 32);
    set_word(a, 7, 0);
    ref_prefixed(p, 3, key, seed, p->n, a, 32, NULL, 0);
    set_word(a, 7, 1);
    ref_prefixed(p, 3, bm, seed, p->n, a, 32, NULL, 0);
    set_word(a, 7, 2);
    ref_prefixed(p, 3, bm + p->n, seed, p->n, a, 32, NULL, 0);
    for (unsigned j = 0; j < 2 * p->n; j++)
        bm[j] ^= in[j];
    ref_prefixed(p, 1, out, key, p->n, bm, 2 * p->n, NULL, 0);
}

/* The CPU paths to run: portable, each extension alone, all. */
static const unsigned path_masks[] = { 0, FS_CPU_SHANI, FS_CPU_AVX2, FS_CPU_AVX512, ~0u };
#define NPATHS (sizeof(path_masks) / sizeof(path_masks[0]))

void each_path_param(void (*fn)(const fs_hash_params *p))
{
    unsigned have = fs_cpu_features();
    for (size_t i = 0; i < NPATHS; i++) {
        size_t j = 0;
        while (j < i && (path_masks[j] & have) != (path_masks[i] & have))
            j++;
        if (j < i)
            continue; /* the same path as an earlier mask */
        fs_hash_select(path_masks[i]);
        for (size_t k = 0; k < NPARAMS; k++)
            fn(&test_params[k]);
    }
    fs_hash_select(~0u);
}
