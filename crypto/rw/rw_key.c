/* rw_key.c - RW key objects: lifecycle, validation and queries (see rw.h);
 * derived values in rw_derive.c, import/export and encodings in rw_key_codec.c. */
#include <stdlib.h>
#include <string.h>
#include "fastsig_err.h"
#include "ctgrind.h"
#include "rw/rw_internal.h"
#include "secmem.h"

/* Messages of the signing self-test a private key passes at import. */
#define SELF_TESTS 2

void rw_wipe(void *p, size_t len)
{
    explicit_bzero(p, len);   /* not optimised away, unlike a plain memset */
}

void rw_to_be(uint8_t *out, size_t blen, const mp_limb_t *a, size_t nl)
{
    for (size_t i = 0; i < blen; i++)
        out[blen - 1 - i] = i / 8 < nl ? (uint8_t)(a[i / 8] >> (8 * (i % 8))) : 0;
}

void rw_mpz_to_be(uint8_t *out, size_t blen, const mpz_t z)
{
    rw_to_be(out, blen, mpz_limbs_read(z), mpz_size(z));
}

/* Wipes an mpz's limbs (allocated ones, not just the used ones). */
void rw_mpz_wipe(mpz_t z)
{
    size_t alloc = (size_t)z->_mp_alloc;
    rw_wipe(z->_mp_d, alloc * sizeof(mp_limb_t));
    mpz_set_ui(z, 0);
}

#define PRIV_FIELDS(X) X(p) X(q) X(u) X(dp) X(dq) X(ap) X(aq)

rw_key *rw_key_new(void)
{
    rw_key *k = fs_secmem_alloc(sizeof(*k)); /* the PRF key: out of core dumps */
    if (k == NULL)
        return NULL;
    mpz_init(k->n);
#define INIT(f) mpz_init(k->f);
    PRIV_FIELDS(INIT)
#undef INIT
    return k;
}

void rw_key_clear_private(rw_key *k)
{
    rw_key_unseal(k);
#define WIPE(f) rw_mpz_wipe(k->f);
    PRIV_FIELDS(WIPE)
#undef WIPE
    rw_wipe(k->prf, sizeof(k->prf));
    if (k->mont != NULL) {
        fs_secmem_free(k->mont); /* wiped */
        k->mont = NULL;
    }
    k->has_priv = 0;
}

void rw_key_free(rw_key *k)
{
    if (k == NULL)
        return;
    rw_key_clear_private(k);
    free(k->nmont);
    mpz_clear(k->n);
#define CLEAR(f) mpz_clear(k->f);
    PRIV_FIELDS(CLEAR)
#undef CLEAR
    fs_secmem_free(k); /* wiped */
}

rw_key *rw_key_dup(const rw_key *k)
{
    rw_key *d = rw_key_new();
    if (d == NULL || k == NULL)
        return d;
    d->bits = k->bits;
    d->nbytes = k->nbytes;
    d->has_priv = k->has_priv;
    d->dpbits = k->dpbits;
    d->dqbits = k->dqbits;
    mpz_set(d->n, k->n);
    memcpy(d->kid, k->kid, sizeof(d->kid));
#define COPY(f) mpz_set(d->f, k->f);
    PRIV_FIELDS(COPY)
#undef COPY
    memcpy(d->prf, k->prf, sizeof(d->prf));
    if (k->nmont != NULL && (d->nmont = malloc(sizeof(rw_mont52))) != NULL)
        memcpy(d->nmont, k->nmont, sizeof(rw_mont52));
    if (k->mont != NULL && (d->mont = fs_secmem_alloc(2 * sizeof(rw_mont52))) != NULL)
        memcpy(d->mont, k->mont, 2 * sizeof(rw_mont52));
    if (d->has_priv && rw_key_seal(d) != FASTSIG_OK) {
        rw_key_free(d);
        return NULL;
    }
    return d;
}

/* ---- validation ---------------------------------------------------------- */

static int bits_ok(unsigned bits, unsigned min_bits)
{
    return bits % 8 == 0 && bits >= min_bits && bits <= RW_MAX_BITS;
}

