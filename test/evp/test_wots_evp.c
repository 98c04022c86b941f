/* test_wots_evp.c - WOTSP (one-time WOTS+) through EVP only: every one of
 * the 21 sets (7 hash families x w = 16, 4, 256) signs once, verifies from
 * the key and from the public key alone, refuses tampered, truncated and
 * extended signatures; -pkeyopt mode:w4 / w256 pick the rows; a second
 * signature is refused with "one-time key already used" in the same process,
 * from another process, after the signer was killed, and when 8 processes
 * race for the one index exactly one wins. (The WOTS+ core's known answer is
 * held by the unit suite: through EVP the message is first bound with the
 * randomized H_msg, see the README.) */
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/wait.h>
#include <openssl/err.h>
#include "stateful_evp.h"
#include "fastsig/provider.h"
#include "fastsig_err.h"

static void test_every_set(void)
{
    const xmss_params *rows[32];
    size_t n = rows_of(XMSS_KIND_WOTSP, rows, 32);
    CU_ASSERT_EQUAL(n, 21);
    for (size_t i = 0; i < n; i++) {
        char state[600], *pem, *pub;
        unsigned char *sig;
        size_t siglen;
        EVP_PKEY *k = gen_key("WOTSP", rows[i]->name, NULL, NULL, state, sizeof(state)), *pk;

        CU_ASSERT_PTR_NOT_NULL_FATAL(k);
        CU_ASSERT_EQUAL(key_u64(k, FASTSIG_PKEY_PARAM_MAX), 1);
        CU_ASSERT_EQUAL(key_u64(k, FASTSIG_PKEY_PARAM_REMAINING), 1);
        pem = to_pem(k, 1);
        pub = to_pem(k, 0);
        CU_ASSERT_PTR_NOT_NULL_FATAL(pk = from_pem(pub, 0));
        CU_ASSERT_EQUAL_FATAL(sign_msg(k, rows[i]->name, strlen(rows[i]->name), &sig, &siglen, 0), 0);
        CU_ASSERT_EQUAL(siglen, (size_t)rows[i]->n * (1 + rows[i]->len));
        CU_ASSERT(verify_msg(k, rows[i]->name, strlen(rows[i]->name), sig, siglen));
        check_tamper(pk, rows[i]->name, sig, siglen);
        CU_ASSERT_EQUAL(key_u64(k, FASTSIG_PKEY_PARAM_REMAINING), 0);
        OPENSSL_free(sig);
        CU_ASSERT_EQUAL(sign_msg(k, "again", 5, &sig, &siglen, 0), FASTSIG_ERR_OTS_USED);
        CU_ASSERT_PTR_NULL(sig);
        check_decoded_refuses(pem, "again", 5, FASTSIG_ERR_OTS_USED);
        EVP_PKEY_free(pk);
        EVP_PKEY_free(k);
        OPENSSL_free(pem);
        OPENSSL_free(pub);
    }
}

static void test_modes(void)
{
    static const char *const modes[][2] = {
        { NULL, "WOTSP-SHA2_256" }, { "w16", "WOTSP-SHA2_256" },
        { "w4", "WOTSP-SHA2_256_W4" }, { "w256", "WOTSP-SHA2_256_W256" },
    };
    char state[600], name[64];
    EVP_PKEY *k;

    for (size_t i = 0; i < 4; i++) {
        CU_ASSERT_PTR_NOT_NULL_FATAL(k = gen_key("WOTSP", NULL, NULL, modes[i][0], state, sizeof(state)));
        name[0] = '\0';
        CU_ASSERT(EVP_PKEY_get_utf8_string_param(k, FASTSIG_PKEY_PARAM_PARAM, name, sizeof(name), NULL));
        CU_ASSERT_STRING_EQUAL(name, modes[i][1]);
        EVP_PKEY_free(k);
    }
    CU_ASSERT_PTR_NOT_NULL(k = gen_key("WOTSP", "WOTSP-SHAKE256_192", NULL, "w4", state, sizeof(state)));
    EVP_PKEY_free(k);
    CU_ASSERT_PTR_NULL(gen_key("WOTSP", NULL, NULL, "w8", state, sizeof(state)));
    ERR_clear_error();
    CU_ASSERT_PTR_NULL(gen_key("WOTSP", "XMSS-SHA2_10_256", NULL, NULL, state, sizeof(state)));
    ERR_clear_error();
}

/* A child process signs (and maybe dies by SIGKILL right after): the
 * parent's copy of the key is then refused. */
