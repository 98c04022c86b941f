/* hss_cache.c - see hss_cache.h. Best effort throughout, as for XMSS
 * (xmss_adapter.c): the cache is public and only spares work, so neither
 * key generation nor signing fails for it; the core refuses bytes that are
 * not its key's or do not check, and the key then builds its trees. */
#include <stdlib.h>
#include "hss_cache.h"
#include "fastsig_err.h"
#include "lms/hss_cache.h"
#include "state/cachefile.h"

int hbsa_hss_cache_load(HBSA_KEY *x, unsigned L, const lms_params *lms, const lmots_params *ots,
                        const uint8_t *seed, const uint8_t *I, unsigned threads, hss_key **core)
{
    uint8_t *buf = NULL;
    size_t len = 0;
    int err = fastsig_cache_load(x->path, &buf, &len, NULL);

    *core = NULL;
    if (err == FASTSIG_OK)
        err = hss_cache_import(core, L, lms, ots, seed, I, x->pk, threads, buf, len);
    free(buf);
    if (err == FASTSIG_OK)
        x->saved = hss_cache_stamp(*core); /* signing that moves no tree writes nothing */
    return err;
}

void hbsa_hss_cache_built(HBSA_KEY *x, hss_key *core)
{
    x->saved = hss_cache_stamp(core) + 1;
}

void hbsa_hss_cache_save(HBSA_KEY *x, hss_key *core)
{
    uint8_t *buf = NULL;
    size_t len = 0;
    int err = hss_cache_export(core, &buf, &len);

    if (err == FASTSIG_OK)
        err = fastsig_cache_save(x->path, buf, len, NULL);
    free(buf);
    x->cache_err = err;
    x->saved = hss_cache_stamp(core);
}

void hbsa_hss_cache_close(HBSA_KEY *x, hss_key *core)
{
    /* the last write: nobody is left to tell when it fails (the next signer
     * rebuilds) */
    if (core != NULL && x->st != NULL && hss_cache_stamp(core) != x->saved)
        hbsa_hss_cache_save(x, core);
}
