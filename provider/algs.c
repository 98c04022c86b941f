/* algs.c - what the provider offers, one table per operation.
 *
 * The signature algorithms come from the descriptor table (sigalgs.h): each
 * row yields a keymgmt, a signature, the encoders and
 * the decoders under its name list, all pointing at the generic glue.
 * The tables are built once, on the first query. */
#include <openssl/core_names.h>
#include <openssl/crypto.h>
#include "prov.h"
#include "oids.h"
#include "sigalgs.h"
#include "fastsig/provider.h"

#define FSP_PROPS "provider=" FASTSIG_PROVIDER_NAME

static const OSSL_ALGORITHM digests[] = {
    { FASTSIG_MD_TZ ":TILLICH-ZEMOR:" FSP_OID_TZ, FSP_PROPS, fsp_tz_digest_functions,
      "Tillich-Zemor hash (SL2 over GF(2^127)); NOT collision resistant" },
    { NULL, NULL, NULL, NULL }
};

static OSSL_ALGORITHM keymgmt[FSP_MAX_SIGALGS + 1];
static OSSL_ALGORITHM signature[FSP_MAX_SIGALGS + 1];
static OSSL_ALGORITHM encoders[FSP_MAX_SIGALGS * FSP_ENC_KINDS + 1];
static OSSL_ALGORITHM decoders[FSP_MAX_SIGALGS * FSP_DEC_KINDS + 1];
static CRYPTO_ONCE once = CRYPTO_ONCE_STATIC_INIT;
static int built;

static void build_tables(void)
{
    size_t nk = 0, ne = 0, nd = 0;

    if (!fsp_keymgmt_init() || !fsp_signature_init())
        return;
    for (size_t i = 0; i < fsp_nsigalgs; i++) {
        const FSP_SIGALG *a = &fsp_sigalgs[i];
        keymgmt[nk] = (OSSL_ALGORITHM){ a->names, FSP_PROPS, fsp_keymgmt_dispatch[i],
                                        a->description };
        signature[nk++] = (OSSL_ALGORITHM){ a->names, FSP_PROPS, fsp_signature_dispatch[i],
                                            a->description };
        for (int k = 0; k < FSP_ENC_KINDS; k++)
            encoders[ne++] = (OSSL_ALGORITHM){ a->names, fsp_encoder_props[k],
                                               fsp_encoder_dispatch[k], a->description };
        for (int k = 0; k < FSP_DEC_KINDS; k++)
            decoders[nd++] = (OSSL_ALGORITHM){ a->names, fsp_decoder_props[k],
                                               fsp_decoder_dispatch[k][i], a->description };
    }
    built = 1;
}

const OSSL_ALGORITHM *fsp_query_algorithms(int operation_id)
{
    if (operation_id == OSSL_OP_DIGEST)
        return digests;
    if (!CRYPTO_THREAD_run_once(&once, build_tables) || !built)
        return NULL;
    switch (operation_id) {
    case OSSL_OP_KEYMGMT:
        return keymgmt[0].algorithm_names != NULL ? keymgmt : NULL;
    case OSSL_OP_SIGNATURE:
        return signature[0].algorithm_names != NULL ? signature : NULL;
    case OSSL_OP_ENCODER:
        return encoders[0].algorithm_names != NULL ? encoders : NULL;
    case OSSL_OP_DECODER:
        return decoders[0].algorithm_names != NULL ? decoders : NULL;
    }
    return NULL;
}
