/* test_hss_verify.c - hss_verify, which runs an HSS signature's levels
 * side by side, against hss_verify_serial (RFC 8554 section 6.3, one level
 * after another): the same code for valid signatures and for tampered,
 * truncated and extended ones, for every hash family and L = 1 .. 8, and
 * for hand-made signatures whose levels mix families, heights and LM-OTS
 * sets (valid under RFC 8554, though our keygen makes none). */
#include <stdlib.h>
#include <string.h>
#include "bytes.h"
#include "testutil.h"
#include "fastsig_err.h"
#include "lms/lms_params.h"
#include "lms/lms_tree.h"
#include "lms/hss.h"

static size_t mismatches;

/* Both verifiers on one input; a difference is reported and counted. */
static int both(const uint8_t *pub, size_t publen, const uint8_t *msg, size_t mlen,
                const uint8_t *sig, size_t siglen)
{
    int a = hss_verify(pub, publen, msg, mlen, sig, siglen);
    int b = hss_verify_serial(pub, publen, msg, mlen, sig, siglen);
    if (a != b) {
        fprintf(stderr, "side by side %d, serial %d (siglen %zu)\n", a, b, siglen);
        mismatches++;
    }
    return a;
}

/* sig is valid for msg: it verifies; every change refuses it the same way
 * in both verifiers. at[0 .. nat-1]: offsets where each of the 4 bytes
 * there is changed too (typecodes: a level's part that fails to parse
 * after an earlier level whose root is now wrong). */
static void agree_on_changes(const uint8_t *pub, size_t publen, const uint8_t *sig, size_t siglen,
                             const uint8_t *msg, size_t mlen, const size_t *at, size_t nat)
{
    mismatches = 0;
    CU_ASSERT_EQUAL(both(pub, publen, msg, mlen, sig, siglen), FASTSIG_OK);
    uint8_t *t = malloc(siglen + 64), m2[64];
    CU_ASSERT_PTR_NOT_NULL_FATAL(t);
    for (size_t a = 0; a < nat; a++)
        for (unsigned b = 0; b < 4; b++) {
            memcpy(t, sig, siglen);
            t[at[a] + b] ^= 0x11;
            CU_ASSERT_NOT_EQUAL(both(pub, publen, msg, mlen, t, siglen), FASTSIG_OK);
        }
    /* a byte flipped: at random places, and at each of the first 64 */
    for (size_t c = 0; c < 160; c++) {
        size_t pos = c < 64 ? c : (size_t)(fs_test_rand64() % siglen);
        memcpy(t, sig, siglen);
        t[pos] ^= (uint8_t)(1u << (c % 8));
        CU_ASSERT_NOT_EQUAL(both(pub, publen, msg, mlen, t, siglen), FASTSIG_OK);
    }
    /* truncated and extended */
    memcpy(t, sig, siglen);
    fs_test_random(t + siglen, 64);
    for (size_t c = 0; c < 48; c++) {
        size_t len = c < 8 ? siglen - 1 - c : c < 16 ? siglen + 1 + (c - 8) * 7
                                                     : (size_t)(fs_test_rand64() % siglen);
        CU_ASSERT_NOT_EQUAL(both(pub, publen, msg, mlen, t, len), FASTSIG_OK);
    }
    /* another message, another key */
    memcpy(m2, msg, mlen < sizeof(m2) ? mlen : sizeof(m2));
    m2[0] ^= 1;
    CU_ASSERT_EQUAL(both(pub, publen, m2, mlen < sizeof(m2) ? mlen : sizeof(m2), sig, siglen),
                    FASTSIG_ERR_VERIFY);
    uint8_t *p2 = malloc(publen);
    CU_ASSERT_PTR_NOT_NULL_FATAL(p2);
    memcpy(p2, pub, publen);
    p2[publen - 1] ^= 0x80;
    CU_ASSERT_EQUAL(both(p2, publen, msg, mlen, sig, siglen), FASTSIG_ERR_VERIFY);
    free(p2);
    free(t);
    CU_ASSERT_EQUAL(mismatches, 0);
}

static void test_every_family_and_depth(void)
{
    static const char *const fam[][2] = {
        { "LMS_SHA256_M32_H5", "LMOTS_SHA256_N32_W4" },
        { "LMS_SHA256_M24_H5", "LMOTS_SHA256_N24_W8" },
        { "LMS_SHAKE_M32_H5", "LMOTS_SHAKE_N32_W2" },
        { "LMS_SHAKE_M24_H5", "LMOTS_SHAKE_N24_W4" },
    };
    lms_params lp[LMS_MAX_LEVELS];
    lmots_params op[LMS_MAX_LEVELS];
    uint8_t seed[32], I[16], pub[64], msg[40];
    for (size_t f = 0; f < sizeof(fam) / sizeof(fam[0]); f++)
        for (unsigned L = 1; L <= LMS_MAX_LEVELS; L++) {
            for (unsigned i = 0; i < L; i++) {
                CU_ASSERT_EQUAL_FATAL(lms_params_by_name(&lp[i], fam[f][0]), FASTSIG_OK);
                CU_ASSERT_EQUAL_FATAL(lmots_params_by_name(&op[i], fam[f][1]), FASTSIG_OK);
            }
            fs_test_random(seed, sizeof(seed));
            fs_test_random(I, sizeof(I));
            fs_test_random(msg, sizeof(msg));
            hss_key *k = NULL;
            CU_ASSERT_EQUAL_FATAL(hss_key_gen(&k, L, lp, op, seed, I, NULL, NULL), FASTSIG_OK);
            hss_pub(k, pub);
            size_t sl = hss_sig_bytes(k);
            uint8_t *sig = malloc(sl);
            CU_ASSERT_PTR_NOT_NULL_FATAL(sig);
            uint64_t g = fs_test_rand64() % ((uint64_t)1 << (5 * L < 40 ? 5 * L : 40));
            CU_ASSERT_EQUAL_FATAL(hss_sign(k, g, msg, sizeof(msg), sig), FASTSIG_OK);
            agree_on_changes(pub, hss_pub_bytes(k), sig, sl, msg, sizeof(msg), NULL, 0);
            free(sig);
            hss_key_free(k);
        }
}

