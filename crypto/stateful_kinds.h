/* stateful_kinds.h - making a new key of each stateful kind behind the
 * contract of stateful.h: an empty core of the parameters first (its
 * seed_fp answers, so a seed some key has is refused before any tree is
 * built), then the key generated into it. Everything else goes through
 * the ops. */
#ifndef FASTSIG_STATEFUL_KINDS_H
#define FASTSIG_STATEFUL_KINDS_H

#include "stateful.h"
#include "keygen_resume.h"
#include "xmss/params.h"
#include "xmss/tree.h"
#include "xmss/xmss.h"
#include "lms/lms_params.h"
#include "lms/lms_tree.h"

/* XMSS / XMSS^MT (ops fs_stateful_xmss / _xmssmt by p->kind): seed is 3n
 * bytes, threads as xmss_keygen. */
int fs_stateful_xmss_new(const xmss_params *p, void **core);
int fs_stateful_xmss_keygen(void *core, const uint8_t *seed, size_t seedlen, unsigned threads,
                            xmss_progress_fn progress, void *parg);
/* The same in pieces (keygen_resume.h; xmss_keygen_resume, xmss/xmss.h). */
int fs_stateful_xmss_keygen_resume(void *core, const uint8_t *seed, size_t seedlen,
                                   unsigned threads, xmss_progress_fn progress, void *parg,
                                   const fs_keygen_resume *resume);
/* What a checkpoint of a generation in pieces of core's set is bound to;
 * FASTSIG_ERR_UNSUPPORTED (plan->total 0) for a set built in one piece.
 * XMSS, XMSS^MT: xmss_stateful.c; HSS: lms/hss_resume.c. */
int fs_stateful_xmss_resume_plan(const void *core, fs_resume_plan *plan);
int fs_stateful_hss_resume_plan(const void *core, fs_resume_plan *plan);
/* WOTS+ (fs_stateful_wotsp). */
int fs_stateful_wotsp_new(const xmss_params *p, void **core);
int fs_stateful_wotsp_keygen(void *core, const uint8_t *seed, size_t seedlen);
/* HSS (fs_stateful_hss): the levels top first. FASTSIG_ERR_UNSUPPORTED when
 * they may not form one key, *bad the level and *why the reason. seed is
 * SEED (n bytes) then I (16 bytes) of the top tree. */
int fs_stateful_hss_new(unsigned L, const lms_params *lms, const lmots_params *ots,
                        unsigned *bad, const char **why, void **core);
int fs_stateful_hss_keygen(void *core, const uint8_t *seed, size_t seedlen, unsigned threads,
                           lms_progress_fn progress, void *parg);
/* The same in pieces (hss_key_gen_resume, lms/hss.h). */
int fs_stateful_hss_keygen_resume(void *core, const uint8_t *seed, size_t seedlen,
                                  unsigned threads, lms_progress_fn progress, void *parg,
                                  const fs_keygen_resume *resume);

#endif
