/* hash.h - the multi-lane hash engine behind XMSS, XMSS^MT, WOTS+ and
 * LMS/HSS with LM-OTS.
 *
 * Shaped for hash-based signatures (RFC 8391, RFC 8554, NIST SP 800-208),
 * not for streaming: every call hashes `lanes` independent messages of the
 * same length, and the engine runs them 2, 8 or 16 at a time on the best
 * kernel this CPU has (crypto/cpu.h; FASTSIG_CPU narrows the choice).
 * Results are identical on every path.
 *
 * Layout convention: per-lane data is contiguous, lane after lane. `out` is
 * lanes * n bytes; a per-lane input of m bytes is lanes * m bytes; an ADRS
 * array is lanes * 32 bytes (RFC 8391 byte order: eight big-endian words,
 * hash address in bytes 24..27, keyAndMask in bytes 28..31). Buffers need no
 * alignment. `out` may alias an input of the same lane layout (the engine
 * reads a lane's input before writing its output).
 *
 * The RFC 8391 functions with toByte(x, pad) domain prefixes:
 *   F(KEY, M)          = Hash(toByte(0, pad) || KEY || M)           M: n bytes
 *   H(KEY, M)          = Hash(toByte(1, pad) || KEY || M)           M: 2n bytes
 *   H_msg(KEY, M)      = Hash(toByte(2, pad) || KEY || M)           KEY = r||root||toByte(idx,n)
 *   PRF(KEY, M)        = Hash(toByte(3, pad) || KEY || M)           M: 32 bytes (ADRS)
 *   PRF_keygen(SK, M)  = Hash(toByte(4, pad) || SK || M)            M = PUB_SEED || ADRS
 * Hash is SHA-256 (truncated to 24 bytes for n = 24), SHA-512, SHAKE128 or
 * SHAKE256 with n output bytes. PRF and PRF_keygen are keyed by a fixed seed:
 * fs_hash_seeds precomputes the state after toByte(x, pad) || KEY when that is
 * whole blocks (SHA-256 n = 32, SHA-512 n = 64), so each call saves a block.
 *
 * Every function returns FASTSIG_OK or a fastsig_err code: FASTSIG_ERR_BAD_LANES
 * for lanes == 0 or > FS_HASH_MAX_LANES, FASTSIG_ERR_NULL_ARG for a NULL
 * buffer, FASTSIG_ERR_UNSUPPORTED for a bad parameter descriptor. */
#ifndef FASTSIG_HASH_H
#define FASTSIG_HASH_H

#include <stddef.h>
#include <stdint.h>

/* Most lanes one call accepts (the engine splits them for its kernels). */
#define FS_HASH_MAX_LANES 1024
/* Longest n and ADRS. */
#define FS_HASH_MAX_N 64
#define FS_HASH_ADRS_BYTES 32

typedef enum {
    FS_HASH_SHA256 = 1,   /* XMSS-SHA2_*_256, SHA2_*_192 (n = 24 or 32) */
    FS_HASH_SHA512 = 2,   /* XMSS-SHA2_*_512 (n = 64) */
    FS_HASH_SHAKE128 = 3, /* RFC 8391 XMSS-SHAKE_*_256 (n = 32) */
    FS_HASH_SHAKE256 = 4, /* XMSS-SHAKE_*_512 (n = 64), SP 800-208 SHAKE256_*_256/_192 */
} fs_hash_family;

/* The parameter descriptor that selects an implementation. Valid: n in
 * {24, 32, 64} with n <= the family's digest size (SHA-256: 32), pad in
 * {4, 32, 64} (SP 800-208: pad = 4 for the n = 24 sets, else pad = n). */
typedef struct {
    fs_hash_family family;
    unsigned n;   /* output bytes */
    unsigned pad; /* bytes of the toByte(x, pad) domain prefix */
} fs_hash_params;

/* FASTSIG_OK when p is a valid descriptor, else FASTSIG_ERR_UNSUPPORTED. */
int fs_hash_params_check(const fs_hash_params *p);

/* ---- plain multi-lane hashing ------------------------------------------ */

/* out_i = first n bytes of Hash(in_i), in_i = inlen bytes (any length). */
int fs_hash_many(const fs_hash_params *p, uint8_t *out, const uint8_t *in, size_t inlen,
                 size_t lanes);
/* The same with strides: in_i at in + i*istride, out_i at out + i*ostride. */
int fs_hash_many_strided(const fs_hash_params *p, uint8_t *out, size_t ostride,
                         const uint8_t *in, size_t istride, size_t inlen, size_t lanes);
