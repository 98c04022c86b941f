/* lmots_keys.c - the leaves of LM-OTS key generation (lmots.h):
 * lmots_leaf_keys, every chain of a batch of leaves side by side. */
#include <stdlib.h>
#include <string.h>
#include "bytes.h"
#include "fastsig_err.h"
#include "lms/lmots.h"
#include "lms/lms_chain.h"

/* Leaves per engine batch in keygen: every chain of them side by side,
 * the blocks of the widest set (W1) staying within about 1 MiB. */
#define LEAF_BATCH 32

/* K of `count` leaves from their chain ends y (count * p * n bytes). */
static int keys_from_ends(const lmots_params *op, const uint8_t *I, uint32_t first, size_t count,
                          const uint8_t *y, uint8_t *K)
{
    size_t ylen = (size_t)op->p * op->n, mlen = LMOTS_PBLC_PREFIX + ylen;
    uint8_t *m = malloc(count * mlen);
    if (m == NULL)
        return FASTSIG_ERR_NOMEM;
    for (size_t l = 0; l < count; l++) {
        uint8_t *d = m + l * mlen;
        lmots_pblc_prefix(I, first + (uint32_t)l, d);
        memcpy(d + LMOTS_PBLC_PREFIX, y + l * ylen, ylen);
    }
    int rc = lms_hash_lanes(op->hash, op->n, K, m, mlen, count);
    free(m);
    return rc;
}

/* The same on the fused kernel, the chain ends written into the K
 * messages where they go; FASTSIG_ERR_UNSUPPORTED without the kernel. */
static int leaf_keys_fused(const lmots_params *op, const uint8_t *I, const uint8_t *seed,
                           uint32_t first, size_t count, uint8_t *K)
{
    const fs_hash_params hp = lms_hash_params(op->hash, op->n);
    const size_t batch = count < LEAF_BATCH ? count : LEAF_BATCH;
    const size_t mlen = LMOTS_PBLC_PREFIX + (size_t)op->p * op->n;
    uint8_t *m = malloc(batch * mlen);
    int rc = m ? FASTSIG_OK : FASTSIG_ERR_NOMEM;
    for (size_t done = 0; done < count && rc == FASTSIG_OK; done += batch) {
        size_t b = count - done < batch ? count - done : batch;
        uint32_t q = first + (uint32_t)done;
        rc = fs_hash_lmots_key_chains(&hp, I, seed, q, b, op->p, 1u << op->w,
                                      m + LMOTS_PBLC_PREFIX, mlen);
        for (size_t l = 0; l < b && rc == FASTSIG_OK; l++)
            lmots_pblc_prefix(I, q + (uint32_t)l, m + l * mlen);
        if (rc == FASTSIG_OK)
            rc = lms_hash_lanes(op->hash, op->n, K + done * op->n, m, mlen, b);
    }
    free(m);
    return rc;
}

int lmots_leaf_keys(const lmots_params *op, const uint8_t I[LMS_I_BYTES], const uint8_t *seed,
                    uint32_t first, size_t count, uint8_t *K)
{
    int fused = leaf_keys_fused(op, I, seed, first, count, K);
    if (fused != FASTSIG_ERR_UNSUPPORTED)
        return fused;
    size_t batch = count < LEAF_BATCH ? count : LEAF_BATCH, chains = batch * op->p;
    lms_chain_job *jobs = malloc(chains * sizeof(*jobs));
    uint8_t *y = malloc(chains * op->n);
    int rc = jobs && y ? FASTSIG_OK : FASTSIG_ERR_NOMEM;
    for (size_t done = 0; done < count && rc == FASTSIG_OK; done += batch) {
        size_t m = count - done < batch ? count - done : batch;
        for (size_t l = 0; l < m; l++)
            for (unsigned i = 0; i < op->p; i++) {
                /* secret (j = 0xff) then the 2^w - 1 steps j = 0 .. 2^w - 2 */
                lms_chain_job jb = { first + (uint32_t)(done + l), (uint16_t)i, 0xff,
                                     (uint16_t)(1u << op->w) };
                jobs[l * op->p + i] = jb;
            }
        rc = lms_chains(op, I, jobs, m * op->p, seed, 0, y, 1);
        if (rc == FASTSIG_OK)
            rc = keys_from_ends(op, I, first + (uint32_t)done, m, y, K + done * op->n);
    }
    free(jobs);
    free(y);
    return rc;
}
