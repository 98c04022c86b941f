/* hss_stateful_msg.c - LMS/HSS messages that stream, behind the stateful
 * contract (stateful.h's msg_* operations over hss_stream.c), under the
 * core's lock as hss_stateful.c's sign. */
#include <string.h>
#include "fastsig_err.h"
#include "lms/hss_sf.h"

int hss_sf_msg_sign_init(void *core, uint64_t idx, fs_stateful_msg *m)
{
    hss_sf *h = core;
    pthread_mutex_lock(&h->lock);
    int err = h->core != NULL && h->core_err == FASTSIG_OK
              ? hss_sign_begin(h->core, m->idx = idx, m->I, m->rand, &m->h) : FASTSIG_ERR_BAD_KEY;
    pthread_mutex_unlock(&h->lock);
    return err;
}

int hss_sf_msg_sign_final(void *core, fs_stateful_msg *m, int verify_it, uint8_t *sig,
                          size_t siglen)
{
    hss_sf *h = core;
    uint8_t Q[LMS_MAX_N];
    int err = siglen != h->sigbytes ? FASTSIG_ERR_BAD_LENGTH : FASTSIG_OK;
    fs_hash_stream_final(&m->h, Q);
    pthread_mutex_lock(&h->lock);
    if (err == FASTSIG_OK)
        err = h->core != NULL && h->core_err == FASTSIG_OK
              ? hss_sign_digest(h->core, m->idx, m->I, m->rand, Q, sig) : FASTSIG_ERR_BAD_KEY;
    pthread_mutex_unlock(&h->lock);
    /* verify-after-sign from the digest: the message is gone */
    if (err == FASTSIG_OK && verify_it && hss_verify_digest(h->pk, h->pklen, Q, sig, siglen))
        err = FASTSIG_ERR_FAULT;
    if (err != FASTSIG_OK)
        memset(sig, 0, siglen);
    return err;
}

int hss_sf_msg_verify_init(void *core, const uint8_t *sig, size_t siglen, fs_stateful_msg *m)
{
    return hss_verify_begin(((hss_sf *)core)->pk, ((hss_sf *)core)->pklen, sig, siglen, &m->h);
}

int hss_sf_msg_verify_final(void *core, fs_stateful_msg *m, const uint8_t *sig, size_t siglen)
{
    return hss_verify_end(((hss_sf *)core)->pk, ((hss_sf *)core)->pklen, &m->h, sig, siglen);
}