/* out = Hash(prefix || msg) for one message of any length; msg is hashed
 * where it is, not copied. plen must be below the family's block (SHA-256
 * 64 bytes, SHAKE256 136), else FASTSIG_ERR_BAD_PARAM. */
int fs_hash_prefixed_msg(const fs_hash_params *p, uint8_t *out, const uint8_t *prefix,
                         size_t plen, const uint8_t *msg, size_t mlen);

/* ---- messages kept padded in place -------------------------------------- */

/* For callers that pad each lane's message once and change a few bytes
 * between calls. fs_hash_pad writes the padding after the len bytes at msg
 * (room for len + 2 blocks) and returns the message's block count (0 for an
 * unknown family). fs_hash_padded hashes msgs[i] (nblocks padded blocks
 * each) and writes n digest bytes to out + i*ostride; an output may overlap
 * its own message, not another lane's. */
size_t fs_hash_pad(fs_hash_family f, uint8_t *msg, size_t len);
int fs_hash_padded(const fs_hash_params *p, const uint8_t *const msgs[], size_t nblocks,
                   uint8_t *out, size_t ostride, size_t lanes);

/* ---- RFC 8391 keyed functions with explicit per-lane keys --------------- */

/* F: key and m are lanes * n bytes. */
int fs_hash_F(const fs_hash_params *p, uint8_t *out, const uint8_t *key, const uint8_t *m,
              size_t lanes);
/* H: key is lanes * n bytes, m is lanes * 2n bytes (left || right). */
int fs_hash_H(const fs_hash_params *p, uint8_t *out, const uint8_t *key, const uint8_t *m,
              size_t lanes);
/* Hash(toByte(domain, pad) || in_i): the general form of all of the above. */
int fs_hash_prefixed(const fs_hash_params *p, unsigned domain, uint8_t *out, const uint8_t *in,
                     size_t inlen, size_t lanes);

/* H_msg for one message of any length: key3n = r || root || toByte(idx, n). */
int fs_hash_msg(const fs_hash_params *p, uint8_t *out, const uint8_t *key3n, const uint8_t *msg,
                size_t msglen);

/* ---- seed-keyed functions (precomputed midstates) ----------------------- */

/* One lane's chaining state: SHA-256 in w32[0..8), SHA-512 in w64[0..8),
 * Keccak in w64[0..25). */
typedef union {
    uint32_t w32[16];
    uint64_t w64[25];
} fs_hash_state;

/* A keyed prefix toByte(domain, pad) || KEY: the state after its whole
 * blocks, and the bytes left over (fewer than a block). */
typedef struct {
    fs_hash_state mid;
    uint64_t done;          /* bytes absorbed into mid */
    unsigned restlen;
    uint8_t rest[168];
} fs_hash_keyed;

/* Private fields; init with fs_hash_seeds_init. */
typedef struct {
    fs_hash_params p;
    uint8_t pub_seed[FS_HASH_MAX_N];
    int has_sk;             /* PRF_keygen available */
    fs_hash_keyed prf;      /* toByte(3, pad) || PUB_SEED */
    fs_hash_keyed keygen;   /* toByte(4, pad) || SK_SEED (secret) */
} fs_hash_seeds;

/* Keys PRF with pub_seed (n bytes) and, when sk_seed != NULL, PRF_keygen with
 * sk_seed. For r = PRF(SK_PRF, toByte(idx, 32)) init a second fs_hash_seeds
 * with pub_seed = SK_PRF and call fs_hash_prf. Wipe with fs_hash_seeds_clear. */
int fs_hash_seeds_init(fs_hash_seeds *s, const fs_hash_params *p, const uint8_t *pub_seed,
                       const uint8_t *sk_seed);
void fs_hash_seeds_clear(fs_hash_seeds *s);

/* out_i = PRF(PUB_SEED, m_i), m: lanes * 32 bytes (normally ADRS). */
int fs_hash_prf(const fs_hash_seeds *s, uint8_t *out, const uint8_t *m, size_t lanes);
/* out_i = PRF_keygen(SK_SEED, PUB_SEED || adrs_i) (SP 800-208 section 7.2):
 * the WOTS+ secret chain starts. FASTSIG_ERR_BAD_PARAM without sk_seed. */
int fs_hash_prf_keygen(const fs_hash_seeds *s, uint8_t *out, const uint8_t *adrs, size_t lanes);

/* RFC 8391 RAND_HASH (tree and L-tree nodes): for each lane, with adrs_i
 * (its keyAndMask word is overwritten in a copy; the caller's is unchanged):
 *   KEY = PRF(SEED, adrs km=0), BM0 = PRF(adrs km=1), BM1 = PRF(adrs km=2),
 *   out = H(KEY, (left XOR BM0) || (right XOR BM1)),   in_i = left || right (2n). */
