/* ct_sign.c - constant-time check of signing (the ctgrind technique): run
 * under valgrind's memcheck, this program marks the signing secrets
 * undefined, so memcheck reports every branch, memory address or system call
 * that depends on them; the run must report none. Covered: RW key loading
 * (p, q, prf undefined in the encoding: the checks and derived values) and
 * RW signing in every format (all private values of the key undefined); WOTS+ signing; XMSS and XMSS^MT signing (SK_SEED and
 * SK_PRF undefined, trees reduced in height so signing crosses subtree and
 * layer boundaries quickly); HSS key generation and signing at every index
 * (SEED undefined; keys of small heights, so signing crosses into each next
 * lower tree and builds the next trees a share at a time). Outputs are made defined again only where they
 * become public: each such spot says why. Run it through meson (suite ct),
 * which wraps valgrind; on its own it only signs (no checks). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <valgrind/memcheck.h>
#include "fastsig_err.h"
#include "rw/rw.h"
#include "rw/rw_internal.h"
#include "xmss/params.h"
#include "xmss/xmss.h"
#include "xmss_hooks.h"
#include "xmss/xmss_key.h"
#include "xmss/wotsp_scheme.h"
#include "lms/hss.h"

#define SECRET(p, len) VALGRIND_MAKE_MEM_UNDEFINED((p), (len))
#define PUBLIC(p, len) VALGRIND_MAKE_MEM_DEFINED((p), (len))

static int failures;

static void expect(int ok, const char *what)
{
    if (!ok) {
        fprintf(stderr, "ct_sign: %s failed\n", what);
        failures++;
    }
}

/* Deterministic bytes (the key's values do not matter, only their flow). */
static int det_rng(void *arg, uint8_t *buf, size_t len)
{
    uint64_t *s = arg;
    for (size_t i = 0; i < len; i++) {
        *s ^= *s << 13;
        *s ^= *s >> 7;
        *s ^= *s << 17;
        buf[i] = (uint8_t)*s;
    }
    return 1;
}

/* All of z's limbs but its top byte: the bit length is public (the key
 * size), and GMP's sec functions shift the modulus by it. */
static void secret_mpz(const mpz_t z)
{
    SECRET(mpz_limbs_read(z), mpz_size(z) * sizeof(mp_limb_t) - 1);
}

/* ---- RW ------------------------------------------------------------------- */

/* The private encoding with the values of p, q and prf undefined but for the
 * leading bytes of p and q (their sizes are public). */
static void secret_encoding(uint8_t *enc, size_t len)
{
    size_t pos = 1;
    SECRET(enc + pos, RW_PRF_BYTES);
    pos += RW_PRF_BYTES;
    for (int f = 0; f < 2 && pos + 2 <= len; f++) {
        size_t flen = (size_t)enc[pos] << 8 | enc[pos + 1];
        pos += 2;
        SECRET(enc + pos + 1, flen - 1);
        pos += flen;
    }
}

static void check_rw(unsigned bits)
{
    static const int formats[] = { RW_FMT_COMPACT, RW_FMT_EXPANDED, RW_FMT_P1363_SHA1,
                                   RW_FMT_P1363_SHA256 };
    uint64_t seed = 0x9e3779b97f4a7c15u;
    rw_key *g = rw_key_new(), *k = rw_key_new();
    expect(rw_keygen(g, bits, det_rng, &seed) == FASTSIG_OK, "RW keygen");
    uint8_t enc[2 * RW_MAX_BITS / 8];
    size_t len = sizeof(enc);
    expect(rw_key_encode_private(g, enc, &len) == FASTSIG_OK, "RW encode");
    /* loading: the checks at import and the derived values */
    secret_encoding(enc, len);
    int rc = rw_key_decode_private(k, enc, len);
    PUBLIC(&rc, sizeof(rc));             /* whether a key loads is public */
    expect(rc == FASTSIG_OK, "RW decode");
    if (rc == FASTSIG_OK) {
        /* every private value of the loaded key, as signing reads it */
        secret_mpz(k->p);
        secret_mpz(k->q);
        secret_mpz(k->u);
        secret_mpz(k->dp);
        secret_mpz(k->dq);
        secret_mpz(k->ap);
        secret_mpz(k->aq);
        SECRET(k->prf, sizeof(k->prf));
        if (k->mont != NULL)
            SECRET(k->mont, 2 * sizeof(*k->mont));
        for (size_t f = 0; f < sizeof(formats) / sizeof(formats[0]); f++)
            for (unsigned m = 0; m < 4; m++) {
                uint8_t msg[40], sig[2 * RW_MAX_BITS / 8 + 1];
                size_t sl = sizeof(sig);
                memset(msg, (int)m, sizeof(msg));
                rc = rw_sign(k, formats[f], 0, msg, sizeof(msg), sig, &sl);
                expect(rc == FASTSIG_OK, "RW sign");
                PUBLIC(sig, sl);   /* the finished signature is sent */
                expect(rw_verify(g, formats[f], 0, msg, sizeof(msg), sig, sl) == FASTSIG_OK,
                       "RW verify");
            }
    }
    rw_key_free(k);
    rw_key_free(g);
}

