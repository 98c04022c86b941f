/* rng.c - randomness for the crypto cores: OpenSSL's private DRBG of the
 * provider's (child) library context, behind the cores' callback type. */
#include <openssl/rand.h>
#include "prov.h"
#include "sigalgs.h"

int fsp_rng_bytes(void *provctx, unsigned char *out, size_t len)
{
    FSP_PROVCTX *c = provctx;
    return RAND_priv_bytes_ex(c != NULL ? c->libctx : NULL, out, len, 0) == 1;
}
