/* fuzz_verify_lib.c - libfastsig-verify's decoders (<fastsig/verify.h>) on
 * attacker-chosen keys and signatures: the XMSS / XMSS^MT oid and index
 * checks, the HSS level count and every level's LMS / LM-OTS typecodes and
 * lengths, the LMS ones bare. Input: mode byte || split byte || BE16 key
 * length || key || signature; the message is fixed ("fuzz"). Mode: scheme
 * 1 + (mode & 3). Every input is verified one-shot and streamed (the message
 * cut at split % 5), and the two must agree on valid / not valid (abort
 * otherwise). Seeds: the known answers of test/vectors in this framing
 * (make_corpus.sh). */
#include <stdlib.h>
#include <string.h>
#include "fastsig/verify.h"
#include "fuzz_common.h"

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc, (void)argv;
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static const uint8_t msg[] = FUZZ_MSG;
    if (size < 4)
        return 0;
    int scheme = 1 + (data[0] & 3);
    size_t split = data[1] % (FUZZ_MSG_LEN + 1), klen = (size_t)data[2] << 8 | data[3];
    if (klen > size - 4)
        return 0;
    /* copies of their own, so that reading past either is a sanitizer report */
    uint8_t *pk = malloc(klen ? klen : 1), *sig = malloc(size - 4 - klen + 1);
    size_t siglen = size - 4 - klen;
    memcpy(pk, data + 4, klen);
    memcpy(sig, data + 4 + klen, siglen);
    int one = fastsig_verify(scheme, pk, klen, msg, FUZZ_MSG_LEN, sig, siglen);
    fastsig_verify_ctx ctx;
    int streamed = fastsig_verify_init(&ctx, scheme, pk, klen, sig, siglen);
    if (streamed == FASTSIG_OK)
        streamed = fastsig_verify_update(&ctx, msg, split);
    if (streamed == FASTSIG_OK)
        streamed = fastsig_verify_update(&ctx, msg + split, FUZZ_MSG_LEN - split);
    if (streamed == FASTSIG_OK)
        streamed = fastsig_verify_final(&ctx);
    if ((one == FASTSIG_OK) != (streamed == FASTSIG_OK))
        abort(); /* one-shot and streamed disagree */
    free(pk);
    free(sig);
    return 0;
}