/* ---- WOTS+, XMSS, XMSS^MT ---------------------------------------------------- */

static void secret_keyed(fs_hash_keyed *h)
{
    SECRET(&h->mid, sizeof(h->mid));
    SECRET(h->rest, sizeof(h->rest));
}

static void check_wotsp(const char *name)
{
    const xmss_params *p = xmss_params_by_name(name);
    expect(p != NULL, name);
    if (p == NULL)
        return;
    uint8_t seed[3 * XMSS_MAX_N], sk[4 + 4 * XMSS_MAX_N], pk[4 + 2 * XMSS_MAX_N];
    for (size_t i = 0; i < sizeof(seed); i++)
        seed[i] = (uint8_t)i;
    size_t skl = xmss_sk_bytes(p), pkl = xmss_pk_bytes(p), sl = xmss_sig_bytes(p);
    expect(xmss_wotsp_keygen(p, seed, 3 * p->n, sk, skl, pk, pkl) == FASTSIG_OK, "WOTS+ keygen");
    SECRET(sk + 4, 2 * p->n);           /* SK_SEED || SK_PRF */
    uint8_t *sig = malloc(sl);
    int rc = xmss_wotsp_sign(sk, skl, (const uint8_t *)"message", 7, sig, sl);
    expect(rc == FASTSIG_OK, "WOTS+ sign");
    PUBLIC(sig, sl);                     /* the finished signature is sent */
    expect(xmss_wotsp_verify(pk, pkl, (const uint8_t *)"message", 7, sig, sl) == FASTSIG_OK,
           "WOTS+ verify");
    free(sig);
}

/* Signs every index of a reduced-height key of row `name`. */
static void check_xmss(const char *name, unsigned tree_h)
{
    const xmss_params *p0 = xmss_params_by_name(name);
    xmss_params p;
    expect(p0 != NULL && xmss_params_reduced(p0, tree_h, &p) == FASTSIG_OK, name);
    if (p0 == NULL)
        return;
    uint8_t seed[3 * XMSS_MAX_N], pk[4 + 2 * XMSS_MAX_N];
    for (size_t i = 0; i < sizeof(seed); i++)
        seed[i] = (uint8_t)(7 * i);
    xmss_test_set_bottom_h(tree_h > 1 ? tree_h - 1 : 1);
    xmss_key *k = NULL;
    expect(xmss_keygen(&p, seed, 3 * p.n, 1, NULL, NULL, &k) == FASTSIG_OK, "XMSS keygen");
    xmss_test_set_bottom_h(0);
    if (k == NULL)
        return;
    expect(xmss_key_export_pk(k, pk, xmss_pk_bytes(&p)) == FASTSIG_OK, "XMSS pk");
    SECRET(k->sk_seed, sizeof(k->sk_seed));
    SECRET(k->sk_prf, sizeof(k->sk_prf));
    secret_keyed(&k->ctx.seeds.keygen);
    SECRET(k->ctx.prf_sk.pub_seed, sizeof(k->ctx.prf_sk.pub_seed));
    secret_keyed(&k->ctx.prf_sk.prf);
    /* the seeds checked against the root, as the provider does before the
     * first index is spent */
    expect(xmss_key_check(k) == FASTSIG_OK, "XMSS key check");
    size_t sl = xmss_sig_bytes(&p);
    uint8_t *sig = malloc(sl);
    for (uint64_t idx = 0; idx <= xmss_last_index(&p); idx++) {
        /* every other one with verify-after-sign */
        int rc = (idx & 1 ? xmss_sign_verified : xmss_sign)(k, idx, (const uint8_t *)"message", 7,
                                                          sig, sl);
        expect(rc == FASTSIG_OK, "XMSS sign");
        PUBLIC(sig, sl);                 /* the finished signature is sent */
        expect(xmss_verify_p(&p, pk, xmss_pk_bytes(&p), (const uint8_t *)"message", 7, sig, sl)
               == FASTSIG_OK, "XMSS verify");
    }
    free(sig);
    xmss_key_free(k);
}


