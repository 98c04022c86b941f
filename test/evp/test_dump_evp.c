/* test_dump_evp.c - no secret seed in dumpable memory after signing: XMSS,
 * XMSS^MT, WOTSP and HSS keys generated through EVP from a known seed, and an
 * RW key (its primes and PRF key read once through an export), sign; then
 * no readable mapping a core dump would hold (no `dd` VmFlag in
 * /proc/self/smaps) contains SK_SEED, SK_PRF, an LMS SEED or RW's p, q or
 * PRF key. The test's own copies live in secmem.h pages (dd) and are wiped;
 * no private key is encoded. */
#include <string.h>
#include <openssl/core_names.h>
#include <openssl/evp.h>
#include <openssl/params.h>
#include "testutil.h"
#include "dumpscan.h"
#include "evp_fixture.h"
#include "stateful_evp.h"
#include "secmem.h"

static void sign_n(EVP_PKEY *k, int n)
{
    unsigned char *sig = NULL;
    size_t siglen = 0;
    for (int i = 0; i < n; i++) {
        CU_ASSERT_EQUAL(sign_msg(k, "dump", 4, &sig, &siglen, 0), 0);
        OPENSSL_free(sig);
        sig = NULL;
    }
}

/* A stateful key of alg from seedlen known bytes (passed as hex, the hex
 * in secmem too); secrets: the (offset, length) pairs of the seed to look for. */
static void dump_kind(const char *alg, const char *param, size_t seedlen, uint64_t x,
                     const size_t (*secrets)[2], size_t nsecrets, int nsig)
{
    static const char digits[] = "0123456789abcdef";
    uint8_t *seed = fs_secmem_alloc(seedlen);
    char *hex = fs_secmem_alloc(2 * seedlen + 1), state[600];
    CU_ASSERT_FATAL(seed != NULL && hex != NULL);
    known_bytes(seed, seedlen, x);
    for (size_t i = 0; i < seedlen; i++) {
        hex[2 * i] = digits[seed[i] >> 4];
        hex[2 * i + 1] = digits[seed[i] & 15];
    }
    EVP_PKEY *k = gen_key(alg, param, hex, NULL, state, sizeof(state));
    fs_secmem_free(hex);
    CU_ASSERT_PTR_NOT_NULL_FATAL(k);
    sign_n(k, nsig);
    for (size_t i = 0; i < nsecrets; i++)
        assert_undumped(alg, seed + secrets[i][0], secrets[i][1], 2);
    EVP_PKEY_free(k);
    fs_secmem_free(seed);
}

static void xmss_kind(void)
{
    static const size_t s[][2] = { { 0, 32 }, { 32, 32 } }; /* SK_SEED, SK_PRF */
    dump_kind("XMSS", "XMSS-SHA2_10_256", 96, 1, s, 2, 2);
}

static void xmssmt_kind(void)
{
    static const size_t s[][2] = { { 0, 32 }, { 32, 32 } };
    dump_kind("XMSSMT", "XMSSMT-SHA2_20/4_256", 96, 2, s, 2, 2);
}

static void wotsp_kind(void)
{
    static const size_t s[][2] = { { 0, 32 }, { 32, 32 } };
    dump_kind("WOTSP", "WOTSP-SHA2_256", 96, 3, s, 2, 1); /* one-time */
}

static void hss_kind(void)
{
    static const size_t s[][2] = { { 0, 32 } }; /* SEED (|| I) */
    dump_kind("HSS", "LMS_SHA256_M32_H5/LMOTS_SHA256_N32_W8,LMS_SHA256_M32_H5/LMOTS_SHA256_N32_W8",
             48, 4, s, 1, 33); /* into the second lower tree: a derived SEED */
}

/* The RW key's secrets as the core keeps them: p's and q's low limbs
 * (little-endian bytes), and the PRF key. */
typedef struct {
    uint8_t *buf; /* p (32) || q (32) || prf (32) */
    int got;
} rw_secrets;

static int take_secrets(const OSSL_PARAM params[], void *arg)
{
    rw_secrets *s = arg;
    const char *names[] = { "p", "q" };
    for (int i = 0; i < 2; i++) {
        const OSSL_PARAM *p = OSSL_PARAM_locate_const(params, names[i]);
        BIGNUM *bn = NULL;
        if (p != NULL && OSSL_PARAM_get_BN(p, &bn) && BN_bn2lebinpad(bn, s->buf + 32 * i, 32) < 0) {
            /* 32 low bytes: the padding call fails for a longer number */
            unsigned char *le = fs_secmem_alloc((size_t)BN_num_bytes(bn));
            if (le != NULL && BN_bn2lebinpad(bn, le, BN_num_bytes(bn)) > 0) {
                memcpy(s->buf + 32 * i, le, 32);
                s->got++;
            }
            fs_secmem_free(le);
        }
        BN_clear_free(bn);
    }
    const OSSL_PARAM *prf = OSSL_PARAM_locate_const(params, "prf");
    const void *v = NULL;
    size_t len = 0;
    if (prf != NULL && OSSL_PARAM_get_octet_string_ptr(prf, &v, &len) && len == 32) {
        memcpy(s->buf + 64, v, 32);
        s->got++;
    }
    return 1;
}

static void rw_kind(void)
{
    unsigned bits = 2048;
    OSSL_PARAM prm[] = { OSSL_PARAM_construct_uint("bits", &bits), OSSL_PARAM_END };
    EVP_PKEY_CTX *c = EVP_PKEY_CTX_new_from_name(libctx, "RW", NULL);
    EVP_PKEY *k = NULL;
    rw_secrets s = { fs_secmem_alloc(96), 0 };

    CU_ASSERT_FATAL(c != NULL && s.buf != NULL);
    CU_ASSERT_FATAL(EVP_PKEY_keygen_init(c) > 0 && EVP_PKEY_CTX_set_params(c, prm)
                    && EVP_PKEY_generate(c, &k) > 0);
    EVP_PKEY_CTX_free(c);
    CU_ASSERT_EQUAL_FATAL(EVP_PKEY_export(k, EVP_PKEY_KEYPAIR, take_secrets, &s), 1);
    CU_ASSERT_EQUAL_FATAL(s.got, 3);
    assert_undumped("RW prf (export)", s.buf + 64, 32, 2);
    sign_n(k, 2);
    assert_undumped("RW p", s.buf, 32, 2);
    assert_undumped("RW q", s.buf + 32, 32, 2);
    assert_undumped("RW prf", s.buf + 64, 32, 2);
    EVP_PKEY_free(k);
    fs_secmem_free(s.buf);
}

int main(void)
{
    static const fs_test tests[] = {
        { "load provider", stateful_load },
        { "no secret seed in dumpable memory after signing: XMSS", xmss_kind },
        { "no secret seed in dumpable memory after signing: XMSS^MT", xmssmt_kind },
        { "no secret seed in dumpable memory after signing: WOTSP", wotsp_kind },
        { "no secret seed in dumpable memory after signing: HSS", hss_kind },
        { "no secret seed in dumpable memory after signing: RW", rw_kind },
        { "unload", stateful_unload },
        { NULL, NULL },
    };
    static const fs_suite suites[] = { { "secrets out of core dumps", tests }, { NULL, NULL } };
    return fs_cu_main(suites);
}
