/* sigalgs.h - the one descriptor table of fastsig's signature algorithms and
 * the adapter vtable through which the generic glue (keymgmt.c, signature.c,
 * encode.c, decode.c) reaches a crypto core.
 *
 * How an algorithm plugs in:
 *   1. a row in fsp_sigalgs[] (sigalgs.c): names, OID, flags, adapter, variant;
 *   2. an adapter file provider/<alg>_adapter.c defining one FSP_ADAPTER
 *      (a handful of functions translating between the core's C API and
 *      the byte strings / OSSL_PARAMs below).
 * Nothing else: keymgmt, signature, PKCS#8/SPKI/text encoders, decoders,
 * OID + sigid registration and the query tables all come from the row.
 * Parameter sets live in the core's own table; the adapter resolves the
 * `param` name at generation and reports it back with param_name().
 *
 * Conventions for adapter functions: return FASTSIG_OK (0) or a fastsig_err
 * code; the glue raises it as an OpenSSL error. Size queries: out == NULL
 * sets *len to the size needed. Core keys are opaque `void *`, owned by the
 * adapter (free()); the glue reference-counts them, so copies of a key
 * (EVP_PKEY_dup, a signature ctx, dupctx) share ONE core key and therefore
 * one state — the adapter must make sign() thread-safe for a shared key. */
#ifndef FASTSIG_SIGALGS_H
#define FASTSIG_SIGALGS_H

#include <stddef.h>
#include <stdint.h>
#include <openssl/core.h>
#include <openssl/bio.h>
#include <openssl/types.h>
#include <openssl/param_build.h>

typedef struct fsp_sigalg FSP_SIGALG;
typedef struct fsp_adapter FSP_ADAPTER;
/* An error's detail (prov.h): the operations that can fail naming a file
 * fill it, the glue raises it with their error. */
typedef struct fsp_errdetail FSP_ERRDETAIL;

/* Export collector (keymgmt.c): copies what it is given (OSSL_PARAM_BLD
 * only keeps pointers), wipes it after the export callback. */
typedef struct fsp_export FSP_EXPORT;
int fsp_export_octets(FSP_EXPORT *x, const char *name, const unsigned char *b, size_t len);
/* An unsigned big-endian integer, exported as a BIGNUM. */
int fsp_export_bn(FSP_EXPORT *x, const char *name, const unsigned char *be, size_t len);

/* Randomness for the cores (provider/rng.c: OpenSSL's private DRBG of the
 * provider's library context). Returns 1 on success, 0 on failure (the
 * RAND_bytes contract, which crypto/rw's rw_rand_fn shares). */
typedef int (*fsp_rng_fn)(void *arg, unsigned char *out, size_t len);
/* Key-generation progress: returns 0 when the application asks to stop. */
typedef int (*fsp_progress_fn)(void *arg, int potential, int iteration);

/* What the generic keygen collected (`-pkeyopt name:value`). */
typedef struct {
    size_t bits;                /* "bits": 0 = the adapter's default */
    const char *param;          /* "param": parameter-set name, NULL = default */
    const unsigned char *seed;  /* "seed" (hex): deterministic key, NULL = RNG */
    size_t seedlen;
    const char *state;          /* "state": state file path, NULL = default */
    fsp_rng_fn rng;              /* never NULL */
    void *rng_arg;
    fsp_progress_fn progress;    /* never NULL (a no-op when nobody listens) */
    void *progress_arg;
    const char *mode;           /* "mode" (e.g. WOTSP w4), NULL = default; offered
                                 * only by adapters that list it in gen_settable */
    unsigned threads;           /* "threads" (1..FSP_GEN_MAX_THREADS), 0 = default;
                                 * refused by rows whose gen_settable lacks it */
    FSP_ERRDETAIL *detail;       /* the failure's detail (never NULL) */
    int listened;               /* the application gave a progress callback */
    const char *resume;         /* "resume": checkpoint path, NULL = none; offered
                                 * only by adapters that list it in gen_settable */
} FSP_GENOPTS;
#define FSP_GEN_MAX_THREADS 64

/* Signature-context options: plain data so that dupctx is a copy. Each
 * adapter reads and writes its own fields only. */
