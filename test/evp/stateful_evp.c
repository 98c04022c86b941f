/* stateful_evp.c - see stateful_evp.h. EVP only for the algorithms; crypto/state's
 * own API is used to look at and move a key's state file, as an operator's
 * tool would. */
#include <errno.h>
#include <limits.h>
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include <time.h>
#include <sys/wait.h>
#include <openssl/evp.h>
#include <openssl/err.h>
#include <openssl/pem.h>
#include <openssl/core_names.h>
#include <openssl/provider.h>
#include "testutil.h"
#include "xmss_vec.h"
#include "evp_fixture.h"
#include "stateful_evp.h"
#include "fastsig/provider.h"
#include "fastsig_err.h"
#include "state/statefile.h"

static char workdir[512];
static int state_seq;

int soak(void)
{
    const char *s = getenv("FASTSIG_SOAK");
    return s != NULL && s[0] != '\0' && s[0] != '0';
}

void stateful_load(void)
{
    const char *tmp = getenv("TMPDIR");
    evp_load(1);
    snprintf(workdir, sizeof(workdir), "%s/fastsig-stateful-XXXXXX", tmp && tmp[0] ? tmp : "/tmp");
    CU_ASSERT_PTR_NOT_NULL_FATAL(mkdtemp(workdir));
}

void stateful_unload(void)
{
    char cmd[600];
    evp_unload();
    snprintf(cmd, sizeof(cmd), "rm -rf '%s'", workdir);
    CU_ASSERT_EQUAL(system(cmd), 0);
}

/* A fresh state path in the scratch folder, and a fresh default state
 * directory for the key generation about to use it: each generation is a
 * machine of its own, so a known-answer key (a fixed seed) can be made again
 * (the key-id registry is tested in cli/statelife.sh and unit/registry). */
void new_state_path(char *out, size_t len)
{
    char dir[600];
    snprintf(dir, sizeof(dir), "%s/d%d", workdir, state_seq);
    CU_ASSERT_EQUAL(setenv("FASTSIG_STATE_DIR", dir, 1), 0);
    snprintf(out, len, "%s/k%d.state", workdir, state_seq++);
}

/* The fastsig reason code of the last error (0 if none), queue cleared. */
int last_reason(void)
{
    unsigned long e = ERR_peek_last_error();
    ERR_clear_error();
    return e == 0 ? 0 : ERR_GET_REASON(e);
}

/* Generates a key of alg; NULLs choose the defaults. *state gets the path. */
EVP_PKEY *gen_key_ex(const char *alg, const char *param, const char *seedhex,
                     const char *mode, unsigned threads, char *state, size_t statelen)
{
    OSSL_PARAM prm[6];
    size_t n = 0;
    EVP_PKEY_CTX *c = EVP_PKEY_CTX_new_from_name(libctx, alg, NULL);
    EVP_PKEY *k = NULL;

    new_state_path(state, statelen);
    if (param != NULL)
        prm[n++] = OSSL_PARAM_construct_utf8_string(FASTSIG_PKEY_PARAM_PARAM, (char *)param, 0);
    if (seedhex != NULL)
        prm[n++] = OSSL_PARAM_construct_utf8_string(FASTSIG_PKEY_PARAM_SEED, (char *)seedhex, 0);
    if (mode != NULL)
        prm[n++] = OSSL_PARAM_construct_utf8_string(FASTSIG_PKEY_PARAM_MODE, (char *)mode, 0);
    if (threads != 0)
        prm[n++] = OSSL_PARAM_construct_uint(FASTSIG_PKEY_PARAM_THREADS, &threads);
    prm[n++] = OSSL_PARAM_construct_utf8_string(FASTSIG_PKEY_PARAM_STATE, state, 0);
    prm[n] = OSSL_PARAM_construct_end();
    if (c == NULL || EVP_PKEY_keygen_init(c) <= 0 || !EVP_PKEY_CTX_set_params(c, prm)
        || EVP_PKEY_generate(c, &k) <= 0)
        k = NULL;
    EVP_PKEY_CTX_free(c);
    return k;
}

EVP_PKEY *gen_key(const char *alg, const char *param, const char *seedhex,
                  const char *mode, char *state, size_t statelen)
{
    return gen_key_ex(alg, param, seedhex, mode, 0, state, statelen);
}

/* One-shot digest-sign (no digest). Returns the fastsig reason on failure
 * (0 on success); *siglen 0 and sig untouched-or-wiped on failure. batch:
 * signature-context reservation block (0: the key's). */
int sign_msg(EVP_PKEY *k, const void *msg, size_t msglen, unsigned char **sig,
             size_t *siglen, uint64_t batch)
{
    EVP_MD_CTX *m = EVP_MD_CTX_new();
    OSSL_PARAM prm[2] = { OSSL_PARAM_construct_uint64(FASTSIG_PKEY_PARAM_BATCH, &batch),
                          OSSL_PARAM_construct_end() };
    size_t cap = 0;
    int rc = 0;

    *sig = NULL;
    *siglen = 0;
    if (m == NULL || EVP_DigestSignInit_ex(m, NULL, NULL, libctx, NULL, k, batch ? prm : NULL) <= 0
        || EVP_DigestSign(m, NULL, &cap, msg, msglen) <= 0) {
        rc = last_reason();
        rc = rc ? rc : -1;
    } else {
        *sig = OPENSSL_malloc(cap);
        memset(*sig, 0xa5, cap);
        *siglen = cap;
        if (EVP_DigestSign(m, *sig, siglen, msg, msglen) <= 0) {
            rc = last_reason();
            rc = rc ? rc : -1;
            /* no signature bytes escape: the buffer holds no signature */
            for (size_t i = 0; i < cap; i++)
                if ((*sig)[i] != 0xa5 && (*sig)[i] != 0)
                    rc = -2;
            OPENSSL_free(*sig);
            *sig = NULL;
            *siglen = 0;
        }
    }
    EVP_MD_CTX_free(m);
    return rc;
}

