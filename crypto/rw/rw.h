/* rw.h - Rabin-Williams signatures (GMP): the core API the provider calls.
 *
 * Plain C11, no OpenSSL types. Every function that can fail returns
 * FASTSIG_OK (0) or a fastsig_err.h code (include/fastsig/). Randomness (key
 * generation only) comes from a caller-supplied callback; signing is
 * deterministic.
 * An rw_key is immutable once loaded: sign and verify on one key may run in
 * any number of threads at once.
 *
 * ---------------------------------------------------------------------------
 * KEYS
 *   n = p*q, p = 3 (mod 8), q = 7 (mod 8), p != q, both prime. Generated keys
 *   are balanced (p and q have bits/2 bits each, top two bits set, so n has
 *   exactly `bits` bits); bits is a multiple of 8 in [RW_MIN_BITS, RW_MAX_BITS],
 *   default RW_DEFAULT_BITS. Imported keys may be as small as RW_MIN_IMPORT_BITS
 *   (the IEEE 1363 interop vectors are 1024..2048-bit) and must have a bit
 *   length that is a multiple of 8; every import is validated without
 *   variable-time work on p and q (p != q, congruences, n = p*q, sizes, prf
 *   length, then a signing self-test: two fixed messages signed and verified,
 *   which a composite factor fails).
 *   prf = 32-byte secret key of the deterministic randomizer. Generated at
 *   random; when an import carries no prf (e.g. from n, p, q parameters) it is
 *   derived: prf = SHAKE256("FASTSIG-RW-PRF-v1" || BE16(plen) || p ||
 *   BE16(qlen) || q, 32), fields as in the private encoding below.
 *
 * COMPACT KEY ENCODINGS (C2 wraps them in SPKI / PKCS#8 DER)
 *   public  = n, big-endian, exactly nbytes = bits/8 bytes (top byte != 0).
 *   private = 0x01 (version) || prf (32) || BE16(plen) || p (plen bytes)
 *                            || BE16(qlen) || q (qlen bytes)
 *             p, q big-endian, minimal length (leading byte != 0); nothing
 *             may follow q. n, u and the CRT constants are recomputed.
 *
 * ---------------------------------------------------------------------------
 * THE EQUATION (all formats)
 *   A signature proves s, e in {1,-1}, f in {1,2} with  e*f*s^2 = h (mod n),
 *   0 < s <= (n-1)/2, where h is the message representative (h < n).
 *   The signer uses the |principal| root: s = min(y, n-y), y being the one of
 *   the four square roots of e*h/f mod n that is itself a square mod n.
 *   Signing uses no Jacobi symbols (Bernstein): U = h^((q+1)/8) mod q picks e
 *   (U^4 = h mod q iff e = 1), V = h^((p+1)/4) mod p picks f (V^2 = e*h mod p
 *   iff f = 1); the roots mod p, q are then e*V*[f=2 ? (1/2)^((p+1)/4) : 1]
 *   and U^2*[f=2 ? (1/2)^((q+1)/4) : 1]; CRT with u = q^-1 mod p. All secret
 *   arithmetic is constant time: GMP's mpn_sec_* and masked selects; where
 *   the CPU has AVX-512 IFMA (and FASTSIG_CPU allows avx512 and ifma) the two
 *   exponentiations run in one lockstep loop of 52-bit-limb almost-Montgomery
 *   multiplications (rw_ifma.c: fixed 5-bit window, full table scan per
 *   window; mpn_sec_powm is its portable twin). No blinding is needed: no
 *   step branches on or indexes by a secret. Before
 *   anything leaves, e*f*s^2 = h (mod n) is recomputed (fault check, also
 *   constant time: a withheld s stays secret); on a mismatch no signature
 *   is released (FASTSIG_ERR_FAULT). test/ct checks all this under
 *   valgrind (doc/design.md, "Constant-time check").
 *
 * FORMAT "RW" compact (RW_FMT_COMPACT), the default scheme
 *   r   = bit 0 of SHAKE256("FASTSIG-RW-R-v1" || prf || M, 1 byte)
 *         (deterministic one-bit randomizer, Bernstein's tight proof)
 *   kid = SHAKE256("FASTSIG-RW-KID-v1" || n (nbytes), 32)   (once per key)
 *   T_j = SHAKE256("FASTSIG-RW-H-v1" || kid || BE8(r) || M || BE8(j), 136)
 *         for j = 0 .. ceil(nbytes/136) - 1 (one SHAKE256 rate block each, so
 *         the lanes run in parallel on crypto/hash's multi-lane Keccak)
 *   h   = (T_0 || T_1 || ...)[0 .. nbytes) as a big-endian integer with its
 *         top bit cleared (h < 2^(bits-1) < n)
 *   sig = s (nbytes, big-endian) || T       T = tweak byte:
 *         bit 0: e = -1,  bit 1: f = 2,  bit 2: r,  bits 3..7 must be zero.
 *   siglen = nbytes + 1 exactly; verify rejects s = 0, s > (n-1)/2, bad T.
 *   Verify checks e*f*s^2 = h (mod n): with AVX-512 IFMA (n <= 2078 bits) as
 *   two almost-Montgomery products s*s/R and h/R in one call; else one
 *   squaring and one GMP division.
 *   (Domain strings are ASCII without a terminating NUL.)
 *
 * FORMAT "RW" expanded (RW_FMT_EXPANDED): same h, e, f, r, s; adds
 *   k = (f*s^2 - e*h) / n, an integer with 0 <= k < n/2 + 1
 *   sig = s (nbytes) || k (nbytes) || T ;  siglen = 2*nbytes + 1.
 *   Verify (exact, default): f*s^2 == e*h + k*n over the integers (one
 *   squaring, one multiplication, compare; no division; both products in one
 *   IFMA product-scanning call where available, else GMP).
 *   Verify (RW_VERIFY_PROBABILISTIC): the same identity checked modulo two
 *   secret random 61-bit primes drawn once per process (from getrandom();
 *   redrawn in a child after fork). A forger who does not know the primes
 *   passes with probability < 2^-90 per attempt. Residues are sums of
 *   limb * (2^(64 i) mod P) with the powers precomputed: no division per
 *   limb; with AVX-512 IFMA, 32-bit limb halves times the powers split
 *   52 + 9 bits, all numbers and both primes in one pass. The flag is accepted and
 *   ignored for the compact form.
 *
 * FORMAT "RW-P1363" (RW_FMT_P1363_SHA1 / RW_FMT_P1363_SHA256)
 *   IEEE 1363-2000 IFSSA: EMSA2 + IFSP-RW / IFVP-RW (as Crypto++ RWSS
 *   <P1363_EMSA2, H>). bits must be = 0 mod 8. Representative (bits-1 bits):
 *     F = 0x6B || 0xBB .. 0xBB || 0xBA || H(M) || hash-id || 0xCC
 *     (first byte 0x4B when M is empty; hash-id 0x33 SHA-1, 0x34 SHA-256)
 *   sig = s, big-endian, exactly nbytes; s = |principal| root (the IEEE 1363
 *   signer's choice). Verify: t = s^2 mod n; accept iff one of t, 2t, n-t,
 *   2(n-t) (the ones = 12 mod 16 / = 6 mod 8 as IFVP-RW says) equals F.
 *   With RW_SIGN_PREHASHED the message argument is the digest H(M) (then
 *   the first byte is always 0x6B: an empty M cannot be recognised).
 *
 * ---------------------------------------------------------------------------
 * Thread safety: rw_key objects are read-only after keygen/import/decode.
 */
