/* ctgrind.h - marks where signing legitimately makes secret-derived values
 * public, for the constant-time check (test/ct): built with FASTSIG_CTGRIND,
 * FS_DECLASSIFY tells valgrind's memcheck the bytes are defined; otherwise
 * it is nothing. */
#ifndef FASTSIG_CTGRIND_H
#define FASTSIG_CTGRIND_H

#ifdef FASTSIG_CTGRIND
#include <valgrind/memcheck.h>
#define FS_DECLASSIFY(p, len) ((void)VALGRIND_MAKE_MEM_DEFINED((p), (len)))
#else
#define FS_DECLASSIFY(p, len) ((void)(p), (void)(len))
#endif

#endif