static void test_other_process(void)
{
    for (int crash = 0; crash < 2; crash++) {
        char state[600], *pem;
        unsigned char *sig;
        size_t siglen;
        int st;
        pid_t pid;
        EVP_PKEY *k = gen_key("WOTSP", NULL, NULL, NULL, state, sizeof(state));

        CU_ASSERT_PTR_NOT_NULL_FATAL(k);
        pem = to_pem(k, 1);
        if ((pid = fork()) == 0) {
            EVP_PKEY *c = from_pem(pem, 1);
            int ok = c != NULL && sign_msg(c, "one", 3, &sig, &siglen, 0) == 0;
            if (crash)
                raise(SIGKILL);
            _exit(ok ? 0 : 1);
        }
        CU_ASSERT(waitpid(pid, &st, 0) == pid);
        CU_ASSERT(crash ? WIFSIGNALED(st) : WIFEXITED(st) && WEXITSTATUS(st) == 0);
        CU_ASSERT_EQUAL(sign_msg(k, "two", 3, &sig, &siglen, 0), FASTSIG_ERR_OTS_USED);
        check_decoded_refuses(pem, "two", 3, FASTSIG_ERR_OTS_USED);
        EVP_PKEY_free(k);
        OPENSSL_free(pem);
    }
}

/* 8 processes race for the one index: exactly one signature. */
static void test_race(void)
{
    char state[600], *pem;
    int wins = 0, st;
    pid_t pid[8];
    EVP_PKEY *k = gen_key("WOTSP", NULL, NULL, NULL, state, sizeof(state));

    CU_ASSERT_PTR_NOT_NULL_FATAL(k);
    pem = to_pem(k, 1);
    for (int p = 0; p < 8; p++)
        if ((pid[p] = fork()) == 0) {
            unsigned char *sig;
            size_t siglen;
            EVP_PKEY *c = from_pem(pem, 1);
            int rc = c != NULL ? sign_msg(c, "race", 4, &sig, &siglen, 0) : -1;
            _exit(rc == 0 ? 0 : rc == FASTSIG_ERR_OTS_USED ? 1 : 2);
        }
    for (int p = 0; p < 8; p++) {
        CU_ASSERT(waitpid(pid[p], &st, 0) == pid[p] && WIFEXITED(st) && WEXITSTATUS(st) < 2);
        wins += WIFEXITED(st) && WEXITSTATUS(st) == 0;
    }
    CU_ASSERT_EQUAL(wins, 1);
    EVP_PKEY_free(k);
    OPENSSL_free(pem);
}

static void test_states(void)
{
    char s1[600], s2[600];
    EVP_PKEY *a = gen_key("WOTSP", NULL, NULL, NULL, s1, sizeof(s1));
    EVP_PKEY *b = gen_key("WOTSP", NULL, NULL, NULL, s2, sizeof(s2));
    CU_ASSERT_PTR_NOT_NULL_FATAL(a);
    CU_ASSERT_PTR_NOT_NULL_FATAL(b);
    /* check_bad_states signs once first, then expects refusals and finally
     * one more signature after restoring: a one-time key cannot give that,
     * so only the refusals are checked here through a fresh key each */
    {
        char *pem = to_pem(a, 1), cmd[1400];
        snprintf(cmd, sizeof(cmd), "rm '%s'", s1);
        CU_ASSERT_EQUAL(system(cmd), 0);
        check_decoded_refuses(pem, "x", 1, FASTSIG_ERR_STATE_MISSING);
        snprintf(cmd, sizeof(cmd), "cp '%s' '%s'", s2, s1);
        CU_ASSERT_EQUAL(system(cmd), 0);
        check_decoded_refuses(pem, "x", 1, FASTSIG_ERR_STATE_WRONG_KEY);
        OPENSSL_free(pem);
    }
    EVP_PKEY_free(a);
    EVP_PKEY_free(b);
}

/* A one-time key's state rewritten with max = 5 (valid checksums) must not
 * give five signatures. */
static void test_forged_max(void)
{
    static const uint64_t maxes[] = { 5, 2 };
    check_forged_max("WOTSP", NULL, maxes, sizeof(maxes) / sizeof(maxes[0]));
}

static const fs_test tests[] = {
    { "load provider", stateful_load },
    { "every set: sign once, verify, tamper, refuse the second", test_every_set },
    { "mode:w4 / w16 / w256", test_modes },
    { "second signature refused in another process and after a crash", test_other_process },
    { "8 processes race for the one index", test_race },
    { "missing and foreign state", test_states },
    { "state with a forged max refused", test_forged_max },
    { "unload", stateful_unload },
    { NULL, NULL }
};

int main(void)
{
    return fs_cu_run("wots_evp", tests);
}