int verify_msg(EVP_PKEY *k, const void *msg, size_t msglen, const unsigned char *sig,
               size_t siglen)
{
    EVP_MD_CTX *m = EVP_MD_CTX_new();
    int ok = m != NULL && EVP_DigestVerifyInit_ex(m, NULL, NULL, libctx, NULL, k, NULL) > 0
             && EVP_DigestVerify(m, sig, siglen, msg, msglen) == 1;
    EVP_MD_CTX_free(m);
    ERR_clear_error();
    return ok;
}

uint64_t key_u64(EVP_PKEY *k, const char *name)
{
    uint64_t v = UINT64_MAX;
    OSSL_PARAM p[2] = { OSSL_PARAM_construct_uint64(name, &v), OSSL_PARAM_construct_end() };
    if (!EVP_PKEY_get_params(k, p))
        v = UINT64_MAX;
    ERR_clear_error();
    return v;
}

/* PKCS#8 PEM round trip: a new EVP_PKEY from the private key's PEM. */
char *to_pem(EVP_PKEY *k, int priv)
{
    BIO *b = BIO_new(BIO_s_mem());
    char *data, *out = NULL;
    long len;
    if ((priv ? PEM_write_bio_PrivateKey(b, k, NULL, NULL, 0, NULL, NULL)
              : PEM_write_bio_PUBKEY(b, k))
        && (len = BIO_get_mem_data(b, &data)) > 0)
        out = OPENSSL_strndup(data, (size_t)len);
    BIO_free(b);
    return out;
}

EVP_PKEY *from_pem(const char *pem, int priv)
{
    BIO *b = BIO_new_mem_buf(pem, -1);
    EVP_PKEY *k = priv ? PEM_read_bio_PrivateKey_ex(b, NULL, NULL, NULL, libctx, NULL)
                       : PEM_read_bio_PUBKEY_ex(b, NULL, NULL, NULL, libctx, NULL);
    BIO_free(b);
    ERR_clear_error();
    return k;
}

void check_decoded_refuses(const char *pem, const void *msg, size_t msglen, int reason)
{
    unsigned char *sig;
    size_t siglen;
    EVP_PKEY *d;
    CU_ASSERT_PTR_NOT_NULL_FATAL(d = from_pem(pem, 1));
    CU_ASSERT_EQUAL(sign_msg(d, msg, msglen, &sig, &siglen, 0), reason);
    CU_ASSERT_PTR_NULL(sig);
    EVP_PKEY_free(d);
}

int get_pub(EVP_PKEY *k, unsigned char *pub, size_t cap, size_t *len)
{
    return EVP_PKEY_get_octet_string_param(k, OSSL_PKEY_PARAM_PUB_KEY, pub, cap, len);
}

/* The key id crypto/state files are bound to: SHA-256 of the public key. */
static void key_id_of(EVP_PKEY *k, uint8_t id[FASTSIG_STATE_KEY_ID_LEN])
{
    unsigned char pub[200];
    size_t len = 0;
    unsigned int dl = 0;
    CU_ASSERT_FATAL(get_pub(k, pub, sizeof(pub), &len));
    CU_ASSERT_FATAL(EVP_Digest(pub, len, id, &dl, EVP_sha256(), NULL));
}

/* Operator move: rewrite the key's state so that `next` is the next index. */
int state_jump(EVP_PKEY *k, const char *state, uint64_t next)
{
    uint8_t id[FASTSIG_STATE_KEY_ID_LEN];
    key_id_of(k, id);
    return fastsig_state_create(state, id, key_u64(k, FASTSIG_PKEY_PARAM_MAX), next,
                                FASTSIG_STATE_OVERWRITE, NULL);
}

/* A state file with valid checksums but a forged `max` (each of maxes, for
 * the same key id) is refused at load: the key decodes, shows no remaining
 * signatures and signs nothing, however often asked. */
void check_forged_max(const char *alg, const char *param, const uint64_t *maxes, size_t n)
{
    char state[600], *pem;
    uint8_t id[FASTSIG_STATE_KEY_ID_LEN];
    EVP_PKEY *k = gen_key(alg, param, NULL, NULL, state, sizeof(state)), *d;

    CU_ASSERT_PTR_NOT_NULL_FATAL(k);
    CU_ASSERT_PTR_NOT_NULL_FATAL(pem = to_pem(k, 1));
    key_id_of(k, id);
    for (size_t i = 0; i < n; i++) {
        int signed_count = 0;
        CU_ASSERT_EQUAL_FATAL(fastsig_state_create(state, id, maxes[i], 0,
                                                   FASTSIG_STATE_OVERWRITE, NULL), FASTSIG_OK);
        CU_ASSERT_PTR_NOT_NULL_FATAL(d = from_pem(pem, 1));
        CU_ASSERT_EQUAL(key_u64(d, FASTSIG_PKEY_PARAM_REMAINING), UINT64_MAX);
        for (int t = 0; t < 3; t++) {
            unsigned char *sig;
            size_t siglen;
            int r = sign_msg(d, "forged", 6, &sig, &siglen, 0);
            signed_count += r == 0;
            CU_ASSERT_EQUAL(r, FASTSIG_ERR_STATE_MAX);
            CU_ASSERT_PTR_NULL(sig);
            OPENSSL_free(sig);
        }
        CU_ASSERT_EQUAL(signed_count, 0);
        EVP_PKEY_free(d);
    }
    OPENSSL_free(pem);
    EVP_PKEY_free(k);
}

