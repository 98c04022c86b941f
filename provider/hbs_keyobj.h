/* hbs_keyobj.h - the key object of the stateful hash-based adapters (WOTSP,
 * XMSS, XMSS^MT: wotsp_adapter.c, xmss_adapter.c) over crypto/hbs and
 * crypto/state, and the FS_ADAPTER hooks they have in common
 * (hbs_keyobj.c: the object; hbs_keyparams.c: its parameters and text;
 * hbs_registry.c: a new key's registry entries).
 *
 * Private key (PKCS#8 privateKey contents):
 *   sk core || BE16(len) || state file path (len bytes, absolute) [|| range]
 * range (shards of XMSS, XMSS^MT and HSS keys, 17 bytes): 0x01 || BE64(first)
 * || BE64(end): the key signs indices first .. end - 1 only (0 < end <= 2^h,
 * first < end; HSS: h is the sum of the levels' heights, the index global). Absent: the whole key, 0 .. 2^h - 1 (keys written before
 * shards existed have none and stay valid; the sk core is untouched, so a
 * core that reads RFC 8391 bytes reads a shard's too). A whole key is
 * always written without it.
 * sk core: XMSS / XMSS^MT: oid || idx || SK_SEED || SK_PRF || root || PUB_SEED
 * (RFC 8391 reference layout; idx is informational, written as the state's
 * next index and NEVER read back: the state file decides);
 * WOTSP: oid || SK_SEED || SK_PRF || root || PUB_SEED.
 * Public key: oid || root || PUB_SEED (WOTSP: root = the L-tree of the
 * WOTS+ public key). Key id of the state file: SHA-256(public key).
 * HSS keys (hss_adapter.c) use the same object with p NULL: their levels
 * and signing core are x->kind_data, their private core bytes x->sk. What
 * differs between the kinds is reached through x->ops (HBSA_OPS below), so
 * the generic code asks no key what kind it is. */
#ifndef FASTSIG_HBS_KEYOBJ_H
#define FASTSIG_HBS_KEYOBJ_H

#include <stdint.h>
#include <openssl/crypto.h>
#include "sigalgs.h"
#include "hbs/params.h"
#include "hbs/wotsp_scheme.h"
#include "hbs/xmss.h"
#include "secmem.h" /* x->sk */
#include "state/statefile.h"

typedef struct hbsa_ops HBSA_OPS;

/* A seed fingerprint (crypto/state/registry.h's seed entries). */
#define HBSA_SEED_FP_LEN 32

typedef struct {
    const HBSA_OPS *ops;     /* what differs between the kinds */
    const hbs_params *p;     /* XMSS / XMSS^MT / WOTSP row; NULL for HSS */
    uint8_t pk[4 + 2 * HBS_MAX_N];
    size_t pklen;
    uint8_t key_id[FASTSIG_STATE_KEY_ID_LEN];
    hbs_key *k;              /* XMSS / XMSS^MT private core, NULL if public */
    uint8_t *sk;             /* WOTSP private core (secmem.h), NULL if public */
    size_t sklen;
    int sk_err;              /* WOTSP: KEY_MISMATCH when its seeds do not give
                              * its root (refused at sign) */
    char *path;              /* state file; NULL for a public key */
    CRYPTO_RWLOCK *st_lock;  /* serializes opening st (and the st_* below) */
    fastsig_state *st;       /* opened at the first signature (atomic): NULL
                              * until then, or while opening fails */
    int st_err;              /* the key id's result (decode), then the last
                              * open's: why st is NULL */
    uint64_t st_max;         /* STATE_MAX: the max the refused file holds */
    uint64_t st_next;        /* ... and its next */
    uint64_t first, end;     /* the indices this key signs: [first, end) (a shard's
                              * range; the whole key: 0, 2^h) */
    uint64_t saved;          /* XMSS: hbs_cache_changes (HSS: hss_cache_stamp) when
                              * the cache file was last read or written (moved:
                              * write it at free) */
    int cache_err;           /* XMSS, HSS: result of the last cache file write */
    hbs_wotsp_verify_cache vcache; /* WOTSP: its L-tree's masks, made at the first verify */
    uint64_t batch;          /* key's reservation block (default 64; atomic) */
    void *kind_data;         /* the kind's own object (HSS: levels and signing
                              * core), released by ops->free; NULL for the others */
    uint8_t seed_fp[HBSA_SEED_FP_LEN]; /* key generation: its seeds' fingerprint */
    int seed_fp_set;         /* ... computed (hbsa_seed_check) */
} HBSA_KEY;

