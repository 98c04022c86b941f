/* xmss_adapter.c - the XMSS row's adapter: crypto/hbs XMSS keys with
 * crypto/state behind the generic glue. Everything but the kind (which
 * picks the parameter-set oid space) is shared with the other hash-based
 * adapters in hbs_adapter.c. */
#include "hbs_adapter.h"

static int gen(const FS_SIGALG *alg, const FS_GENOPTS *o, void **key)
{
    return hbsa_xmss_gen(HBS_KIND_XMSS, o, key);
}

static int pub_decode(const FS_SIGALG *alg, const unsigned char *in, size_t len, void **key)
{
    return hbsa_pub_decode(HBS_KIND_XMSS, in, len, key);
}

static int priv_decode(const FS_SIGALG *alg, const unsigned char *in, size_t len, void **key)
{
    return hbsa_xmss_priv_decode(HBS_KIND_XMSS, in, len, key);
}

const FS_ADAPTER fs_xmss_adapter = HBSA_XMSS_ADAPTER(gen, pub_decode, priv_decode);