/* An HSS signature put together by hand from LMS trees of the given sets:
 * level i signs level i+1's public key, the last level the message. */
static void mixed(unsigned L, const char *const sets[][2])
{
    lms_tree *t[LMS_MAX_LEVELS];
    uint8_t pubs[LMS_MAX_LEVELS][64], seed[32], I[16], msg[5] = "mixed";
    size_t sl = 4, pl[LMS_MAX_LEVELS], at[3 * LMS_MAX_LEVELS], nat = 0;
    for (unsigned i = 0; i < L; i++) {
        lms_params lp;
        lmots_params op;
        CU_ASSERT_EQUAL_FATAL(lms_params_by_name(&lp, sets[i][0]), FASTSIG_OK);
        CU_ASSERT_EQUAL_FATAL(lmots_params_by_name(&op, sets[i][1]), FASTSIG_OK);
        fs_test_random(seed, sizeof(seed));
        fs_test_random(I, sizeof(I));
        CU_ASSERT_EQUAL_FATAL(lms_tree_gen(&t[i], &lp, &op, I, seed, NULL, NULL), FASTSIG_OK);
        lms_tree_pub(t[i], pubs[i]);
        pl[i] = lms_pub_bytes(&lp);
        sl += lms_sig_bytes(&lp, &op) + (i > 0 ? pl[i] : 0);
    }
    uint8_t *sig = malloc(sl), *p = sig + 4, pub[4 + 64];
    CU_ASSERT_PTR_NOT_NULL_FATAL(sig);
    fs_store_be32(sig, L - 1);
    for (unsigned i = 0; i < L; i++) {
        const lms_params *lp = lms_tree_lms(t[i]);
        uint32_t q = (uint32_t)(fs_test_rand64() % ((uint64_t)1 << lp->h));
        at[nat++] = (size_t)(p - sig) + 4; /* the LM-OTS typecode */
        const uint8_t *m = i + 1 < L ? pubs[i + 1] : msg;
        size_t mlen = i + 1 < L ? pl[i + 1] : sizeof(msg);
        CU_ASSERT_EQUAL_FATAL(lms_tree_sign(t[i], q, m, mlen, p), FASTSIG_OK);
        p += lms_sig_bytes(lp, lms_tree_ots(t[i]));
        at[nat++] = (size_t)(p - sig) - lms_tree_lms(t[i])->h * lms_tree_lms(t[i])->m - 4;
        if (i + 1 < L) {
            at[nat++] = (size_t)(p - sig); /* the next key's LMS typecode */
            memcpy(p, pubs[i + 1], pl[i + 1]);
            p += pl[i + 1];
        }
    }
    CU_ASSERT_EQUAL_FATAL((size_t)(p - sig), sl);
    fs_store_be32(pub, L);
    memcpy(pub + 4, pubs[0], pl[0]);
    agree_on_changes(pub, 4 + pl[0], sig, sl, msg, sizeof(msg), at, nat);
    free(sig);
    for (unsigned i = 0; i < L; i++)
        lms_tree_free(t[i]);
}

static void test_mixed_levels(void)
{
    /* families, digest sizes, heights and LM-OTS sets differ from level to
     * level: the levels take lanes in different groups and finish at
     * different steps */
    static const char *const a[][2] = {
        { "LMS_SHA256_M32_H5", "LMOTS_SHA256_N32_W8" },
        { "LMS_SHAKE_M24_H5", "LMOTS_SHAKE_N24_W2" },
        { "LMS_SHA256_M24_H10", "LMOTS_SHA256_N24_W4" },
        { "LMS_SHA256_M32_H5", "LMOTS_SHA256_N32_W4" },
        { "LMS_SHAKE_M32_H5", "LMOTS_SHAKE_N32_W8" },
        { "LMS_SHA256_M32_H10", "LMOTS_SHA256_N32_W4" },
    };
    mixed(6, a);
    /* the same set twice, then another between two equal ones */
    static const char *const b[][2] = {
        { "LMS_SHA256_M32_H10", "LMOTS_SHA256_N32_W4" },
        { "LMS_SHA256_M32_H10", "LMOTS_SHA256_N32_W4" },
        { "LMS_SHA256_M32_H5", "LMOTS_SHA256_N32_W1" },
        { "LMS_SHA256_M32_H10", "LMOTS_SHA256_N32_W4" },
    };
    mixed(4, b);
}

static const fs_test tests[] = {
    { "side by side == serial: every family, L = 1 .. 8", test_every_family_and_depth },
    { "side by side == serial: levels of mixed sets", test_mixed_levels },
    { NULL, NULL },
};

int main(void)
{
    return fs_cu_run("hss_verify", tests);
}