#ifndef FASTSIG_RW_H
#define FASTSIG_RW_H

#include <stddef.h>
#include <stdint.h>

#define RW_MIN_BITS         2048   /* key generation */
#define RW_DEFAULT_BITS     3072
#define RW_MAX_BITS         16384
#define RW_MIN_IMPORT_BITS  1024   /* import / decode (interop vectors) */
#define RW_PRF_BYTES        32

/* Signature formats / schemes. */
enum rw_format {
    RW_FMT_COMPACT       = 0,  /* "RW", default          */
    RW_FMT_EXPANDED      = 1,  /* "RW", rw-format:expanded */
    RW_FMT_P1363_SHA1    = 2,  /* "RW-P1363", digest SHA1   */
    RW_FMT_P1363_SHA256  = 3,  /* "RW-P1363", digest SHA256 (default) */
};

/* Flags for rw_verify / rw_sign. */
#define RW_VERIFY_PROBABILISTIC  0x01u  /* expanded: check mod secret primes;
                                           accepted and ignored for compact */
#define RW_SIGN_PREHASHED        0x02u  /* P1363 only: msg is H(M) (20 or 32 bytes);
                                           also accepted by rw_verify */

/* Components for rw_key_export (big-endian, minimal length; n is nbytes). */
enum rw_component {
    RW_COMP_N   = 0,  /* modulus                      (public)  */
    RW_COMP_P   = 1,  /* prime = 3 mod 8              (private) */
    RW_COMP_Q   = 2,  /* prime = 7 mod 8              (private) */
    RW_COMP_U   = 3,  /* q^-1 mod p  (CRT coefficient)  (private) */
    RW_COMP_DP  = 4,  /* (p+1)/4  exponent mod p      (private) */
    RW_COMP_DQ  = 5,  /* (q+1)/8  exponent mod q      (private) */
    RW_COMP_PRF = 6,  /* 32-byte randomizer key       (private) */
};

