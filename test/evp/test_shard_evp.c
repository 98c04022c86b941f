/* test_shard_evp.c - shards of XMSS / XMSS^MT and HSS keys through the
 * documented EVP path (the "shard-range" / "shard-state" key parameters),
 * every check for each row of `kinds` below: carving, the range in the key
 * encoding (and a key without one), a shard refusing indices outside its
 * range (forged state files, before and after load), a shard of a shard,
 * the parent and two shards of one key signing in three processes at once
 * (every signature verifies under the one public key, no index twice), and
 * carving processes SIGKILLed at random times (100; FASTSIG_SOAK=1: 1000)
 * with no index issued twice; a shard state in a missing directory refused
 * before the parent moves. */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <openssl/err.h>
#include <openssl/pem.h>
#include <openssl/x509.h>
#include "stateful_evp.h"
#include "evp_fixture.h"
#include "fastsig/provider.h"
#include "fastsig_err.h"
#include "state/statefile.h"

#define XMSS10 "XMSS-SHA2_10_256"
#define MT20 "XMSSMT-SHA2_20/4_256"
#define H5W4 "LMS_SHA256_M32_H5/LMOTS_SHA256_N32_W4"
#define HSS55 H5W4 "," H5W4

static uint64_t xmss_index(const unsigned char *sig)
{
    return sig_index(sig, 4);
}

static uint64_t mt20_index(const unsigned char *sig)
{
    return sig_index(sig, 3);
}

/* HSS55's global index: level 0's leaf q (after u32str(L-1)) above level
 * 1's, which follows level 0's LMS signature (4 + 4 + 32 + 67 * 32 + 4 +
 * 5 * 32 = 2348 bytes) and level 1's public key (56 bytes). */
static uint64_t hss55_index(const unsigned char *sig)
{
    return sig_index(sig + 4, 4) << 5 | sig_index(sig + 4 + 2348 + 56, 4);
}

/* One row per kind with shards: a key of 1024 indices (small), and a key
 * (big) for the shard of a shard and the three signers, with the ranges
 * those use. */
typedef struct {
    const char *alg, *param;
    uint64_t align;                          /* its shard-align */
    size_t core;                             /* private core bytes */
    uint64_t (*index)(const unsigned char *sig);
    const char *big_alg, *big_param;
    size_t big_siglen;
    uint64_t (*big_index)(const unsigned char *sig);
    /* shard of a shard: the shard, a range before it, one across its end,
     * the sub-shard ("+N") and its range; where each then signs */
    const char *sub, *before, *across, *next_n, *sub_range;
    uint64_t sub_first, shard_next, parent_next;
    uint64_t share;                          /* three signers: each shard's size */
} kind_row;

static const kind_row kinds[] = {
    { "XMSS", XMSS10, 1024, 4 + 4 + 4 * 32, xmss_index, "XMSSMT", MT20, 0, mt20_index,
      "4096-8192", "0-100", "8000-8200", "+1000", "4096-5096", 4096, 5096, 8192, 1024 },
    { "HSS", HSS55, 32, 4 + 2 * 8 + 16 + 2 * 32, hss55_index, "HSS", HSS55,
      4 + 2 * 2348 + 56, hss55_index,
      "128-256", "0-100", "250-260", "+50", "128-178", 128, 178, 256, 256 },
};
#define NKINDS (sizeof(kinds) / sizeof(kinds[0]))
/* test_<fn>: fn for every row */
#define FOR_KINDS(fn)                                                                    \
    static void test_##fn(void)                                                          \
    {                                                                                    \
        for (size_t i = 0; i < NKINDS; i++)                                              \
            fn(&kinds[i]);                                                               \
    }