typedef struct {
    /* RW rows (rw_adapter.c) */
    int rw_variant;     /* the row's FSP_SIGALG.variant: RW or RW-P1363 */
    int rw_format;      /* rw_format (rw.h): encoding, and the digest for P1363 */
    unsigned rw_flags;  /* RW_VERIFY_PROBABILISTIC or 0 */
    /* stateful rows (stateful_params.c) */
    uint64_t batch;     /* reservation block of this context; 0: the key's */
    int verify_after_sign; /* 1: verify before returning a signature */
    uint64_t warn_remaining; /* low-water warning of this context ... */
    int warn_set;            /* ... when set (else the key's: stateful_warn.c) */
    /* a failed sign()'s detail: set by the glue around that one call only
     * (NULL otherwise: a dupctx copy never shares it) */
    FSP_ERRDETAIL *detail;
} FSP_SIGOPTS;

typedef struct {
    int bits;           /* OSSL_PKEY_PARAM_BITS */
    int security_bits;  /* OSSL_PKEY_PARAM_SECURITY_BITS */
    size_t max_sig;     /* OSSL_PKEY_PARAM_MAX_SIZE: an upper bound (3.0 verify reads it) */
} FSP_KEYSIZES;

/* Stateful keys: 64-bit end to end (XMSS^MT h=60). */
typedef struct {
    uint64_t index;     /* next index the state would hand out */
    uint64_t remaining; /* signatures left */
    uint64_t max;       /* total signatures of the key (2^h) */
    char why[4200];     /* unusable: the cause beyond the code ("" if none) */
    FSP_ERRDETAIL *detail; /* unusable: the error's detail (NULL: not wanted) */
} FSP_STATEINFO;

struct fsp_adapter {
    /* --- required --------------------------------------------------- */
    int (*gen)(const FSP_SIGALG *alg, const FSP_GENOPTS *o, void **key);
    void (*free)(void *key);
    int (*has_private)(const void *key);
    void (*sizes)(const void *key, FSP_KEYSIZES *out);
    /* Raw public key: the PUB_KEY key parameter, and the SubjectPublicKeyInfo
     * BIT STRING (RFC 9802 style) unless spki_encode says otherwise. */
    int (*pub_encode)(const void *key, unsigned char *out, size_t *len);
    int (*pub_decode)(const FSP_SIGALG *alg, const unsigned char *in, size_t len,
                      void **key);
    /* Raw private key: the PKCS#8 privateKey OCTET STRING contents. A
     * stateful key's decode opens (or references) its state; if the state is
     * unusable it still returns the key (verify and public export work) and
     * sign() later fails with the state's error. */
    int (*priv_encode)(const void *key, unsigned char *out, size_t *len);
    int (*priv_decode)(const FSP_SIGALG *alg, const unsigned char *in, size_t len,
                       void **key, FSP_ERRDETAIL *detail);
    /* Sign msg. Stateful: the core reserves and durably spends the index
     * inside this call. *siglen in: capacity. `prehashed` is 1 when a
     * one-shot EVP_PKEY_sign/verify follows a digest chosen with the
     * "digest" context parameter (adapters with ctx_digest only): msg is
     * that digest, as OpenSSL's API means it; 0 otherwise (digest-sign and
     * every other adapter), where msg is the whole message. */
    int (*sign)(void *key, const FSP_SIGOPTS *o, int prehashed, unsigned char *sig,
                size_t *siglen, const unsigned char *msg, size_t msglen);
    int (*verify)(const void *key, const FSP_SIGOPTS *o, int prehashed,
                  const unsigned char *sig, size_t siglen, const unsigned char *msg,
                  size_t msglen);

