/* rw_root.c - the signing primitive: the |principal| square root of e*h/f
 * mod n, found without Jacobi symbols (Bernstein) and computed with GMP's
 * constant-time mpn_sec_* layer and masked selects only:
 *   U = h^((q+1)/8) mod q        e = 1 iff U^4 = h (mod q)
 *   V = h^((p+1)/4) mod p        f = 1 iff V^2 = e*h (mod p)
 *   rp = e * V * [f=2 ? (1/2)^((p+1)/4) : 1] mod p     (the square root mod p
 *   rq = U^2 * [f=2 ? (1/2)^((q+1)/4) : 1] mod q        that is itself a square)
 *   y = rq + q * ((rp - rq) * u mod p),  s = min(y, n - y). */
#include <stdlib.h>
#include <string.h>
#include "fastsig_err.h"
#include "rw/rw_internal.h"

int rw_test_inject_fault;

typedef struct {
    const mp_limb_t *m;   /* modulus, mn limbs */
    size_t mn;
    mp_limb_t *t2;        /* 2 * mn limbs of product space */
    mp_limb_t *scratch;
} modctx;

static mp_size_t max_sz(mp_size_t a, mp_size_t b) { return a > b ? a : b; }

static void mulmod(modctx *c, mp_limb_t *r, const mp_limb_t *a, const mp_limb_t *b)
{
    mp_size_t n = (mp_size_t)c->mn;
    mpn_sec_mul(c->t2, a, n, b, n, c->scratch);
    mpn_sec_div_r(c->t2, 2 * n, c->m, n, c->scratch);
    memcpy(r, c->t2, (size_t)n * sizeof(mp_limb_t));
}

static void sqrmod(modctx *c, mp_limb_t *r, const mp_limb_t *a)
{
    mp_size_t n = (mp_size_t)c->mn;
    mpn_sec_sqr(c->t2, a, n, c->scratch);
    mpn_sec_div_r(c->t2, 2 * n, c->m, n, c->scratch);
    memcpy(r, c->t2, (size_t)n * sizeof(mp_limb_t));
}

/* 1 if a == b (n limbs), without branches on the data. */
static mp_limb_t ct_eq(const mp_limb_t *a, const mp_limb_t *b, size_t n)
{
    mp_limb_t acc = 0;
    for (size_t i = 0; i < n; i++)
        acc |= a[i] ^ b[i];
    return 1 ^ ((acc | (0 - acc)) >> (GMP_NUMB_BITS - 1));
}

/* dst = cnd ? src : dst (cnd is 0 or 1). */
static void ct_copy(mp_limb_t cnd, mp_limb_t *dst, const mp_limb_t *src, size_t n)
{
    mp_limb_t mask = 0 - cnd;
    for (size_t i = 0; i < n; i++)
        dst[i] ^= (dst[i] ^ src[i]) & mask;
}

/* Zero-padded copy of z into n limbs. */
static void limbs_of(mp_limb_t *r, size_t n, const mpz_t z)
{
    size_t zn = mpz_size(z);
    memset(r, 0, n * sizeof(mp_limb_t));
    memcpy(r, mpz_limbs_read(z), (zn < n ? zn : n) * sizeof(mp_limb_t));
}

/* The "gmp" row of rw_powm2_table: mpn_sec_powm twice (secret exponents). */
static void powm2_gmp(const rw_key *k, mp_limb_t *V, const mp_limb_t *hp, mp_limb_t *U,
                      const mp_limb_t *hq, mp_limb_t *scratch)
{
    mp_size_t pn = (mp_size_t)mpz_size(k->p), qn = (mp_size_t)mpz_size(k->q);
    mpn_sec_powm(U, hq, qn, mpz_limbs_read(k->dq), k->dqbits, mpz_limbs_read(k->q), qn, scratch);
    mpn_sec_powm(V, hp, pn, mpz_limbs_read(k->dp), k->dpbits, mpz_limbs_read(k->p), pn, scratch);
}

#if defined(FASTSIG_HAVE_ASM) && defined(__x86_64__)
/* The "ifma" row: both in lockstep (rw_ifma.h); a key whose primes got no
 * IFMA contexts (unbalanced, or too large) takes its twin. */