/* Carves range into k (which becomes the shard); state: NULL = default. */
static int carve(EVP_PKEY *k, const char *range, const char *state)
{
    OSSL_PARAM p[3];
    int n = 0;
    p[n++] = OSSL_PARAM_construct_utf8_string(FASTSIG_PKEY_PARAM_SHARD_RANGE, (char *)range, 0);
    if (state != NULL)
        p[n++] = OSSL_PARAM_construct_utf8_string(FASTSIG_PKEY_PARAM_SHARD_STATE,
                                                  (char *)state, 0);
    p[n] = OSSL_PARAM_construct_end();
    return EVP_PKEY_set_params(k, p) == 1 ? 0 : last_reason();
}

static void range_of(EVP_PKEY *k, char *out, size_t len)
{
    OSSL_PARAM p[] = { OSSL_PARAM_utf8_string(FASTSIG_PKEY_PARAM_SHARD_RANGE, out, len),
                       OSSL_PARAM_END };
    out[0] = '\0';
    CU_ASSERT(EVP_PKEY_get_params(k, p) == 1);
}

static void state_of(EVP_PKEY *k, char *out, size_t len)
{
    OSSL_PARAM p[] = { OSSL_PARAM_utf8_string(FASTSIG_PKEY_PARAM_STATE, out, len),
                       OSSL_PARAM_END };
    out[0] = '\0';
    CU_ASSERT(EVP_PKEY_get_params(k, p) == 1);
}

/* Signs once; the index (index_of the signature), or UINT64_MAX (and
 * *reason) when refused. */
static uint64_t sign_index(EVP_PKEY *k, uint64_t (*index_of)(const unsigned char *),
                           int *reason)
{
    unsigned char *sig = NULL;
    size_t siglen = 0;
    uint64_t idx = UINT64_MAX;
    int r = sign_msg(k, "shard", 5, &sig, &siglen, 0);
    if (r == 0) {
        CU_ASSERT_EQUAL(verify_msg(k, "shard", 5, sig, siglen), 1);
        idx = index_of(sig);
    }
    if (reason != NULL)
        *reason = r;
    OPENSSL_free(sig);
    return idx;
}

/* The privateKey octets of a PEM private key (PKCS#8, unencrypted). */
static size_t pkcs8_octets(const char *pem, unsigned char *out, size_t cap)
{
    BIO *b = BIO_new_mem_buf(pem, -1);
    PKCS8_PRIV_KEY_INFO *p8 = PEM_read_bio_PKCS8_PRIV_KEY_INFO(b, NULL, NULL, NULL);
    const unsigned char *o = NULL;
    int len = 0;
    size_t n = 0;
    BIO_free(b);
    if (p8 != NULL && PKCS8_pkey_get0(NULL, &o, &len, NULL, p8) == 1 && (size_t)len <= cap) {
        memcpy(out, o, (size_t)len);
        n = (size_t)len;
    }
    PKCS8_PRIV_KEY_INFO_free(p8);
    return n;
}

static uint64_t be64(const unsigned char *b)
{
    return sig_index(b, 8);
}

static void forge(EVP_PKEY *k, const char *path, uint64_t max, uint64_t next);