/* The per-kind operations of the key object: one instance per kind
 * (hbsa_xmss_ops: XMSS and XMSS^MT, xmss_adapter.c; hbsa_wotsp_ops,
 * wotsp_adapter.c; the HSS one in hss_adapter.c). */
struct hbsa_ops {
    uint64_t (*max)(const HBSA_KEY *x);      /* the key's index count (2^h; 1: one-time) */
    size_t (*sig_bytes)(const HBSA_KEY *x);
    unsigned (*n)(const HBSA_KEY *x);        /* hash output bytes */
    const char *(*name)(const HBSA_KEY *x);  /* the parameter-set name */
    /* The private key usable: its seeds give its public key (built once for
     * a core made lazily); the error otherwise, before anything is spent. */
    int (*check)(HBSA_KEY *x);
    /* Signs at idx, durably spent by now; verify: checked with the public
     * key before it is returned. */
    int (*sign)(HBSA_KEY *x, uint64_t idx, int verify, const unsigned char *msg,
                size_t msglen, unsigned char *sig, size_t siglen);
    void (*free)(HBSA_KEY *x);               /* the kind's own parts (not x) */
    /* Extra `pkey -text` lines, or NULL for none. */
    int (*text)(const HBSA_KEY *x, BIO *out);
    /* Tells the signing core x's range [first, end); carved: x has just been
     * made a shard (hbs_shard.c), not decoded as one. NULL: the kind has no
     * shards (a one-time key has nothing to share out). */
    int (*set_range)(HBSA_KEY *x, int carved);
    uint64_t (*shard_align)(const HBSA_KEY *x); /* see hbsa_shard_align */
    /* The one-way fingerprint of the secrets x's one-time keys come from,
     * the same under every parameter set of the kind that shares them
     * (the core's: hbs_seed_fp, hss_seed_fp); seed: the generation's seed
     * bytes as `seed:` gives them. */
    int (*seed_fp)(const HBSA_KEY *x, const uint8_t *seed, size_t seedlen,
                   uint8_t fp[HBSA_SEED_FP_LEN]);
};
extern const HBSA_OPS hbsa_xmss_ops, hbsa_wotsp_ops;
/* The ops of the XMSS / XMSS^MT / WOTSP rows that read only x->p. */
uint64_t hbsa_row_max(const HBSA_KEY *x);
size_t hbsa_row_sig_bytes(const HBSA_KEY *x);
unsigned hbsa_row_n(const HBSA_KEY *x);
const char *hbsa_row_name(const HBSA_KEY *x);
int hbsa_row_seed_fp(const HBSA_KEY *x, const uint8_t *seed, size_t seedlen,
                     uint8_t fp[HBSA_SEED_FP_LEN]);

/* Key-generation progress of the tree cores, shown by genpkey: a '.' per
 * fortieth of the work (hbs and lms progress callbacks share this form). */
typedef struct {
    const FS_GENOPTS *o;
    uint64_t shown;
} HBSA_PROGRESS;
int hbsa_progress(void *arg, uint64_t done, uint64_t total);
/* Key-generation threads by default: the CPUs this process may run on. */
unsigned hbsa_default_threads(void);

