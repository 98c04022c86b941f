/* fastsig/provider.h - names an application uses with the fastsig provider.
 *
 * Load the provider with OSSL_PROVIDER_load(libctx, FASTSIG_PROVIDER_NAME)
 * (after OSSL_PROVIDER_set_default_search_path, or with it installed in
 * libcrypto's module directory) and fetch algorithms by these names. */
#ifndef FASTSIG_PROVIDER_H
#define FASTSIG_PROVIDER_H

#define FASTSIG_PROVIDER_NAME "fastsig"

/* Digests */
#define FASTSIG_MD_TZ "TZ" /* Tillich-Zemor, 64-byte digest, alias TILLICH-ZEMOR */

#endif