/* The `next` recorded in a state file (UINT64_MAX if unreadable). */
uint64_t state_file_next(const char *state)
{
    fastsig_state_info info;
    if (fastsig_state_inspect(state, &info, NULL) != FASTSIG_OK || !info.file_ok)
        return UINT64_MAX;
    return info.seq[0] > info.seq[1] ? info.next[0] : info.next[1];
}

uint64_t sig_index(const unsigned char *sig, size_t idx_bytes)
{
    uint64_t v = 0;
    for (size_t i = 0; i < idx_bytes; i++)
        v = v << 8 | sig[i];
    return v;
}

/* Tampering: a flipped byte at several places, truncation and extension all
 * fail; the original still verifies. */
void check_tamper(EVP_PKEY *k, const char *msg, const unsigned char *sig, size_t siglen)
{
    size_t ml = strlen(msg);
    unsigned char *s = OPENSSL_malloc(siglen + 1);
    size_t at[] = { 0, siglen / 7, siglen / 2, siglen - 1 };

    memcpy(s, sig, siglen);
    for (size_t i = 0; i < sizeof(at) / sizeof(at[0]); i++) {
        s[at[i]] ^= 0x01;
        CU_ASSERT(!verify_msg(k, msg, ml, s, siglen));
        s[at[i]] ^= 0x01;
    }
    CU_ASSERT(verify_msg(k, msg, ml, s, siglen));
    CU_ASSERT(!verify_msg(k, msg, ml, s, siglen - 1));
    s[siglen] = 0;
    CU_ASSERT(!verify_msg(k, msg, ml, s, siglen + 1));
    CU_ASSERT(!verify_msg(k, msg, ml - 1, s, siglen));
    OPENSSL_free(s);
}

/* Sign "tamper" once with k and run check_tamper on it. */
static void sign_and_tamper(EVP_PKEY *k)
{
    static const char msg[] = "tamper";
    unsigned char *sig;
    size_t siglen;
    CU_ASSERT_EQUAL_FATAL(sign_msg(k, msg, strlen(msg), &sig, &siglen, 0), 0);
    check_tamper(k, msg, sig, siglen);
    OPENSSL_free(sig);
}

/* A state made unusable in each way refuses to sign (clear reason, no
 * signature bytes) while verification and public export keep working. */
static void check_bad_states(EVP_PKEY *k, const char *state, EVP_PKEY *other, const char *other_state)
{
    static const char msg[] = "state";
    char *pem = to_pem(k, 1), cmd[4096];
    unsigned char *sig, *good;
    size_t siglen, goodlen;
    EVP_PKEY *d;
    FILE *f;

    CU_ASSERT_PTR_NOT_NULL_FATAL(pem);
    CU_ASSERT_EQUAL_FATAL(sign_msg(k, msg, sizeof(msg), &good, &goodlen, 0), 0);
    snprintf(cmd, sizeof(cmd), "cp '%s' '%s.bak'", state, state);
    CU_ASSERT_EQUAL_FATAL(system(cmd), 0);

    /* missing */
    snprintf(cmd, sizeof(cmd), "mv '%s' '%s.moved'", state, state);
    CU_ASSERT_EQUAL(system(cmd), 0);
    CU_ASSERT_PTR_NOT_NULL_FATAL(d = from_pem(pem, 1));
    CU_ASSERT_EQUAL(sign_msg(d, msg, sizeof(msg), &sig, &siglen, 0), FASTSIG_ERR_STATE_MISSING);
    CU_ASSERT(verify_msg(d, msg, sizeof(msg), good, goodlen));
    {
        char *pub = to_pem(d, 0);
        CU_ASSERT_PTR_NOT_NULL(pub);
        OPENSSL_free(pub);
    }
    CU_ASSERT_EQUAL(key_u64(d, FASTSIG_PKEY_PARAM_REMAINING), UINT64_MAX);
    EVP_PKEY_free(d);

    /* corrupt: one flipped byte in the middle of a slot */
    snprintf(cmd, sizeof(cmd), "cp '%s.bak' '%s'", state, state);
    CU_ASSERT_EQUAL(system(cmd), 0);
    CU_ASSERT_PTR_NOT_NULL_FATAL(f = fopen(state, "r+b"));
    fseek(f, 40, SEEK_SET);
    int c = fgetc(f);
    fseek(f, 40, SEEK_SET);
    fputc(c ^ 0x10, f);
    fclose(f);
    CU_ASSERT_PTR_NOT_NULL_FATAL(d = from_pem(pem, 1));
    CU_ASSERT_EQUAL(sign_msg(d, msg, sizeof(msg), &sig, &siglen, 0), FASTSIG_ERR_STATE_CORRUPT);
    CU_ASSERT(verify_msg(d, msg, sizeof(msg), good, goodlen));
    EVP_PKEY_free(d);

    /* another key's state */
    snprintf(cmd, sizeof(cmd), "cp '%s' '%s'", other_state, state);
    CU_ASSERT_EQUAL(system(cmd), 0);
    check_decoded_refuses(pem, msg, sizeof(msg), FASTSIG_ERR_STATE_WRONG_KEY);

    /* read-only: as root permissions do not bite, so make the file a
     * directory's worth of unwritable through a read-only bind mount when
     * allowed; otherwise chmod (effective for non-root users) */
    snprintf(cmd, sizeof(cmd), "cp '%s.bak' '%s' && chmod 0400 '%s'", state, state, state);
    CU_ASSERT_EQUAL(system(cmd), 0);
    if (geteuid() != 0) {
        check_decoded_refuses(pem, msg, sizeof(msg), FASTSIG_ERR_STATE_IO);
    } else {
        snprintf(cmd, sizeof(cmd), "mount --bind -o ro '%s' '%s' 2>/dev/null", state, state);
        if (system(cmd) == 0) {
            check_decoded_refuses(pem, msg, sizeof(msg), FASTSIG_ERR_STATE_IO);
            snprintf(cmd, sizeof(cmd), "umount '%s'", state);
            CU_ASSERT_EQUAL(system(cmd), 0);
        } else {
            printf("\n  (read-only state: running as root without mount rights; covered by "
                   "the state unit suite's fault hook)\n");
        }
    }
    /* restored: signs again, never at a spent index */
    snprintf(cmd, sizeof(cmd), "chmod 0600 '%s'", state);
    CU_ASSERT_EQUAL(system(cmd), 0);
    CU_ASSERT_PTR_NOT_NULL_FATAL(d = from_pem(pem, 1));
    CU_ASSERT_EQUAL(sign_msg(d, msg, sizeof(msg), &sig, &siglen, 0), 0);
    OPENSSL_free(sig);
    EVP_PKEY_free(d);
    (void)other;
    OPENSSL_free(good);
    OPENSSL_free(pem);
}