static void carve_and_sign(const kind_row *r)
{
    char state[600], range[48], sstate[600], *pem;
    EVP_PKEY *k = gen_key(r->alg, r->param, NULL, NULL, state, sizeof(state)), *a, *b;

    CU_ASSERT_PTR_NOT_NULL_FATAL(k);
    range_of(k, range, sizeof(range));
    CU_ASSERT_STRING_EQUAL(range, "0-1024");
    CU_ASSERT_EQUAL(key_u64(k, FASTSIG_PKEY_PARAM_SHARD_ALIGN), r->align);
    CU_ASSERT_EQUAL(sign_index(k, r->index, NULL), 0); /* the parent signs: block [0, 1) */
    CU_ASSERT_PTR_NOT_NULL_FATAL(pem = to_pem(k, 1));

    CU_ASSERT_PTR_NOT_NULL_FATAL(a = from_pem(pem, 1));
    CU_ASSERT_EQUAL(carve(a, "+100", NULL), 0);
    range_of(a, range, sizeof(range));
    CU_ASSERT_STRING_EQUAL(range, "1-101");
    CU_ASSERT_EQUAL(key_u64(a, FASTSIG_PKEY_PARAM_INDEX), 1);
    CU_ASSERT_EQUAL(key_u64(a, FASTSIG_PKEY_PARAM_REMAINING), 100);
    CU_ASSERT_EQUAL(key_u64(a, FASTSIG_PKEY_PARAM_MAX), 100);
    state_of(a, sstate, sizeof(sstate));
    CU_ASSERT_PTR_NOT_NULL(strstr(sstate, ".1-101.state")); /* beside the parent's */
    CU_ASSERT_EQUAL(state_file_next(state), 101);

    CU_ASSERT_PTR_NOT_NULL_FATAL(b = from_pem(pem, 1));
    CU_ASSERT_EQUAL(carve(b, "500-600", NULL), 0);
    CU_ASSERT_EQUAL(state_file_next(state), 600);
    /* spent, past the end, malformed: refused, the parent as it was */
    EVP_PKEY *c = from_pem(pem, 1);
    CU_ASSERT_PTR_NOT_NULL_FATAL(c);
    CU_ASSERT_EQUAL(carve(c, "550-560", NULL), FASTSIG_ERR_STATE_RANGE);
    CU_ASSERT_EQUAL(carve(c, "600-1025", NULL), FASTSIG_ERR_STATE_RANGE);
    CU_ASSERT_EQUAL(carve(c, "+0", NULL), FASTSIG_ERR_BAD_PARAM);
    CU_ASSERT_EQUAL(carve(c, "7-7", NULL), FASTSIG_ERR_BAD_PARAM);
    CU_ASSERT_EQUAL(carve(c, "x", NULL), FASTSIG_ERR_BAD_PARAM);
    CU_ASSERT_EQUAL(state_file_next(state), 600);
    EVP_PKEY_free(c);

    /* each signs inside its own range, the parent after all of them */
    CU_ASSERT_EQUAL(sign_index(a, r->index, NULL), 1);
    CU_ASSERT_EQUAL(sign_index(b, r->index, NULL), 500);
    CU_ASSERT_EQUAL(sign_index(a, r->index, NULL), 2);
    CU_ASSERT_EQUAL(sign_index(k, r->index, NULL), 600);
    /* an object that has signed (its core built for the old range; one
     * index reserved: the first block) carved again: it signs at the new
     * range's first index */
    CU_ASSERT_EQUAL(carve(b, "+10", NULL), 0);
    range_of(b, range, sizeof(range));
    CU_ASSERT_STRING_EQUAL(range, "501-511");
    CU_ASSERT_EQUAL(sign_index(b, r->index, NULL), 501);
    /* and a state moved below 501 is refused: below what this object
     * reserved, the state layer sees a rollback before the core's range
     * check would refuse the old range's indices */
    int why = 0;
    state_of(b, sstate, sizeof(sstate));
    forge(k, sstate, 511, 500);
    CU_ASSERT_EQUAL(sign_index(b, r->index, &why), UINT64_MAX);
    CU_ASSERT_EQUAL(why, FASTSIG_ERR_STATE_ROLLED_BACK);
    EVP_PKEY_free(a);
    EVP_PKEY_free(b);
    EVP_PKEY_free(k);
    OPENSSL_free(pem);
}
FOR_KINDS(carve_and_sign)