/* Random bytes callback: fill buf[0..len) and return 1; anything else is a
 * failure (same contract as OpenSSL's RAND_bytes). */
typedef int (*rw_rand_fn)(void *arg, uint8_t *buf, size_t len);

typedef struct rw_key rw_key;

/* Lifecycle. rw_key_free wipes secrets; NULL is fine. */
rw_key *rw_key_new(void);
void rw_key_free(rw_key *k);
rw_key *rw_key_dup(const rw_key *k);          /* deep copy; NULL on ENOMEM */

/* Key generation: bits = 0 means RW_DEFAULT_BITS. */
int rw_keygen(rw_key *k, unsigned bits, rw_rand_fn rnd, void *rnd_arg);

/* Import from big-endian byte strings (replaces any previous content).
 * set_public: n only. set_private: p and q (n computed; optional n given is
 * checked against p*q; prf may be NULL -> derived, else RW_PRF_BYTES long).
 * Both validate fully and leave k unchanged on failure. */
int rw_key_set_public(rw_key *k, const uint8_t *n, size_t nlen);
int rw_key_set_private(rw_key *k, const uint8_t *n, size_t nlen,
                       const uint8_t *p, size_t plen, const uint8_t *q, size_t qlen,
                       const uint8_t *prf, size_t prflen);

/* Export one component. out == NULL: *outlen gets the length needed.
 * Else *outlen is the buffer size on entry and the length written on exit.
 * Private components of a public-only key: FASTSIG_ERR_BAD_KEY. */
int rw_key_export(const rw_key *k, int comp, uint8_t *out, size_t *outlen);

/* Compact encodings (see top). Same out/outlen convention as rw_key_export.
 * Decoders validate fully and reject trailing bytes. */
int rw_key_encode_public(const rw_key *k, uint8_t *out, size_t *outlen);
int rw_key_encode_private(const rw_key *k, uint8_t *out, size_t *outlen);
int rw_key_decode_public(rw_key *k, const uint8_t *in, size_t inlen);
int rw_key_decode_private(rw_key *k, const uint8_t *in, size_t inlen);

/* Queries. */
int rw_key_has_public(const rw_key *k);
int rw_key_has_private(const rw_key *k);
unsigned rw_key_bits(const rw_key *k);        /* 0 if empty */
size_t rw_key_nbytes(const rw_key *k);        /* bits / 8 */
int rw_key_security_bits(const rw_key *k);    /* SP 800-57 equivalent (112/128/...) */
/* 1 if both hold the same n (and, when both have them, the same p, q, prf). */
int rw_key_eq(const rw_key *a, const rw_key *b, int check_private);
/* Full validation again (what import does); for keymgmt "validate". */
int rw_key_check(const rw_key *k);

/* Signature length of a format for this key (0 on bad format / empty key). */
size_t rw_sig_len(const rw_key *k, int format);
/* Largest signature any key of `bits` bits may produce in any format. */
size_t rw_sig_max_len(unsigned bits);

/* Sign msg with format. *siglen: buffer size in, bytes written out
 * (sig == NULL: length query). Needs a private key. */
int rw_sign(const rw_key *k, int format, unsigned flags,
            const uint8_t *msg, size_t msglen, uint8_t *sig, size_t *siglen);
/* FASTSIG_OK if sig is valid for msg; FASTSIG_ERR_BAD_SIGNATURE on a
 * malformed signature (length, range, tweak byte); FASTSIG_ERR_VERIFY when
 * well-formed but wrong. Needs only the public part. */
int rw_verify(const rw_key *k, int format, unsigned flags,
              const uint8_t *msg, size_t msglen, const uint8_t *sig, size_t siglen);

#endif
