/* fastsig/provider.h - names an application uses with the fastsig provider.
 *
 * Load the provider with OSSL_PROVIDER_load(libctx, FASTSIG_PROVIDER_NAME)
 * (after OSSL_PROVIDER_set_default_search_path, or with it installed in
 * libcrypto's module directory) and fetch algorithms by these names. */
#ifndef FASTSIG_PROVIDER_H
#define FASTSIG_PROVIDER_H

#define FASTSIG_PROVIDER_NAME "fastsig"

/* Digests */
#define FASTSIG_MD_TZ "TZ" /* Tillich-Zemor, 64-byte digest, alias TILLICH-ZEMOR */
/* TZ digest-context parameters (octet strings of 64 bytes, digest encoding):
 * set PREFIX to H(a) (EVP_MD_CTX_set_params or EVP_DigestInit_ex2) and the
 * context continues as if it had hashed a; get STATE for the digest of all
 * input so far without finalizing. */
#define FASTSIG_DIGEST_PARAM_TZ_PREFIX "tz-prefix"
#define FASTSIG_DIGEST_PARAM_TZ_STATE  "tz-state"

/* Signature algorithms (key types of the same names). Key OID == signature
 * OID, AlgorithmIdentifier parameters absent. */
#define FASTSIG_SIG_RW       "RW"       /* 2.25.77497230020247565797983039438780865004.2 */
#define FASTSIG_SIG_RW_P1363 "RW-P1363" /* 2.25.77497230020247565797983039438780865004.2.1 */
#define FASTSIG_SIG_WOTSP    "WOTSP"    /* 2.25.77497230020247565797983039438780865004.1 */
#define FASTSIG_SIG_XMSS     "XMSS"     /* 1.3.6.1.5.5.7.6.34 (RFC 9802) */
#define FASTSIG_SIG_XMSSMT   "XMSSMT"   /* 1.3.6.1.5.5.7.6.35 (RFC 9802) */
#define FASTSIG_SIG_HSS      "HSS"      /* 1.2.840.113549.1.9.16.3.17 (RFC 8554, RFC 9802) */
/* One LMS tree, by OpenSSL 3.6's name for it: the raw RFC 8554 LMS public key
 * and signature; its key files are HSS keys of one level. */
#define FASTSIG_SIG_LMS      "LMS"

/* Provider parameter (OSSL_PROVIDER_get_params), UTF-8: the default state
 * directory this process uses ($FASTSIG_STATE_DIR, `state_dir` in the
 * provider's config section, ...: doc/state.md section 2), which holds the
 * key-id registry; fastsig-keytool asks it. */
#define FASTSIG_PROV_PARAM_STATE_DIR "state-dir"

/* Key-generation parameters (EVP_PKEY_CTX_set_params after
 * EVP_PKEY_keygen_init, or -pkeyopt NAME:VALUE). Text values are UTF-8
 * strings; an empty one is refused by name ("state is empty"): give
 * OSSL_PARAM_utf8_string the string's length (OSSL_PARAM_construct_utf8_string
 * counts it for you when passed 0). Each applies to the algorithms named. */
/* RW, RW-P1363: the modulus size in bits, a multiple of 8 from 2048 to 16384,
 * default 3072 (size_t, or decimal text as in `-pkeyopt bits:2048`). */
#define FASTSIG_PKEY_PARAM_BITS  "bits"
/* XMSS, XMSSMT, HSS (LMS), WOTSP: the parameter-set name (UTF-8), e.g.
 * XMSS-SHA2_10_256, XMSSMT-SHA2_20/4_256, WOTSP-SHA2_256, and for HSS the
 * levels top first, each "LMS set/LM-OTS set", joined by ","; defaults
 * XMSS-SHA2_10_256, XMSSMT-SHA2_20/4_256, LMS_SHA256_M32_H10/LMOTS_SHA256_N32_W4,
 * WOTSP-SHA2_256. Also a key parameter (EVP_PKEY_get_params, any half of a
 * stateful key): the key's set, in the same form. */
#define FASTSIG_PKEY_PARAM_PARAM "param"
/* Stateful keys: a deterministic key (octet string, or its hex as UTF-8):
 * XMSS, XMSSMT, WOTSP SK_SEED || SK_PRF || PUB_SEED (3n bytes); HSS the top
 * level's SEED || I (n + 16 bytes). Default: random. A seed this machine's
 * registry knows is refused (doc/state.md section 11), except the same key
 * again with its own state, which it takes over. */
#define FASTSIG_PKEY_PARAM_SEED  "seed"
/* Stateful keys: the state file path (UTF-8; relative: to the working
 * directory), recorded absolute in the key; default <key id>.state in the
 * default state directory. An existing file is refused (it holds another
 * key's state) unless it is this same key's registered one. Also a key parameter
 * (EVP_PKEY_get_params, private key): the absolute path. */
#define FASTSIG_PKEY_PARAM_STATE "state"
/* WOTSP: the Winternitz parameter, w16 (default), w4, w256 (UTF-8). */
#define FASTSIG_PKEY_PARAM_MODE  "mode"
/* XMSS, XMSSMT, HSS: threads building the trees at key generation (unsigned,
 * or decimal text as in `-pkeyopt threads:1`), 1..64; default: the CPUs this
 * process may run on, at most 8. The key does not depend on it. */