/* Nothing to carve: a one-time key, a public key, a state for no range. */
static void test_refused_keys(void)
{
    char state[600], *pem;
    EVP_PKEY *w = gen_key("WOTSP", NULL, NULL, NULL, state, sizeof(state));
    EVP_PKEY *k = gen_key("XMSS", XMSS10, NULL, NULL, state, sizeof(state)), *pub;
    OSSL_PARAM only_state[] = {
        OSSL_PARAM_utf8_string(FASTSIG_PKEY_PARAM_SHARD_STATE, state, 0), OSSL_PARAM_END };

    CU_ASSERT_PTR_NOT_NULL_FATAL(w);
    CU_ASSERT_PTR_NOT_NULL_FATAL(k);
    CU_ASSERT_EQUAL(carve(w, "+1", NULL), FASTSIG_ERR_UNSUPPORTED);
    CU_ASSERT_PTR_NOT_NULL_FATAL(pem = to_pem(k, 0));
    CU_ASSERT_PTR_NOT_NULL_FATAL(pub = from_pem(pem, 0));
    CU_ASSERT_EQUAL(carve(pub, "+1", NULL), FASTSIG_ERR_BAD_KEY);
    CU_ASSERT_EQUAL(EVP_PKEY_set_params(k, only_state), 0);
    CU_ASSERT_EQUAL(last_reason(), FASTSIG_ERR_BAD_PARAM);
    CU_ASSERT_EQUAL(state_file_next(state), 0);
    EVP_PKEY_free(pub);
    EVP_PKEY_free(k);
    EVP_PKEY_free(w);
    OPENSSL_free(pem);
}

/* shard-state in a missing directory (a file there, or the directory
 * itself): refused before the parent's state moves, the error naming the
 * path; the same key carves into its own directory afterwards. */
static void state_dir_missing(const kind_row *r)
{
    char state[600], dir[620], missing[640];
    const char *data = NULL;
    int flags = 0;
    EVP_PKEY *k = gen_key(r->alg, r->param, NULL, NULL, state, sizeof(state));

    CU_ASSERT_PTR_NOT_NULL_FATAL(k);
    snprintf(dir, sizeof(dir), "%s.missing/", state);
    snprintf(missing, sizeof(missing), "%sshard.state", dir);
    OSSL_PARAM p[] = {
        OSSL_PARAM_utf8_string(FASTSIG_PKEY_PARAM_SHARD_RANGE, "+10", 0),
        OSSL_PARAM_utf8_string(FASTSIG_PKEY_PARAM_SHARD_STATE, missing, 0), OSSL_PARAM_END };
    CU_ASSERT_EQUAL(EVP_PKEY_set_params(k, p), 0);
    CU_ASSERT_EQUAL(ERR_GET_REASON(ERR_peek_last_error_data(&data, &flags)),
                    FASTSIG_ERR_STATE_NO_DIR);
    CU_ASSERT(data != NULL && strstr(data, missing) != NULL);
    ERR_clear_error();
    CU_ASSERT_EQUAL(state_file_next(state), 0);
    CU_ASSERT_EQUAL(carve(k, "100-200", missing), FASTSIG_ERR_STATE_NO_DIR);
    CU_ASSERT_EQUAL(carve(k, "+10", dir), FASTSIG_ERR_STATE_NO_DIR);
    CU_ASSERT_EQUAL(state_file_next(state), 0);
    CU_ASSERT_EQUAL(carve(k, "+10", NULL), 0);
    CU_ASSERT_EQUAL(state_file_next(state), 10);
    EVP_PKEY_free(k);
}
FOR_KINDS(state_dir_missing)

/* Whole keys are written as before (no range field: keys from before shards
 * decode as whole keys); a shard's key ends with 0x01 || BE64 first ||
 * BE64 end, survives a PEM round trip and stays inside its range. */
