/* hash_stream.c - one message hashed as it comes (hash_stream.h), on the
 * lane engine's one-lane calls: whole blocks absorbed where they are, the
 * tail padded and finished by fs_lanes_run. */
#include <string.h>
#include "fastsig_err.h"
#include "hash/hash_internal.h"
#include "hash/hash_stream.h"

int fs_hash_stream_init(fs_hash_stream *s, const fs_hash_params *p)
{
    int rc = fs_hash_params_check(p);
    if (rc != FASTSIG_OK)
        return rc;
    if (s == NULL)
        return FASTSIG_ERR_NULL_ARG;
    memset(s, 0, sizeof(*s));
    s->p = *p;
    fs_lanes_iv(p->family, &s->st);
    return FASTSIG_OK;
}

int fs_hash_stream_msg_init(fs_hash_stream *s, const fs_hash_params *p, const uint8_t *key3n)
{
    fs_hash_keyed k;
    int rc = fs_hash_params_check(p);
    if (rc == FASTSIG_OK && (s == NULL || key3n == NULL))
        rc = FASTSIG_ERR_NULL_ARG;
    if (rc != FASTSIG_OK)
        return rc;
    /* the prefix's whole blocks are absorbed by the keyed init (hash.c) */
    fs_hash_keyed_init(&k, p, FS_DOM_HMSG, key3n, 3 * (size_t)p->n);
    memset(s, 0, sizeof(*s));
    s->p = *p;
    s->st = k.mid;
    s->done = k.done;
    s->buflen = k.restlen;
    memcpy(s->buf, k.rest, k.restlen);
    explicit_bzero(&k, sizeof(k));
    return FASTSIG_OK;
}

void fs_hash_stream_update(fs_hash_stream *s, const uint8_t *data, size_t len)
{
    const size_t block = fs_lanes_block(s->p.family);
    if (len == 0) /* data may be NULL */
        return;
    if (s->buflen > 0) { /* complete the held block first */
        size_t take = block - s->buflen < len ? block - s->buflen : len;
        memcpy(s->buf + s->buflen, data, take);
        s->buflen += (unsigned)take;
        data += take;
        len -= take;
        if (s->buflen < block)
            return;
        fs_lanes_absorb(s->p.family, &s->st, s->buf, 1);
        s->done += block;
        s->buflen = 0;
    }
    if (len >= block) {
        size_t whole = len / block;
        fs_lanes_absorb(s->p.family, &s->st, data, whole);
        s->done += whole * block;
        data += whole * block;
        len -= whole * block;
    }
    if (len > 0) {
        memcpy(s->buf, data, len);
        s->buflen = (unsigned)len;
    }
}

void fs_hash_stream_final(fs_hash_stream *s, uint8_t *out)
{
    fs_lanes_run(s->p.family, &s->st, s->done, s->buf, 0, s->buflen, out, 0, s->p.n, 1);
    fs_hash_stream_wipe(s);
}

void fs_hash_stream_wipe(fs_hash_stream *s)
{
    if (s != NULL)
        explicit_bzero(s, sizeof(*s));
}
