/* xmss_hooks.h - the tests' side of crypto/xmss/xmss_test_hook.h: simulated
 * faults and a bottom-subtree cap for the XMSS / WOTS+ cores, set and reset
 * by the test that wants them. Not thread-safe; tests only. */
#ifndef FASTSIG_TEST_XMSS_HOOKS_H
#define FASTSIG_TEST_XMSS_HOOKS_H

#include "xmss/xmss_test_hook.h"

static unsigned xmss_hooks_fault, xmss_hooks_bottom;

/* XMSS_FAULT_ROOT_SIG damages every WOTS+ signature of a layer root as it
 * is made; XMSS_FAULT_SIG every signature xmss_sign / xmss_wotsp_sign return. */
static void xmss_hooks_damage(enum xmss_fault_site site, uint8_t *buf, size_t len)
{
    if (xmss_hooks_fault & site)
        buf[site == XMSS_FAULT_ROOT_SIG ? 0 : len / 2] ^= 1;
}

/* Faults at the sites in what, until reset with 0. */
static inline void xmss_test_set_fault(unsigned what)
{
    xmss_hooks_fault = what;
    xmss_fault_hook = what ? xmss_hooks_damage : NULL;
}

static unsigned xmss_hooks_bottom_h(void)
{
    return xmss_hooks_bottom;
}

/* Keys created after this call use bottom subtrees of height at most b
 * (0 restores XMSS_BOTTOM_H). */
static inline void xmss_test_set_bottom_h(unsigned b)
{
    xmss_hooks_bottom = b;
    xmss_bottom_h_hook = b ? xmss_hooks_bottom_h : NULL;
}

#endif