/* ---- building blocks for the adapters ---- */
/* A key object of an XMSS / XMSS^MT / WOTSP row (ops by p's kind). */
HBSA_KEY *hbsa_new(const hbs_params *p);
/* A key object of another kind: its adapter sets kind_data, pklen and end. */
HBSA_KEY *hbsa_new_ops(const HBSA_OPS *ops);
/* Row by name for kind, or NULL. */
const hbs_params *hbsa_params(int kind, const char *name);
/* The 3n seed bytes: the caller's (-pkeyopt seed:) or OpenSSL's RNG. */
int hbsa_seed(const FS_GENOPTS *o, const hbs_params *p, uint8_t *seed);
/* At key generation, before the key is built: x->seed_fp from the seed
 * (ops->seed_fp), refused at once (STATE_REGISTERED, naming the state that
 * holds it) when the default directory's registry has it already: the same
 * seed under any parameter set of the kind would sign with the same
 * one-time keys. hbsa_state_new claims it. */
int hbsa_seed_check(HBSA_KEY *x, const uint8_t *seed, size_t seedlen);
/* After x->pk is set and hbsa_seed_check passed: the key id, the state path
 * (o->state, else the default directory), the key id and the seed
 * fingerprint registered with that path in the default directory's
 * registry (refused, naming the state, if either has one) and a new state
 * file of the key's index count, opened. */
int hbsa_state_new(HBSA_KEY *x, const char *state_opt);
/* hbs_registry.c: the two claims of hbsa_state_new in the registry of the
 * default state directory dir (hbsa_register: the error noted, nothing
 * left claimed on failure), and their withdrawal when no state was made. */
int hbsa_register(const HBSA_KEY *x, const char *dir);
void hbsa_unregister(const HBSA_KEY *x, const char *dir);
/* The default state directory (made if missing), absolute and resolved. */
int hbsa_default_state_dir(char *real, size_t len);
/* Checks the framing of a private encoding whose core is corelen bytes and
 * copies out its state path (*path, allocated; a relative one is refused,
 * BAD_KEY naming it); *rangelen gets the length of what follows the path
 * (0 or HBSA_RANGE_LEN). */
#define HBSA_RANGE_LEN 17
int hbsa_priv_split(const unsigned char *in, size_t len, size_t corelen, char **path,
                    size_t *rangelen);
/* hbsa_priv_split for x (x->path set) and the range, when there is one,
 * into x->first / x->end: FASTSIG_ERR_BAD_KEY for a range that is empty, past
 * the key's end or of a kind without shards. */
int hbsa_priv_tail(HBSA_KEY *x, const unsigned char *in, size_t len, size_t corelen);
/* The start of every private decode: a key object of the row the encoding's
 * oid names (kind's oid space), its framing checked and its state path set;
 * the core bytes (in, hbs_sk_bytes) are the caller's to check. */
int hbsa_priv_begin(int kind, const unsigned char *in, size_t len, HBSA_KEY **out);
/* At decode: readies x to open its state at its first signature. No file
 * is opened here (a key that only verifies or exports its public half
 * touches none, and a crafted path is not opened by decoding); a state
 * that then fails to open refuses the signature, the key still verifies. */
void hbsa_attach(HBSA_KEY *x);
/* Frames core bytes, x->path and x's range into out (see above). */
int hbsa_priv_frame(const HBSA_KEY *x, const uint8_t *core, size_t corelen,
                    unsigned char *out, size_t *len);
/* Decodes a public key of kind (oid || root || PUB_SEED). */
int hbsa_pub_decode(int kind, const unsigned char *in, size_t len, void **key);

/* Notes x's state file and the cause beside a state error err (see
 * fs_err_state_detail) and returns err. */
int hbsa_state_error(const HBSA_KEY *x, int err, const fastsig_cause *cause);
/* STATE_MAX when a state file's max / next do not fit x's range (max must be
 * its end, next at least its first index), else FASTSIG_OK; hbsa_range_why
 * writes which (why: whylen bytes). */
