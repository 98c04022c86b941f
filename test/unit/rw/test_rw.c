/* test_rw.c - Rabin-Williams core: the Crypto++ IEEE 1363 vectors (verify,
 * byte-exact signing), round trips for every size and format, tampering,
 * malformed signatures, key validation and encodings, the fault check. */
#include <stdlib.h>
#include <string.h>
#include <gmp.h>
#include "testutil.h"
#include "rw_vectors.h"
#include "fastsig_err.h"
#include "rw/rw.h"
#include "rw/rw_internal.h"
#include "rw/rw_msg.h"
#include "rw/rw_sig.h"
#include "hash/keccak.h"

/* ---- keys, generated once per run -------------------------------------- */

static int test_rng(void *arg, uint8_t *buf, size_t len)
{
    (void)arg;
    fs_test_random(buf, len);
    return 1;
}

static int failing_rng(void *arg, uint8_t *buf, size_t len)
{
    (void)arg; (void)buf; (void)len;
    return 0;
}

static const unsigned sizes[] = { 2048, 2056, 3072, 4096 };
#define NSIZES (sizeof(sizes) / sizeof(sizes[0]))
static rw_key *keys[NSIZES];

static rw_key *key_of(size_t i)
{
    if (keys[i] == NULL) {
        keys[i] = rw_key_new();
        /* 3072 through bits = 0: the default */
        int rc = rw_keygen(keys[i], sizes[i] == RW_DEFAULT_BITS ? 0 : sizes[i], test_rng, NULL);
        CU_ASSERT_EQUAL_FATAL(rc, FASTSIG_OK);
    }
    return keys[i];
}

static const int formats[] = { RW_FMT_COMPACT, RW_FMT_EXPANDED, RW_FMT_P1363_SHA1,
                               RW_FMT_P1363_SHA256 };
#define NFORMATS (sizeof(formats) / sizeof(formats[0]))

static uint8_t *sign_alloc(const rw_key *k, int fmt, const uint8_t *m, size_t mlen, size_t *len)
{
    CU_ASSERT_EQUAL(rw_sign(k, fmt, 0, m, mlen, NULL, len), FASTSIG_OK);
    uint8_t *sig = malloc(*len);
    CU_ASSERT_EQUAL(rw_sign(k, fmt, 0, m, mlen, sig, len), FASTSIG_OK);
    CU_ASSERT_EQUAL(*len, rw_sig_len(k, fmt));
    return sig;
}

static rw_key *key_from_hex(const char *n, const char *p, const char *q)
{
    size_t nl, pl, ql;
    uint8_t *nb = rwv_unhex(n, &nl), *pb = rwv_unhex(p, &pl), *qb = rwv_unhex(q, &ql);
    rw_key *k = rw_key_new();
    int rc = rw_key_set_private(k, nb, nl, pb, pl, qb, ql, NULL, 0);
    CU_ASSERT_EQUAL(rc, FASTSIG_OK);
    free(nb); free(pb); free(qb);
    if (rc != FASTSIG_OK) {
        rw_key_free(k);
        return NULL;
    }
    return k;
}

/* ---- Crypto++ vectors ---------------------------------------------------- */

/* All 24 stored signatures verify (from the Crypto++ file itself), with
 * both a private and a public-only key; a flipped message bit fails. */
static void test_cryptopp_verify(void)
{
    rwv_record *r;
    int n = rwv_load_txt(&r);
    CU_ASSERT_EQUAL_FATAL(n, 24);
    for (int i = 0; i < n; i++) {
        rw_key *k = key_from_hex(r[i].n, r[i].p, r[i].q);
        CU_ASSERT_PTR_NOT_NULL_FATAL(k);
        rw_key *pub = rw_key_new();
        size_t nl, ml, sl;
        uint8_t *nb = rwv_unhex(r[i].n, &nl), *m = rwv_unhex(r[i].msg, &ml),
                *s = rwv_unhex(r[i].sig, &sl);
        CU_ASSERT_EQUAL(rw_key_set_public(pub, nb, nl), FASTSIG_OK);
        CU_ASSERT_EQUAL(sl, rw_key_nbytes(k));
        CU_ASSERT_EQUAL(rw_verify(k, RW_FMT_P1363_SHA1, 0, m, ml, s, sl), FASTSIG_OK);
        CU_ASSERT_EQUAL(rw_verify(pub, RW_FMT_P1363_SHA1, 0, m, ml, s, sl), FASTSIG_OK);
        CU_ASSERT_EQUAL(rw_verify(pub, RW_FMT_P1363_SHA256, 0, m, ml, s, sl), FASTSIG_ERR_VERIFY);
        m[0] ^= 1;
        CU_ASSERT_EQUAL(rw_verify(pub, RW_FMT_P1363_SHA1, 0, m, ml, s, sl), FASTSIG_ERR_VERIFY);
        free(nb); free(m); free(s);
        rw_key_free(k);
        rw_key_free(pub);
    }
    rwv_free_txt(r, n);
}

/* Signing reproduces sig_p1363 byte for byte, with the listed tweaks; the
 * Crypto++ 5.1 roots in sig_vector verify too. Also through the prehashed
 * entry point (msg = SHA-1(M)). */
static void test_cryptopp_sign(void)
{
    rwv_derived *d;
    int n = rwv_load_json(&d);
    CU_ASSERT_EQUAL_FATAL(n, 24);
    int distinct = 0;
    for (int i = 0; i < n; i++) {
        rw_key *k = key_from_hex(d[i].n, d[i].p, d[i].q);
        CU_ASSERT_PTR_NOT_NULL_FATAL(k);
        CU_ASSERT_EQUAL(rw_key_bits(k), (unsigned)d[i].bits);
        size_t ml, wl, vl, ul, len = 0;
        uint8_t *m = rwv_unhex(d[i].msg, &ml), *want = rwv_unhex(d[i].sig_p1363, &wl),
                *vec = rwv_unhex(d[i].sig_vector, &vl), *u = rwv_unhex(d[i].u, &ul);
        uint8_t *sig = sign_alloc(k, RW_FMT_P1363_SHA1, m, ml, &len);
        CU_ASSERT_EQUAL(len, wl);
        CU_ASSERT(memcmp(sig, want, wl) == 0);
        CU_ASSERT_EQUAL(rw_verify(k, RW_FMT_P1363_SHA1, 0, m, ml, want, wl), FASTSIG_OK);
        CU_ASSERT_EQUAL(rw_verify(k, RW_FMT_P1363_SHA1, 0, m, ml, vec, vl), FASTSIG_OK);
        distinct += memcmp(vec, want, wl) != 0;
        /* CRT coefficient as in the file */
        uint8_t ubuf[512];
        size_t ulen = sizeof(ubuf);
        CU_ASSERT_EQUAL(rw_key_export(k, RW_COMP_U, ubuf, &ulen), FASTSIG_OK);
        CU_ASSERT(ulen == ul && memcmp(ubuf, u, ul) == 0);
        /* prehashed: SHA-1(M) given */
        uint8_t dig[20];
        extern void rw_sha1(uint8_t out[20], const uint8_t *in, size_t len);
        rw_sha1(dig, m, ml);
        len = wl;
        CU_ASSERT_EQUAL(rw_sign(k, RW_FMT_P1363_SHA1, RW_SIGN_PREHASHED, dig, 20, sig, &len),
                        FASTSIG_OK);
        CU_ASSERT(memcmp(sig, want, wl) == 0);
        CU_ASSERT_EQUAL(rw_verify(k, RW_FMT_P1363_SHA1, RW_SIGN_PREHASHED, dig, 20, sig, len),
                        FASTSIG_OK);
        CU_ASSERT_EQUAL(rw_sign(k, RW_FMT_P1363_SHA1, RW_SIGN_PREHASHED, dig, 19, sig, &len),
                        FASTSIG_ERR_BAD_LENGTH);
        free(m); free(want); free(vec); free(u); free(sig);
        rw_key_free(k);
    }
    CU_ASSERT_EQUAL(distinct, 12);   /* the header: 12 stored roots are not |principal| */
    rwv_free_json(d, n);
}

