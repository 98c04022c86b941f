/* test_lms_sched.c - how lms_tree_build shares a build among its threads:
 * each thread takes the next unit of leaves from a shared cursor, so a
 * thread held up (here: the caller's, parked in its progress callback
 * after its first unit) does not leave the other's cores idle while it
 * still holds half of the tree. The callback waits until every other
 * leaf has been computed by the second thread; with fixed halves per
 * thread that never happens, and the bounded wait ends with the count
 * short. No timing is asserted: the wait's bound only keeps a broken
 * build from hanging the suite. */
#include <string.h>
#include <time.h>
#include "fastsig_err.h"
#include "lms/lms_tree.h"
#include "lms/lmots.h"
#include "testutil.h"

struct park {
    uint64_t base, want, seen;
    unsigned calls;
};

/* The caller's first progress report: wait (up to 60 s) for the other
 * thread to compute the rest of the tree, and note how far it got. */
static int park_first(void *arg, uint64_t done, uint64_t total)
{
    struct park *p = arg;
    (void)done;
    (void)total;
    if (p->calls++ == 0) {
        struct timespec nap = { 0, 2000000 };
        for (unsigned i = 0; i < 30000 && lms_leaves_computed() - p->base < p->want; i++)
            nanosleep(&nap, NULL);
        p->seen = lms_leaves_computed() - p->base;
    }
    return 0;
}

static void test_shared_cursor(void)
{
    static const unsigned tops[] = { 5, 15 }; /* bottom subtrees of 32 leaves; none (256) */
    static const char *const sets[] = { "LMS_SHA256_M32_H10", "LMS_SHA256_M32_H10" };
    lmots_params op;
    CU_ASSERT_FATAL(lmots_params_by_name(&op, "LMOTS_SHA256_N32_W2") == FASTSIG_OK);
    uint8_t seed[32] = { 9 }, I[16] = { 8 }, pub1[56], pub2[56];
    for (size_t s = 0; s < 2; s++) {
        lms_params lp;
        CU_ASSERT_FATAL(lms_params_by_name(&lp, sets[s]) == FASTSIG_OK);
        lms_tree *one = NULL, *two = NULL;
        CU_ASSERT_FATAL(lms_tree_gen_top(&one, &lp, &op, I, seed, tops[s], 1, NULL, NULL)
                        == FASTSIG_OK);
        struct park p = { lms_leaves_computed(), ((uint64_t)1 << lp.h), 0, 0 };
        CU_ASSERT_FATAL(lms_tree_gen_top(&two, &lp, &op, I, seed, tops[s], 2, park_first, &p)
                        == FASTSIG_OK);
        /* the caller did one unit, the other thread everything else */
        CU_ASSERT_EQUAL(p.seen, (uint64_t)1 << lp.h);
        CU_ASSERT(p.calls >= 1);
        lms_tree_pub(one, pub1);
        lms_tree_pub(two, pub2);
        CU_ASSERT(memcmp(pub1, pub2, sizeof(pub1)) == 0);
        lms_tree_free(one);
        lms_tree_free(two);
    }
}

static const fs_test tests[] = {
    { "threads take units from a shared cursor", test_shared_cursor },
    { NULL, NULL },
};

int main(void)
{
    return fs_cu_run("lms_sched", tests);
}