static void powm2_ifma(const rw_key *k, mp_limb_t *V, const mp_limb_t *hp, mp_limb_t *U,
                       const mp_limb_t *hq, mp_limb_t *scratch)
{
    if (k->mont == NULL) {
        powm2_gmp(k, V, hp, U, hq, scratch);
        return;
    }
    size_t eb = k->dpbits > k->dqbits ? k->dpbits : k->dqbits;
    rw_powm2_ifma(V, hp, mpz_size(k->p), k->dp, &k->mont[0], U, hq, mpz_size(k->q), k->dq,
                  &k->mont[1], (unsigned)eb);
}
#endif

static const fs_kernel powm2_rows[] = {
    { "gmp", FS_KERNEL_FN(powm2_gmp), NULL, 1, 0, 0, 100 },
#if defined(FASTSIG_HAVE_ASM) && defined(__x86_64__)
    { "ifma", FS_KERNEL_FN(powm2_ifma), NULL, 1, RW_IFMA_CPU, 0, 40 },
#endif
    FS_KERNEL_END,
};

FS_KERNEL_TABLE(rw_powm2_table, "rw-powm2", powm2_rows, NULL);

static size_t scratch_limbs(size_t nn, size_t pn, size_t qn, mp_bitcnt_t pb, mp_bitcnt_t qb)
{
    mp_size_t s = 0, big = (mp_size_t)(pn > qn ? pn : qn), small = (mp_size_t)(pn > qn ? qn : pn);
    s = max_sz(s, mpn_sec_div_r_itch((mp_size_t)nn, (mp_size_t)pn));
    s = max_sz(s, mpn_sec_div_r_itch((mp_size_t)nn, (mp_size_t)qn));
    s = max_sz(s, mpn_sec_powm_itch((mp_size_t)pn, pb, (mp_size_t)pn));
    s = max_sz(s, mpn_sec_powm_itch((mp_size_t)qn, qb, (mp_size_t)qn));
    s = max_sz(s, mpn_sec_mul_itch((mp_size_t)pn, (mp_size_t)pn));
    s = max_sz(s, mpn_sec_mul_itch((mp_size_t)qn, (mp_size_t)qn));
    s = max_sz(s, mpn_sec_mul_itch(big, small));
    s = max_sz(s, mpn_sec_sqr_itch((mp_size_t)pn));
    s = max_sz(s, mpn_sec_sqr_itch((mp_size_t)qn));
    return (size_t)s;
}

int rw_root(const rw_key *k, const mp_limb_t *h, mp_limb_t *s, int *e, int *f)
{
    return rw_root_with(fs_kernel_default(&rw_powm2_table), k, h, s, e, f);
}