static void encoding(const kind_row *r)
{
    char state[600], sstate[600], range[48], *pem, *spem;
    unsigned char o[2000];
    size_t n, core = r->core;
    EVP_PKEY *k = gen_key(r->alg, r->param, NULL, NULL, state, sizeof(state)), *s, *d;

    CU_ASSERT_PTR_NOT_NULL_FATAL(k);
    CU_ASSERT_PTR_NOT_NULL_FATAL(pem = to_pem(k, 1));
    n = pkcs8_octets(pem, o, sizeof(o));
    CU_ASSERT_EQUAL(n, core + 2 + strlen(state));
    CU_ASSERT_PTR_NOT_NULL_FATAL(s = from_pem(pem, 1));
    CU_ASSERT_EQUAL(carve(s, "200-300", NULL), 0);
    state_of(s, sstate, sizeof(sstate));
    CU_ASSERT_PTR_NOT_NULL_FATAL(spem = to_pem(s, 1));
    n = pkcs8_octets(spem, o, sizeof(o));
    CU_ASSERT_EQUAL_FATAL(n, core + 2 + strlen(sstate) + 17);
    CU_ASSERT(o[n - 17] == 1 && be64(o + n - 16) == 200 && be64(o + n - 8) == 300);
    EVP_PKEY_free(s); /* writes the shard's cache; its state stays at 200 */
    CU_ASSERT_PTR_NOT_NULL_FATAL(d = from_pem(spem, 1));
    range_of(d, range, sizeof(range));
    CU_ASSERT_STRING_EQUAL(range, "200-300");
    CU_ASSERT_EQUAL(sign_index(d, r->index, NULL), 200);
    EVP_PKEY_free(d);
    /* the whole key still loads and signs (past the shard) */
    CU_ASSERT_PTR_NOT_NULL_FATAL(d = from_pem(pem, 1));
    CU_ASSERT_EQUAL(sign_index(d, r->index, NULL), 300);
    EVP_PKEY_free(d);
    EVP_PKEY_free(k);
    OPENSSL_free(pem);
    OPENSSL_free(spem);
}
FOR_KINDS(encoding)

static void forge(EVP_PKEY *k, const char *path, uint64_t max, uint64_t next)
{
    uint8_t id[FASTSIG_STATE_KEY_ID_LEN];
    unsigned char pub[200];
    size_t len = 0;
    unsigned int dl = 0;
    CU_ASSERT_FATAL(get_pub(k, pub, sizeof(pub), &len));
    CU_ASSERT_FATAL(EVP_Digest(pub, len, id, &dl, EVP_sha256(), NULL));
    CU_ASSERT_EQUAL_FATAL(fastsig_state_create(path, id, max, next, FASTSIG_STATE_OVERWRITE, NULL),
                          FASTSIG_OK);
}

/* A shard refuses indices outside [first, end), whatever its state file
 * says: a forged max or a next below first is refused at load; a state
 * rewritten under a loaded shard is refused by the core at signing. */
static void refuses_outside(const kind_row *r)
{
    char state[600], sstate[600], *pem, *spem;
    EVP_PKEY *k = gen_key(r->alg, r->param, NULL, NULL, state, sizeof(state)), *s, *d;
    int why;

    CU_ASSERT_PTR_NOT_NULL_FATAL(k);
    CU_ASSERT_PTR_NOT_NULL_FATAL(pem = to_pem(k, 1));
    CU_ASSERT_PTR_NOT_NULL_FATAL(s = from_pem(pem, 1));
    OPENSSL_free(pem);
    CU_ASSERT_EQUAL_FATAL(carve(s, "100-200", NULL), 0);
    state_of(s, sstate, sizeof(sstate));
    CU_ASSERT_PTR_NOT_NULL_FATAL(spem = to_pem(s, 1));
    EVP_PKEY_free(s);
    const struct { uint64_t max, next; int reason; } bad[] = {
        { 1024, 100, FASTSIG_ERR_STATE_MAX }, /* the whole key's max */
        { 300, 100, FASTSIG_ERR_STATE_MAX },  /* past the shard's end */
        { 200, 99, FASTSIG_ERR_STATE_MAX },   /* next below the start */
        { 200, 0, FASTSIG_ERR_STATE_MAX },
        { 200, 200, FASTSIG_ERR_KEY_EXHAUSTED }, /* next at the end */
    };
    for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
        forge(k, sstate, bad[i].max, bad[i].next);
        CU_ASSERT_PTR_NOT_NULL_FATAL(d = from_pem(spem, 1));
        CU_ASSERT_EQUAL(sign_index(d, r->index, &why), UINT64_MAX);
        CU_ASSERT_EQUAL(why, bad[i].reason);
        EVP_PKEY_free(d);
    }
    /* loaded while the state was right, then moved below the start (below
     * what it reserved): refused as a rollback */
    forge(k, sstate, 200, 150);
    CU_ASSERT_PTR_NOT_NULL_FATAL(d = from_pem(spem, 1));
    CU_ASSERT_EQUAL(sign_index(d, r->index, NULL), 150);
    forge(k, sstate, 200, 5);
    CU_ASSERT_EQUAL(sign_index(d, r->index, &why), UINT64_MAX);
    CU_ASSERT_EQUAL(why, FASTSIG_ERR_STATE_ROLLED_BACK);
    EVP_PKEY_free(d);
    EVP_PKEY_free(k);
    OPENSSL_free(spem);
}
FOR_KINDS(refuses_outside)

