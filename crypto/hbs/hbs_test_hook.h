/* hbs_test_hook.h - test hooks of the XMSS / WOTS+ cores, like
 * crypto/state/statefile_hook.h: function pointers that only tests set
 * (NULL in use; test/common/hbs_hooks.h sets them). Not part of the public
 * contract. */
#ifndef FASTSIG_HBS_TEST_HOOK_H
#define FASTSIG_HBS_TEST_HOOK_H

#include <stddef.h>
#include <stdint.h>

/* Where a simulated fault may damage bytes as they are made: a WOTS+
 * signature of a layer root (xmss_cache.c), a signature hbs_sign or
 * hbs_wotsp_sign returns. */
enum hbs_fault_site { HBS_FAULT_ROOT_SIG = 1u, HBS_FAULT_SIG = 2u };

/* When set, called with the bytes just made at each site (it may damage
 * them): the checks behind it must catch the damage. */
extern void (*hbs_fault_hook)(enum hbs_fault_site site, uint8_t *buf, size_t len);

/* When set, keys created then use bottom subtrees of height at most its
 * answer (0: HBS_BOTTOM_H), so small test trees exercise the top/bottom
 * split of tall trees. */
extern unsigned (*hbs_bottom_h_hook)(void);

#endif
