/* rng.c - randomness for the crypto cores: OpenSSL's private DRBG of the
 * provider's (child) library context, behind the cores' callback type. */
#include <openssl/rand.h>
#include "prov.h"
#include "sigalgs.h"

int fs_rng_bytes(void *provctx, unsigned char *out, size_t len)
{
    FS_PROVCTX *c = provctx;
    return RAND_priv_bytes_ex(c != NULL ? c->libctx : NULL, out, len, 0) == 1;
}
