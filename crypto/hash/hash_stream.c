/* hash_stream.c - see hash_stream.h. */
#include <string.h>
#include "fastsig_err.h"
#include "hash/hash_internal.h"
#include "hash/hash_stream.h"
#include "hash/lanes.h"

/* Whole blocks absorbed per engine call from the caller's bytes. */
#define RUN_BLOCKS 64

int fs_hash_stream_keyed(fs_hash_stream *s, const fs_hash_params *p, unsigned domain,
                         const uint8_t *key, size_t keylen)
{
    int rc = fs_hash_params_check(p);
    if (rc != FASTSIG_OK)
        return rc;
    if (s == NULL || (key == NULL && keylen))
        return FASTSIG_ERR_NULL_ARG;
    if (domain > 255 || keylen > 3 * FS_HASH_MAX_N)
        return FASTSIG_ERR_BAD_PARAM;
    fs_hash_keyed k;
    fs_hash_keyed_init(&k, p, domain, key, keylen);
    s->family = p->family;
    s->n = p->n;
    s->block = fs_lanes_block(p->family);
    s->st = k.mid;
    s->done = k.done;
    s->buflen = k.restlen;
    memcpy(s->buf, k.rest, k.restlen);
    return FASTSIG_OK;
}

int fs_hash_stream_prefixed(fs_hash_stream *s, const fs_hash_params *p, const uint8_t *prefix,
                            size_t plen)
{
    int rc = fs_hash_params_check(p);
    if (rc != FASTSIG_OK)
        return rc;
    if (s == NULL)
        return FASTSIG_ERR_NULL_ARG;
    if (plen >= fs_lanes_block(p->family) || (prefix == NULL && plen))
        return FASTSIG_ERR_BAD_PARAM;
    s->family = p->family;
    s->n = p->n;
    s->block = fs_lanes_block(p->family);
    fs_lanes_iv(p->family, &s->st);
    s->done = 0;
    s->buflen = (unsigned)plen;
    if (plen)
        memcpy(s->buf, prefix, plen);
    return FASTSIG_OK;
}

void fs_hash_stream_update(fs_hash_stream *s, const uint8_t *data, size_t len)
{
    const size_t B = s->block;
    if (len == 0) /* data may be NULL then (memcpy's arguments may not) */
        return;
    if (s->buflen) { /* complete the waiting block first */
        size_t take = len < B - s->buflen ? len : B - s->buflen;
        memcpy(s->buf + s->buflen, data, take);
        s->buflen += (unsigned)take;
        data += take;
        len -= take;
        if (s->buflen < B)
            return;
        fs_lanes_absorb(s->family, &s->st, s->buf, 1);
        s->done += B;
        s->buflen = 0;
    }
    while (len >= B) { /* whole blocks straight from the caller's bytes */
        size_t blocks = len / B < RUN_BLOCKS ? len / B : RUN_BLOCKS;
        fs_lanes_absorb(s->family, &s->st, data, blocks);
        s->done += blocks * B;
        data += blocks * B;
        len -= blocks * B;
    }
    if (len) {
        memcpy(s->buf, data, len);
        s->buflen = (unsigned)len;
    }
}

void fs_hash_stream_final(fs_hash_stream *s, uint8_t *out)
{
    fs_lanes_run(s->family, &s->st, s->done, s->buf, 0, s->buflen, out, 0, s->n, 1);
}
