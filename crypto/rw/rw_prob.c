/* rw_prob.c - the expanded form's probabilistic check: f*s^2 = e*h + k*n
 * modulo two secret random 61-bit primes drawn once per process (getrandom;
 * a forked child draws its own, via pthread_atfork). Without the primes, a
 * forger who makes the identity fail over the integers passes with
 * probability < 2^-90: the difference, below 2^(2 bits + 3), has at most
 * (2 bits + 3) / 60 prime factors in [2^60, 2^61), which holds about 2^54.6
 * primes: < 2^-45 for each of the two primes up to 16384-bit moduli.
 * The primes are rw_prob_primes.c's; residues come from the rows of
 * rw_residues_table (rw_prob_residues.c): AVX-512 IFMA where usable, else
 * its twin, the portable 64-bit path. */
#include <string.h>
#include "rw/rw_msg.h"
#include "rw/rw_prob.h"

#define RATE_WORDS 17            /* 136-byte SHAKE256 block: words per hash lane */

static void residues_all(const fs_kernel *row, const mp_limb_t *const x[NRES4], size_t nn,
                         const prob_prime P[2], uint64_t out[2][NRES4])
{
    ((residues_fn *)row->fn)(x, nn, P, out);
}

/* The secret primes as this thread last saw them, and the residues of the
 * last modulus it checked (named by its key id, a hash of n) under them. */
typedef struct {
    const prob_prime *P;
    unsigned have;          /* generation P was taken in */
    int n_valid;
    uint8_t kid[32];
    uint64_t nres[2];
    /* weights for keys of sz_nl limbs (0: none yet) on the stitched path.
     * dw[0], dw[1]: the dot products read RW_KECCAK_DOT_LEN big-endian words
     * from the start of s and up to the end of k (the signature has no more),
     * so word i is limb nl-1-i of s (weight 2^(64 (nl-1-i)) mod p, zero past
     * nl) and limb D-1-i of k (D = RW_KECCAK_DOT_LEN; zero for the words
     * before k, which are s's). sw: residue_state_ifma's: state
     * word t = 2 i + l (lane l, word i) holds limb j = nl-1-(17 l + i), which
     * weighs 2^(64 j - 128) mod p (zero where no limb), split as ifw. */
    size_t sz_nl;
    uint64_t dw[2][RW_KECCAK_DOT_LEN][2];
    _Alignas(64) uint64_t sw[2][SW_VECS][4][8];
} thread_state;

static void build_size_tables(thread_state *t, size_t nl)
{
    for (int q = 0; q < 2; q++) {
        for (size_t i = 0, D = RW_KECCAK_DOT_LEN; i < D; i++) {
            t->dw[0][i][q] = i < nl ? t->P[q].w[nl - 1 - i] : 0;
            t->dw[1][i][q] = D - 1 - i < nl ? t->P[q].w[D - 1 - i] : 0;
        }
        const prob_prime *pp = &t->P[q];
        uint64_t r2 = mulmod(pp->rinv, pp->rinv, pp->p), r32 = (1ULL << 32) % pp->p;
        for (size_t w = 0; w < 8 * SW_VECS; w++) {
            size_t i = w / 2, stream = 17 * (w % 2) + i;
            uint64_t lo = 0, hi = 0;
            if (i < RATE_WORDS && stream < nl) {
                lo = mulmod(pp->w[nl - 1 - stream], r2, pp->p);
                hi = mulmod(lo, r32, pp->p);
            }
            uint64_t(*v)[8] = t->sw[q][w / 8];
            v[0][w % 8] = lo & ((1ULL << 52) - 1);
            v[1][w % 8] = lo >> 52;
            v[2][w % 8] = hi & ((1ULL << 52) - 1);
            v[3][w % 8] = hi >> 52;
        }
    }
    t->sz_nl = nl;
}

/* This thread's state (one TLS lookup per check) with the primes of this
 * process; NULL if none could be drawn. */
static thread_state *thread_primes(void)
{
    static __thread thread_state tl;
    unsigned gen = __atomic_load_n(&rw_prob_generation, __ATOMIC_ACQUIRE);
    if (tl.have != gen) {
        tl.n_valid = 0;
        tl.sz_nl = 0;
        if ((tl.P = rw_prob_get_primes()) == NULL)
            return NULL;    /* no secret primes: refuse rather than guess */
        tl.have = gen;
    }
    return &tl;
}

/* The check once the residues are known (res[q][j]: s, kq, h, n scaled by
 * 2^-64; h3[q], if not NULL, h scaled by 2^-192 instead of res[q][2]); n's
 * residues are kept for the next check of the same key. */