/* The RW formats on a vector key too (1024 bits is importable). */
static void test_small_key_rw_formats(void)
{
    rwv_derived *d;
    int n = rwv_load_json(&d);
    CU_ASSERT_EQUAL_FATAL(n, 24);
    rw_key *k = key_from_hex(d[0].n, d[0].p, d[0].q);
    CU_ASSERT_PTR_NOT_NULL_FATAL(k);
    for (int f = 0; f < 2; f++) {
        size_t len;
        uint8_t *sig = sign_alloc(k, formats[f], (const uint8_t *)"abc", 3, &len);
        CU_ASSERT_EQUAL(rw_verify(k, formats[f], 0, (const uint8_t *)"abc", 3, sig, len),
                        FASTSIG_OK);
        free(sig);
    }
    rw_key_free(k);
    rwv_free_json(d, n);
}

/* The FDH construction pinned against an independent computation (Python's
 * hashlib.shake_256 over the documented layout), on the 1024-bit (1 lane)
 * and 2048-bit (2 lanes) vector moduli; msg "abc" with r = 0, "abc" x 50
 * with r = 1. First and last 32 bytes of h. */
static void test_fdh_known_answer(void)
{
    static const struct { int idx, r; const char *head, *tail; } kat[] = {
        { 0, 0, "6b3c531329c5a52f97b3db6ef034062f7766e07deb9be4db2d1ed4f90d015cbe",
                "57e20c72029885a6379f55034faba1ed8d898b055a40e7921c676deb8fc193c3" },
        { 0, 1, "46395803aabd156104fe32f026b115147c81e8f85fc4195f4fa1f28dadc012a5",
                "946b3c7ffc537c1ec43473ec575f89de1fc894fc02523a2e3c0016009500faef" },
        { 18, 0, "7483b6e864ede76e8f0f6c71322703b7788947ce4d2054dbe2794587eed2f3a0",
                 "b7167655244a9739cc9558bab38d24f95ec3b8fed8cf7943d2697aaec9f83185" },
        { 18, 1, "6ae7d5101a3efc5a8b446f918e81bf2f948a141e82e29af0b1e340662dd76ed3",
                 "e531f760d9e466875c24f1809ee52aa7affebad34b1096a135805250a3f030ec" },
    };
    rwv_derived *d;
    int n = rwv_load_json(&d);
    CU_ASSERT_EQUAL_FATAL(n, 24);
    uint8_t msg[150];
    for (int i = 0; i < 50; i++)
        memcpy(msg + 3 * i, "abc", 3);
    for (size_t t = 0; t < sizeof(kat) / sizeof(kat[0]); t++) {
        size_t nl;
        uint8_t *nb = rwv_unhex(d[kat[t].idx].n, &nl), h[256], want[32];
        rw_key *k = rw_key_new();
        CU_ASSERT_EQUAL_FATAL(rw_key_set_public(k, nb, nl), FASTSIG_OK);
        mp_limb_t hl[40];
        rw_fdh(k, kat[t].r, msg, kat[t].r ? 150 : 3, hl);
        rw_to_be(h, nl, hl, mpz_size(k->n));
        CU_ASSERT(fs_unhex(kat[t].head, want, 32) == 0 && memcmp(h, want, 32) == 0);
        CU_ASSERT(fs_unhex(kat[t].tail, want, 32) == 0 && memcmp(h + nl - 32, want, 32) == 0);
        rw_key_free(k);
        free(nb);
    }
    rwv_free_json(d, n);
}

/* The lane machinery of rw_fdh (shared stream xored into 1, 2 or 8-lane
 * states, block ends, the lane index filling a block) against the documented
 * layout through the one-message portable SHAKE256, for message lengths
 * around every boundary, on every generated key size. */
static void test_fdh_layout(void)
{
    static const char dom[] = "FASTSIG-RW-H-v1";
    uint8_t msg[420], in[sizeof(dom) - 1 + 32 + 1 + sizeof(msg) + 1], want[5 * 136], got[600];
    mp_limb_t h[300];
    fs_test_random(msg, sizeof(msg));
    for (size_t i = 0; i < NSIZES; i++) {
        rw_key *k = key_of(i);
        size_t nb = rw_key_nbytes(k), nl = mpz_size(k->n);
        for (size_t len = 0; len <= sizeof(msg); len += len < 100 ? 1 : 37) {
            int r = (int)(len & 1);
            size_t p = 0;
            memcpy(in, dom, sizeof(dom) - 1);
            p += sizeof(dom) - 1;
            memcpy(in + p, k->kid, 32);
            p += 32;
            in[p++] = (uint8_t)r;
            memcpy(in + p, msg, len);
            p += len;
            for (unsigned j = 0; 136 * j < nb; j++) {
                in[p] = (uint8_t)j;
                fs_shake256(want + 136 * j, 136, in, p + 1);
            }
            want[0] &= 0x7f;
            rw_fdh(k, r, msg, len, h);
            rw_to_be(got, nb, h, nl);
            if (memcmp(got, want, nb) != 0) {
                fprintf(stderr, "fdh differs: %u bits, message length %zu\n", rw_key_bits(k), len);
                CU_FAIL("fdh layout");
                return;
            }
        }
    }
}

/* ---- round trips ------------------------------------------------------- */

