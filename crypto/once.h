/* once.h - run a function once per process without pthread: the tables
 * the cores build at first use (the lane engine's selections, the XMSS
 * parameter rows) must build freestanding too (libfastsig-verify).
 *
 * The first caller runs fn; callers that arrive meanwhile spin until it
 * has finished (the builds take microseconds, a calibration about 0.3 ms),
 * then see everything fn wrote (release / acquire). fn must not call
 * fs_once on the same flag. */
#ifndef FASTSIG_ONCE_H
#define FASTSIG_ONCE_H

typedef int fs_once_flag; /* 0 before, 1 running, 2 done; initialise with FS_ONCE_INIT */
#define FS_ONCE_INIT 0

static inline void fs_once(fs_once_flag *flag, void (*fn)(void))
{
    if (__atomic_load_n(flag, __ATOMIC_ACQUIRE) == 2)
        return;
    int expect = 0;
    if (__atomic_compare_exchange_n(flag, &expect, 1, 0, __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE)) {
        fn();
        __atomic_store_n(flag, 2, __ATOMIC_RELEASE);
        return;
    }
    while (__atomic_load_n(flag, __ATOMIC_ACQUIRE) != 2) {
#if defined(__x86_64__) || defined(__i386__)
        __builtin_ia32_pause();
#endif
    }
}

#endif
