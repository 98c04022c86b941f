/* params.h - the one table of hash-based signature parameter sets.
 *
 * Contract: every XMSS (21), XMSS^MT (56) and standalone WOTS+ set is one row
 * of a static table; nothing else in crypto/xmss hard-codes a size. Rows are
 * found by name ("XMSS-SHA2_10_256", "XMSSMT-SHA2_20/2_256",
 * "WOTSP-SHA2_256", "WOTSP-SHA2_256_W4") or by (kind, oid). XMSS and XMSS^MT
 * oids are the 4-byte parameter-set numbers of RFC 8391 / NIST SP 800-208
 * (IANA "XMSS / XMSS^MT Algorithm Types"); WOTS+ sets have no standard number:
 * their oid is fastsig's own sub-arc number under the WOTS+ arc
 * 2.25.77497230020247565797983039438780865004.1 (see provider's oids.h).
 *
 * Sizes derived from a row (xmss_* helpers below):
 *   pk  = oid(4) || root(n) || PUB_SEED(n)
 *   sk  = oid(4) || idx(idx_bytes) || SK_SEED(n) || SK_PRF(n) || root(n) || PUB_SEED(n)
 *   sig = idx(idx_bytes) || R(n) || d x (WOTS+ sig(len*n) || auth(tree_h*n))
 * idx_bytes is 4 for XMSS and ceil(h/8) for XMSS^MT (RFC 8391). A WOTS+
 * row (wotsp_scheme.h) has no index: pk = oid || root || PUB_SEED, sk = oid ||
 * SK_SEED || SK_PRF || root || PUB_SEED, sig = R || WOTS+ sig. */
#ifndef FASTSIG_XMSS_PARAMS_H
#define FASTSIG_XMSS_PARAMS_H

#include <stddef.h>
#include <stdint.h>

/* Hash families (RFC 8391 section 5, SP 800-208 section 5). */
enum xmss_hash_family {
    XMSS_SHA2_256,     /* SHA-256, n=32, padding 32 */
    XMSS_SHA2_512,     /* SHA-512, n=64, padding 64 */
    XMSS_SHAKE128_256, /* SHAKE128 -> 32 bytes ("SHAKE_*_256"), padding 32 */
    XMSS_SHAKE256_512, /* SHAKE256 -> 64 bytes ("SHAKE_*_512"), padding 64 */
    XMSS_SHA2_192,     /* SHA-256 truncated to 24 bytes, padding 4 */
    XMSS_SHAKE256_256, /* SHAKE256 -> 32 bytes, padding 32 */
    XMSS_SHAKE256_192, /* SHAKE256 -> 24 bytes, padding 4 */
    XMSS_FAMILY_COUNT
};

enum xmss_kind { XMSS_KIND_XMSS = 1, XMSS_KIND_XMSSMT = 2, XMSS_KIND_WOTSP = 3 };

#define XMSS_MAX_N 64
#define XMSS_MAX_LEN 261      /* w=4, n=64: len1=256 + len2=5 (checked by a test) */
#define XMSS_TREE_MAX_LEN 131 /* the XMSS / XMSS^MT rows (w=16), n=64: 128 + 3 */
#define XMSS_MAX_H 60
#define XMSS_MAX_D 12

typedef struct xmss_params {
    const char *name;
    uint32_t oid;
    uint8_t kind;        /* enum xmss_kind */
    uint8_t family;      /* enum xmss_hash_family */
    uint8_t n;           /* hash output bytes */
    uint8_t pad_len;     /* bytes of the toByte(x, pad_len) domain prefix */
    uint16_t w;          /* Winternitz parameter: 4, 16 or 256 */
    uint8_t log_w;
    uint16_t len1, len2, len;
    uint8_t h;           /* total height (0 for WOTS+) */
    uint8_t d;           /* layers (1 for XMSS, 0 for WOTS+) */
    uint8_t tree_h;      /* h / d */
    uint8_t idx_bytes;   /* 4 for XMSS, ceil(h/8) for XMSS^MT */
} xmss_params;

/* The row with this name (exact, case-sensitive), or NULL. */
const xmss_params *xmss_params_by_name(const char *name);
/* The row of this kind and oid, or NULL. */
const xmss_params *xmss_params_by_oid(int kind, uint32_t oid);
/* Row i of the whole table (NULL past the end); for enumerating in tests and
 * in the provider's algorithm list. */
const xmss_params *xmss_params_at(size_t i);
size_t xmss_params_count(void);

/* Byte sizes of the layouts above. */
size_t xmss_pk_bytes(const xmss_params *p);
size_t xmss_sk_bytes(const xmss_params *p);     /* the sk core above */
size_t xmss_sig_bytes(const xmss_params *p);
size_t xmss_wots_sig_bytes(const xmss_params *p); /* len * n */
/* Number of signatures a key gives: 2^h (as the last index + 1 may be 2^60,
 * this returns the last index, 2^h - 1). */
uint64_t xmss_last_index(const xmss_params *p);

/* Test hook: a copy of row p whose layer trees have height tree_h (h = d *
 * tree_h, everything else unchanged), so tests can run the signing code of
 * the h = 16/20 and h/d = 20 sets without building 2^20 leaves. Its bytes are
 * not those of any standard set. Returns FASTSIG_ERR_BAD_PARAM if tree_h is 0
 * or larger than p's. */
int xmss_params_reduced(const xmss_params *p, unsigned tree_h, xmss_params *out);

#endif