/* ---- LMS / HSS --------------------------------------------------------------- */

/* Generates the HSS key of levels `param` ("LMS_.../LMOTS_...,..." top
 * first) from an undefined SEED and signs every index. */
static void check_hss(const char *const *param, unsigned L)
{
    lms_params lp[LMS_MAX_LEVELS];
    lmots_params op[LMS_MAX_LEVELS];
    for (unsigned i = 0; i < L; i++) {
        char lms[24], ots[24];
        const char *slash = strchr(param[i], '/');
        snprintf(lms, sizeof(lms), "%.*s", (int)(slash - param[i]), param[i]);
        snprintf(ots, sizeof(ots), "%s", slash + 1);
        expect(lms_params_by_name(&lp[i], lms) == FASTSIG_OK
               && lmots_params_by_name(&op[i], ots) == FASTSIG_OK, param[i]);
    }
    uint8_t seed[LMS_MAX_N], I[LMS_I_BYTES];
    for (size_t i = 0; i < sizeof(seed); i++)
        seed[i] = (uint8_t)(11 * i + 1);
    memset(I, 0x5a, sizeof(I));
    SECRET(seed, sizeof(seed));           /* the top tree's SEED; I is public */
    hss_key *k = NULL;
    int rc = hss_key_gen(&k, L, lp, op, seed, I, NULL, NULL);
    expect(rc == FASTSIG_OK, "HSS keygen");
    if (rc != FASTSIG_OK)
        return;
    uint8_t pub[64];
    size_t publen = hss_pub_bytes(k), sl = hss_sig_bytes(k);
    hss_pub(k, pub);
    uint8_t *sig = malloc(sl);
    for (uint64_t g = 0; g < (uint64_t)1 << hss_total_height(k); g++) {
        rc = hss_sign(k, g, (const uint8_t *)"message", 7, sig);
        expect(rc == FASTSIG_OK, "HSS sign");
        PUBLIC(sig, sl);                  /* the finished signature is sent */
        expect(hss_verify(pub, publen, (const uint8_t *)"message", 7, sig, sl) == FASTSIG_OK,
               "HSS verify");
    }
    free(sig);
    hss_key_free(k);
}

int main(void)
{
    /* valgrind runs no AVX-512: the portable kernels (the asm ones are
     * data-independent by construction; see doc/design.md) */
    setenv("FASTSIG_CPU", "portable", 1);
    check_rw(2048);
    check_wotsp("WOTSP-SHA2_256");
    check_xmss("XMSS-SHA2_10_256", 3);
    check_xmss("XMSSMT-SHA2_20/2_256", 2);
    static const char *const h5h5[] = { "LMS_SHA256_M32_H5/LMOTS_SHA256_N32_W4",
                                        "LMS_SHA256_M32_H5/LMOTS_SHA256_N32_W4" };
    static const char *const shake[] = { "LMS_SHAKE_M24_H5/LMOTS_SHAKE_N24_W2" };
    static const char *const m24w8[] = { "LMS_SHA256_M24_H5/LMOTS_SHA256_N24_W8" };
    check_hss(h5h5, 2);
    check_hss(shake, 1);
    check_hss(m24w8, 1);
    if (!RUNNING_ON_VALGRIND)
        fprintf(stderr, "ct_sign: not under valgrind: signed, nothing checked\n");
    printf("ct_sign: %s\n", failures ? "FAILED" : "done");
    return failures != 0;
}
