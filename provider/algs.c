/* algs.c - what the provider offers, one table per operation.
 *
 * Signature algorithms will come from one descriptor table (name list, OID,
 * sizes, the crypto core's entry points) that drives a single generic
 * keymgmt, signature, encoder and decoder implementation: adding a
 * parameter set or an algorithm is a table row, not new glue. */
#include <openssl/core_names.h>
#include "prov.h"
#include "oids.h"

#define FS_PROPS "provider=fastsig"

static const OSSL_ALGORITHM digests[] = {
    { "TZ:TILLICH-ZEMOR:" FS_OID_TZ, FS_PROPS, fs_tz_digest_functions,
      "Tillich-Zemor hash (SL2 over GF(2^127)); NOT collision resistant" },
    { NULL, NULL, NULL, NULL }
};

const OSSL_ALGORITHM *fs_query_algorithms(int operation_id)
{
    switch (operation_id) {
    case OSSL_OP_DIGEST:
        return digests;
    }
    return NULL;
}