/* EVP_PKEY_dup and a duplicated signing context share one counter; a
 * context copied after its first update shares that message's index, so
 * only one of the two signs (the message was hashed as it came). */
static void check_shared_counter(EVP_PKEY *k, size_t idx_bytes)
{
    static const char msg[] = "dup";
    EVP_PKEY *d = EVP_PKEY_dup(k);
    EVP_MD_CTX *m = EVP_MD_CTX_new(), *m2 = EVP_MD_CTX_new();
    unsigned char *s1, *s2, *s3, *s4;
    size_t l1, l2, l3, l4;
    uint64_t i[4];

    CU_ASSERT_PTR_NOT_NULL_FATAL(d);
    CU_ASSERT_EQUAL_FATAL(sign_msg(k, msg, sizeof(msg), &s1, &l1, 0), 0);
    CU_ASSERT_EQUAL_FATAL(sign_msg(d, msg, sizeof(msg), &s2, &l2, 0), 0);
    CU_ASSERT_EQUAL(key_u64(k, FASTSIG_PKEY_PARAM_INDEX), key_u64(d, FASTSIG_PKEY_PARAM_INDEX));
    CU_ASSERT_FATAL(EVP_DigestSignInit_ex(m, NULL, NULL, libctx, NULL, k, NULL) > 0);
    CU_ASSERT_FATAL(EVP_DigestSignUpdate(m, msg, sizeof(msg)) > 0);
    CU_ASSERT_FATAL(EVP_MD_CTX_copy_ex(m2, m));
    CU_ASSERT_FATAL(EVP_DigestSignFinal(m, NULL, &l3) > 0);
    l4 = l3;
    s3 = OPENSSL_malloc(l3);
    s4 = OPENSSL_malloc(l4);
    CU_ASSERT_FATAL(EVP_DigestSignFinal(m, s3, &l3) > 0);
    CU_ASSERT(EVP_DigestSignFinal(m2, s4, &l4) <= 0);
    CU_ASSERT_EQUAL(last_reason(), FASTSIG_ERR_OTS_USED);
    OPENSSL_free(s4);
    CU_ASSERT_EQUAL_FATAL(sign_msg(d, msg, sizeof(msg), &s4, &l4, 0), 0);
    i[0] = sig_index(s1, idx_bytes);
    i[1] = sig_index(s2, idx_bytes);
    i[2] = sig_index(s3, idx_bytes);
    i[3] = sig_index(s4, idx_bytes);
    for (int a = 0; a < 4; a++)
        for (int b = a + 1; b < 4; b++)
            CU_ASSERT_NOT_EQUAL(i[a], i[b]);
    CU_ASSERT(verify_msg(d, msg, sizeof(msg), s3, l3));
    CU_ASSERT(verify_msg(k, msg, sizeof(msg), s4, l4));
    OPENSSL_free(s1);
    OPENSSL_free(s2);
    OPENSSL_free(s3);
    OPENSSL_free(s4);
    EVP_MD_CTX_free(m);
    EVP_MD_CTX_free(m2);
    EVP_PKEY_free(d);
}

/* Known answers from a vectors file: the seed gives pk, and the first two
 * signatures of "abc" are sig_idx0 and sig_idx1. Returns the key. */
static EVP_PKEY *check_kat(const char *alg, const char *file, char *state, size_t statelen)
{
    xmss_vec *v = xmss_vec_load(file);
    EVP_PKEY *k = NULL;
    unsigned char pub[200], *sig = NULL, *want;
    size_t len = 0, siglen, wlen;

    if (v == NULL)
        return NULL;
    uint64_t one = 1;
    OSSL_PARAM b1[2] = { OSSL_PARAM_construct_uint64(FASTSIG_PKEY_PARAM_BATCH, &one),
                         OSSL_PARAM_construct_end() };

    k = gen_key(alg, xmss_vec_get(v, "name"), xmss_vec_get(v, "seed"), NULL, state, statelen);
    CU_ASSERT_PTR_NOT_NULL_FATAL(k);
    /* no block reserved ahead: check_last_index can then move the state */
    CU_ASSERT(EVP_PKEY_set_params(k, b1));
    want = xmss_vec_bytes(v, "pk", &wlen);
    CU_ASSERT(get_pub(k, pub, sizeof(pub), &len) && len == wlen && memcmp(pub, want, len) == 0);
    free(want);
    for (int i = 0; i < 2; i++) {
        CU_ASSERT_EQUAL_FATAL(sign_msg(k, "abc", 3, &sig, &siglen, 0), 0);
        want = xmss_vec_bytes(v, i == 0 ? "sig_idx0" : "sig_idx1", &wlen);
        CU_ASSERT(siglen == wlen && memcmp(sig, want, wlen) == 0);
        CU_ASSERT(verify_msg(k, "abc", 3, sig, siglen));
        free(want);
        OPENSSL_free(sig);
    }
    xmss_vec_free(v);
    return k;
}

