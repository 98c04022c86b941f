/* stateful_stream.c - a message that streams, for every stateful row whose
 * kind has the msg_* operations (crypto/stateful.h): the FSP_ADAPTER stream
 * hooks (sigalgs.h). Signing spends the index first (stateful_take_index,
 * the rule of stateful_sign), then hashes the message as it comes; nothing
 * of it is held. Copies of a signing stream (a duplicated context: OpenSSL
 * 3.0 signs every EVP_DigestSignFinal on one) share one claim on the index,
 * so at most one of them signs with it. */
#include <stdio.h>
#include <string.h>
#include <openssl/crypto.h>
#include "prov.h"
#include "stateful_key.h"
#include "fastsig_err.h"

typedef struct {
    int refs;  /* copies sharing the index (atomic) */
    int used;  /* one of them signed, or began to (atomic) */
} STREAM_CLAIM;

typedef struct {
    fs_stateful_msg m;
    STREAM_CLAIM *claim;   /* signing; NULL when verifying */
    unsigned char *sig;    /* verifying: the signature the digest started from */
    size_t siglen;
    int err;               /* verifying: the signature's fault found at init, then
                            * the final's result */
    int done;              /* verifying: the final ran (the digest is spent) */
} STREAM;

int stateful_stream_sign_init(void *key, const FSP_SIGOPTS *o, void **st)
{
    STATEFUL_KEY *x = key;
    STREAM *s;
    uint64_t idx;
    int err;

    *st = NULL;
    if (x->ops->msg_sign_init == NULL || !stateful_has_private(x))
        return FASTSIG_OK; /* held whole: sign reports a public key */
    if ((s = OPENSSL_zalloc(sizeof(*s))) == NULL
        || (s->claim = OPENSSL_zalloc(sizeof(*s->claim))) == NULL) {
        OPENSSL_free(s);
        return FASTSIG_ERR_NOMEM; /* before anything is spent */
    }
    s->claim->refs = 1;
    /* the index is spent durably before the first byte is hashed */
    if ((err = stateful_take_index(x, o, &idx)) == FASTSIG_OK
        && (err = x->ops->msg_sign_init(x->core, idx, &s->m)) != FASTSIG_OK)
        err = stateful_state_error(x, err, NULL, o != NULL ? o->detail : NULL);
    if (err != FASTSIG_OK) {
        stateful_stream_free(s);
        return err;
    }
    *st = s;
    return FASTSIG_OK;
}

int stateful_stream_verify_init(const void *key, const unsigned char *sig, size_t siglen,
                                void **st)
{
    const STATEFUL_KEY *x = key;
    STREAM *s;

    *st = NULL;
    if (x->ops->msg_verify_init == NULL)
        return FASTSIG_OK;
    if ((s = OPENSSL_zalloc(sizeof(*s))) == NULL
        || (s->sig = OPENSSL_memdup(sig, siglen ? siglen : 1)) == NULL) {
        OPENSSL_free(s);
        return FASTSIG_ERR_NOMEM;
    }
    s->siglen = siglen;
    /* a malformed signature: nothing to hash, the final says why */
    s->err = x->ops->msg_verify_init(x->core, s->sig, siglen, &s->m);
    *st = s;
    return FASTSIG_OK;
}

int stateful_stream_update(void *st, const unsigned char *data, size_t len)
{
    STREAM *s = st;
    if (s->err == FASTSIG_OK)
        fs_stateful_msg_update(&s->m, data, len);
    return FASTSIG_OK;
}

int stateful_stream_sign_final(void *key, const FSP_SIGOPTS *o, void *st, unsigned char *sig,
                               size_t *siglen)
{
    STATEFUL_KEY *x = key;
    STREAM *s = st;
    size_t need = x->ops->sig_bytes(x->core);
    int err, unused = 0;

    if (*siglen < need)
        return FASTSIG_ERR_BAD_LENGTH; /* the stream stays: a larger buffer may follow */
    if (!__atomic_compare_exchange_n(&s->claim->used, &unused, 1, 0, __ATOMIC_ACQ_REL,
                                     __ATOMIC_ACQUIRE)) {
        if (o != NULL && o->detail != NULL) {
            o->detail->reason = FASTSIG_ERR_OTS_USED;
            snprintf(o->detail->text, sizeof(o->detail->text), "this streamed message's index "
                     "signed already (in this context or a copy of it): init again to sign "
                     "another");
        }
        return FASTSIG_ERR_OTS_USED;
    }
    err = x->ops->msg_sign_final(x->core, &s->m, o != NULL && o->verify_after_sign, sig, need);
    if (err != FASTSIG_OK) {
        OPENSSL_cleanse(sig, need);
        return stateful_state_error(x, err, NULL, o != NULL ? o->detail : NULL);
    }
    *siglen = need;
    stateful_warn_check(x, o, s->m.idx); /* as stateful_sign: the low-water warning */
    return FASTSIG_OK;
}

int stateful_stream_verify_final(const void *key, void *st, const unsigned char *sig,
                                 size_t siglen)
{
    const STATEFUL_KEY *x = key;
    STREAM *s = st;
    if (s->err != FASTSIG_OK || s->done)
        return s->err;
    /* the digest started from the signature given first: only it can be checked */
    if (sig != NULL && (siglen != s->siglen || memcmp(sig, s->sig, siglen) != 0))
        return FASTSIG_ERR_BAD_SIGNATURE;
    s->err = x->ops->msg_verify_final(x->core, &s->m, s->sig, s->siglen);
    s->done = 1;
    return s->err;
}

void *stateful_stream_dup(void *st)
{
    STREAM *src = st, *s = OPENSSL_memdup(src, sizeof(*src));
    if (s == NULL)
        return NULL;
    if (src->sig != NULL && (s->sig = OPENSSL_memdup(src->sig, src->siglen ? src->siglen : 1))
                            == NULL) {
        OPENSSL_free(s);
        return NULL;
    }
    if (s->claim != NULL)
        __atomic_add_fetch(&s->claim->refs, 1, __ATOMIC_RELAXED);
    return s;
}

void stateful_stream_free(void *st)
{
    STREAM *s = st;
    if (s == NULL)
        return;
    if (s->claim != NULL && __atomic_sub_fetch(&s->claim->refs, 1, __ATOMIC_ACQ_REL) == 0)
        OPENSSL_free(s->claim);
    OPENSSL_free(s->sig);
    OPENSSL_cleanse(&s->m, sizeof(s->m));
    OPENSSL_free(s);
}
