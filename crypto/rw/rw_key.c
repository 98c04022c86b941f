/* rw_key.c - RW key objects: lifecycle, validation, derived CRT values,
 * import/export of components and the compact encodings (see rw.h). */
#include <stdlib.h>
#include <string.h>
#include "fastsig_err.h"
#include "ctgrind.h"
#include "hash/keccak.h"
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
static void mpz_wipe(mpz_t z)
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

static void clear_private(rw_key *k)
{
    rw_key_unseal(k);
#define WIPE(f) mpz_wipe(k->f);
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
    clear_private(k);
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
static int rw_check_public(const mpz_t n, unsigned min_bits)
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
static size_t public_size(size_t v)
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
 * are prime is left to the signing self-test (key_self_test), which a
 * composite factor fails: Miller-Rabin at every load would be costly, and
 * GMP's primality test is not constant time. p != q follows from n not
 * being a square (rw_check_public). */
static int rw_check_private(const mpz_t n, const mpz_t p, const mpz_t q, unsigned min_bits)
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
    size_t pbits = public_size(rw_bitlen(p)), qbits = public_size(rw_bitlen(q));
    if (public_size(residues != 0) || pbits + 64 < bits / 2 || qbits + 64 < bits / 2)
        return FASTSIG_ERR_BAD_KEY;
    mpz_t t;
    mpz_init(t);
    rc = rw_modulus(t, p, q);
    if (rc == FASTSIG_OK && public_size(ct_differ(t, n) | !ct_differ(p, q)))
        rc = FASTSIG_ERR_BAD_KEY;
    mpz_clear(t);   /* t = n: public */
    return rc;
}

/* Signs and verifies fixed messages with the derived key: a factor that is
 * not prime (or any other inconsistency the cheap checks let through) gives
 * roots that fail the signer's fault check. Constant time like any signing. */
static int key_self_test(const rw_key *k)
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
    return rc == FASTSIG_OK ? key_self_test(k) : rc;
}

/* ---- derived values ------------------------------------------------------ */

static void set_kid(rw_key *k)
{
    static const char dom[] = "FASTSIG-RW-KID-v1";
    uint8_t nb[RW_MAX_BITS / 8];
    fs_shake_ctx x;
    fs_shake_init(&x, FS_SHAKE256_RATE);
    fs_shake_absorb(&x, dom, sizeof(dom) - 1);
    rw_mpz_to_be(nb, k->nbytes, k->n);
    fs_shake_absorb(&x, nb, k->nbytes);
    fs_shake_squeeze(&x, k->kid, sizeof(k->kid));
}

/* Ends writing z (mpz_limbs_write, n limbs) like mpz_limbs_finish, but finds
 * the normalized length without branching on the limbs; that length (a
 * size) is then public. */
static void finish_ct(mpz_t z, const mp_limb_t *zl, size_t n)
{
    size_t len = 0;
    for (size_t i = 0; i < n; i++) {
        size_t nz = (size_t)((zl[i] | (0 - zl[i])) >> (GMP_NUMB_BITS - 1));
        len ^= (len ^ (i + 1)) & (0 - nz);
    }
    z->_mp_size = (int)public_size(len);
}

/* Bit length of a normalized secret z, counted without branches; public. */
static size_t ct_bitlen(const mpz_t z)
{
    size_t n = mpz_size(z), b = 0;
    if (n == 0)
        return 0;
    mp_limb_t top = mpz_limbs_read(z)[n - 1];
    for (unsigned i = 0; i < GMP_NUMB_BITS; i++)
        b += (top >> i) != 0;
    return public_size(GMP_NUMB_BITS * (n - 1) + b);
}

/* r = a + c (n limbs), the carry returned; no branch on the limbs (GMP's
 * inline mpn_add_1 stops at the first limb that does not carry). */
static mp_limb_t ct_add_1(mp_limb_t *r, const mp_limb_t *a, size_t n, mp_limb_t c)
{
    for (size_t i = 0; i < n; i++) {
        mp_limb_t s = a[i] + c;
        c = s < c;
        r[i] = s;
    }
    return c;
}

/* r = (a + 1) >> sh (r != a, 0 < sh < GMP_NUMB_BITS), in constant time. */
static void add1_shift(mpz_t r, const mpz_t a, unsigned sh)
{
    size_t n = mpz_size(a);
    mp_limb_t *rl = mpz_limbs_write(r, (mp_size_t)n + 1);
    rl[n] = ct_add_1(rl, mpz_limbs_read(a), n, 1);
    mpn_rshift(rl, rl, (mp_size_t)n + 1, sh);
    finish_ct(r, rl, n + 1);
}

