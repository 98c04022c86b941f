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
#define FASTSIG_SIG_LMS      "LMS"      /* alias of HSS: an L = 1 HSS key is an LMS key */

/* Key-generation parameters (EVP_PKEY_CTX_set_params / -pkeyopt). */
#define FASTSIG_PKEY_PARAM_BITS  "bits"  /* size_t: RW modulus size */
#define FASTSIG_PKEY_PARAM_PARAM "param" /* UTF-8: parameter-set name, e.g. XMSS-SHA2_10_256 */
#define FASTSIG_PKEY_PARAM_SEED  "seed"  /* UTF-8 hex (or octet string): deterministic key */
#define FASTSIG_PKEY_PARAM_STATE "state" /* UTF-8: state file path (stateful keys) */
#define FASTSIG_PKEY_PARAM_MODE  "mode"  /* UTF-8: WOTSP Winternitz mode w16 (default), w4, w256 */
/* XMSS / XMSS^MT: threads building the trees at key generation (unsigned, or
 * decimal text as in `-pkeyopt threads:1`), 1..64; default: the CPUs this
 * process may run on, at most 8. The key does not depend on it. */
#define FASTSIG_PKEY_PARAM_THREADS "threads"
/* XMSS / XMSS^MT whose top tree is taller than 10 (XMSS H16, H20; XMSS^MT
 * 40/2, 60/3): key generation in pieces with a checkpoint file (UTF-8 path,
 * `-pkeyopt resume:PATH`): made (mode 0600, it holds the seed) before the
 * trees are built, rewritten every $FASTSIG_CHECKPOINT_INTERVAL seconds
 * (default 10), removed on success; an interrupted generation run again with
 * the same option goes on from it (doc/state.md section 2). */
#define FASTSIG_PKEY_PARAM_RESUME "resume"
/* Stateful keys: indices reserved per durable state write (uint64; key
 * parameter, EVP_PKEY_set_params, and signature-context parameter, e.g.
 * `pkeyutl -pkeyopt batch:1`); default 64, 1 = one fdatasync per signature. */
#define FASTSIG_PKEY_PARAM_BATCH "batch"

/* Key parameters of stateful keys (EVP_PKEY_get_params), uint64. */
#define FASTSIG_PKEY_PARAM_INDEX     "index"     /* next index to be used */
#define FASTSIG_PKEY_PARAM_REMAINING "remaining" /* signatures left */
#define FASTSIG_PKEY_PARAM_MAX       "max"       /* signatures in total */

/* Shards of XMSS / XMSS^MT keys (doc/state.md "Several signing hosts").
 * EVP_PKEY_set_params with SHARD_RANGE on a private key carves that range
 * out of the key's unspent indices and turns this key object (and every
 * copy sharing it) into the shard: the key's state file moves past the range
 * first (durably), then the shard's state file is written, and the object
 * signs from it, inside the range only (not while another thread signs with
 * it). Encode it (PEM_write_bio_PrivateKey, OSSL_ENCODER) to get the shard's
 * key; load the key again for another shard. A shard state whose directory
 * is missing or closed to new files, or whose file exists, is refused
 * before the key's state moves (nothing spent).
 * EVP_PKEY_get_params: the key's range and the alignment. */
#define FASTSIG_PKEY_PARAM_SHARD_RANGE "shard-range" /* UTF-8 "A-B": indices A .. B-1;
                                                     * set: also "+N", the next N */
#define FASTSIG_PKEY_PARAM_SHARD_STATE "shard-state" /* UTF-8 (set, with shard-range): the
                                                     * shard's state file, or a directory for
                                                     * <key id>.<A>-<B>.state; default: the
                                                     * key's state directory */
#define FASTSIG_PKEY_PARAM_SHARD_ALIGN "shard-align" /* uint64 (get): a shard starting at a
                                                     * multiple signs with the node cache
                                                     * prepared from its first signature */

/* Signature-context parameters. */
#define FASTSIG_SIG_PARAM_RW_FORMAT  "rw-format" /* UTF-8: compact | expanded (RW) */
#define FASTSIG_SIG_PARAM_RW_VERIFY  "rw-verify" /* UTF-8: exact | probabilistic (expanded) */
/* XMSS, XMSS^MT, WOTSP: 1 = verify each signature with the public key before
 * it is returned (int, or "0" / "1" as in `pkeyutl -pkeyopt
 * verify-after-sign:1`); a signature that fails is withheld
 * (FASTSIG_ERR_FAULT; its index stays spent). Default 0. */
#define FASTSIG_SIG_PARAM_VERIFY_AFTER_SIGN "verify-after-sign"

#endif