static int prob_finish(thread_state *t, const rw_key *k, int have_n, uint64_t res[2][NRES4],
                       const uint64_t *h3, int e, int f)
{
    if (!have_n) {
        memcpy(t->kid, k->kid, 32);
        t->nres[0] = res[0][3];
        t->nres[1] = res[1][3];
        t->n_valid = 1;
    }
    uint64_t bad = 0;
    for (int i = 0; i < 2; i++) {
        const prob_prime *pp = &t->P[i];
        uint64_t m = pp->p;
        /* products of two 2^-64-scaled residues are 2^-192-scaled after redc */
        uint64_t sm = res[i][0], km = res[i][1], nm = t->nres[i];
        uint64_t l = redc((unsigned __int128)sm * sm, pp);           /* s^2 2^-192 */
        if (f == 2)                                                  /* public: no division */
            l = 2 * l >= m ? 2 * l - m : 2 * l;
        uint64_t r = redc((unsigned __int128)km * nm, pp);           /* k n 2^-192 */
        uint64_t hh = h3 != NULL ? h3[i] : redc((unsigned __int128)res[i][2] * pp->rinv, pp);
        r = e > 0 ? r + hh : r + m - hh;                             /* h 2^-192 */
        bad |= (r >= m ? r - m : r) ^ l;
    }
    return bad == 0;
}

/* Whether this key's n residues are cached in t. */
static int have_n_of(const thread_state *t, const rw_key *k)
{
    return t->n_valid && memcmp(t->kid, k->kid, 32) == 0;
}

int rw_prob_verify(const rw_key *k, const mp_limb_t *s, const mp_limb_t *kq, int rbit,
                   const uint8_t *msg, size_t msglen, int e, int f)
{
    thread_state *t = thread_primes();
    if (t == NULL)
        return 0;
    size_t nn = mpz_size(k->n);
    int have_n = have_n_of(t, k);
    const mp_limb_t *n = have_n ? NULL : mpz_limbs_read(k->n);
    mp_limb_t h[MAXL];
    uint64_t res[2][NRES4];
    rw_fdh(k, rbit, msg, msglen, h);
    residues_all(fs_kernel_default(&rw_residues_table), (const mp_limb_t *const[NRES4]){ s, kq, h, n },
                 nn, t->P, res);
    return prob_finish(t, k, have_n, res, NULL, e, f);
}

int rw_prob_verify_be(const rw_key *k, const uint8_t *sig, int rbit, const uint8_t *msg,
                      size_t msglen, int e, int f)
{
    thread_state *t = thread_primes();
    if (t == NULL)
        return 0;
    const prob_prime *P = t->P;
    size_t nn = mpz_size(k->n), nb = k->nbytes;
    if (t->sz_nl != nn)
        build_size_tables(t, nn);
    int have_n = have_n_of(t, k);
    const mp_limb_t *n = have_n ? NULL : mpz_limbs_read(k->n);
    /* the residues of s and kq as dot products on the integer pipes while
     * the hash permutes on the vector ones; then those of h (and n). The
     * words read from s run into k and those up to k's end start in s
     * (weights zero there): 2 nb >= 8 D for these keys (nb >= 144). */
    _Alignas(64) uint64_t st[2 * 25];
    const uint8_t *kend = sig + 2 * nb;
    rw_keccak_dot_job job = { { sig, kend - 8 * RW_KECCAK_DOT_LEN },
                              { (const uint64_t(*)[2])t->dw[0], (const uint64_t(*)[2])t->dw[1] },
                              { { 0 } } };
    rw_fdh_dot(k, rbit, msg, msglen, st, &job);
    uint64_t res[2][NRES4], h3[2];
    for (int q = 0; q < 2; q++) {
        res[q][0] = fold192(job.acc[q], &P[q]);
        res[q][1] = fold192(job.acc[2 + q], &P[q]);
    }
    const fs_kernel *row = fs_kernel_default(&rw_residues_table);
    if (row->aux == NULL) {
        mp_limb_t h[MAXL];
        rw_fdh_state_to_h(k, st, h);
        residues_all(row, (const mp_limb_t *const[NRES4]){ NULL, NULL, h, n }, nn, P, res);
        return prob_finish(t, k, have_n, res, NULL, e, f);
    }
    ((residue_state_fn *)row->aux)(st, (const uint64_t(*const[2])[4][8]){ t->sw[0], t->sw[1] },
                                   P, h3);
    if (n != NULL)
        residues_all(row, (const mp_limb_t *const[NRES4]){ NULL, NULL, NULL, n }, nn, P, res);
    return prob_finish(t, k, have_n, res, h3, e, f);
}

int rw_prob_residues_test(const fs_kernel *row, const mp_limb_t *x, size_t nn, uint64_t out[2])
{
    thread_state *t = thread_primes();
    if (t == NULL || nn == 0 || nn > MAXL || !fs_kernel_usable(row, fs_cpu_features(), 0))
        return 0;
    const prob_prime *P = t->P;
    const mp_limb_t *const xs[NRES4] = { x, x, x, x };
    uint64_t res[2][NRES4];
    residues_all(row, xs, nn, P, res);
    out[0] = res[0][3];
    out[1] = res[1][3];
    for (int j = 0; j < 3; j++)           /* every slot computes the same */
        if (res[0][j] != out[0] || res[1][j] != out[1])
            return -1;
    return 1;
}
