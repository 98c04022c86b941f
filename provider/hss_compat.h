/* hss_compat.h - the HSS forms other implementations write, accepted on
 * import and verification only (fastsig always writes RFC 9708 / 9802's). */
#ifndef FSP_HSS_COMPAT_H
#define FSP_HSS_COMPAT_H

#include <stddef.h>
#include "sigalgs.h"

/* RFC 8708's public key, an OCTET STRING inside the SPKI BIT STRING: *in and
 * *len narrowed to the raw HSS key inside it; any other input is left as it is. */
void hss_compat_unwrap_pub(const unsigned char **in, size_t *len);
/* The adapter's verify: the HSS signature as it is, else, for an L = 1 key,
 * a bare LMS signature (no leading count of signed public keys). */
int hss_compat_verify(const void *key, const FSP_SIGOPTS *o, int prehashed,
                      const unsigned char *sig, size_t siglen, const unsigned char *msg,
                      size_t msglen);

#endif