static void test_round_trips(void)
{
    uint8_t msg[300];
    fs_test_random(msg, sizeof(msg));
    static const size_t lens[] = { 0, 1, 135, 136, 137, 300 };   /* around the SHAKE rate */
    for (size_t i = 0; i < NSIZES; i++) {
        rw_key *k = key_of(i);
        CU_ASSERT_EQUAL(rw_key_bits(k), sizes[i]);
        CU_ASSERT_EQUAL(rw_key_nbytes(k), sizes[i] / 8);
        for (size_t f = 0; f < NFORMATS; f++) {
            for (size_t l = 0; l < sizeof(lens) / sizeof(lens[0]); l++) {
                size_t len;
                uint8_t *sig = sign_alloc(k, formats[f], msg, lens[l], &len);
                CU_ASSERT_EQUAL(rw_verify(k, formats[f], 0, msg, lens[l], sig, len), FASTSIG_OK);
                if (formats[f] == RW_FMT_EXPANDED)
                    CU_ASSERT_EQUAL(rw_verify(k, formats[f], RW_VERIFY_PROBABILISTIC, msg,
                                              lens[l], sig, len), FASTSIG_OK);
                /* deterministic */
                size_t len2;
                uint8_t *again = sign_alloc(k, formats[f], msg, lens[l], &len2);
                CU_ASSERT(len == len2 && memcmp(sig, again, len) == 0);
                free(again);
                free(sig);
            }
        }
    }
}

/* Every message length from 0 to 150 bytes at 2048 bits: the probabilistic
 * verification hashes one-block inputs (up to 86 bytes) in registers on its
 * own path (rw_fdh_dot), longer ones through the sponge; signing always
 * takes rw_fdh. A changed byte of the message is refused at every length. */
static void test_prob_lengths(void)
{
    rw_key *k = key_of(0);
    CU_ASSERT_EQUAL_FATAL(rw_key_bits(k), 2048);
    uint8_t msg[151];
    fs_test_random(msg, sizeof(msg));
    int bad = 0;
    for (size_t l = 0; l <= 150; l++) {
        size_t len;
        uint8_t *sig = sign_alloc(k, RW_FMT_EXPANDED, msg, l, &len);
        if (rw_verify(k, RW_FMT_EXPANDED, RW_VERIFY_PROBABILISTIC, msg, l, sig, len) != FASTSIG_OK &&
            bad++ < 5)
            fprintf(stderr, "prob verify refused length %zu\n", l);
        if (l > 0) {
            msg[l - 1] ^= 0x40;
            if (rw_verify(k, RW_FMT_EXPANDED, RW_VERIFY_PROBABILISTIC, msg, l, sig, len) !=
                    FASTSIG_ERR_VERIFY && bad++ < 5)
                fprintf(stderr, "prob verify took a changed message of length %zu\n", l);
            msg[l - 1] ^= 0x40;
        }
        free(sig);
    }
    CU_ASSERT_EQUAL(bad, 0);
}

/* Over many messages every tweak combination and both randomizer bits
 * appear, and compact and expanded agree on s and T. */
static void test_tweaks_cover(void)
{
    rw_key *k = key_of(0);
    unsigned seen = 0;
    for (int i = 0; i < 64; i++) {
        uint8_t m[8];
        memcpy(m, &i, sizeof(i));
        size_t lc, le;
        uint8_t *c = sign_alloc(k, RW_FMT_COMPACT, m, sizeof(m), &lc);
        uint8_t *e = sign_alloc(k, RW_FMT_EXPANDED, m, sizeof(m), &le);
        size_t nb = rw_key_nbytes(k);
        CU_ASSERT(memcmp(c, e, nb) == 0 && c[nb] == e[2 * nb]);
        CU_ASSERT((c[nb] & ~7u) == 0);
        seen |= 1u << c[nb];
        free(c);
        free(e);
    }
    CU_ASSERT_EQUAL(seen, 0xffu);
}

/* ---- tampering and malformed signatures --------------------------------- */

static void expect_reject(const rw_key *k, int fmt, unsigned flags, const uint8_t *m, size_t ml,
                          const uint8_t *sig, size_t len)
{
    int rc = rw_verify(k, fmt, flags, m, ml, sig, len);
    CU_ASSERT(rc == FASTSIG_ERR_VERIFY || rc == FASTSIG_ERR_BAD_SIGNATURE);
}

static void test_tamper(void)
{
    static const uint8_t msg[] = "tamper with me";
    for (size_t i = 0; i < NSIZES; i += 3) {   /* 2048 and 4096 */
        rw_key *k = key_of(i);
        for (size_t f = 0; f < NFORMATS; f++) {
            size_t len;
            uint8_t *sig = sign_alloc(k, formats[f], msg, sizeof(msg), &len);
            unsigned vflags[2] = { 0, RW_VERIFY_PROBABILISTIC };
            int nv = formats[f] == RW_FMT_EXPANDED ? 2 : 1;
            for (int v = 0; v < nv; v++) {
                /* every byte position (s, k and the tweak byte), one bit each */
                for (size_t b = 0; b < len; b++) {
                    uint8_t bit = (uint8_t)(1u << (b % 8));
                    sig[b] ^= bit;
                    expect_reject(k, formats[f], vflags[v], msg, sizeof(msg), sig, len);
                    sig[b] ^= bit;
                }
                /* the message */
                uint8_t m2[sizeof(msg)];
                memcpy(m2, msg, sizeof(msg));
                m2[3] ^= 0x10;
                expect_reject(k, formats[f], vflags[v], m2, sizeof(m2), sig, len);
                expect_reject(k, formats[f], vflags[v], msg, sizeof(msg) - 1, sig, len);
                CU_ASSERT_EQUAL(rw_verify(k, formats[f], vflags[v], msg, sizeof(msg), sig, len),
                                FASTSIG_OK);
            }
            free(sig);
        }
    }
}