    /* --- optional (NULL: generic behaviour) --------------------------- */
    /* The SubjectPublicKeyInfo BIT STRING when it is not pub_encode's bytes
     * (the LMS row: its row of record's HSS encoding). */
    int (*spki_encode)(const void *key, unsigned char *out, size_t *len);
    const char *(*param_name)(const void *key);   /* printed, "param" key param */
    int (*check)(const void *key, int want_private); /* keymgmt validate */
    /* FSP_SIGALG_STATEFUL rows: index/remaining/max; an error code when the
     * state is unusable (text prints it, signing refuses). */
    int (*state)(const void *key, FSP_STATEINFO *out);
    /* Signature-context options. */
    void (*sigopts_default)(const FSP_SIGALG *alg, FSP_SIGOPTS *o);
    const OSSL_PARAM *ctx_settable;
    int (*ctx_set)(FSP_SIGOPTS *o, const OSSL_PARAM params[]);
    /* Digest named at digest-sign/verify init (e.g. `dgst -sha1 -sign`);
     * NULL hook: only none is accepted (the message is signed whole). */
    int (*ctx_digest)(FSP_SIGOPTS *o, const char *mdname);
    const OSSL_PARAM *ctx_gettable;
    int (*ctx_get)(const FSP_SIGOPTS *o, OSSL_PARAM params[]);
    /* Lists marked "added" are appended to the generic ones by the glue.
     * Extra key parameters beyond the generic ones (PUB_KEY/PRIV_KEY octet
     * strings, bits, security-bits, max-size, param, index/remaining/max). */
    const OSSL_PARAM *gettable;       /* entries added to the generic list */
    int (*get_params)(const void *key, OSSL_PARAM params[]);
    const OSSL_PARAM *settable;
    int (*set_params)(void *key, const OSSL_PARAM params[], FSP_ERRDETAIL *detail);
    /* Import/export in the algorithm's own terms (e.g. RW's n, p, q, CRT):
     * import returns FASTSIG_OK with *key == NULL when it found none of its
     * params (the glue then tries PUB_KEY/PRIV_KEY octet strings). */
    const OSSL_PARAM *import_types;   /* entries added to the generic list */
    int (*import)(const FSP_SIGALG *alg, const OSSL_PARAM params[], int selection,
                  void **key);
    int (*export)(const void *key, int selection, FSP_EXPORT *x);
    /* Extra generation parameters (generic: bits, param, seed, state). */
    const OSSL_PARAM *gen_settable;   /* entries added to the generic list */
    /* Algorithm-specific lines of `openssl pkey -text` after the generic
     * header (param set, state); default: the public key in hex. */
    int (*text)(const void *key, int selection, BIO *out);
    /* A message that streams (NULL hooks, or *st left NULL: the glue holds
     * the message and calls sign / verify at the end). stream_sign_init
     * follows sign's rule (checks, then one index spent durably) and starts
     * *st; stream_verify_init keeps sig and starts *st from it (a malformed
     * sig is reported by the final). The glue feeds *st; the finals sign
     * (sig NULL is not asked of them) or verify what it absorbed. A copy
     * (stream_dup) of a signing stream shares its index: one of them signs,
     * the others' finals are refused. stream_free: an unsigned index stays
     * spent. */
    int (*stream_sign_init)(void *key, const FSP_SIGOPTS *o, void **st);
    int (*stream_verify_init)(const void *key, const unsigned char *sig, size_t siglen,
                              void **st);
    int (*stream_update)(void *st, const unsigned char *data, size_t len); /* FASTSIG_OK */
    int (*stream_sign_final)(void *key, const FSP_SIGOPTS *o, void *st, unsigned char *sig,
                             size_t *siglen);
    int (*stream_verify_final)(const void *key, void *st, const unsigned char *sig,
                               size_t siglen);
    void *(*stream_dup)(void *st);
    void (*stream_free)(void *st);
};

/* Row flags. */
#define FSP_SIGALG_STATEFUL 0x1u  /* has index/remaining/max; sign spends state */
/* The row's OID is another row's (its row of record): the row writes its keys
 * under that OID (SPKI and PKCS#8, which read back as the other row's keys),
 * so it has no decoders, registers no OID and names no signature
 * AlgorithmIdentifier (X.509 and CMS take the row of record). The LMS row. */
#define FSP_SIGALG_OID_OF_ANOTHER 0x2u