#define FASTSIG_PKEY_PARAM_THREADS "threads"
/* XMSS / XMSS^MT whose top tree is taller than 10 (XMSS H16, H20; XMSS^MT
 * 40/2, 60/3), LMS / HSS whose top level is H15, H20 or H25: key generation
 * in pieces with a checkpoint file (UTF-8 path,
 * `-pkeyopt resume:PATH`): made (mode 0600, it holds the seed) before the
 * trees are built, rewritten every $FASTSIG_CHECKPOINT_INTERVAL seconds
 * (default 10), removed on success; an interrupted generation run again with
 * the same option goes on from it (doc/state.md section 2). */
#define FASTSIG_PKEY_PARAM_RESUME "resume"
/* Stateful keys: indices reserved per durable state write, 1..2^30 (uint64,
 * or decimal text): a key parameter (EVP_PKEY_set_params / get_params) and a
 * signature-context parameter (e.g. `pkeyutl
 * -pkeyopt batch:1`), which wins for that context; default 64, 1 = one
 * fdatasync per signature. */
#define FASTSIG_PKEY_PARAM_BATCH "batch"
/* Stateful keys: a low-water warning (uint64, or decimal text as in
 * `pkeyutl -pkeyopt warn-remaining:1000`; key parameter and signature-context
 * parameter; default `warn_remaining = N` in the provider's config section,
 * else 0: off). A signature that leaves fewer than N indices after its own
 * in the key's (or shard's) range prints one line on stderr, once per
 * process: "fastsig: warning: ...". The "remaining" parameter stays exact. */
#define FASTSIG_PKEY_PARAM_WARN_REMAINING "warn-remaining"

/* Key parameters of stateful private keys (EVP_PKEY_get_params), uint64,
 * from the state file (read-only, without taking an index) until this key
 * object first signs, then from its open state: the indices this process
 * reserved ahead (batch) count as unspent to it. A public key has none
 * (refused); a state that cannot be read is refused naming it. For a shard:
 * max is its range's size, index the next global index. */
#define FASTSIG_PKEY_PARAM_INDEX     "index"     /* next index to be used */
#define FASTSIG_PKEY_PARAM_REMAINING "remaining" /* signatures left */
#define FASTSIG_PKEY_PARAM_MAX       "max"       /* signatures in total */

/* Shards of XMSS, XMSSMT and HSS keys (doc/state.md "Several signing hosts";
 * WOTSP keys have one index: refused, FASTSIG_ERR_UNSUPPORTED).
 * EVP_PKEY_set_params with SHARD_RANGE on a private key carves that range
 * out of the key's unspent indices and turns this key object (and every
 * copy sharing it) into the shard: the key's state file moves past the range
 * first (durably), then the shard's state file is written, and the object
 * signs from it, inside the range only (not while another thread signs with
 * it). Encode it (PEM_write_bio_PrivateKey, OSSL_ENCODER) to get the shard's
 * key; load the key again for another shard. A shard state whose directory
 * is missing or closed to new files, or whose file exists, is refused
 * before the key's state moves (nothing spent). HSS indices are global (the
 * levels' leaves counted together).
 * EVP_PKEY_get_params: the key's range and the alignment. */
#define FASTSIG_PKEY_PARAM_SHARD_RANGE "shard-range" /* UTF-8 "A-B": indices A .. B-1 (get:
                                                     * "0-max" for a whole key);
                                                     * set: also "+N", the next N */
#define FASTSIG_PKEY_PARAM_SHARD_STATE "shard-state" /* UTF-8 (set, with shard-range): the
                                                     * shard's state file, or a directory for
                                                     * <key id>.<A>-<B>.state; default: the
                                                     * key's state directory */
#define FASTSIG_PKEY_PARAM_SHARD_ALIGN "shard-align" /* uint64 (get): a shard starting at a
                                                     * multiple signs with the node cache
                                                     * prepared from its first signature
                                                     * (HSS: a bottom-level tree's size,
                                                     * LMS: 1; XMSS, XMSSMT: the node
                                                     * cache's bottom subtree) */

/* Signature-context parameters (EVP_PKEY_CTX_set_params after the sign or
 * verify init, or -pkeyopt / -sigopt NAME:VALUE), UTF-8 unless said. */
/* RW only: compact (default) | expanded signatures (RW-P1363: refused; get
 * says "p1363"). */
#define FASTSIG_SIG_PARAM_RW_FORMAT  "rw-format"
/* RW: verification of expanded signatures, exact (default) | probabilistic
 * (modulo two secret 61-bit primes). */
#define FASTSIG_SIG_PARAM_RW_VERIFY  "rw-verify"
/* XMSS, XMSSMT, HSS, WOTSP: 1 = verify each signature with the public key
 * before it is returned (int, or "0" / "1" as in `pkeyutl -pkeyopt
 * verify-after-sign:1`); a signature that fails is withheld
 * (FASTSIG_ERR_FAULT; its index stays spent). Default 0. */
#define FASTSIG_SIG_PARAM_VERIFY_AFTER_SIGN "verify-after-sign"

#endif