/* A shard of a shard lies inside it, moves the shard on first, and a
 * shard cannot take back what lies before it (never widened). */
static void shard_of_shard(const kind_row *r)
{
    char state[600], range[48], *pem, *spem;
    EVP_PKEY *k = gen_key(r->big_alg, r->big_param, NULL, NULL, state, sizeof(state)), *s, *g;

    CU_ASSERT_PTR_NOT_NULL_FATAL(k);
    CU_ASSERT_PTR_NOT_NULL_FATAL(pem = to_pem(k, 1));
    CU_ASSERT_PTR_NOT_NULL_FATAL(s = from_pem(pem, 1));
    CU_ASSERT_EQUAL_FATAL(carve(s, r->sub, NULL), 0);
    CU_ASSERT_PTR_NOT_NULL_FATAL(spem = to_pem(s, 1));
    CU_ASSERT_PTR_NOT_NULL_FATAL(g = from_pem(spem, 1));
    CU_ASSERT_EQUAL(carve(g, r->before, NULL), FASTSIG_ERR_STATE_RANGE);
    CU_ASSERT_EQUAL(carve(g, r->across, NULL), FASTSIG_ERR_STATE_RANGE);
    CU_ASSERT_EQUAL(carve(g, r->next_n, NULL), 0);
    range_of(g, range, sizeof(range));
    CU_ASSERT_STRING_EQUAL(range, r->sub_range);
    CU_ASSERT_EQUAL(sign_index(g, r->big_index, NULL), r->sub_first);
    CU_ASSERT_EQUAL(sign_index(s, r->big_index, NULL), r->shard_next);
    CU_ASSERT_EQUAL(sign_index(k, r->big_index, NULL), r->parent_next);
    EVP_PKEY_free(g);
    EVP_PKEY_free(s);
    EVP_PKEY_free(k);
    OPENSSL_free(pem);
    OPENSSL_free(spem);
}
FOR_KINDS(shard_of_shard)

/* Child: signs nsig messages "m<tag>-<i>" with the key in pem, writes the
 * signatures one after the other to path. */
static int sign_child(const char *pem, int tag, int nsig, const char *path)
{
    EVP_PKEY *k = from_pem(pem, 1);
    FILE *f = fopen(path, "wb");
    char msg[32];
    int ok = k != NULL && f != NULL;
    for (int i = 0; ok && i < nsig; i++) {
        unsigned char *sig = NULL;
        size_t siglen = 0;
        snprintf(msg, sizeof(msg), "m%d-%d", tag, i);
        ok = sign_msg(k, msg, strlen(msg), &sig, &siglen, 0) == 0
             && fwrite(sig, 1, siglen, f) == siglen;
        OPENSSL_free(sig);
    }
    ok = f != NULL && fclose(f) == 0 && ok;
    EVP_PKEY_free(k);
    return ok ? 0 : 1;
}

/* The parent key and two shards of it (two signers, one key) in three
 * processes at once: every signature verifies under the parent's public
 * key, and no index appears twice. */