/* Lengths, trailing bytes, s = 0, s = (n+1)/2, s >= n, k >= n, reserved bits. */
static void test_malformed(void)
{
    rw_key *k = key_of(0);
    size_t nb = rw_key_nbytes(k);
    static const uint8_t msg[] = "m";
    uint8_t nbytes[512];
    size_t nl = sizeof(nbytes);
    CU_ASSERT_EQUAL_FATAL(rw_key_export(k, RW_COMP_N, nbytes, &nl), FASTSIG_OK);
    CU_ASSERT_EQUAL_FATAL(nl, nb);
    /* (n+1)/2: smallest out-of-range s */
    mpz_t z;
    mpz_init(z);
    mpz_import(z, nb, 1, 1, 1, 0, nbytes);
    mpz_add_ui(z, z, 1);
    mpz_tdiv_q_2exp(z, z, 1);
    uint8_t half[512];
    rw_mpz_to_be(half, nb, z);
    mpz_sub_ui(z, z, 1);
    uint8_t top[512];               /* (n-1)/2: the largest allowed s */
    rw_mpz_to_be(top, nb, z);
    mpz_clear(z);
    for (size_t f = 0; f < NFORMATS; f++) {
        size_t len;
        uint8_t *sig = sign_alloc(k, formats[f], msg, 1, &len);
        uint8_t *big = calloc(1, len + 1);
        memcpy(big, sig, len);
        CU_ASSERT_EQUAL(rw_verify(k, formats[f], 0, msg, 1, big, len + 1), FASTSIG_ERR_BAD_SIGNATURE);
        CU_ASSERT_EQUAL(rw_verify(k, formats[f], 0, msg, 1, sig, len - 1), FASTSIG_ERR_BAD_SIGNATURE);
        CU_ASSERT_EQUAL(rw_verify(k, formats[f], 0, msg, 1, sig, 0), FASTSIG_ERR_BAD_SIGNATURE);
        uint8_t *bad = malloc(len);
        /* each check with the exact and (where the format takes it) the
         * probabilistic verification, whose path reads s and k in place */
        for (int pf = 0; pf < (formats[f] <= RW_FMT_EXPANDED ? 2 : 1); pf++) {
            unsigned vf = pf ? RW_VERIFY_PROBABILISTIC : 0;
            const uint8_t *s_vals[3] = { NULL, half, nbytes };
            for (int v = 0; v < 3; v++) {
                memcpy(bad, sig, len);
                if (s_vals[v] == NULL)
                    memset(bad, 0, nb);
                else
                    memcpy(bad, s_vals[v], nb);
                CU_ASSERT_EQUAL(rw_verify(k, formats[f], vf, msg, 1, bad, len),
                                FASTSIG_ERR_BAD_SIGNATURE);
            }
            memcpy(bad, sig, len);
            memcpy(bad, top, nb);     /* in range, wrong */
            CU_ASSERT_EQUAL(rw_verify(k, formats[f], vf, msg, 1, bad, len), FASTSIG_ERR_VERIFY);
            if (formats[f] == RW_FMT_EXPANDED) {
                memcpy(bad, sig, len);
                memcpy(bad + nb, nbytes, nb);    /* k = n */
                CU_ASSERT_EQUAL(rw_verify(k, formats[f], vf, msg, 1, bad, len),
                                FASTSIG_ERR_BAD_SIGNATURE);
                bad[2 * nb - 1]--;               /* k = n - 1: in range, wrong */
                CU_ASSERT_EQUAL(rw_verify(k, formats[f], vf, msg, 1, bad, len), FASTSIG_ERR_VERIFY);
                memcpy(bad, sig, len);
                memset(bad + nb, 0xff, nb);      /* k > n */
                CU_ASSERT_EQUAL(rw_verify(k, formats[f], vf, msg, 1, bad, len),
                                FASTSIG_ERR_BAD_SIGNATURE);
                memset(bad + nb, 0, nb);         /* k = 0: in range, wrong */
                CU_ASSERT_EQUAL(rw_verify(k, formats[f], vf, msg, 1, bad, len), FASTSIG_ERR_VERIFY);
            }
            if (formats[f] <= RW_FMT_EXPANDED) {
                for (int b = 3; b < 8; b++) {
                    memcpy(bad, sig, len);
                    bad[len - 1] ^= (uint8_t)(1u << b);
                    CU_ASSERT_EQUAL(rw_verify(k, formats[f], vf, msg, 1, bad, len),
                                    FASTSIG_ERR_BAD_SIGNATURE);
                }
            }
        }
        /* flags that do not belong to the format; probabilistic is a no-op on compact */
        unsigned wrong = formats[f] <= RW_FMT_EXPANDED ? RW_SIGN_PREHASHED : RW_VERIFY_PROBABILISTIC;
        CU_ASSERT_EQUAL(rw_verify(k, formats[f], wrong, msg, 1, sig, len), FASTSIG_ERR_BAD_PARAM);
        CU_ASSERT_EQUAL(rw_verify(k, formats[f], 0x80, msg, 1, sig, len), FASTSIG_ERR_BAD_PARAM);
        if (formats[f] == RW_FMT_COMPACT)
            CU_ASSERT_EQUAL(rw_verify(k, formats[f], RW_VERIFY_PROBABILISTIC, msg, 1, sig, len),
                            FASTSIG_OK);
        /* short output buffer */
        size_t small = len - 1;
        CU_ASSERT_EQUAL(rw_sign(k, formats[f], 0, msg, 1, bad, &small), FASTSIG_ERR_BAD_LENGTH);
        free(bad);
        free(big);
        free(sig);
    }
    size_t len = 100;
    uint8_t buf[100];
    CU_ASSERT_EQUAL(rw_sign(k, 9, 0, msg, 1, buf, &len), FASTSIG_ERR_BAD_PARAM);
    CU_ASSERT_EQUAL(rw_verify(k, 9, 0, msg, 1, buf, len), FASTSIG_ERR_BAD_PARAM);
    CU_ASSERT_EQUAL(rw_sign(k, RW_FMT_COMPACT, RW_SIGN_PREHASHED, msg, 1, buf, &len),
                    FASTSIG_ERR_BAD_PARAM);
    CU_ASSERT_EQUAL(rw_sig_max_len(2048), 513u);
}

/* A public-only key verifies but cannot sign. */
static void test_public_only(void)
{
    rw_key *k = key_of(0), *pub = rw_key_new();
    uint8_t enc[512];
    size_t el = sizeof(enc), len;
    CU_ASSERT_EQUAL(rw_key_encode_public(k, enc, &el), FASTSIG_OK);
    CU_ASSERT_EQUAL(rw_key_decode_public(pub, enc, el), FASTSIG_OK);
    CU_ASSERT(!rw_key_has_private(pub) && rw_key_has_public(pub));
    CU_ASSERT(rw_key_eq(k, pub, 1));
    uint8_t *sig = sign_alloc(k, RW_FMT_COMPACT, enc, 5, &len);
    CU_ASSERT_EQUAL(rw_verify(pub, RW_FMT_COMPACT, 0, enc, 5, sig, len), FASTSIG_OK);
    CU_ASSERT_EQUAL(rw_sign(pub, RW_FMT_COMPACT, 0, enc, 5, sig, &len), FASTSIG_ERR_BAD_KEY);
    el = sizeof(enc);
    CU_ASSERT_EQUAL(rw_key_encode_private(pub, enc, &el), FASTSIG_ERR_BAD_KEY);
    CU_ASSERT_EQUAL(rw_key_export(pub, RW_COMP_P, enc, &el), FASTSIG_ERR_BAD_KEY);
    free(sig);
    rw_key_free(pub);
}

