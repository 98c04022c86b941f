/* test_rw_wipe.c - no RW secret reaches free() unwiped through GMP: this
 * program installs GMP memory functions that keep a copy of every block GMP
 * frees (or gives up in a realloc) while an operation runs, then scans the
 * copies for any two consecutive limbs of p, q, (p+1)/4, (q+1)/4, (q+1)/8 and
 * q^-1 mod p. Covers key generation, decoding, duplication, validation,
 * signing in every format and freeing. (Stack residue is out of its reach.) */
#include <stdlib.h>
#include <string.h>
#include <gmp.h>
#include "testutil.h"
#include "fastsig_err.h"
#include "rw/rw.h"
#include "rw/rw_internal.h"

typedef struct freed {
    struct freed *next;
    size_t len;
    unsigned char data[];
} freed;

static freed *log_head;
static int recording;

static void keep(const void *p, size_t len)
{
    if (!recording || p == NULL || len < 2 * sizeof(mp_limb_t))
        return;
    freed *f = malloc(sizeof(*f) + len);
    CU_ASSERT_PTR_NOT_NULL_FATAL(f);
    f->len = len;
    memcpy(f->data, p, len);
    f->next = log_head;
    log_head = f;
}

static void *hook_alloc(size_t n)
{
    void *p = malloc(n);
    if (p == NULL)
        abort();
    return p;
}

/* A realloc abandons the old block as it is: keep it like a free. */
static void *hook_realloc(void *p, size_t old, size_t n)
{
    void *q = hook_alloc(n);
    if (p != NULL) {
        memcpy(q, p, old < n ? old : n);
        keep(p, old);
        free(p);
    }
    return q;
}

static void hook_free(void *p, size_t n)
{
    keep(p, n);
    free(p);
}

static void drop_log(void)
{
    while (log_head != NULL) {
        freed *f = log_head;
        log_head = f->next;
        free(f);
    }
}

/* The secrets of a key, as limb arrays (read before recording starts). */
#define NSECRETS 6
static const char *const secret_names[NSECRETS] = { "p", "q", "(p+1)/4", "(q+1)/4", "(q+1)/8",
                                                    "u" };
typedef struct {
    mp_limb_t *l[NSECRETS];
    size_t n[NSECRETS];
} secrets;

static void limbs_copy(secrets *s, int i, const mpz_t z)
{
    s->n[i] = mpz_size(z);
    s->l[i] = malloc(s->n[i] * sizeof(mp_limb_t));
    memcpy(s->l[i], mpz_limbs_read(z), s->n[i] * sizeof(mp_limb_t));
}

static void secrets_of(secrets *s, const rw_key *k)
{
    int was = recording;
    recording = 0;
    mpz_t t;
    mpz_init(t);
    limbs_copy(s, 0, k->p);
    limbs_copy(s, 1, k->q);
    limbs_copy(s, 2, k->dp);
    mpz_mul_2exp(t, k->dq, 1);
    limbs_copy(s, 3, t);
    limbs_copy(s, 4, k->dq);
    limbs_copy(s, 5, k->u);
    mpz_clear(t);
    recording = was;
}

static void secrets_free(secrets *s)
{
    for (int i = 0; i < NSECRETS; i++)
        free(s->l[i]);
}

/* 1 if the block holds limbs j, j+1 of the secret for some j, at any
 * limb-aligned offset. */
static int holds(const freed *f, const mp_limb_t *x, size_t xn)
{
    size_t bn = f->len / sizeof(mp_limb_t);
    for (size_t i = 0; i + 1 < bn; i++) {
        mp_limb_t a, b;
        memcpy(&a, f->data + i * sizeof(mp_limb_t), sizeof(a));
        memcpy(&b, f->data + (i + 1) * sizeof(mp_limb_t), sizeof(b));
        for (size_t j = 0; j + 1 < xn; j++)
            if (a == x[j] && b == x[j + 1])
                return 1;
    }
    return 0;
}

/* Unwiped secret blocks in the log (printed per secret), and clears it. */
static unsigned scan(const char *what, const secrets *s)
{
    unsigned total = 0, blocks = 0;
    printf("\n    %s:", what);
    for (int i = 0; i < NSECRETS; i++) {
        unsigned hits = 0;
        for (const freed *f = log_head; f != NULL; f = f->next)
            hits += (unsigned)holds(f, s->l[i], s->n[i]);
        printf(" %s %u", secret_names[i], hits);
        total += hits;
    }
    for (const freed *f = log_head; f != NULL; f = f->next)
        blocks++;
    printf(" (of %u freed blocks)", blocks);
    drop_log();
    return total;
}

static int test_rng(void *arg, uint8_t *buf, size_t len)
{
    (void)arg;
    fs_test_random(buf, len);
    return 1;
}

static void test_no_unwiped_secrets(void)
{
    static const int formats[] = { RW_FMT_COMPACT, RW_FMT_EXPANDED, RW_FMT_P1363_SHA1,
                                   RW_FMT_P1363_SHA256 };
    mp_set_memory_functions(hook_alloc, hook_realloc, hook_free);
    rw_key *k = rw_key_new();
    recording = 1;
    CU_ASSERT_EQUAL_FATAL(rw_keygen(k, 2048, test_rng, NULL), FASTSIG_OK);
    recording = 0;
    secrets s;
    secrets_of(&s, k);
    CU_ASSERT_EQUAL(scan("keygen", &s), 0);

    uint8_t enc[600];
    size_t len = sizeof(enc);
    CU_ASSERT_EQUAL_FATAL(rw_key_encode_private(k, enc, &len), FASTSIG_OK);
    rw_key *d = rw_key_new();
    recording = 1;
    CU_ASSERT_EQUAL(rw_key_decode_private(d, enc, len), FASTSIG_OK);
    CU_ASSERT_EQUAL(rw_key_decode_private(d, enc, len), FASTSIG_OK);   /* over a loaded key */
    recording = 0;
    CU_ASSERT_EQUAL(scan("decode", &s), 0);

    recording = 1;
    CU_ASSERT_EQUAL(rw_key_check(d), FASTSIG_OK);
    rw_key *c = rw_key_dup(d);
    CU_ASSERT_PTR_NOT_NULL(c);
    rw_key_free(c);
    recording = 0;
    CU_ASSERT_EQUAL(scan("check, dup, free", &s), 0);

    recording = 1;
    for (size_t f = 0; f < sizeof(formats) / sizeof(formats[0]); f++) {
        uint8_t sig[600];
        size_t sl = sizeof(sig);
        CU_ASSERT_EQUAL(rw_sign(d, formats[f], 0, (const uint8_t *)"msg", 3, sig, &sl), FASTSIG_OK);
    }
    recording = 0;
    CU_ASSERT_EQUAL(scan("sign (every format)", &s), 0);

    recording = 1;
    rw_key_free(d);
    rw_key_free(k);
    recording = 0;
    CU_ASSERT_EQUAL(scan("key free", &s), 0);
    printf("\n");
    secrets_free(&s);
    mp_set_memory_functions(NULL, NULL, NULL);
}

static const fs_test tests[] = {
    { "no secret in memory GMP frees", test_no_unwiped_secrets },
    { NULL, NULL },
};

int main(void)
{
    return fs_cu_run("rw-wipe", tests);
}