/* r = (1/2)^e mod m, e of ebits bits (secret: mpn_sec_powm, our scratch, wiped). */
static int half_pow(mpz_t r, const mpz_t e, size_t ebits, const mpz_t m)
{
    mp_size_t mn = (mp_size_t)mpz_size(m);
    size_t sl = (size_t)mpn_sec_powm_itch(mn, ebits, mn), total = 2 * (size_t)mn + sl;
    mp_limb_t *buf = calloc(total, sizeof(mp_limb_t));
    if (buf == NULL)
        return FASTSIG_ERR_NOMEM;
    mp_limb_t *h = buf, *res = buf + mn;
    memcpy(h, mpz_limbs_read(m), (size_t)mn * sizeof(mp_limb_t));
    ct_add_1(h, h, (size_t)mn, 1);     /* m odd: m + 1 fits in mn limbs */
    mpn_rshift(h, h, mn, 1);           /* (m+1)/2 = 1/2 mod m */
    mpn_sec_powm(res, h, mn, mpz_limbs_read(e), ebits, mpz_limbs_read(m), mn, res + mn);
    mp_limb_t *rl = mpz_limbs_write(r, mn);
    memcpy(rl, res, (size_t)mn * sizeof(mp_limb_t));
    finish_ct(r, rl, (size_t)mn);
    rw_wipe(buf, total * sizeof(mp_limb_t));
    free(buf);
    return FASTSIG_OK;
}

/* u = q^-1 mod p with GMP's constant-time inverse. */
static int ct_inverse(mpz_t u, const mpz_t q, const mpz_t p)
{
    size_t pn = mpz_size(p), qn = mpz_size(q), tn = qn > pn ? qn : pn;
    size_t itch = (size_t)mpn_sec_invert_itch((mp_size_t)pn);
    size_t ditch = (size_t)mpn_sec_div_r_itch((mp_size_t)tn, (mp_size_t)pn);
    if (ditch > itch)
        itch = ditch;
    mp_limb_t *buf = calloc(tn + pn + itch, sizeof(mp_limb_t));
    if (buf == NULL)
        return FASTSIG_ERR_NOMEM;
    mp_limb_t *a = buf, *r = buf + tn, *s = r + pn;
    memcpy(a, mpz_limbs_read(q), qn * sizeof(mp_limb_t));
    mpn_sec_div_r(a, (mp_size_t)tn, mpz_limbs_read(p), (mp_size_t)pn, s);
    int ok = mpn_sec_invert(r, a, mpz_limbs_read(p), (mp_size_t)pn,
                            2 * (mp_bitcnt_t)pn * GMP_NUMB_BITS, s);
    mp_limb_t *ul = mpz_limbs_write(u, (mp_size_t)pn);
    memcpy(ul, r, pn * sizeof(mp_limb_t));
    finish_ct(u, ul, pn);
    rw_wipe(buf, (tn + pn + itch) * sizeof(mp_limb_t));
    free(buf);
    return public_size((size_t)ok) ? FASTSIG_OK : FASTSIG_ERR_BAD_KEY;
}

/* The IFMA path's per-prime constants, when the CPU has it and p, q have the
 * same 52-bit limb count (balanced keys); otherwise signing uses GMP. */
static void set_mont(rw_key *k)
{
    if (k->mont != NULL || !rw_ifma_usable())
        return;
    rw_mont52 *m = fs_secmem_alloc(2 * sizeof(rw_mont52)); /* p, q: out of core dumps */
    if (m == NULL)
        return;
    if (rw_mont52_init(&m[0], k->p) && rw_mont52_init(&m[1], k->q) && m[0].L == m[1].L)
        k->mont = m;
    else
        fs_secmem_free(m); /* wiped */
}

int rw_key_derive(rw_key *k)
{
    k->bits = (unsigned)rw_bitlen(k->n);
    k->nbytes = k->bits / 8;
    set_kid(k);
    free(k->nmont);
    k->nmont = NULL;
    if (rw_ifma_usable() && (k->nmont = malloc(sizeof(rw_mont52))) != NULL &&
        !rw_mont52_init(k->nmont, k->n)) {
        free(k->nmont);     /* too large for the IFMA verifier: GMP */
        k->nmont = NULL;
    }
    if (!k->has_priv)
        return FASTSIG_OK;
    rw_key_unseal(k); /* a sealed key's numbers are read-only views */
    add1_shift(k->dp, k->p, 2);
    add1_shift(k->dq, k->q, 3);
    /* the exponents' bit lengths are public (from the sizes of p and q) */
    k->dpbits = ct_bitlen(k->dp);
    k->dqbits = ct_bitlen(k->dq);
    mpz_t e;
    mpz_init(e);
    add1_shift(e, k->q, 2);             /* (q+1)/4 */
    int rc = half_pow(k->ap, k->dp, k->dpbits, k->p);
    if (rc == FASTSIG_OK)
        rc = half_pow(k->aq, e, k->dqbits + 1, k->q);
    mpz_wipe(e);
    mpz_clear(e);
    if (rc != FASTSIG_OK)
        return rc;
    set_mont(k);
    rc = ct_inverse(k->u, k->q, k->p);
    return rc == FASTSIG_OK ? rw_key_seal(k) : rc;
}