/* Validation of n alone, and of n, p, q. */
int rw_check_public(const mpz_t n, unsigned min_bits)
{
    static const unsigned long primorial = 3UL * 5 * 7 * 11 * 13 * 17 * 19 * 23 * 29 * 31 * 37 * 41 * 43 * 47;
    if (mpz_sgn(n) <= 0 || !bits_ok((unsigned)rw_bitlen(n), min_bits))
        return FASTSIG_ERR_BAD_KEY;
    if (mpz_fdiv_ui(n, 8) != 5 || mpz_gcd_ui(NULL, n, primorial) != 1 || mpz_perfect_square_p(n))
        return FASTSIG_ERR_BAD_KEY;
    return FASTSIG_OK;
}

/* A check's outcome (whether a key loads) and the sizes of p and q are
 * public; everything else about them is not. */
size_t rw_public_size(size_t v)
{
    FS_DECLASSIFY(&v, sizeof(v));
    return v;
}

/* n = p*q without GMP's own temporaries: mpn_sec_mul into r, scratch ours
 * and wiped (p and q are secret; n is the public key). */
int rw_modulus(mpz_t r, const mpz_t a, const mpz_t b)
{
    const mpz_srcptr x = mpz_size(a) >= mpz_size(b) ? a : b, y = x == a ? b : a;
    mp_size_t xn = (mp_size_t)mpz_size(x), yn = (mp_size_t)mpz_size(y);
    if (yn == 0) {
        mpz_set_ui(r, 0);
        return FASTSIG_OK;
    }
    size_t sl = (size_t)mpn_sec_mul_itch(xn, yn), total = (size_t)(xn + yn) + sl;
    mp_limb_t *buf = calloc(total, sizeof(mp_limb_t));
    if (buf == NULL)
        return FASTSIG_ERR_NOMEM;
    mpn_sec_mul(buf, mpz_limbs_read(x), xn, mpz_limbs_read(y), yn, buf + xn + yn);
    mp_limb_t *rl = mpz_limbs_write(r, xn + yn);
    memcpy(rl, buf, (size_t)(xn + yn) * sizeof(mp_limb_t));
    FS_DECLASSIFY(rl, (size_t)(xn + yn) * sizeof(mp_limb_t));   /* n: public */
    mpz_limbs_finish(r, xn + yn);
    rw_wipe(buf, total * sizeof(mp_limb_t));
    free(buf);
    return FASTSIG_OK;
}

/* 1 if a != b, looking at every limb of both (no early exit on secrets). */
static int ct_differ(const mpz_t a, const mpz_t b)
{
    size_t an = mpz_size(a), bn = mpz_size(b), n = an > bn ? an : bn;
    const mp_limb_t *al = mpz_limbs_read(a), *bl = mpz_limbs_read(b);
    mp_limb_t acc = (mp_limb_t)(an ^ bn);
    for (size_t i = 0; i < n; i++)
        acc |= (i < an ? al[i] : 0) ^ (i < bn ? bl[i] : 0);
    return acc != 0;
}

static int ct_differ_bytes(const uint8_t *a, const uint8_t *b, size_t len)
{
    uint8_t acc = 0;
    for (size_t i = 0; i < len; i++)
        acc |= a[i] ^ b[i];
    return acc != 0;
}

/* The consistency of n, p, q a private key must have, checked without
 * variable-time work on p and q (sizes and limb counts are public): p, q > 0,
 * p = 3 and q = 7 (mod 8), both roughly half of n, n = p*q. Whether p and q
 * are prime is left to the signing self-test (rw_key_self_test), which a
 * composite factor fails: Miller-Rabin at every load would be costly, and
 * GMP's primality test is not constant time. p != q follows from n not
 * being a square (rw_check_public). */