int hbsa_range_check(const HBSA_KEY *x, uint64_t max, uint64_t next);
void hbsa_range_why(const HBSA_KEY *x, uint64_t max, uint64_t next, char *why, size_t whylen);
/* The cause in words of a state error err about x: STATE_MAX (hbsa_range_why
 * of x->st_max / x->st_next), KEY_EXHAUSTED (the key's or shard's range),
 * OTS_USED. */
void hbsa_state_why(const HBSA_KEY *x, int err, char *why, size_t whylen);
/* x's state handle, opened read-write by the first caller (threads and
 * copies of x share it); NULL with *err set and the cause noted when the
 * state cannot be used. */
fastsig_state *hbsa_state_of(HBSA_KEY *x, int *err);

/* hbs_shard.c: turns x (an XMSS, XMSS^MT or HSS private key with a usable
 * state) into a shard of itself: range "A-B" (indices A .. B-1, inside the state's
 * unspent part) or "+N" (the next N unspent ones) is carved from x's state
 * (fastsig_state_carve: the parent's state moves on first) into a new state
 * file, state_opt (a directory, or the file's path; NULL: beside the
 * parent's), and x then signs from that file, inside that range only. */
int hbsa_shard(HBSA_KEY *x, const char *range, const char *state_opt);
/* The text form of x's range, "A-B" (out: at least 48 bytes). */
void hbsa_range_text(const HBSA_KEY *x, char *out, size_t outlen);
/* Indices of a bottom subtree: a shard starting at a multiple of it is
 * signed with the cache prepared ahead from its first signature. */
uint64_t hbsa_shard_align(const HBSA_KEY *x);

/* ---- FS_ADAPTER hooks shared by the three ---- */
void hbsa_free(void *key);
int hbsa_has_private(const void *key);
void hbsa_sizes(const void *key, FS_KEYSIZES *out);
int hbsa_pub_encode(const void *key, unsigned char *out, size_t *len);
/* The signing rule of every stateful row: the length and the key (its
 * seeds against its root, hbs_key_check) checked before anything is spent,
 * one index durably taken (blocks of the context's batch
 * option when set, else of the key's), then the core of the key's kind
 * signs with it (and verifies it when the context asks: verify-after-sign);
 * a failed signature leaves no bytes. */
int hbsa_sign(void *key, const FS_SIGOPTS *o, int prehashed, unsigned char *sig,
              size_t *siglen, const unsigned char *msg, size_t msglen);
const char *hbsa_param_name(const void *key);
int hbsa_state(const void *key, FS_STATEINFO *out);
void hbsa_sigopts_default(const FS_SIGALG *alg, FS_SIGOPTS *o);
int hbsa_ctx_set(FS_SIGOPTS *o, const OSSL_PARAM params[]);
int hbsa_ctx_get(const FS_SIGOPTS *o, OSSL_PARAM params[]);
int hbsa_get_params(const void *key, OSSL_PARAM params[]);
int hbsa_set_params(void *key, const OSSL_PARAM params[]);
int hbsa_text(const void *key, int selection, BIO *out);
extern const OSSL_PARAM hbsa_ctx_params[];
extern const OSSL_PARAM hbsa_key_gettable[];
extern const OSSL_PARAM hbsa_key_settable[];

/* The hooks above, for an FS_ADAPTER initializer. */
#define HBSA_COMMON_HOOKS                                                                \
    .param_name = hbsa_param_name, .state = hbsa_state,                                  \
    .sigopts_default = hbsa_sigopts_default, .ctx_settable = hbsa_ctx_params,            \
    .ctx_set = hbsa_ctx_set, .ctx_gettable = hbsa_ctx_params, .ctx_get = hbsa_ctx_get,   \
    .gettable = hbsa_key_gettable, .get_params = hbsa_get_params,                        \
    .settable = hbsa_key_settable, .set_params = hbsa_set_params, .text = hbsa_text

#endif
