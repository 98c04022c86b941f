/* keymgmt.h - what the three key-management files share: keymgmt.c (key
 * objects, parameters, dispatch tables) reaches generation (keymgmt_gen.c)
 * and import/export (keymgmt_io.c) through these. The signatures are
 * OpenSSL's keymgmt ones (core_dispatch.h). */
#ifndef FASTSIG_KEYMGMT_H
#define FASTSIG_KEYMGMT_H

#include <openssl/core.h>
#include "sigalgs.h"

/* Room of a row's merged parameter list (generic + adapter entries). */
#define FSP_KM_PARAMS_CAP 32

/* keymgmt_gen.c */
int fsp_km_gen_tables_init(void); /* the per-row generation settables */
void *fsp_km_gen_init(void *provctx, int selection, const OSSL_PARAM params[],
                     const FSP_SIGALG *alg);
int fsp_km_gen_set_params(void *genctx, const OSSL_PARAM params[]);
const OSSL_PARAM *fsp_km_gen_settable(void *genctx, void *provctx);
void *fsp_km_gen(void *genctx, OSSL_CALLBACK *cb, void *cbarg);
void fsp_km_gen_cleanup(void *genctx);

/* keymgmt_io.c */
int fsp_km_import(void *keydata, int selection, const OSSL_PARAM params[]);
int fsp_km_export(void *keydata, int selection, OSSL_CALLBACK *cb, void *cbarg);

#endif