static void two_signers_one_key(const kind_row *r)
{
    enum { NSIGS = 150, NPROC = 3 };
    char state[600], path[NPROC][640], share[32], *pem[NPROC];
    size_t siglen = r->big_siglen ? r->big_siglen : xmss_sig_bytes(xmss_params_by_name(r->big_param));
    uint64_t n = r->share;
    EVP_PKEY *k = gen_key(r->big_alg, r->big_param, NULL, NULL, state, sizeof(state)), *s;
    static unsigned char seen[1 << 20];
    unsigned char *sig = malloc(siglen);
    int dup = 0, bad = 0, count = 0, status;
    pid_t pid[NPROC];

    CU_ASSERT_PTR_NOT_NULL_FATAL(k);
    CU_ASSERT_PTR_NOT_NULL_FATAL(pem[0] = to_pem(k, 1));
    snprintf(share, sizeof(share), "+%llu", (unsigned long long)n);
    for (int i = 1; i < NPROC; i++) { /* [0, n), [n, 2n): whole bottom subtrees */
        CU_ASSERT_PTR_NOT_NULL_FATAL(s = from_pem(pem[0], 1));
        CU_ASSERT_EQUAL_FATAL(carve(s, share, NULL), 0);
        CU_ASSERT_PTR_NOT_NULL_FATAL(pem[i] = to_pem(s, 1));
        EVP_PKEY_free(s);
    }
    for (int i = 0; i < NPROC; i++) {
        snprintf(path[i], sizeof(path[i]), "%s.sigs%d", state, i);
        if ((pid[i] = fork()) == 0)
            _exit(sign_child(pem[i], i, NSIGS, path[i]));
        CU_ASSERT_FATAL(pid[i] > 0);
    }
    for (int i = 0; i < NPROC; i++) {
        CU_ASSERT(waitpid(pid[i], &status, 0) == pid[i] && WIFEXITED(status)
                  && WEXITSTATUS(status) == 0);
    }
    memset(seen, 0, sizeof(seen));
    for (int i = 0; i < NPROC; i++) {
        FILE *f = fopen(path[i], "rb");
        char msg[32];
        CU_ASSERT_PTR_NOT_NULL_FATAL(f);
        for (int j = 0; fread(sig, 1, siglen, f) == siglen; j++) {
            uint64_t idx = r->big_index(sig);
            snprintf(msg, sizeof(msg), "m%d-%d", i, j);
            bad += verify_msg(k, msg, strlen(msg), sig, siglen) != 1;
            bad += i == 0 ? idx < 2 * n : idx < n * (uint64_t)(i - 1) || idx >= n * (uint64_t)i;
            dup += seen[idx]++ != 0;
            count++;
        }
        fclose(f);
        OPENSSL_free(pem[i]);
    }
    CU_ASSERT_EQUAL(count, NPROC * NSIGS);
    CU_ASSERT_EQUAL(bad, 0);
    CU_ASSERT_EQUAL(dup, 0);
    free(sig);
    EVP_PKEY_free(k);
}
FOR_KINDS(two_signers_one_key)

/* Child: carve the next 2 indices of the key in pem and write the shard to
 * <prefix>.<n>.pem (through a temporary name); killed at any moment. */
static int carve_child(const char *pem, const char *prefix, int n)
{
    char tmp[700], out[700], *spem;
    EVP_PKEY *k = from_pem(pem, 1);
    FILE *f;
    if (k == NULL || carve(k, "+2", NULL) != 0 || (spem = to_pem(k, 1)) == NULL)
        return 1;
    snprintf(tmp, sizeof(tmp), "%s.%d.tmp", prefix, n);
    snprintf(out, sizeof(out), "%s.%d.pem", prefix, n);
    if ((f = fopen(tmp, "w")) == NULL || fputs(spem, f) < 0 || fclose(f) != 0
        || rename(tmp, out) != 0)
        return 1;
    EVP_PKEY_free(k);
    return 0;
}

