/* hss_sf.h - private to crypto/lms: the core of LMS/HSS behind the stateful
 * contract (hss_stateful.c), shared with its streaming operations
 * (hss_stateful_msg.c). */
#ifndef FASTSIG_LMS_HSS_SF_H
#define FASTSIG_LMS_HSS_SF_H

#include <pthread.h>
#include <stddef.h>
#include <stdint.h>
#include "stateful.h"
#include "lms/hss.h"

#define HSS_NAME_MAX (LMS_MAX_LEVELS * 48)
/* The largest LMS signature and public key of a level: a public key names
 * only its top level, the others come in each signature. */
#define LMS_LEVEL_MAX (4 + 4 + LMS_MAX_N * (LMS_MAX_P + 1) + 4 + LMS_MAX_N * LMS_MAX_H \
                       + 4 + 4 + LMS_I_BYTES + LMS_MAX_N)

typedef struct {
    unsigned L, n, total_h;
    lms_params lms[LMS_MAX_LEVELS];
    lmots_params ots[LMS_MAX_LEVELS];
    char name[HSS_NAME_MAX];
    size_t sigbytes;
    unsigned pub_levels;     /* a public key's L (0 for a private key): its
                              * lower levels are unknown, lms[0] is the top */
    uint8_t *sk;             /* the private core (secmem.h); NULL: public */
    size_t sklen;
    uint8_t pk[4 + 4 + 4 + LMS_I_BYTES + LMS_MAX_N];
    size_t pklen;
    pthread_mutex_t lock;    /* hss_key is not safe for concurrent use */
    hss_key *core;           /* built at keygen, cache import or check */
    int checked, core_err;   /* check done once, and its result */
    uint64_t first, end;     /* the range: [first, end) */
    uint64_t saved;          /* hss_cache_stamp at the last export / import */
    int dirty;               /* trees built or a new range since */
} hss_sf;

/* The msg_* operations of the contract (stateful.h) for this core. */
int hss_sf_msg_sign_init(void *core, uint64_t idx, fs_stateful_msg *m);
int hss_sf_msg_sign_final(void *core, fs_stateful_msg *m, int verify, uint8_t *sig,
                          size_t siglen);
int hss_sf_msg_verify_init(void *core, const uint8_t *sig, size_t siglen, fs_stateful_msg *m);
int hss_sf_msg_verify_final(void *core, fs_stateful_msg *m, const uint8_t *sig, size_t siglen);

#endif