/* The last index through EVP: k (from check_kat: the file's seed, no block
 * reserved ahead) has its state moved to 2^h - 1; that signature equals
 * sig_idxlast, then the key is exhausted (remaining 0, KEY_EXHAUSTED, no
 * signature bytes). */
static void check_last_index(EVP_PKEY *k, const char *state, const char *file)
{
    xmss_vec *v = xmss_vec_load(file);
    unsigned char *sig, *want;
    size_t siglen, wlen;
    uint64_t last;

    if (v == NULL || k == NULL)
        return;
    last = strtoull(xmss_vec_get(v, "sig_idxlast_index"), NULL, 10);
    CU_ASSERT_EQUAL(key_u64(k, FASTSIG_PKEY_PARAM_MAX), last + 1);
    CU_ASSERT_EQUAL_FATAL(state_jump(k, state, last), FASTSIG_OK);
    CU_ASSERT_EQUAL(key_u64(k, FASTSIG_PKEY_PARAM_INDEX), last);
    CU_ASSERT_EQUAL(key_u64(k, FASTSIG_PKEY_PARAM_REMAINING), 1);
    CU_ASSERT_EQUAL_FATAL(sign_msg(k, "abc", 3, &sig, &siglen, 0), 0);
    want = xmss_vec_bytes(v, "sig_idxlast", &wlen);
    CU_ASSERT(siglen == wlen && memcmp(sig, want, wlen) == 0);
    CU_ASSERT(verify_msg(k, "abc", 3, sig, siglen));
    free(want);
    OPENSSL_free(sig);
    CU_ASSERT_EQUAL(key_u64(k, FASTSIG_PKEY_PARAM_REMAINING), 0);
    CU_ASSERT_EQUAL(sign_msg(k, "abc", 3, &sig, &siglen, 0), FASTSIG_ERR_KEY_EXHAUSTED);
    CU_ASSERT_PTR_NULL(sig);
    xmss_vec_free(v);
}

/* Every vector file of alg: known answers, then (on the keys made from the
 * vectors) dup/dupctx sharing, unusable states, and the last index. */
void check_kat_files(const char *alg, const char *const *files, size_t n, size_t idx_bytes)
{
    char (*state)[600] = calloc(n, 600);
    EVP_PKEY **k = calloc(n, sizeof(*k));
    for (size_t i = 0; i < n; i++)
        k[i] = check_kat(alg, files[i], state[i], sizeof(state[i]));
    CU_ASSERT_FATAL(n >= 2 && k[0] != NULL && k[1] != NULL);
    check_shared_counter(k[0], idx_bytes);
    check_bad_states(k[0], state[0], k[1], state[1]);
    for (size_t i = 0; i < n; i++) {
        check_last_index(k[i], state[i], files[i]);
        EVP_PKEY_free(k[i]);
    }
    free(k);
    free(state);
}

/* Round trip for one parameter set: a random key, two signatures at the
 * first indices (and, given jump, one far away), verify, the public key
 * alone verifies, tampering fails. */
void round_trip(const char *alg, const char *param, size_t idx_bytes, uint64_t jump)
{
    char state[600], *pub;
    unsigned char *sig;
    size_t siglen;
    EVP_PKEY *k = gen_key(alg, param, NULL, NULL, state, sizeof(state)), *pk;
    uint64_t one = 1;
    OSSL_PARAM b1[2] = { OSSL_PARAM_construct_uint64(FASTSIG_PKEY_PARAM_BATCH, &one),
                         OSSL_PARAM_construct_end() };

    CU_ASSERT_PTR_NOT_NULL_FATAL(k);
    /* no index reserved ahead, so the moved state decides the third one */
    CU_ASSERT(EVP_PKEY_set_params(k, b1));
    for (int i = 0; i < 3; i++) {
        if (i == 2) {
            if (jump == 0)
                break;
            CU_ASSERT_EQUAL_FATAL(state_jump(k, state, jump), FASTSIG_OK);
        }
        CU_ASSERT_EQUAL_FATAL(sign_msg(k, param, strlen(param), &sig, &siglen, 0), 0);
        CU_ASSERT_EQUAL(sig_index(sig, idx_bytes), i < 2 ? (uint64_t)i : jump);
        CU_ASSERT(verify_msg(k, param, strlen(param), sig, siglen));
        pub = to_pem(k, 0);
        CU_ASSERT_PTR_NOT_NULL_FATAL(pk = from_pem(pub, 0));
        CU_ASSERT(verify_msg(pk, param, strlen(param), sig, siglen));
        if (i == 0)
            check_tamper(pk, param, sig, siglen);
        EVP_PKEY_free(pk);
        OPENSSL_free(pub);
        OPENSSL_free(sig);
    }
    EVP_PKEY_free(k);
}

/* The rows of one kind, for "every parameter set" loops. */
size_t rows_of(int kind, const xmss_params **out, size_t cap)
{
    size_t n = 0;
    for (size_t i = 0; i < xmss_params_count() && n < cap; i++)
        if (xmss_params_at(i)->kind == kind)
            out[n++] = xmss_params_at(i);
    return n;
}