/* ---- RW's kernel rows against their GMP twins ---------------------------- */

/* The rows of t that this CPU path allows, named on stdout (the per-CPU
 * runs list what they test); the twin (row 0) first. */
static size_t rows_allowed(const fs_kernel_table *t, const fs_kernel *out[], size_t max)
{
    size_t n = 0;
    printf("[%s rows:", t->name);
    for (const fs_kernel *k = t->rows; k->name != NULL && n < max; k++)
        if (fs_kernel_usable(k, fs_cpu_features(), 0)) {
            printf(" %s", k->name);
            out[n++] = k;
        }
    printf("] ");
    CU_ASSERT(n >= 1 && out[0] == &t->rows[0]);   /* the twin is always allowed */
    return n;
}

/* rw_root on every allowed rw-powm2 row against the "gmp" twin for edge and
 * random h: same s, e, f; and s^2 checks; every allowed rw-check row
 * against its twin on every tweak. */
static void test_ifma_vs_gmp(void)
{
    const fs_kernel *pw[4], *ck[4];
    size_t npw = rows_allowed(&rw_powm2_table, pw, 4), nck = rows_allowed(&rw_check_table, ck, 4);
    for (size_t i = 0; i < NSIZES; i++) {
        rw_key *k = key_of(i);
        if (rw_ifma_usable())
            CU_ASSERT_PTR_NOT_NULL(k->mont);   /* balanced keys get the IFMA contexts */
        size_t nn = mpz_size(k->n);
        mp_limb_t h[300], s1[300], s2[300];
        for (int t = 0; t < 12; t++) {
            mpz_t z;
            mpz_init(z);
            if (t == 0)
                mpz_set_ui(z, 1);
            else if (t == 1)
                mpz_sub_ui(z, k->n, 1);            /* n - 1 */
            else if (t == 2)
                mpz_sub_ui(z, k->p, 1);            /* p - 1 (nonzero mod p and q) */
            else if (t == 3) {
                mpz_setbit(z, rw_key_bits(k) - 1); /* 2^(bits-1) - 1: all ones */
                mpz_sub_ui(z, z, 1);
            } else {
                uint8_t r[600];
                fs_test_random(r, rw_key_nbytes(k));
                mpz_import(z, rw_key_nbytes(k), 1, 1, 1, 0, r);
                mpz_mod(z, z, k->n);
            }
            memset(h, 0, sizeof(h));
            memcpy(h, mpz_limbs_read(z), mpz_size(z) * sizeof(mp_limb_t));
            int e1, f1, e2, f2;
            CU_ASSERT_EQUAL(rw_root_with(pw[0], k, h, s1, &e1, &f1), FASTSIG_OK);
            for (size_t r = 1; r < npw; r++) {
                CU_ASSERT_EQUAL(rw_root_with(pw[r], k, h, s2, &e2, &f2), FASTSIG_OK);
                CU_ASSERT(e1 == e2 && f1 == f2 && memcmp(s1, s2, nn * sizeof(mp_limb_t)) == 0);
            }
            /* every check row agrees with the twin's division on every tweak */
            mp_limb_t q[300];
            for (size_t r = 0; r < nck; r++) {
                for (int e = -1; e <= 1; e += 2)
                    for (int f = 1; f <= 2; f++)
                        CU_ASSERT_EQUAL(rw_check_square(ck[r])(k, s1, h, e, f),
                                        rw_quotient(k, s1, h, e, f, q));
                CU_ASSERT(rw_check_square(ck[r])(k, s1, h, e1, f1));
                /* the exact expanded check: the right k passes, k + 1 and other tweaks fail */
                CU_ASSERT_FATAL(rw_quotient(k, s1, h, e1, f1, q));
                CU_ASSERT(rw_check_expanded(ck[r])(k, s1, q, h, e1, f1));
                CU_ASSERT(!rw_check_expanded(ck[r])(k, s1, q, h, -e1, f1));
                CU_ASSERT(!rw_check_expanded(ck[r])(k, s1, q, h, e1, 3 - f1));
                mpn_add_1(q, q, (mp_size_t)nn, 1);
                CU_ASSERT(!rw_check_expanded(ck[r])(k, s1, q, h, e1, f1));
            }
            /* e*f*s^2 = h (mod n) */
            mpz_t s, c;
            mpz_inits(s, c, NULL);
            mpz_import(s, nn, -1, sizeof(mp_limb_t), 0, 0, s1);
            mpz_mul(c, s, s);
            mpz_mul_si(c, c, e1 * f1);
            mpz_sub(c, c, z);
            CU_ASSERT(mpz_divisible_p(c, k->n));
            mpz_clears(s, c, z, NULL);
        }
    }
}

/* Every allowed rw-from-be row against the twin: every limb count up to 70
 * and byte lengths around it (a partial top limb, zero fill), random and
 * all-ones bytes. */
static void test_from_be_rows(void)
{
    const fs_kernel *rows[4];
    size_t nrows = rows_allowed(&rw_from_be_table, rows, 4);
    uint8_t in[8 * 70];
    mp_limb_t want[72], got[72];
    for (int t = 0; t < 2; t++) {
        if (t == 0)
            fs_test_random(in, sizeof(in));
        else
            memset(in, 0xff, sizeof(in));
        for (size_t nl = 1; nl <= 70; nl++)
            for (size_t blen = 8 * nl - (nl > 1 ? 9 : 7); blen <= 8 * nl; blen++) {
                memset(want, 0xa5, sizeof(want));
                rw_from_be_with(rows[0], want, nl, in, blen);
                for (size_t r = 1; r < nrows; r++) {
                    memset(got, 0xa5, sizeof(got));
                    rw_from_be_with(rows[r], got, nl, in, blen);
                    CU_ASSERT(memcmp(got, want, sizeof(got)) == 0);
                }
            }
    }
    /* the twin itself: 0x0102..: limb 0 holds the last eight bytes */
    uint8_t b[9] = { 9, 8, 7, 6, 5, 4, 3, 2, 1 };
    rw_from_be_with(rows[0], want, 3, b, sizeof(b));
    CU_ASSERT(want[0] == 0x0807060504030201ull && want[1] == 9 && want[2] == 0);
}

/* ---- the probabilistic check: IFMA residues against the portable ones ---- */

/* x * 2^-64 mod the secret primes on both paths, for edge and random x of
 * every limb count the checks can see (up to RW_MAX_BITS); then expanded
 * signatures verify (and a k off by one fails) probabilistically on both. */