int rw_check_private(const mpz_t n, const mpz_t p, const mpz_t q, unsigned min_bits)
{
    int rc = rw_check_public(n, min_bits);
    if (rc != FASTSIG_OK)
        return rc;
    unsigned bits = (unsigned)rw_bitlen(n);
    if (mpz_sgn(p) <= 0 || mpz_sgn(q) <= 0)
        return FASTSIG_ERR_BAD_KEY;
    mp_limb_t residues = (mpz_limbs_read(p)[0] & 7) ^ 3;
    residues |= (mpz_limbs_read(q)[0] & 7) ^ 7;
    /* roughly balanced: neither factor much below half of n */
    size_t pbits = rw_public_size(rw_bitlen(p)), qbits = rw_public_size(rw_bitlen(q));
    if (rw_public_size(residues != 0) || pbits + 64 < bits / 2 || qbits + 64 < bits / 2)
        return FASTSIG_ERR_BAD_KEY;
    mpz_t t;
    mpz_init(t);
    rc = rw_modulus(t, p, q);
    if (rc == FASTSIG_OK && rw_public_size(ct_differ(t, n) | !ct_differ(p, q)))
        rc = FASTSIG_ERR_BAD_KEY;
    mpz_clear(t);   /* t = n: public */
    return rc;
}

/* Signs and verifies fixed messages with the derived key: a factor that is
 * not prime (or any other inconsistency the cheap checks let through) gives
 * roots that fail the signer's fault check. Constant time like any signing. */
int rw_key_self_test(const rw_key *k)
{
    for (int i = 0; i < SELF_TESTS; i++) {
        uint8_t msg[] = "FASTSIG-RW-SELFTEST-0", sig[RW_MAX_BITS / 8 + 1];
        size_t len = sizeof(sig);
        msg[sizeof(msg) - 2] = (uint8_t)('0' + i);
        if (rw_sign(k, RW_FMT_COMPACT, 0, msg, sizeof(msg) - 1, sig, &len) != FASTSIG_OK ||
            rw_verify(k, RW_FMT_COMPACT, 0, msg, sizeof(msg) - 1, sig, len) != FASTSIG_OK)
            return FASTSIG_ERR_BAD_KEY;
    }
    return FASTSIG_OK;
}

int rw_key_check(const rw_key *k)
{
    if (k == NULL)
        return FASTSIG_ERR_NULL_ARG;
    if (k->bits == 0)
        return FASTSIG_ERR_BAD_KEY;
    if (!k->has_priv)
        return rw_check_public(k->n, RW_MIN_IMPORT_BITS);
    int rc = rw_check_private(k->n, k->p, k->q, RW_MIN_IMPORT_BITS);
    return rc == FASTSIG_OK ? rw_key_self_test(k) : rc;
}

/* ---- queries ------------------------------------------------------------- */

int rw_key_has_public(const rw_key *k) { return k != NULL && k->bits != 0; }
int rw_key_has_private(const rw_key *k) { return k != NULL && k->has_priv; }
unsigned rw_key_bits(const rw_key *k) { return k != NULL ? k->bits : 0; }
size_t rw_key_nbytes(const rw_key *k) { return k != NULL ? k->nbytes : 0; }

int rw_key_security_bits(const rw_key *k)
{
    /* SP 800-57 part 1, table 2 (factoring moduli), interpolated downward */
    static const struct { unsigned bits; int sec; } t[] = {
        { 15360, 256 }, { 7680, 192 }, { 3072, 128 }, { 2048, 112 }, { 1024, 80 },
    };
    unsigned b = rw_key_bits(k);
    for (size_t i = 0; i < sizeof(t) / sizeof(t[0]); i++)
        if (b >= t[i].bits)
            return t[i].sec;
    return 0;
}

int rw_key_eq(const rw_key *a, const rw_key *b, int check_private)
{
    if (a == NULL || b == NULL || a->bits == 0 || b->bits == 0 || mpz_cmp(a->n, b->n) != 0)
        return 0;
    if (check_private && a->has_priv && b->has_priv)
        return !(ct_differ(a->p, b->p) | ct_differ(a->q, b->q) |
                 ct_differ_bytes(a->prf, b->prf, RW_PRF_BYTES));
    return 1;
}