void round_trips(const char *alg, int kind, size_t nrows, int (*skip)(const xmss_params *),
                 uint64_t (*jump)(const xmss_params *))
{
    const xmss_params *rows[64];
    size_t n = rows_of(kind, rows, 64), done = 0;
    CU_ASSERT_EQUAL(n, nrows);
    for (size_t i = 0; i < n; i++) {
        if (skip(rows[i]))
            continue;
        /* a line per set: the soak's full heights take minutes each */
        struct timespec t0, t1;
        printf("\n    %s ", rows[i]->name);
        fflush(stdout);
        clock_gettime(CLOCK_MONOTONIC, &t0);
        round_trip(alg, rows[i]->name, rows[i]->idx_bytes, jump(rows[i]));
        clock_gettime(CLOCK_MONOTONIC, &t1);
        printf("%.1f s", (double)(t1.tv_sec - t0.tv_sec) + (t1.tv_nsec - t0.tv_nsec) / 1e9);
        done++;
    }
    printf("\n  %zu of %zu sets (FASTSIG_SOAK=1: all) ", done, n);
}

static int cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

/* All n indices distinct (sorts v). */
static int all_distinct(uint64_t *v, size_t n)
{
    qsort(v, n, sizeof(*v), cmp_u64);
    for (size_t i = 1; i < n; i++)
        if (v[i] == v[i - 1])
            return 0;
    return 1;
}

/* Child: decode the key from PEM like a new process, sign up to nsig
 * messages, check each against the public key, write each index to fd as it
 * leaves (UINT64_MAX on failure), free the key (gives back the tail). */
static void __attribute__((noreturn)) signer_child(const char *pem, EVP_PKEY *pub, size_t idx_bytes,
                                                   int nsig, int fd)
{
    EVP_PKEY *d = from_pem(pem, 1);
    for (int i = 0; i < nsig && d != NULL; i++) {
        char msg[32];
        unsigned char *sig;
        size_t siglen;
        uint64_t idx = UINT64_MAX;
        int n = snprintf(msg, sizeof(msg), "msg %d/%d", (int)getpid(), i);
        if (sign_msg(d, msg, (size_t)n, &sig, &siglen, 0) == 0) {
            if (verify_msg(pub, msg, (size_t)n, sig, siglen))
                idx = sig_index(sig, idx_bytes);
            OPENSSL_free(sig);
        }
        if (write(fd, &idx, sizeof(idx)) != sizeof(idx))
            break;
    }
    EVP_PKEY_free(d);
    _exit(d != NULL ? 0 : 3);
}

/* nproc processes x nsig signatures at once on one key: every signature
 * verifies and no index repeats. */
static void check_concurrent(const char *pem, EVP_PKEY *pub, size_t idx_bytes, int nproc, int nsig)
{
    uint64_t *seen = calloc((size_t)nproc * nsig, sizeof(uint64_t));
    size_t got = 0;
    int fds[64][2], st, bad = 0;
    pid_t pid[64];

    for (int p = 0; p < nproc; p++) {
        CU_ASSERT_FATAL(pipe(fds[p]) == 0);
        if ((pid[p] = fork()) == 0) {
            close(fds[p][0]);
            signer_child(pem, pub, idx_bytes, nsig, fds[p][1]);
        }
        close(fds[p][1]);
    }
    for (int p = 0; p < nproc; p++) {
        uint64_t v;
        while (read(fds[p][0], &v, sizeof(v)) == sizeof(v) && got < (size_t)nproc * nsig) {
            bad += v == UINT64_MAX;
            seen[got++] = v;
        }
        close(fds[p][0]);
        CU_ASSERT(waitpid(pid[p], &st, 0) == pid[p] && WIFEXITED(st) && WEXITSTATUS(st) == 0);
    }
    CU_ASSERT_EQUAL(got, (size_t)nproc * nsig);
    CU_ASSERT_EQUAL(bad, 0);
    CU_ASSERT(all_distinct(seen, got));
    free(seen);
}

/* runs x: a signer killed with SIGKILL at a random instant, then a clean
 * signature from a new decode; every index seen leaving a signer is
 * recorded and none repeats. */
static void check_kill(const char *pem, EVP_PKEY *pub, size_t idx_bytes, int runs)
{
    size_t cap = (size_t)runs * 42 + 3 * 40, got = 0;
    uint64_t *seen = calloc(cap, sizeof(uint64_t));
    unsigned seed = (unsigned)getpid();
    int killed = 0;
    long span_us;
    struct timespec t0, t1;

    /* how long an unkilled signer lives (the shortest of 3): the kills
     * spread over that span */
    span_us = LONG_MAX;
    for (int warm = 0; warm < 3; warm++) {
        int fd[2], st;
        pid_t pid;
        CU_ASSERT_FATAL(pipe(fd) == 0);
        clock_gettime(CLOCK_MONOTONIC, &t0);
        if ((pid = fork()) == 0) {
            close(fd[0]);
            signer_child(pem, pub, idx_bytes, 40, fd[1]);
        }
        close(fd[1]);
        for (uint64_t v; read(fd[0], &v, sizeof(v)) == sizeof(v) && got < cap;)
            seen[got++] = v;
        close(fd[0]);
        waitpid(pid, &st, 0);
        clock_gettime(CLOCK_MONOTONIC, &t1);
        long us = (t1.tv_sec - t0.tv_sec) * 1000000L + (t1.tv_nsec - t0.tv_nsec) / 1000 + 1;
        span_us = us < span_us ? us : span_us;
    }

    for (int r = 0; r < runs; r++) {
        int fd[2], st;
        pid_t pid;
        uint64_t v;
        unsigned char *sig;
        size_t siglen;
        EVP_PKEY *d;

        CU_ASSERT_FATAL(pipe(fd) == 0);
        if ((pid = fork()) == 0) {
            close(fd[0]);
            signer_child(pem, pub, idx_bytes, 40, fd[1]);
        }
        close(fd[1]);
        usleep((useconds_t)(rand_r(&seed) % span_us));
        kill(pid, SIGKILL);
        CU_ASSERT(waitpid(pid, &st, 0) == pid);
        killed += WIFSIGNALED(st);
        while (read(fd[0], &v, sizeof(v)) == sizeof(v) && got < cap) {
            CU_ASSERT(v != UINT64_MAX);
            seen[got++] = v;
        }
        close(fd[0]);
        CU_ASSERT_PTR_NOT_NULL_FATAL(d = from_pem(pem, 1));
        CU_ASSERT_EQUAL_FATAL(sign_msg(d, "after", 5, &sig, &siglen, 0), 0);
        CU_ASSERT(verify_msg(pub, "after", 5, sig, siglen));
        seen[got++] = sig_index(sig, idx_bytes);
        OPENSSL_free(sig);
        EVP_PKEY_free(d);
    }
    printf("\n  %d runs over %ld us, %d killed mid-run, %zu indices seen ", runs, span_us,
           killed, got);
    CU_ASSERT(killed > 0);
    CU_ASSERT(all_distinct(seen, got));
    free(seen);
}