static void test_prob_paths(void)
{
    enum { MAXN = RW_MAX_BITS / 64 + 1 };
    static const size_t counts[] = { 1, 3, 7, 8, 9, 16, 32, 33, 48, 64, MAXN - 1, MAXN };
    mp_limb_t x[MAXN] = { 0 };
    uint64_t a[2], b[2];
    const fs_kernel *rows[4], *twin = &rw_residues_table.rows[0];
    size_t nrows = rows_allowed(&rw_residues_table, rows, 4);
    CU_ASSERT_FATAL(rw_prob_residues_test(twin, x, 0, a) == 0);
    for (size_t c = 0; c < sizeof(counts) / sizeof(counts[0]); c++) {
        size_t nn = counts[c];
        for (int t = 0; t < 8; t++) {
            if (t < 3)
                memset(x, t == 0 ? 0 : t == 1 ? 0xff : 0x80, sizeof(x));
            else
                fs_test_random((uint8_t *)x, sizeof(x));
            CU_ASSERT_FATAL(rw_prob_residues_test(twin, x, nn, a) == 1);
            if (t == 0)
                CU_ASSERT(a[0] == 0 && a[1] == 0);
            for (size_t r = 1; r < nrows; r++) {
                CU_ASSERT_FATAL(rw_prob_residues_test(rows[r], x, nn, b) == 1);
                CU_ASSERT(a[0] == b[0] && a[1] == b[1]);
            }
        }
    }
    /* different numbers give different residues (the primes are not 1) */
    memset(x, 0, sizeof(x));
    x[0] = 1;
    CU_ASSERT(rw_prob_residues_test(twin, x, 32, a) == 1 && a[0] != 0 && a[1] != 0);
    uint8_t msg[40], sig[1100];
    fs_test_random(msg, sizeof(msg));
    for (size_t i = 0; i < NSIZES; i++) {
        rw_key *k = key_of(i);
        size_t len = sizeof(sig), nb = rw_key_nbytes(k);
        CU_ASSERT_FATAL(rw_sign(k, RW_FMT_EXPANDED, 0, msg, sizeof(msg), sig, &len) == FASTSIG_OK);
        CU_ASSERT_EQUAL(rw_verify(k, RW_FMT_EXPANDED, RW_VERIFY_PROBABILISTIC, msg,
                                  sizeof(msg), sig, len), FASTSIG_OK);
        sig[2 * nb - 1] ^= 1;                  /* k + 1 or k - 1 */
        CU_ASSERT_EQUAL(rw_verify(k, RW_FMT_EXPANDED, RW_VERIFY_PROBABILISTIC, msg,
                                  sizeof(msg), sig, len), FASTSIG_ERR_VERIFY);
        sig[2 * nb - 1] ^= 1;
    }
}

/* The exact expanded check on crafted differences: for random s < n/2 and a
 * chosen delta, h = (f s^2 - delta) mod n and q = (f s^2 - delta) div n make
 * f s^2 - h - q n = delta exactly; the check must pass iff delta = 0 (deltas
 * around limb boundaries, carry runs of both signs, random ones). */
static void test_exact_check_deltas(void)
{
    for (size_t i = 0; i < NSIZES; i++) {
        rw_key *k = key_of(i);
        if (k->nmont == NULL)
            continue;
        size_t nn = mpz_size(k->n);
        unsigned L = k->nmont->L;
        mpz_t s, t, q, h, d;
        mpz_inits(s, t, q, h, d, NULL);
        for (int c = 0; c < 4 * (int)L + 40; c++) {
            uint8_t r[600];
            fs_test_random(r, rw_key_nbytes(k));
            mpz_import(s, rw_key_nbytes(k), 1, 1, 1, 0, r);
            mpz_tdiv_q_2exp(t, k->n, 1);
            mpz_mod(s, s, t);                       /* s < n/2 */
            int f = 1 + (c & 1);
            unsigned pos = (unsigned)c / 4 % (2 * L + 1), kind = (unsigned)c % 4;
            if (c < 8)
                mpz_set_si(d, c % 2 ? 0 : (c < 4 ? 1 : -1));
            else if (c >= 4 * (int)L + 32) {        /* random deltas below n */
                fs_test_random(r, rw_key_nbytes(k));
                mpz_import(d, rw_key_nbytes(k), 1, 1, 1, 0, r);
                mpz_mod(d, d, k->n);
                if (c & 2)
                    mpz_neg(d, d);
            } else {                                /* +-2^(52 pos), +-(2^(52 pos) - 1) */
                mpz_set_ui(d, 0);
                mpz_setbit(d, 52 * pos);
                if (kind & 2)
                    mpz_sub_ui(d, d, 1);
                if (kind & 1)
                    mpz_neg(d, d);
            }
            mpz_mul(t, s, s);
            mpz_mul_ui(t, t, (unsigned long)f);
            mpz_sub(t, t, d);                       /* f s^2 - delta = q n + h */
            if (mpz_sgn(t) < 0)
                continue;
            mpz_fdiv_qr(q, h, t, k->n);
            if (mpz_size(q) > nn)
                continue;
            mp_limb_t sl[64] = { 0 }, ql[64] = { 0 }, hl[64] = { 0 };
            mpz_export(sl, NULL, -1, sizeof(mp_limb_t), 0, 0, s);
            mpz_export(ql, NULL, -1, sizeof(mp_limb_t), 0, 0, q);
            mpz_export(hl, NULL, -1, sizeof(mp_limb_t), 0, 0, h);
            int got = rw_ifma_check_expanded(k->nmont, sl, ql, hl, nn, 1, f);
            if (got != (mpz_sgn(d) == 0)) {
                fprintf(stderr, "exact check: %u bits, case %d: got %d\n", rw_key_bits(k), c, got);
                CU_FAIL("exact check on a crafted difference");
                break;
            }
        }
        mpz_clears(s, t, q, h, d, NULL);
    }
}

/* ---- the fault check ---------------------------------------------------- */

static void test_fault_injection(void)
{
    for (size_t f = 0; f < NFORMATS; f++) {
        rw_key *k = key_of(0);
        uint8_t sig[600];
        memset(sig, 0xa5, sizeof(sig));
        size_t len = sizeof(sig);
        rw_test_inject_fault = 1;
        int rc = rw_sign(k, formats[f], 0, (const uint8_t *)"x", 1, sig, &len);
        rw_test_inject_fault = 0;
        CU_ASSERT_EQUAL(rc, FASTSIG_ERR_FAULT);
        int untouched = 1;
        for (size_t i = 0; i < sizeof(sig); i++)
            untouched &= sig[i] == 0xa5;
        CU_ASSERT(untouched);     /* no signature bytes escaped */
        len = sizeof(sig);
        CU_ASSERT_EQUAL(rw_sign(k, formats[f], 0, (const uint8_t *)"x", 1, sig, &len), FASTSIG_OK);
    }
}

/* ---- keys: generation, validation, encodings ---------------------------- */