struct fsp_sigalg {
    const char *name;         /* OpenSSL algorithm name, also the OID's short name */
    const char *ln;           /* the OID's long name (NULL: FSP_SIGALG_OID_OF_ANOTHER) */
    const char *oid;          /* key OID == signature OID (params absent) */
    const char *names;        /* full name list: name:ln:oid (FSP_SIGALG_ROW builds it) */
    const char *description;
    unsigned flags;
    int variant;              /* adapter-private, e.g. RW vs RW-P1363 */
    const FSP_ADAPTER *ad;     /* required: a missing adapter fails the link */
    /* Digest-then-sign rows (RW-P1363): the digest a signature takes unless
     * one is named, reported as the key's DEFAULT_DIGEST and registered with
     * the OID (X.509 and CMS find the algorithm by digest and key). NULL: the
     * message is signed whole, MANDATORY_DIGEST none (OpenSSL 3.5's pkeyutl
     * then reads its input as the message, as for Ed25519). */
    const char *md;
};

/* FSP_SIGALG.variant of the rows that share an adapter. */
enum { FSP_RW_VARIANT = 0, FSP_RW_P1363_VARIANT = 1 };    /* rw_adapter.c */
enum { FSP_XMSS_VARIANT = 0, FSP_XMSSMT_VARIANT = 1 };    /* xmss_adapter.c */

#define FSP_SIGALG_ROW_MD(name, ln, oid, flags, variant, adapter, md, desc) \
    { name, ln, oid, name ":" ln ":" oid, desc, flags, variant, adapter, md }
#define FSP_SIGALG_ROW(name, ln, oid, flags, variant, adapter, desc) \
    FSP_SIGALG_ROW_MD(name, ln, oid, flags, variant, adapter, NULL, desc)
/* A row fetched by its name alone, writing its keys under another row's OID. */
#define FSP_SIGALG_ROW_NAME_ONLY(name, oid, flags, variant, adapter, desc) \
    { name, NULL, oid, name, desc, (flags) | FSP_SIGALG_OID_OF_ANOTHER, variant, adapter, NULL }

/* The table and its size. */
#define FSP_MAX_SIGALGS 16
extern const FSP_SIGALG fsp_sigalgs[];
extern const size_t fsp_nsigalgs;

/* Adapters (provider/<alg>_adapter.c). */
extern const FSP_ADAPTER fsp_rw_adapter;
extern const FSP_ADAPTER fsp_wotsp_adapter;
extern const FSP_ADAPTER fsp_xmss_adapter;
extern const FSP_ADAPTER fsp_xmssmt_adapter;
extern const FSP_ADAPTER fsp_hss_adapter;
extern const FSP_ADAPTER fsp_lms_adapter;

/* Per-slot dispatch tables, generated by the generic glue (slot = row index). */
extern const OSSL_DISPATCH *const fsp_keymgmt_dispatch[FSP_MAX_SIGALGS];
extern const OSSL_DISPATCH *const fsp_signature_dispatch[FSP_MAX_SIGALGS];
/* Encoders need no slot (the key names its row); kinds below. */
enum { FSP_ENC_PKI_DER, FSP_ENC_PKI_PEM, FSP_ENC_EPKI_DER, FSP_ENC_EPKI_PEM,
       FSP_ENC_SPKI_DER, FSP_ENC_SPKI_PEM, FSP_ENC_TEXT, FSP_ENC_KINDS };
extern const OSSL_DISPATCH *const fsp_encoder_dispatch[FSP_ENC_KINDS];
extern const char *const fsp_encoder_props[FSP_ENC_KINDS];
/* Decoders: one per slot and structure. */
enum { FSP_DEC_PKI, FSP_DEC_SPKI, FSP_DEC_KINDS };
extern const OSSL_DISPATCH *const fsp_decoder_dispatch[FSP_DEC_KINDS][FSP_MAX_SIGALGS];
extern const char *const fsp_decoder_props[FSP_DEC_KINDS];

/* Build the per-slot parameter lists (generic + adapter entries) once,
 * before the tables are handed out (algs.c). */
int fsp_keymgmt_init(void);
int fsp_signature_init(void);

/* For every row i: the parameter list dst + i * cap gets generic's entries
 * then those of the row adapter's list at byte offset `list` of FSP_ADAPTER
 * (e.g. offsetof(FSP_ADAPTER, gettable); NULL there adds none). */
int fsp_params_merge_rows(OSSL_PARAM *dst, size_t cap, const OSSL_PARAM *generic, size_t list);

