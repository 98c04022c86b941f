/* hash_stream.h - one message hashed as it comes, in constant memory: the
 * incremental form of the engine's one-message calls (hash.h), for messages
 * too long to hold (a firmware image signed or verified while it streams).
 *   fs_hash_stream_init      Hash(M)                      (LMS's Q: its prefix
 *                                                          is the first update)
 *   fs_hash_stream_msg_init  H_msg = Hash(toByte(2, pad) || KEY || M),
 *                            KEY = r || root || toByte(idx, n)  (XMSS, WOTS+)
 * then any number of updates of any split, then final: the n-byte digest,
 * the same bytes as fs_hash_prefixed_msg / fs_hash_msg over the whole
 * message. Whole blocks are absorbed straight from the caller's buffer; at
 * most one block is kept. No allocation, no OpenSSL: a freestanding verifier
 * can use it as the provider does. Public data only is assumed after final
 * (the state is wiped there and by fs_hash_stream_wipe). */
#ifndef FASTSIG_HASH_STREAM_H
#define FASTSIG_HASH_STREAM_H

#include <stddef.h>
#include <stdint.h>
#include "hash/hash.h"

typedef struct {
    fs_hash_state st;    /* after `done` bytes (whole blocks) */
    uint64_t done;
    uint8_t buf[168];    /* the bytes after them: less than a block */
    unsigned buflen;
    fs_hash_params p;
} fs_hash_stream;

/* FASTSIG_OK, or the codes of fs_hash_params_check / NULL_ARG. */
int fs_hash_stream_init(fs_hash_stream *s, const fs_hash_params *p);
/* H_msg's prefix: key3n is 3n bytes. */
int fs_hash_stream_msg_init(fs_hash_stream *s, const fs_hash_params *p, const uint8_t *key3n);
/* data may be NULL when len is 0. */
void fs_hash_stream_update(fs_hash_stream *s, const uint8_t *data, size_t len);
/* The n digest bytes into out; s is wiped (init again to reuse it). */
void fs_hash_stream_final(fs_hash_stream *s, uint8_t *out);
void fs_hash_stream_wipe(fs_hash_stream *s);

#endif