/* Reservation blocks: one signature burns nothing; a loop pays one durable
 * write per block and a clean close gives the tail back; batch 1 (key
 * parameter) writes every index. */
void check_batches(const char *alg, const char *param)
{
    char state[600], *pem;
    unsigned char *sig;
    size_t siglen;
    uint64_t one = 1;
    OSSL_PARAM prm[2] = { OSSL_PARAM_construct_uint64(FASTSIG_PKEY_PARAM_BATCH, &one),
                          OSSL_PARAM_construct_end() };
    EVP_PKEY *k = gen_key(alg, param, NULL, NULL, state, sizeof(state)), *d;

    CU_ASSERT_PTR_NOT_NULL_FATAL(k);
    CU_ASSERT_EQUAL(key_u64(k, FASTSIG_PKEY_PARAM_BATCH), FASTSIG_STATE_DEFAULT_BATCH);
    pem = to_pem(k, 1);
    EVP_PKEY_free(k);
    /* one signature per process: the file's next moves by exactly one */
    for (uint64_t i = 0; i < 3; i++) {
        CU_ASSERT_PTR_NOT_NULL_FATAL(d = from_pem(pem, 1));
        CU_ASSERT_EQUAL(sign_msg(d, "b", 1, &sig, &siglen, 0), 0);
        OPENSSL_free(sig);
        EVP_PKEY_free(d);
        CU_ASSERT_EQUAL(state_file_next(state), i + 1);
    }
    /* a loop of 100: blocks reserved ahead, the tail given back at close */
    CU_ASSERT_PTR_NOT_NULL_FATAL(d = from_pem(pem, 1));
    for (int i = 0; i < 100; i++) {
        CU_ASSERT_EQUAL(sign_msg(d, "b", 1, &sig, &siglen, 0), 0);
        OPENSSL_free(sig);
    }
    CU_ASSERT(state_file_next(state) > 103);
    CU_ASSERT_EQUAL(key_u64(d, FASTSIG_PKEY_PARAM_INDEX), 103);
    EVP_PKEY_free(d);
    CU_ASSERT_EQUAL(state_file_next(state), 103);
    /* batch 1 as a key parameter: every signature is its own durable write */
    CU_ASSERT_PTR_NOT_NULL_FATAL(d = from_pem(pem, 1));
    CU_ASSERT(EVP_PKEY_set_params(d, prm));
    CU_ASSERT_EQUAL(key_u64(d, FASTSIG_PKEY_PARAM_BATCH), 1);
    for (uint64_t i = 0; i < 5; i++) {
        CU_ASSERT_EQUAL(sign_msg(d, "b", 1, &sig, &siglen, 0), 0);
        OPENSSL_free(sig);
        CU_ASSERT_EQUAL(state_file_next(state), 104 + i);
    }
    /* and as a signature-context parameter */
    EVP_PKEY_free(d);
    CU_ASSERT_PTR_NOT_NULL_FATAL(d = from_pem(pem, 1));
    for (uint64_t i = 0; i < 5; i++) {
        CU_ASSERT_EQUAL(sign_msg(d, "b", 1, &sig, &siglen, 1), 0);
        OPENSSL_free(sig);
        CU_ASSERT_EQUAL(state_file_next(state), 109 + i);
    }
    EVP_PKEY_free(d);
    OPENSSL_free(pem);
}

/* Threads sharing one EVP_PKEY: distinct indices, every signature valid. */
typedef struct {
    EVP_PKEY *k;
    size_t idx_bytes;
    int nsig;
    uint64_t *out;
} THREAD_JOB;

static void *signer_thread(void *arg)
{
    THREAD_JOB *j = arg;
    for (int i = 0; i < j->nsig; i++) {
        unsigned char *sig;
        size_t siglen;
        j->out[i] = UINT64_MAX;
        if (sign_msg(j->k, "thread", 6, &sig, &siglen, 0) == 0) {
            if (verify_msg(j->k, "thread", 6, sig, siglen))
                j->out[i] = sig_index(sig, j->idx_bytes);
            OPENSSL_free(sig);
        }
    }
    return NULL;
}

static void check_threads(EVP_PKEY *k, size_t idx_bytes, int nthreads, int nsig)
{
    uint64_t *seen = calloc((size_t)nthreads * nsig, sizeof(uint64_t));
    THREAD_JOB job[16];
    pthread_t t[16];
    int bad = 0;

    for (int i = 0; i < nthreads; i++) {
        job[i] = (THREAD_JOB){ k, idx_bytes, nsig, seen + (size_t)i * nsig };
        CU_ASSERT_FATAL(pthread_create(&t[i], NULL, signer_thread, &job[i]) == 0);
    }
    for (int i = 0; i < nthreads; i++)
        pthread_join(t[i], NULL);
    for (size_t i = 0; i < (size_t)nthreads * nsig; i++)
        bad += seen[i] == UINT64_MAX;
    CU_ASSERT_EQUAL(bad, 0);
    CU_ASSERT(all_distinct(seen, (size_t)nthreads * nsig));
    free(seen);
}

