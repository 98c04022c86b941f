/* test_xmss_ahead.c - layer 0's next bottom subtree is prepared one leaf
 * per signature, each made in the signature's own chain batch
 * (xmss_sign_ahead.c): after signing at idx the next subtree holds
 * exactly pos + 1 leaves (pos: idx's place in its subtree), so no
 * signature carries two leaves and the next one none; those leaves are
 * the ones a key that builds the subtree whole computes; and every
 * signature verifies and equals the one a fresh key makes at that index. */
#include <stdlib.h>
#include <string.h>
#include "testutil.h"
#include "fastsig_err.h"
#include "xmss/xmss.h"
#include "xmss/xmss_key.h"
#include "xmss/tree.h"

static const uint8_t msg[5] = { 'a', 'h', 'e', 'a', 'd' };

static void one_set(const char *name, unsigned tree_h)
{
    xmss_params p;
    CU_ASSERT_EQUAL_FATAL(xmss_params_reduced(xmss_params_by_name(name), tree_h, &p), FASTSIG_OK);
    uint8_t seed[3 * XMSS_MAX_N], pk[4 + 2 * XMSS_MAX_N];
    fs_test_random(seed, sizeof(seed));
    xmss_key *k = NULL, *fresh = NULL;
    CU_ASSERT_EQUAL_FATAL(xmss_keygen(&p, seed, 3u * p.n, 1, NULL, NULL, &k), FASTSIG_OK);
    size_t len = xmss_sig_bytes(&p), pkl = xmss_pk_bytes(&p), n = p.n;
    CU_ASSERT_EQUAL(xmss_key_export_pk(k, pk, pkl), FASTSIG_OK);
    uint8_t *a = malloc(len), *b = malloc(len), *want = malloc(n << tree_h);
    CU_ASSERT_FATAL(a != NULL && b != NULL && want != NULL);
    const xmss_layer *ly = &k->layers[0];
    CU_ASSERT_FATAL(ly->next != NULL && ly->b == tree_h);
    const uint64_t per = (uint64_t)1 << tree_h, last = 4 * per - 1;
    for (uint64_t i = 0; i <= last; i++) {
        CU_ASSERT_EQUAL_FATAL(xmss_sign(k, i, msg, sizeof(msg), a, len), FASTSIG_OK);
        CU_ASSERT_EQUAL(xmss_verify_p(&p, pk, pkl, msg, sizeof(msg), a, len), FASTSIG_OK);
        uint64_t pos = i & (per - 1);
        CU_ASSERT_EQUAL(ly->next_sub, (i >> tree_h) + 1);
        CU_ASSERT_EQUAL(ly->next_done, pos + 1); /* one leaf per signature */
        if (pos + 1 == per) { /* whole: the leaves xmss_leaves makes */
            uint64_t sub = ly->next_sub;
            CU_ASSERT_EQUAL(xmss_leaves(&k->ctx, want, 0, sub, 0, (size_t)per, 1, NULL, NULL, 0,
                                        0),
                            FASTSIG_OK);
            CU_ASSERT(memcmp(ly->next, want, n * per) == 0);
        }
        if (i % 5 == 2) {
            xmss_key_free(fresh);
            CU_ASSERT_EQUAL_FATAL(xmss_keygen(&p, seed, 3u * p.n, 1, NULL, NULL, &fresh),
                                  FASTSIG_OK);
            CU_ASSERT_EQUAL(xmss_sign(fresh, i, msg, sizeof(msg), b, len), FASTSIG_OK);
            CU_ASSERT(memcmp(a, b, len) == 0);
        }
    }
    xmss_key_free(fresh);
    xmss_key_free(k);
    free(a);
    free(b);
    free(want);
}

static void test_one_leaf_per_signature(void)
{
    one_set("XMSSMT-SHA2_20/4_256", 3); /* the fused SHA-256 chain kernel */
    one_set("XMSSMT-SHAKE_20/4_256", 2); /* the lane walk */
}

static const fs_test tests[] = {
    { "layer 0: one next leaf per signature, in its batch", test_one_leaf_per_signature },
    { NULL, NULL },
};

int main(void)
{
    return fs_cu_run("xmss_ahead", tests);
}