/* ---- import / export ----------------------------------------------------- */

static void prf_derive(uint8_t prf[RW_PRF_BYTES], const mpz_t p, const mpz_t q);

int rw_key_set_public(rw_key *k, const uint8_t *n, size_t nlen)
{
    if (k == NULL || n == NULL)
        return FASTSIG_ERR_NULL_ARG;
    mpz_t t;
    mpz_init(t);
    mpz_import(t, nlen, 1, 1, 1, 0, n);
    int rc = rw_check_public(t, RW_MIN_IMPORT_BITS);
    if (rc == FASTSIG_OK) {
        clear_private(k);
        mpz_swap(k->n, t);
        rc = rw_key_derive(k);
    }
    mpz_clear(t);
    return rc;
}

int rw_key_set_private(rw_key *k, const uint8_t *n, size_t nlen,
                       const uint8_t *p, size_t plen, const uint8_t *q, size_t qlen,
                       const uint8_t *prf, size_t prflen)
{
    if (k == NULL || p == NULL || q == NULL)
        return FASTSIG_ERR_NULL_ARG;
    if (prf != NULL && prflen != RW_PRF_BYTES)
        return FASTSIG_ERR_BAD_LENGTH;
    rw_key *t = rw_key_new();
    if (t == NULL)
        return FASTSIG_ERR_NOMEM;
    mpz_import(t->p, plen, 1, 1, 1, 0, p);
    mpz_import(t->q, qlen, 1, 1, 1, 0, q);
    int rc = rw_modulus(t->n, t->p, t->q);
    if (rc == FASTSIG_OK && n != NULL) {
        mpz_t given;
        mpz_init(given);
        mpz_import(given, nlen, 1, 1, 1, 0, n);
        if (mpz_cmp(given, t->n) != 0)
            rc = FASTSIG_ERR_BAD_KEY;
        mpz_clear(given);
    }
    if (rc == FASTSIG_OK)
        rc = rw_check_private(t->n, t->p, t->q, RW_MIN_IMPORT_BITS);
    if (rc == FASTSIG_OK) {
        t->has_priv = 1;
        if (prf != NULL)
            memcpy(t->prf, prf, RW_PRF_BYTES);
        else
            prf_derive(t->prf, t->p, t->q);
        rc = rw_key_derive(t);
    }
    if (rc == FASTSIG_OK)
        rc = key_self_test(t);
    if (rc == FASTSIG_OK)
        rw_key_swap(k, t); /* the old contents freed with t */
    rw_key_free(t);
    return rc;
}

/* The out/outlen convention: FASTSIG_OK with *outlen = len, and 1 in *write
 * when out is there to be written (big enough). */
static int out_room(const uint8_t *out, size_t *outlen, size_t len, int *write)
{
    if (outlen == NULL)
        return FASTSIG_ERR_NULL_ARG;
    if (out != NULL && *outlen < len)
        return FASTSIG_ERR_BAD_LENGTH;
    *write = out != NULL;
    *outlen = len;
    return FASTSIG_OK;
}

static int put_bytes(uint8_t *out, size_t *outlen, const uint8_t *src, size_t len)
{
    int w, rc = out_room(out, outlen, len, &w);
    if (rc == FASTSIG_OK && w)
        memcpy(out, src, len);
    return rc;
}

static int put_mpz(uint8_t *out, size_t *outlen, const mpz_t z, size_t len)
{
    int w, rc = out_room(out, outlen, len, &w);
    if (rc == FASTSIG_OK && w)
        rw_mpz_to_be(out, len, z);
    return rc;
}

static size_t minimal_len(const mpz_t z)
{
    return (rw_bitlen(z) + 7) / 8;
}

int rw_key_export(const rw_key *k, int comp, uint8_t *out, size_t *outlen)
{
    if (k == NULL)
        return FASTSIG_ERR_NULL_ARG;
    if (k->bits == 0 || (comp != RW_COMP_N && !k->has_priv))
        return FASTSIG_ERR_BAD_KEY;
    const mpz_t *z;
    switch (comp) {
    case RW_COMP_N: return put_mpz(out, outlen, k->n, k->nbytes);
    case RW_COMP_P: z = &k->p; break;
    case RW_COMP_Q: z = &k->q; break;
    case RW_COMP_U: z = &k->u; break;
    case RW_COMP_DP: z = &k->dp; break;
    case RW_COMP_DQ: z = &k->dq; break;
    case RW_COMP_PRF: return put_bytes(out, outlen, k->prf, RW_PRF_BYTES);
    default: return FASTSIG_ERR_BAD_PARAM;
    }
    return put_mpz(out, outlen, *z, minimal_len(*z));
}

