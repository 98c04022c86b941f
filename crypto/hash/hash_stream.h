/* hash_stream.h - one message hashed as it arrives, in pieces of any size:
 * Hash(prefix || piece 1 || piece 2 ...), the first n bytes, on the lane
 * engine's one-lane calls (fs_lanes_absorb for whole blocks, fs_lanes_run
 * for the tail and its padding). The message hashes of verification that
 * are fed as the data streams in (libfastsig-verify's update calls): XMSS's
 * H_msg after toByte(2, pad) || r || root || toByte(idx, n), LMS's Q after
 * I || u32str(q) || u16str(D_MESG) || C, and the provider's streamed
 * signing and verification (xmss_stream.c, wotsp_stream.c, hss_stream.c,
 * for a message too long to hold). Same digests as fs_hash_msg and
 * fs_hash_prefixed_msg over the whole message; no allocation, freestanding.
 *
 * Contract: a stream is a plain struct (copyable, no resources); its bytes
 * are public data (no wiping: r is sent in the signature, the message is
 * the caller's). The starts return FASTSIG_OK, NULL_ARG, BAD_PARAM or the
 * codes of fs_hash_params_check. Every call after fs_hash_stream_final is
 * undefined until the next start. */
#ifndef FASTSIG_HASH_STREAM_H
#define FASTSIG_HASH_STREAM_H

#include <stddef.h>
#include <stdint.h>
#include "hash/hash.h"

typedef struct {
    fs_hash_family family;
    unsigned n;             /* digest bytes written by final */
    unsigned block;         /* the family's block (rate) */
    unsigned buflen;        /* bytes waiting in buf (< block) */
    uint64_t done;          /* bytes absorbed into st (whole blocks) */
    fs_hash_state st;
    uint8_t buf[168];
} fs_hash_stream;

/* Starts Hash(toByte(domain, pad) || key || ...): RFC 8391's keyed form
 * (H_msg: domain 2, key = r || root || toByte(idx, n)). */
int fs_hash_stream_keyed(fs_hash_stream *s, const fs_hash_params *p, unsigned domain,
                         const uint8_t *key, size_t keylen);
/* Starts Hash(prefix || ...), plen below the block (RFC 8554's Q). */
int fs_hash_stream_prefixed(fs_hash_stream *s, const fs_hash_params *p, const uint8_t *prefix,
                            size_t plen);
/* Feeds len bytes (data may be NULL when len is 0). */
void fs_hash_stream_update(fs_hash_stream *s, const uint8_t *data, size_t len);
/* Pads and writes the n digest bytes to out. */
void fs_hash_stream_final(fs_hash_stream *s, uint8_t *out);

#endif