static void test_keygen_params(void)
{
    rw_key *k = rw_key_new();
    CU_ASSERT_EQUAL(rw_keygen(k, 2047, test_rng, NULL), FASTSIG_ERR_BAD_PARAM);
    CU_ASSERT_EQUAL(rw_keygen(k, 1024, test_rng, NULL), FASTSIG_ERR_BAD_PARAM);
    CU_ASSERT_EQUAL(rw_keygen(k, RW_MAX_BITS + 8, test_rng, NULL), FASTSIG_ERR_BAD_PARAM);
    CU_ASSERT_EQUAL(rw_keygen(k, 2048, failing_rng, NULL), FASTSIG_ERR_RNG);
    CU_ASSERT_EQUAL(rw_keygen(k, 2048, NULL, NULL), FASTSIG_ERR_NULL_ARG);
    CU_ASSERT(!rw_key_has_public(k));
    rw_key_free(k);
    for (size_t i = 0; i < NSIZES; i++) {
        rw_key *g = key_of(i);
        CU_ASSERT_EQUAL(rw_key_check(g), FASTSIG_OK);
        uint8_t p[1024], q[1024];
        size_t pl = sizeof(p), ql = sizeof(q);
        CU_ASSERT_EQUAL(rw_key_export(g, RW_COMP_P, p, &pl), FASTSIG_OK);
        CU_ASSERT_EQUAL(rw_key_export(g, RW_COMP_Q, q, &ql), FASTSIG_OK);
        CU_ASSERT_EQUAL(p[pl - 1] & 7, 3);
        CU_ASSERT_EQUAL(q[ql - 1] & 7, 7);
        CU_ASSERT_EQUAL(pl * 8, sizes[i] / 2 + (sizes[i] / 2 % 8 ? 8 - sizes[i] / 2 % 8 : 0));
        CU_ASSERT(p[0] >= 0xc0 || sizes[i] / 2 % 8 != 0);   /* top two bits set */
    }
    CU_ASSERT_EQUAL(rw_key_security_bits(key_of(0)), 112);
    CU_ASSERT_EQUAL(rw_key_security_bits(key_of(2)), 128);
}

static int set_priv(rw_key *k, const mpz_t p, const mpz_t q)
{
    uint8_t pb[1024], qb[1024];
    size_t pl = (rw_bitlen(p) + 7) / 8, ql = (rw_bitlen(q) + 7) / 8;
    rw_mpz_to_be(pb, pl, p);
    rw_mpz_to_be(qb, ql, q);
    return rw_key_set_private(k, NULL, 0, pb, pl, qb, ql, NULL, 0);
}

/* A composite c = a*b = residue (mod 8) of `bits` bits (a = 1 mod 8, b
 * prime of the residue) such that c * other has exactly nbits bits. */
static void make_composite(mpz_t c, unsigned residue, unsigned bits, const mpz_t other,
                           unsigned nbits, gmp_randstate_t rs)
{
    mpz_t a, b, n;
    mpz_inits(a, b, n, NULL);
    do {
        mpz_t *f[2] = { &a, &b };
        for (int i = 0; i < 2; i++) {
            do {
                mpz_urandomb(*f[i], rs, bits / 2);
                mpz_setbit(*f[i], bits / 2 - 1);
                mpz_setbit(*f[i], bits / 2 - 2);
                mpz_nextprime(*f[i], *f[i]);
            } while (mpz_fdiv_ui(*f[i], 8) != (i == 0 ? 1 : residue));
        }
        mpz_mul(c, a, b);
        mpz_mul(n, c, other);
    } while (rw_bitlen(n) != nbits);
    mpz_clears(a, b, n, NULL);
}

static void test_key_validation(void)
{
    rw_key *g = key_of(0), *k = rw_key_new();
    CU_ASSERT_EQUAL(set_priv(k, g->p, g->q), FASTSIG_OK);
    CU_ASSERT(rw_key_eq(k, g, 0));
    CU_ASSERT(!rw_key_eq(k, g, 1));   /* prf derived, not the generated one */
    CU_ASSERT_EQUAL(set_priv(k, g->p, g->p), FASTSIG_ERR_BAD_KEY);   /* p = q */
    CU_ASSERT_EQUAL(set_priv(k, g->q, g->p), FASTSIG_ERR_BAD_KEY);   /* p = 7, q = 3 mod 8 */
    /* composite factors with every other property right */
    gmp_randstate_t rs;
    gmp_randinit_default(rs);
    mpz_t c;
    mpz_init(c);
    make_composite(c, 3, 1024, g->q, 2048, rs);
    CU_ASSERT_EQUAL(set_priv(k, c, g->q), FASTSIG_ERR_BAD_KEY);
    make_composite(c, 7, 1024, g->p, 2048, rs);
    CU_ASSERT_EQUAL(set_priv(k, g->p, c), FASTSIG_ERR_BAD_KEY);
    CU_ASSERT(rw_key_eq(k, g, 0));   /* failed imports left k unchanged */
    /* an n that is not p*q; a prf of the wrong length */
    uint8_t nb[256], pb[128], qb[128], prf[31] = { 0 };
    size_t nl = sizeof(nb), pl = sizeof(pb), ql = sizeof(qb);
    rw_key_export(g, RW_COMP_N, nb, &nl);
    rw_key_export(g, RW_COMP_P, pb, &pl);
    rw_key_export(g, RW_COMP_Q, qb, &ql);
    CU_ASSERT_EQUAL(rw_key_set_private(k, nb, nl, pb, pl, qb, ql, NULL, 0), FASTSIG_OK);
    nb[nl - 1] ^= 8;
    CU_ASSERT_EQUAL(rw_key_set_private(k, nb, nl, pb, pl, qb, ql, NULL, 0), FASTSIG_ERR_BAD_KEY);
    nb[nl - 1] ^= 8;
    CU_ASSERT_EQUAL(rw_key_set_private(k, NULL, 0, pb, pl, qb, ql, prf, 31), FASTSIG_ERR_BAD_LENGTH);
    /* public keys: n+1 (even), n+4 (= 1 mod 8), p^2 (square), 3n (small factor), short */
    rw_key *pub = rw_key_new();
    mpz_t n, b;
    mpz_inits(n, b, NULL);
    mpz_import(n, nl, 1, 1, 1, 0, nb);
    uint8_t tb[512];   /* 3n has one byte more than n */
    for (int i = 0; i < 4; i++) {
        if (i < 2) {
            mpz_add_ui(b, n, i == 0 ? 1 : 4);
        } else if (i == 2) {
            mpz_mul(b, g->p, g->p);       /* a square (squares are 1 mod 8) */
        } else {
            mpz_mul_ui(b, n, 3);          /* 3 n: has the factor 3 */
        }
        size_t bl = (rw_bitlen(b) + 7) / 8;
        rw_mpz_to_be(tb, bl, b);
        CU_ASSERT_EQUAL(rw_key_set_public(pub, tb, bl), FASTSIG_ERR_BAD_KEY);
    }
    CU_ASSERT_EQUAL(rw_key_set_public(pub, nb, 120), FASTSIG_ERR_BAD_KEY);   /* 960 bits */
    CU_ASSERT_EQUAL(rw_key_set_public(pub, nb, nl), FASTSIG_OK);
    mpz_clears(n, b, c, NULL);
    gmp_randclear(rs);
    rw_key_free(pub);
    rw_key_free(k);
}