/* ---- compact encodings --------------------------------------------------- */

int rw_key_encode_public(const rw_key *k, uint8_t *out, size_t *outlen)
{
    return rw_key_export(k, RW_COMP_N, out, outlen);
}

int rw_key_decode_public(rw_key *k, const uint8_t *in, size_t inlen)
{
    if (in == NULL)
        return FASTSIG_ERR_NULL_ARG;
    if (inlen == 0 || in[0] == 0)
        return FASTSIG_ERR_BAD_KEY;   /* exactly nbytes: no leading zero byte */
    return rw_key_set_public(k, in, inlen);
}

/* BE16(len) || bytes of z (minimal) at *pos. */
static void put_field(uint8_t *out, size_t *pos, const mpz_t z)
{
    size_t len = minimal_len(z);
    out[(*pos)++] = (uint8_t)(len >> 8);
    out[(*pos)++] = (uint8_t)len;
    rw_mpz_to_be(out + *pos, len, z);
    *pos += len;
}

int rw_key_encode_private(const rw_key *k, uint8_t *out, size_t *outlen)
{
    if (k == NULL)
        return FASTSIG_ERR_NULL_ARG;
    if (!k->has_priv)
        return FASTSIG_ERR_BAD_KEY;
    size_t len = 1 + RW_PRF_BYTES + 2 + minimal_len(k->p) + 2 + minimal_len(k->q);
    int w, rc = out_room(out, outlen, len, &w);
    if (rc == FASTSIG_OK && w) {
        size_t pos = 0;
        out[pos++] = 0x01;
        memcpy(out + pos, k->prf, RW_PRF_BYTES);
        pos += RW_PRF_BYTES;
        put_field(out, &pos, k->p);
        put_field(out, &pos, k->q);
    }
    return rc;
}

/* Reads BE16(len) || bytes (minimal: leading byte != 0). */
static int get_field(const uint8_t *in, size_t inlen, size_t *pos, const uint8_t **f, size_t *flen)
{
    if (inlen - *pos < 2)
        return FASTSIG_ERR_BAD_KEY;
    size_t len = (size_t)in[*pos] << 8 | in[*pos + 1];
    *pos += 2;
    if (len == 0 || inlen - *pos < len || in[*pos] == 0)
        return FASTSIG_ERR_BAD_KEY;
    *f = in + *pos;
    *flen = len;
    *pos += len;
    return FASTSIG_OK;
}

int rw_key_decode_private(rw_key *k, const uint8_t *in, size_t inlen)
{
    if (k == NULL || in == NULL)
        return FASTSIG_ERR_NULL_ARG;
    if (inlen < 1 + RW_PRF_BYTES || in[0] != 0x01)
        return FASTSIG_ERR_BAD_KEY;
    size_t pos = 1 + RW_PRF_BYTES, plen, qlen;
    const uint8_t *p, *q;
    int rc = get_field(in, inlen, &pos, &p, &plen);
    if (rc == FASTSIG_OK)
        rc = get_field(in, inlen, &pos, &q, &qlen);
    if (rc == FASTSIG_OK && pos != inlen)
        rc = FASTSIG_ERR_BAD_KEY;      /* trailing bytes */
    if (rc != FASTSIG_OK)
        return rc;
    return rw_key_set_private(k, NULL, 0, p, plen, q, qlen, in + 1, RW_PRF_BYTES);
}

/* prf = SHAKE256("FASTSIG-RW-PRF-v1" || BE16(plen) || p || BE16(qlen) || q, 32) */
static void prf_derive(uint8_t prf[RW_PRF_BYTES], const mpz_t p, const mpz_t q)
{
    static const char dom[] = "FASTSIG-RW-PRF-v1";
    size_t len = 4 + minimal_len(p) + minimal_len(q), pos = 0;
    uint8_t *buf = malloc(len);
    fs_shake_ctx x;
    fs_shake_init(&x, FS_SHAKE256_RATE);
    fs_shake_absorb(&x, dom, sizeof(dom) - 1);
    if (buf != NULL) {
        put_field(buf, &pos, p);
        put_field(buf, &pos, q);
        fs_shake_absorb(&x, buf, len);
        rw_wipe(buf, len);
        free(buf);
    }
    fs_shake_squeeze(&x, prf, RW_PRF_BYTES);
    fs_shake_wipe(&x);
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
