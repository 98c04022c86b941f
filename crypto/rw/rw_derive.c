/* rw_derive.c - an RW key's derived values: kid, CRT exponents and constants,
 * the IFMA contexts, all computed in constant time on the secrets. */
#include <stdlib.h>
#include <string.h>
#include "fastsig_err.h"
#include "hash/keccak.h"
#include "rw/rw_internal.h"
#include "secmem.h"

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
    z->_mp_size = (int)rw_public_size(len);
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
    return rw_public_size(GMP_NUMB_BITS * (n - 1) + b);
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
    return rw_public_size((size_t)ok) ? FASTSIG_OK : FASTSIG_ERR_BAD_KEY;
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
    rw_mpz_wipe(e);
    mpz_clear(e);
    if (rc != FASTSIG_OK)
        return rc;
    set_mont(k);
    rc = ct_inverse(k->u, k->q, k->p);
    return rc == FASTSIG_OK ? rw_key_seal(k) : rc;
}
