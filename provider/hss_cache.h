/* hss_cache.h - the node cache file of HSS keys (hss_cache.c): the public
 * working data of crypto/lms/hss_cache.h in the file beside the state
 * (crypto/state/cachefile.h), read when the signing core is first needed
 * and written when its trees changed. */
#ifndef FASTSIG_PROVIDER_HSS_CACHE_H
#define FASTSIG_PROVIDER_HSS_CACHE_H

#include "hbs_keyobj.h"
#include "lms/hss.h"

/* The signing core of x (levels lms / ots, top SEED and I) from its cache
 * file into *core: FASTSIG_OK, or why not (no file, not this key's, does
 * not check): the caller then builds the trees, and hbsa_hss_cache_built
 * has the file rewritten when the key is freed. */
int hbsa_hss_cache_load(HBSA_KEY *x, unsigned L, const lms_params *lms, const lmots_params *ots,
                        const uint8_t *seed, const uint8_t *I, unsigned threads, hss_key **core);
void hbsa_hss_cache_built(HBSA_KEY *x, hss_key *core);
/* Writes core's cache file (at keygen: the first signer starts warm);
 * a failure is kept in x->cache_err for `pkey -text`, never an error. */
void hbsa_hss_cache_save(HBSA_KEY *x, hss_key *core);
/* At free: rewrites the file when this process moved core's trees on. */
void hbsa_hss_cache_close(HBSA_KEY *x, hss_key *core);

#endif