int fs_hash_rand_hash(const fs_hash_seeds *s, uint8_t *out, const uint8_t *in,
                      const uint8_t *adrs, size_t lanes);

/* WOTS+ chaining function (RFC 8391 section 3.1.2) on many chains at once.
 * Chain c starts from in_c (n bytes) at step start[c] (start == NULL: 0) and
 * takes steps[c] steps; step i uses adrs_c with hash address start[c] + i:
 *   KEY = PRF(SEED, adrs km=0), BM = PRF(adrs km=1), x = F(KEY, x XOR BM).
 * adrs_c's other words (layer, tree, type, OTS, chain) are the caller's; its
 * hash and keyAndMask words are ignored. Chains of different lengths share
 * the lanes: when one ends, the next waiting chain takes its lane. out may
 * equal in. count is 1..FS_HASH_MAX_LANES; start[c] + steps[c] must not
 * exceed 2^32 - 1 (else FASTSIG_ERR_BAD_PARAM, nothing written). */
int fs_hash_chains(const fs_hash_seeds *s, uint8_t *out, const uint8_t *in,
                   const uint8_t *adrs, const uint32_t *start, const uint32_t *steps,
                   size_t count);

/* ---- LM-OTS chains (RFC 8554 section 4.4) ------------------------------ */

#define FS_HASH_LMOTS_I_BYTES 16

/* One chain: its leaf q, chain index i, first j and step count. */
typedef struct {
    uint32_t q;
    uint16_t i;
    uint8_t j;
    uint16_t steps;
} fs_hash_lmots_job;

/* The LM-OTS chain function on many chains at once. Chain c starts from
 * in + c*in_stride (n bytes; in_stride 0: the same start for every chain),
 * takes jobs[c].steps (<= 256) steps and ends in out + c*n; step s hashes
 *   x = Hash(I || u32str(q) || u16str(i) || u8str(j + s mod 256) || x)
 * truncated to n bytes (p: SHA-256 or SHAKE256, n = 24 or 32; pad unused).
 * The secret x_q[i] of SP 800-208 Appendix A is the step from j = 0xff with
 * x = SEED. secret: chain values are secret (wiped after use). count: any
 * (0 does nothing). FASTSIG_ERR_NULL_ARG for a NULL buffer (count > 0),
 * FASTSIG_ERR_BAD_PARAM for steps > 256, n > 32 or a step that is not one
 * block, FASTSIG_ERR_UNSUPPORTED for a bad descriptor, FASTSIG_ERR_NOMEM. */
int fs_hash_lmots_chains(const fs_hash_params *p, const uint8_t I[FS_HASH_LMOTS_I_BYTES],
                         const fs_hash_lmots_job *jobs, size_t count, const uint8_t *in,
                         size_t in_stride, uint8_t *out, int secret);

/* The chains of LM-OTS key generation (lmots_key_chains.c): leaves q0 ..
 * q0+leaves-1, `chains` chains each, every one `steps` (2^w, <= 256)
 * steps from j = 0xff and x = SEED (n bytes); chain i of leaf q0+l ends at
 * out + l*out_stride + i*n (out_stride >= chains*n: the ends can land
 * inside the caller's K messages). The same bytes as fs_hash_lmots_chains
 * with those jobs. FASTSIG_ERR_UNSUPPORTED when no fused kernel serves
 * them (not SHA-256, or none selected): the caller walks them with
 * fs_hash_lmots_chains; FASTSIG_ERR_BAD_PARAM for steps > 256, n > 32,
 * chains = 0 or a short stride; else as fs_hash_lmots_chains. */
int fs_hash_lmots_key_chains(const fs_hash_params *p, const uint8_t I[FS_HASH_LMOTS_I_BYTES],
                             const uint8_t *seed, uint32_t q0, size_t leaves, unsigned chains,
                             unsigned steps, uint8_t *out, size_t out_stride);

/* ---- paths (for tests and benchmarks) ----------------------------------- */

/* Name of the kernel the engine uses for a family now, e.g. "avx512-x16". */
const char *fs_hash_kernel_name(fs_hash_family f);
/* Switches the engine to the kernels of fs_cpu_features() narrowed by
 * `mask` (tests force paths with it: mask = FS_CPU_* bits allowed; ~0u =
 * all allowed, the default). The selections are built once; switching
 * publishes a pointer, so it is thread-safe (a call in flight finishes each
 * lane batch on the kernels it started with; every path gives the same
 * bytes). */
void fs_hash_select(unsigned mask);

#endif