/* Calls X(slot) for every slot: the glue's per-row entry points. */
#define FSP_FOR_EACH_SLOT(X) X(0) X(1) X(2) X(3) X(4) X(5) X(6) X(7) \
    X(8) X(9) X(10) X(11) X(12) X(13) X(14) X(15)

/* The key object every glue file shares: a row plus a reference-counted
 * core key (shared by copies, so one state per key). */
typedef struct fsp_coreref FSP_COREREF;
typedef struct {
    const FSP_SIGALG *alg;
    void *provctx;        /* FSP_PROVCTX */
    FSP_COREREF *ref;      /* NULL until generated, imported or decoded */
} FSP_KEY;
FSP_KEY *fsp_key_new(void *provctx, const FSP_SIGALG *alg);
void fsp_key_free(FSP_KEY *k);
/* Takes ownership of core (freed with alg->ad->free on failure). */
int fsp_key_set_core(FSP_KEY *k, void *core);
/* A new FSP_KEY sharing k's core key. */
FSP_KEY *fsp_key_share(const FSP_KEY *k);
void *fsp_key_core(const FSP_KEY *k);          /* NULL for an empty key */
int fsp_key_has_private(const FSP_KEY *k);
/* Raw public key bytes, allocated (OPENSSL_free); FASTSIG_OK or a code. */
int fsp_key_pub(const FSP_KEY *k, unsigned char **out, size_t *len);

struct fsp_provctx;
/* signature_stream.c: a message that streams (the adapter's stream hooks).
 * begin: *st started for key (signing, or verifying sig: NULL gives none)
 * or left NULL when the row holds messages; 1, or 0 with the error raised.
 * The finals: 1 or 0 (raised); sign_final's sig NULL: the size only;
 * verify_final's sig: the one given at the final (NULL: none). */
int fsp_stream_begin(const struct fsp_provctx *pc, const FSP_SIGALG *alg, FSP_KEY *key, FSP_SIGOPTS *o,
                     int signing, const unsigned char *sig, size_t siglen, void **st);
int fsp_stream_sign_final(const struct fsp_provctx *pc, const FSP_SIGALG *alg, FSP_KEY *key,
                          FSP_SIGOPTS *o, void *st, unsigned char *sig, size_t *siglen,
                          size_t sigsize);
void fsp_stream_free(const FSP_SIGALG *alg, void **st); /* *st: may be NULL; set to NULL */
int fsp_stream_verify_final(const struct fsp_provctx *pc, const FSP_SIGALG *alg, FSP_KEY *key, void *st,
                            const unsigned char *sig, size_t siglen);

/* RNG for the cores (rng.c): arg is the FSP_PROVCTX; an fsp_rng_fn. */
int fsp_rng_bytes(void *provctx, unsigned char *out, size_t len);

/* Text helpers for adapters' text hooks (text.c): "label:" then the bytes as
 * colon-separated hex, 15 per line, indented like OpenSSL's own output. */
int fsp_text_hex(BIO *out, const char *label, const unsigned char *b, size_t len);
/* The whole `-text` output of a key (text.c). */
int fsp_key_to_text(BIO *out, const FSP_KEY *k, int selection);

/* DER of the two structures (der.c): key OID, parameters absent. */
int fsp_der_spki(const FSP_KEY *k, unsigned char **der, size_t *len);
int fsp_der_p8(const FSP_KEY *k, PKCS8_PRIV_KEY_INFO **p8);
/* The signature AlgorithmIdentifier (the row's OID, parameters absent) into p. */
int fsp_der_algorithm_id(OSSL_PARAM *p, const FSP_SIGALG *alg);
/* Parse for one row. FSP_NOT_MINE: not this row's structure or OID (not an
 * error: the next decoder tries); else FASTSIG_OK or a code. Exact DER:
 * no trailing bytes. */
#define FSP_NOT_MINE (-1)
int fsp_der_parse_spki(const FSP_SIGALG *alg, const unsigned char *der, size_t len,
                      void **core);
int fsp_der_parse_p8(const FSP_SIGALG *alg, const unsigned char *der, size_t len,
                    void **core, FSP_ERRDETAIL *detail);

#endif