/* The key of the process and thread tests, and those tests as CUnit rows
 * (the programs choose the key and the sizes). */
static struct {
    EVP_PKEY *k, *pub;
    char *pem;
    size_t idx_bytes;
    int nsig, kills;
} proc;

void proc_key_make(const char *alg, const char *param, uint64_t max, size_t idx_bytes,
                   int nsig, int kills)
{
    char state[600], *pub;
    proc.k = gen_key(alg, param, NULL, NULL, state, sizeof(state));
    CU_ASSERT_PTR_NOT_NULL_FATAL(proc.k);
    CU_ASSERT_EQUAL(key_u64(proc.k, FASTSIG_PKEY_PARAM_MAX), max);
    CU_ASSERT_PTR_NOT_NULL_FATAL(proc.pem = to_pem(proc.k, 1));
    pub = to_pem(proc.k, 0);
    CU_ASSERT_PTR_NOT_NULL_FATAL(proc.pub = from_pem(pub, 0));
    OPENSSL_free(pub);
    proc.idx_bytes = idx_bytes;
    proc.nsig = nsig;
    proc.kills = kills;
    sign_and_tamper(proc.k);
}

static void test_proc_concurrent(void)
{
    CU_ASSERT_PTR_NOT_NULL_FATAL(proc.pem);
    check_concurrent(proc.pem, proc.pub, proc.idx_bytes, 8, proc.nsig);
}

static void test_proc_threads(void)
{
    CU_ASSERT_PTR_NOT_NULL_FATAL(proc.k);
    check_threads(proc.k, proc.idx_bytes, 8, 50);
}

static void test_proc_kill(void)
{
    CU_ASSERT_PTR_NOT_NULL_FATAL(proc.pem);
    check_kill(proc.pem, proc.pub, proc.idx_bytes, proc.kills);
}

static void test_proc_unload(void)
{
    EVP_PKEY_free(proc.k);
    EVP_PKEY_free(proc.pub);
    OPENSSL_free(proc.pem);
    stateful_unload();
}

/* A child after fork() signing with the key object it inherited never gets
 * an index of the parent's reserved block. */
static void test_proc_fork(void)
{
    uint64_t mine[8], child[4];
    unsigned char *sig;
    size_t siglen;
    int fd[2], st, n = 0;
    pid_t pid;

    CU_ASSERT_PTR_NOT_NULL_FATAL(proc.k);
    for (int i = 0; i < 4; i++) { /* leaves part of a block reserved here */
        CU_ASSERT_EQUAL_FATAL(sign_msg(proc.k, "fork", 4, &sig, &siglen, 0), 0);
        mine[i] = sig_index(sig, proc.idx_bytes);
        OPENSSL_free(sig);
    }
    CU_ASSERT_FATAL(pipe(fd) == 0);
    if ((pid = fork()) == 0) {
        close(fd[0]);
        for (int i = 0; i < 4; i++) {
            uint64_t v = UINT64_MAX;
            if (sign_msg(proc.k, "fork", 4, &sig, &siglen, 0) == 0) {
                if (verify_msg(proc.pub, "fork", 4, sig, siglen))
                    v = sig_index(sig, proc.idx_bytes);
                OPENSSL_free(sig);
            }
            if (write(fd[1], &v, sizeof(v)) != sizeof(v))
                _exit(2);
        }
        _exit(0); /* like a crash: the child's block is burnt */
    }
    close(fd[1]);
    while (n < 4 && read(fd[0], &child[n], sizeof(child[n])) == sizeof(child[n]))
        n++;
    close(fd[0]);
    CU_ASSERT(waitpid(pid, &st, 0) == pid && WIFEXITED(st) && WEXITSTATUS(st) == 0);
    CU_ASSERT_EQUAL(n, 4);
    for (int i = 4; i < 8; i++) { /* the parent goes on with its block */
        CU_ASSERT_EQUAL_FATAL(sign_msg(proc.k, "fork", 4, &sig, &siglen, 0), 0);
        mine[i] = sig_index(sig, proc.idx_bytes);
        OPENSSL_free(sig);
    }
    {
        uint64_t all[12];
        memcpy(all, mine, sizeof(mine));
        memcpy(all + 8, child, sizeof(child));
        for (int i = 0; i < 4; i++)
            CU_ASSERT(child[i] != UINT64_MAX);
        CU_ASSERT(all_distinct(all, 12));
    }
}

unsigned char *read_file(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    unsigned char *b = NULL;
    long n;
    *len = 0;
    if (f == NULL)
        return NULL;
    if (fseek(f, 0, SEEK_END) == 0 && (n = ftell(f)) >= 0 && fseek(f, 0, SEEK_SET) == 0
        && (b = malloc((size_t)n + 1)) != NULL && fread(b, 1, (size_t)n, f) == (size_t)n)
        *len = (size_t)n;
    fclose(f);
    return b;
}

const fs_test stateful_proc_tests[] = {
    { "8 processes signing at once", test_proc_concurrent },
    { "8 threads x 50 signatures on one key object", test_proc_threads },
    { "a forked child signing with the inherited key", test_proc_fork },
    { "SIGKILL at random instants", test_proc_kill },
    { "unload", test_proc_unload },
    { NULL, NULL }
};

int stateful_cu_run(const char *suite, const fs_test *tests)
{
    char procs[128];
    snprintf(procs, sizeof(procs), "%s processes", suite);
    const fs_suite suites[] = { { suite, tests }, { procs, stateful_proc_tests }, { NULL, NULL } };
    return fs_cu_main(suites);
}
