/* <fastsig/verify.h> - libfastsig-verify: XMSS, XMSS^MT, LMS and HSS
 * signature verification for devices (bootloaders, firmware updaters).
 *
 * Freestanding C: no allocation, no file or console I/O, no threads, no
 * OpenSSL; of libc it calls only memcpy, memset and memcmp (plus the
 * compiler's own runtime, libgcc). Every parameter set of RFC 8391, RFC 8554
 * and NIST SP 800-208: the same cores as the fastsig provider, on their
 * portable C kernels. Thread-safe: no state outside the caller's context
 * (the parameter tables are built once, at the first call).
 *
 * Encodings (raw, as the RFCs define them):
 *   XMSS, XMSS^MT  pk = u32 oid || root || PUB_SEED    (RFC 8391)
 *                  sig = idx || r || layers             (RFC 8391)
 *   HSS            pk = u32str(L) || LMS public key     (RFC 8554 6.1)
 *                  sig = u32str(L-1) || ...             (RFC 8554 6.2)
 *   LMS            pk = LMS public key (no level count) (RFC 8554 5.3)
 *                  sig = LMS signature                  (RFC 8554 5.4)
 * The message is signed as it is (no pre-hash).
 *
 * Every call returns 0 (FASTSIG_OK: the signature is valid) or a code of
 * <fastsig/fastsig_err.h>: FASTSIG_ERR_VERIFY for a well-formed signature
 * that does not verify, FASTSIG_ERR_BAD_KEY / FASTSIG_ERR_BAD_SIGNATURE /
 * FASTSIG_ERR_BAD_LENGTH for malformed input, FASTSIG_ERR_NULL_ARG,
 * FASTSIG_ERR_BAD_PARAM for a bad scheme or a misused context. Anything but 0
 * means "reject". fastsig_strerror gives a code's text.
 *
 * Stable: this header's functions, types and sizes only ever gain members
 * (FASTSIG_VERIFY_API is raised when they do). */
#ifndef FASTSIG_VERIFY_H
#define FASTSIG_VERIFY_H

#include <stddef.h>
#include <stdint.h>
#include "fastsig_err.h"

#ifdef __cplusplus
extern "C" {
#endif

#define FASTSIG_VERIFY_API 1

enum fastsig_verify_scheme {
    FASTSIG_VERIFY_XMSS = 1,   /* pk's oid in the XMSS numbering */
    FASTSIG_VERIFY_XMSSMT = 2, /* pk's oid in the XMSS^MT numbering */
    FASTSIG_VERIFY_HSS = 3,
    FASTSIG_VERIFY_LMS = 4,
};

/* One-shot: 0 when sig is a valid signature of msg (msglen bytes; msg may be
 * NULL when msglen is 0) under pk. */
int fastsig_verify(int scheme, const uint8_t *pk, size_t pklen, const uint8_t *msg,
                   size_t msglen, const uint8_t *sig, size_t siglen);

/* Streaming: the message in pieces of any size, in constant memory.
 *   fastsig_verify_init(&ctx, scheme, pk, pklen, sig, siglen);
 *   fastsig_verify_update(&ctx, piece, len);   (any number of times)
 *   fastsig_verify_final(&ctx);                 0 when valid
 * init checks the key and the signature's form (every check that needs no
 * hash: a malformed one is refused there) and starts the message hash; pk
 * and sig are not copied and must stay unchanged until final. The same
 * answer as fastsig_verify for every split of the message. After a failed
 * init, or after final, the context refuses update and final
 * (FASTSIG_ERR_BAD_PARAM) until the next init. The context holds only public
 * data: no cleanup is needed; it may be copied to fork a verification. */
typedef struct {
    uint64_t opaque[320]; /* 2560 bytes, the same on every target */
} fastsig_verify_ctx;

int fastsig_verify_init(fastsig_verify_ctx *ctx, int scheme, const uint8_t *pk, size_t pklen,
                        const uint8_t *sig, size_t siglen);
int fastsig_verify_update(fastsig_verify_ctx *ctx, const uint8_t *data, size_t len);
int fastsig_verify_final(fastsig_verify_ctx *ctx);

#ifdef __cplusplus
}
#endif

#endif
