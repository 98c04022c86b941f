/* hbs_hooks.h - the tests' side of crypto/hbs/hbs_test_hook.h: simulated
 * faults and a bottom-subtree cap for the XMSS / WOTS+ cores, set and reset
 * by the test that wants them. Not thread-safe; tests only. */
#ifndef FASTSIG_TEST_HBS_HOOKS_H
#define FASTSIG_TEST_HBS_HOOKS_H

#include "hbs/hbs_test_hook.h"

static unsigned hbs_hooks_fault, hbs_hooks_bottom;

/* HBS_FAULT_ROOT_SIG damages every WOTS+ signature of a layer root as it
 * is made; HBS_FAULT_SIG every signature hbs_sign / hbs_wotsp_sign return. */
static void hbs_hooks_damage(enum hbs_fault_site site, uint8_t *buf, size_t len)
{
    if (hbs_hooks_fault & site)
        buf[site == HBS_FAULT_ROOT_SIG ? 0 : len / 2] ^= 1;
}

/* Faults at the sites in what, until reset with 0. */
static inline void hbs_test_set_fault(unsigned what)
{
    hbs_hooks_fault = what;
    hbs_fault_hook = what ? hbs_hooks_damage : NULL;
}

static unsigned hbs_hooks_bottom_h(void)
{
    return hbs_hooks_bottom;
}

/* Keys created after this call use bottom subtrees of height at most b
 * (0 restores HBS_BOTTOM_H). */
static inline void hbs_test_set_bottom_h(unsigned b)
{
    hbs_hooks_bottom = b;
    hbs_bottom_h_hook = b ? hbs_hooks_bottom_h : NULL;
}

#endif