/* Carvers SIGKILLed at random moments; then the parent and every shard whose
 * key was written sign until exhausted: no index twice. */
static void sigkill_during_carve(const kind_row *r)
{
    char state[600], prefix[620], file[700], *pem;
    int runs = soak() ? 1000 : 100, dup = 0, done = 0, status;
    uint64_t span = 1;
    EVP_PKEY *k = gen_key(r->alg, r->param, NULL, NULL, state, sizeof(state)), *s;
    static unsigned char seen[1024];

    CU_ASSERT_PTR_NOT_NULL_FATAL(k);
    CU_ASSERT_PTR_NOT_NULL_FATAL(pem = to_pem(k, 1));
    snprintf(prefix, sizeof(prefix), "%s.shard", state);
    for (int i = 0; i < runs; i++) {
        struct timespec t0, t1;
        clock_gettime(CLOCK_MONOTONIC, &t0);
        pid_t pid = fork();
        if (pid == 0)
            _exit(carve_child(pem, prefix, i));
        CU_ASSERT_FATAL(pid > 0);
        if (i == 0) { /* the first runs whole: how long a carve takes here */
            CU_ASSERT(waitpid(pid, &status, 0) == pid);
            CU_ASSERT(WIFEXITED(status) && WEXITSTATUS(status) == 0); /* and it carves */
            clock_gettime(CLOCK_MONOTONIC, &t1);
            span = (uint64_t)((t1.tv_sec - t0.tv_sec) * 1000000 + (t1.tv_nsec - t0.tv_nsec) / 1000);
            span = span + span / 2 + 1;
            continue;
        }
        /* kill anywhere from before the decode to after the shard is written */
        usleep((useconds_t)(fs_test_rand64() % span));
        kill(pid, SIGKILL);
        CU_ASSERT(waitpid(pid, &status, 0) == pid);
        done += WIFEXITED(status) && WEXITSTATUS(status) == 0;
    }
    memset(seen, 0, sizeof(seen));
    for (int i = 0; i < runs; i++) {
        snprintf(file, sizeof(file), "%s.%d.pem", prefix, i);
        FILE *f = fopen(file, "r");
        char buf[4096];
        size_t n;
        if (f == NULL)
            continue;
        n = fread(buf, 1, sizeof(buf) - 1, f);
        buf[n] = '\0';
        fclose(f);
        CU_ASSERT_PTR_NOT_NULL_FATAL(s = from_pem(buf, 1));
        for (uint64_t idx; (idx = sign_index(s, r->index, NULL)) != UINT64_MAX;)
            dup += seen[idx]++ != 0;
        EVP_PKEY_free(s);
    }
    for (uint64_t idx; (idx = sign_index(k, r->index, NULL)) != UINT64_MAX;)
        dup += seen[idx]++ != 0;
    CU_ASSERT_EQUAL(dup, 0);
    printf(" [%s: %d of %d killed carves had finished] ", r->alg, done, runs - 1);
    EVP_PKEY_free(k);
    OPENSSL_free(pem);
}
FOR_KINDS(sigkill_during_carve)

static const fs_test tests[] = {
    { "load provider", stateful_load },
    { "carve (next N, a range), sign inside each range", test_carve_and_sign },
    { "range in the key encoding; whole keys without it", test_encoding },
    { "one-time and public keys are not carved", test_refused_keys },
    { "a shard refuses indices outside its range", test_refuses_outside },
    { "shard-state in a missing directory fails without moving the parent",
      test_state_dir_missing },
    { "a shard of a shard", test_shard_of_shard },
    { "two signers, one key: parent and 2 shards in 3 processes", test_two_signers_one_key },
    { "SIGKILL during carves: no index twice", test_sigkill_during_carve },
    { "unload", stateful_unload },
    { NULL, NULL }
};

int main(void)
{
    return fs_cu_run("shard_evp", tests);
}