int rw_root_with(const fs_kernel *powm2, const rw_key *k, const mp_limb_t *h, mp_limb_t *s,
                 int *e_out, int *f_out)
{
    size_t nn = mpz_size(k->n), pn = mpz_size(k->p), qn = mpz_size(k->q);
    size_t mx = pn > qn ? pn : qn;
    size_t sl = scratch_limbs(nn, pn, qn, k->dpbits, k->dqbits);
    /* work: T (nn + mx + 1), hp, V, V2, ehp, rp, tp (pn each), hq, U, U2, U4, rq, tq (qn),
     * y and ny (nn + mx each), 2 * mx product space, scratch */
    size_t total = (nn + mx + 1) + 6 * pn + 6 * qn + 2 * (nn + mx) + 2 * mx + sl;
    mp_limb_t *buf = calloc(total, sizeof(mp_limb_t));
    if (buf == NULL)
        return FASTSIG_ERR_NOMEM;
    mp_limb_t *T = buf, *hp = T + nn + mx + 1, *V = hp + pn, *V2 = V + pn, *ehp = V2 + pn,
              *rp = ehp + pn, *tp = rp + pn, *hq = tp + pn, *U = hq + qn, *U2 = U + qn,
              *U4 = U2 + qn, *rq = U4 + qn, *tq = rq + qn, *y = tq + qn, *ny = y + nn + mx,
              *t2 = ny + nn + mx, *S = t2 + 2 * mx;
    const mp_limb_t *P = mpz_limbs_read(k->p), *Q = mpz_limbs_read(k->q);
    modctx cp = { P, pn, t2, S }, cq = { Q, qn, t2, S };

    /* h mod p, h mod q */
    memcpy(T, h, nn * sizeof(mp_limb_t));
    mpn_sec_div_r(T, (mp_size_t)nn, P, (mp_size_t)pn, S);
    memcpy(hp, T, pn * sizeof(mp_limb_t));
    memcpy(T, h, nn * sizeof(mp_limb_t));
    mpn_sec_div_r(T, (mp_size_t)nn, Q, (mp_size_t)qn, S);
    memcpy(hq, T, qn * sizeof(mp_limb_t));

    /* the two exponentiations: U = h^((q+1)/8) mod q, V = h^((p+1)/4) mod p */
    ((rw_powm2_fn *)powm2->fn)(k, V, hp, U, hq, S);

    /* e from q: U^4 = h * (h|q) */
    sqrmod(&cq, U2, U);
    sqrmod(&cq, U4, U2);
    mp_limb_t e_pos = ct_eq(U4, hq, qn);

    /* f from p: V^2 = h * (h|p) must equal e*h */
    sqrmod(&cp, V2, V);
    memcpy(ehp, hp, pn * sizeof(mp_limb_t));
    mpn_sub_n(tp, P, hp, (mp_size_t)pn);
    ct_copy(e_pos ^ 1, ehp, tp, pn);
    mp_limb_t f_one = ct_eq(V2, ehp, pn);

    /* principal roots mod p and mod q */
    memcpy(rp, V, pn * sizeof(mp_limb_t));
    limbs_of(tp, pn, k->ap);
    mulmod(&cp, tp, V, tp);
    ct_copy(f_one ^ 1, rp, tp, pn);
    mpn_sub_n(tp, P, rp, (mp_size_t)pn);
    ct_copy(e_pos ^ 1, rp, tp, pn);
    memcpy(rq, U2, qn * sizeof(mp_limb_t));
    limbs_of(tq, qn, k->aq);
    mulmod(&cq, tq, U2, tq);
    ct_copy(f_one ^ 1, rq, tq, qn);

    /* CRT (Garner): d = (rp - rq mod p) * u mod p, y = rq + q*d */
    memset(T, 0, (mx + 1) * sizeof(mp_limb_t));
    memcpy(T, rq, qn * sizeof(mp_limb_t));
    mpn_sec_div_r(T, (mp_size_t)mx, P, (mp_size_t)pn, S);
    mp_limb_t borrow = mpn_sub_n(tp, rp, T, (mp_size_t)pn);
    mpn_cnd_add_n(borrow, tp, tp, P, (mp_size_t)pn);
    limbs_of(T, pn, k->u);
    mulmod(&cp, tp, tp, T);
    memset(y, 0, (nn + mx) * sizeof(mp_limb_t));
    if (pn >= qn)
        mpn_sec_mul(y, tp, (mp_size_t)pn, Q, (mp_size_t)qn, S);
    else
        mpn_sec_mul(y, Q, (mp_size_t)qn, tp, (mp_size_t)pn, S);
    memset(ny, 0, (nn + mx) * sizeof(mp_limb_t));
    memcpy(ny, rq, qn * sizeof(mp_limb_t));
    mpn_add_n(y, y, ny, (mp_size_t)(pn + qn));
    if (rw_test_inject_fault)
        y[0] ^= 1;

    /* s = min(y, n - y) */
    const mp_limb_t *N = mpz_limbs_read(k->n);
    mpn_sub_n(ny, N, y, (mp_size_t)nn);
    mp_limb_t ny_smaller = mpn_sub_n(T, ny, y, (mp_size_t)nn);
    ct_copy(ny_smaller, y, ny, nn);
    memcpy(s, y, nn * sizeof(mp_limb_t));
    *e_out = e_pos ? 1 : -1;
    *f_out = f_one ? 1 : 2;
    rw_wipe(buf, total * sizeof(mp_limb_t));
    free(buf);
    return FASTSIG_OK;
}