static void test_encodings(void)
{
    for (size_t i = 0; i < NSIZES; i++) {
        rw_key *g = key_of(i), *k = rw_key_new();
        size_t len = 0;
        CU_ASSERT_EQUAL(rw_key_encode_private(g, NULL, &len), FASTSIG_OK);
        uint8_t *enc = malloc(len + 1);
        CU_ASSERT_EQUAL(rw_key_encode_private(g, enc, &len), FASTSIG_OK);
        CU_ASSERT_EQUAL(enc[0], 1);
        CU_ASSERT_EQUAL(rw_key_decode_private(k, enc, len), FASTSIG_OK);
        CU_ASSERT(rw_key_eq(k, g, 1));
        /* same signatures from the decoded key */
        size_t l1, l2;
        uint8_t *s1 = sign_alloc(g, RW_FMT_COMPACT, enc, 10, &l1);
        uint8_t *s2 = sign_alloc(k, RW_FMT_COMPACT, enc, 10, &l2);
        CU_ASSERT(l1 == l2 && memcmp(s1, s2, l1) == 0);
        free(s1); free(s2);
        /* dup */
        rw_key *d = rw_key_dup(g);
        CU_ASSERT(rw_key_eq(d, g, 1));
        rw_key_free(d);
        /* trailing byte, truncation, bad version, leading zero in p */
        enc[len] = 0;
        CU_ASSERT_EQUAL(rw_key_decode_private(k, enc, len + 1), FASTSIG_ERR_BAD_KEY);
        CU_ASSERT_EQUAL(rw_key_decode_private(k, enc, len - 1), FASTSIG_ERR_BAD_KEY);
        CU_ASSERT_EQUAL(rw_key_decode_private(k, enc, 10), FASTSIG_ERR_BAD_KEY);
        enc[0] = 2;
        CU_ASSERT_EQUAL(rw_key_decode_private(k, enc, len), FASTSIG_ERR_BAD_KEY);
        enc[0] = 1;
        enc[35] = 0;
        CU_ASSERT_EQUAL(rw_key_decode_private(k, enc, len), FASTSIG_ERR_BAD_KEY);
        free(enc);
        /* public */
        len = 0;
        CU_ASSERT_EQUAL(rw_key_encode_public(g, NULL, &len), FASTSIG_OK);
        CU_ASSERT_EQUAL(len, sizes[i] / 8);
        uint8_t *pub = calloc(1, len + 1);
        CU_ASSERT_EQUAL(rw_key_encode_public(g, pub + 1, &len), FASTSIG_OK);
        CU_ASSERT_EQUAL(rw_key_decode_public(k, pub + 1, len), FASTSIG_OK);
        CU_ASSERT_EQUAL(rw_key_decode_public(k, pub, len + 1), FASTSIG_ERR_BAD_KEY); /* leading 0 */
        size_t small = len - 1;
        CU_ASSERT_EQUAL(rw_key_encode_public(g, pub, &small), FASTSIG_ERR_BAD_LENGTH);
        free(pub);
        /* components: all exportable, re-import gives the same key */
        static const int comps[] = { RW_COMP_N, RW_COMP_P, RW_COMP_Q, RW_COMP_U, RW_COMP_DP,
                                     RW_COMP_DQ, RW_COMP_PRF };
        uint8_t *c[7];
        size_t cl[7];
        for (int j = 0; j < 7; j++) {
            CU_ASSERT_EQUAL(rw_key_export(g, comps[j], NULL, &cl[j]), FASTSIG_OK);
            c[j] = malloc(cl[j]);
            CU_ASSERT_EQUAL(rw_key_export(g, comps[j], c[j], &cl[j]), FASTSIG_OK);
        }
        CU_ASSERT_EQUAL(rw_key_set_private(k, c[0], cl[0], c[1], cl[1], c[2], cl[2], c[6], cl[6]),
                        FASTSIG_OK);
        CU_ASSERT(rw_key_eq(k, g, 1));
        CU_ASSERT_EQUAL(rw_key_export(g, 99, c[0], &cl[0]), FASTSIG_ERR_BAD_PARAM);
        for (int j = 0; j < 7; j++)
            free(c[j]);
        rw_key_free(k);
    }
}

static void test_cleanup(void)
{
    for (size_t i = 0; i < NSIZES; i++) {
        rw_key_free(keys[i]);
        keys[i] = NULL;
    }
    rw_key_free(NULL);
}

static const fs_test vector_tests[] = {
    { "Crypto++ vectors verify", test_cryptopp_verify },
    { "Crypto++ vectors sign byte-exact (|principal|)", test_cryptopp_sign },
    { "RW formats on a 1024-bit vector key", test_small_key_rw_formats },
    { "FDH known answers (independent SHAKE256)", test_fdh_known_answer },
    { "FDH lanes vs one-message SHAKE256, all boundaries", test_fdh_layout },
    { NULL, NULL },
};
static const fs_test sig_tests[] = {
    { "keygen sizes and parameters", test_keygen_params },
    { "round trips: every size and format", test_round_trips },
    { "probabilistic verification at every message length to 150", test_prob_lengths },
    { "all tweaks and randomizer bits occur", test_tweaks_cover },
    { "tampering is rejected", test_tamper },
    { "malformed signatures", test_malformed },
    { "public-only keys", test_public_only },
    { "fault check withholds the signature", test_fault_injection },
    { "rw-powm2 and rw-check rows match their GMP twins", test_ifma_vs_gmp },
    { "rw-residues rows match the portable twin", test_prob_paths },
    { "rw-from-be rows match the portable twin", test_from_be_rows },
    { "exact check: crafted differences", test_exact_check_deltas },
    { NULL, NULL },
};
static const fs_test key_tests[] = {
    { "key validation at import", test_key_validation },
    { "encodings and components", test_encodings },
    { "cleanup", test_cleanup },
    { NULL, NULL },
};
static const fs_suite suites[] = {
    { "rw-vectors", vector_tests },
    { "rw-sign-verify", sig_tests },
    { "rw-keys", key_tests },
    { NULL, NULL },
};

int main(void)
{
    return fs_cu_main(suites);
}
