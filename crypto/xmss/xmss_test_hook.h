/* xmss_test_hook.h - test hooks of the XMSS / WOTS+ cores, like
 * crypto/state/statefile_hook.h: function pointers that only tests set
 * (NULL in use; test/common/xmss_hooks.h sets them). Not part of the public
 * contract. */
#ifndef FASTSIG_XMSS_TEST_HOOK_H
#define FASTSIG_XMSS_TEST_HOOK_H

#include <stddef.h>
#include <stdint.h>

/* Where a simulated fault may damage bytes as they are made: a WOTS+
 * signature of a layer root (xmss_cache.c), a signature xmss_sign or
 * xmss_wotsp_sign returns. */
enum xmss_fault_site { XMSS_FAULT_ROOT_SIG = 1u, XMSS_FAULT_SIG = 2u };

/* When set, called with the bytes just made at each site (it may damage
 * them): the checks behind it must catch the damage. */
extern void (*xmss_fault_hook)(enum xmss_fault_site site, uint8_t *buf, size_t len);

/* When set, keys created then use bottom subtrees of height at most its
 * answer (0: XMSS_BOTTOM_H), so small test trees exercise the top/bottom
 * split of tall trees. */
extern unsigned (*xmss_bottom_h_hook)(void);

#endif
