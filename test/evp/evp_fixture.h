/* evp_fixture.h - the library context every EVP test program works in: the
 * freshly built fastsig module loaded by path ($FASTSIG_MODULE_DIR), with or
 * without OpenSSL's default provider beside it. */
#ifndef FASTSIG_EVP_FIXTURE_H
#define FASTSIG_EVP_FIXTURE_H

#include <openssl/crypto.h>
#include <stdint.h>
#include <openssl/evp.h>
#include <openssl/provider.h>

extern OSSL_LIB_CTX *libctx;
extern OSSL_PROVIDER *prov_fastsig, *prov_default; /* prov_default NULL without it */

/* $FASTSIG_MODULE_DIR, else ".". */
const char *evp_module_dir(void);
/* New libctx that finds modules in evp_module_dir(); loads fastsig and, when
 * with_default, the default provider (CUnit fatal assertions). Points
 * $FASTSIG_STATE_DIR (hence the key-id registry) at a scratch folder that
 * evp_unload removes. */
void evp_load(int with_default);
/* The same, the default provider loaded before fastsig when default_first
 * (a fetch without a property query takes the first provider's algorithm). */
void evp_load_order(int with_default, int default_first);
/* A stateful key's signatures left (its "remaining" parameter), 0 if none. */
uint64_t evp_remaining(EVP_PKEY *k);
/* Unloads the providers (asserting each unload) and frees libctx. */
void evp_unload(void);

#endif
