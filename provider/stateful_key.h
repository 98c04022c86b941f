/* stateful_key.h - the key object of every stateful row (XMSS, XMSS^MT,
 * WOTSP: xmss_adapter.c, wotsp_adapter.c; HSS: hss_adapter.c): the kind's
 * core behind the contract of crypto/stateful.h (ops + core: the object asks
 * no key what kind it is), its state file (crypto/state) and its node cache
 * file. stateful_key.c: the object, its private-key framing, signing and the
 * cache lifecycle; stateful_state.c: its state file; stateful_params.c: its
 * parameters and text; stateful_registry.c: a new key's registry entries;
 * stateful_regen.c: a key generated again where its state is;
 * stateful_shard.c: carving a shard.
 *
 * Private key (PKCS#8 privateKey contents):
 *   sk core || BE16(len) || state file path (len bytes, absolute) [|| range]
 * range (shards of XMSS, XMSS^MT and HSS keys, 17 bytes): 0x01 || BE64(first)
 * || BE64(end): the key signs indices first .. end - 1 only (0 < end <= 2^h,
 * first < end; HSS: h is the sum of the levels' heights, the index global).
 * Absent: the whole key, 0 .. 2^h - 1 (keys written before shards existed
 * have none and stay valid; the sk core is untouched, so a core that reads
 * RFC 8391 bytes reads a shard's too). A whole key is always written without
 * it. The sk core is the kind's (ops->export_sk): XMSS / XMSS^MT: oid || idx
 * || SK_SEED || SK_PRF || root || PUB_SEED (RFC 8391 reference layout; idx
 * is informational, written as the state's next index and NEVER read back:
 * the state file decides); WOTSP: oid || SK_SEED || SK_PRF || root ||
 * PUB_SEED; HSS: hss_stateful.c.
 * Public key: the core's (XMSS, WOTSP: oid || root || PUB_SEED; HSS: RFC
 * 8554). Key id of the state file: SHA-256(public key).
 *
 * Node cache: read once, at the first signature (or carve), for every kind
 * (decoding opens no file); written at key generation and when the object
 * is freed if the core says it is dirty; best effort (cache_err, shown by
 * `pkey -text`). The range is the core's (ops->range). */
#ifndef FASTSIG_STATEFUL_KEY_H
#define FASTSIG_STATEFUL_KEY_H

#include <stdint.h>
#include <time.h>
#include <openssl/crypto.h>
#include "sigalgs.h"
#include "stateful.h"
#include "xmss/params.h" /* stateful_params, stateful_seed */
#include "state/statefile.h"
#include "state/genckpt.h"
#include "keygen_resume.h"

/* A seed fingerprint (crypto/state/registry.h's seed entries). */
#define STATEFUL_SEED_FP_LEN FS_STATEFUL_SEED_FP_LEN

typedef struct {
    const fs_stateful_ops *ops; /* the kind's contract (crypto/stateful.h) */
    void *core;              /* ... and its core: keys, range, node cache */
    const uint8_t *pk;       /* the core's public key (ops->pk) */
    size_t pklen;
    uint8_t key_id[FASTSIG_STATE_KEY_ID_LEN];
    char *path;              /* state file; NULL for a public key */
    CRYPTO_RWLOCK *st_lock;  /* serializes opening st (and the st_* below) */
    fastsig_state *st;       /* opened at the first signature (atomic): NULL
                              * until then, or while opening fails */
    int st_err;              /* the key id's result (decode), then the last
                              * open's: why st is NULL */
    uint64_t st_max;         /* STATE_MAX: the max the refused file holds */
    uint64_t st_next;        /* ... and its next */
    int cache_read;          /* the node cache file was read (atomic) */
    int cache_err;           /* result of the last cache file write */
    uint64_t batch;          /* key's reservation block (default 64; atomic) */
    uint64_t warn_remaining; /* the key's low-water warning (stateful_warn.c) ... */
    int warn_set;            /* ... when set (atomic), else the provider's config */
    uint8_t seed_fp[STATEFUL_SEED_FP_LEN]; /* key generation: its seeds' fingerprint */
    int seed_fp_set;         /* ... computed (stateful_seed_check) */
} STATEFUL_KEY;

/* Key-generation progress of the tree cores (stateful_progress.c): the
 * application's callback once per fortieth of the work (genpkey prints a
 * '.'), and for a person at a terminal a line with percent, rate and time
 * left (FASTSIG_PROGRESS: auto, 1, 0). xmss and lms progress callbacks
 * share the form of stateful_progress. */
typedef struct {
    const FSP_GENOPTS *o;
    uint64_t shown;            /* fortieths reported to the application */
    const char *name;          /* the parameter set, for the line */
    int detail;                /* the line: off, on a terminal, as lines */
    uint64_t permille, tenth, total;
    uint64_t resumed, pieces;  /* pieces of the generation taken from a checkpoint, of all */
    uint64_t skipped;          /* their leaves, not built now (not in the rate) */
    double last;               /* seconds from start at the last line */
    struct timespec start;
} STATEFUL_PROGRESS;
void stateful_progress_init(STATEFUL_PROGRESS *g, const FSP_GENOPTS *o, const char *name);
int stateful_progress(void *arg, uint64_t done, uint64_t total);
/* The closing line (err: the generation's result). */
void stateful_progress_end(STATEFUL_PROGRESS *g, int err);
/* Key-generation threads by default: the CPUs this process may run on. */
unsigned stateful_default_threads(void);

/* Key generation in pieces with a checkpoint file (stateful_resume.c,
 * `-pkeyopt resume:PATH`; keygen_resume.h), one code for every kind that
 * has pieces (XMSS, XMSS^MT, HSS): the kind says only what a checkpoint is
 * bound to (plan_of: fs_stateful_*_resume_plan). */
typedef struct {
    const char *path;   /* NULL: no resume asked */
    fs_genckpt ck;      /* the seed and the roots (of a loaded file) */
    int loaded;         /* the file existed: its generation goes on */
    fs_keygen_resume r; /* what the core gets */
    double interval, last;
    int err;            /* a failed save, and why */
    fastsig_cause cause;
} STATEFUL_RESUME;
/* A kind's key generation into core, in pieces when resume is not NULL. */
typedef int (*stateful_keygen_fn)(void *core, const uint8_t *seed, size_t seedlen,
                                  unsigned threads, int (*progress)(void *, uint64_t, uint64_t),
                                  void *parg, const fs_keygen_resume *resume);
/* The rest of a key generation of every kind that has pieces, once x (an
 * empty core of the set) and its seed are made: o->resume's checkpoint, if
 * it exists, gives the seed (refused: another set, a seed: option that
 * differs, a damaged file; a set without pieces refuses resume), the
 * outputs checked (stateful_gen_check), the checkpoint made (a new
 * generation), the trees built, the key made (stateful_gen_done) and the
 * checkpoint removed (kept when anything failed). seed is wiped; x is
 * *key's or freed. */
int stateful_gen_resumable(STATEFUL_KEY *x, const FSP_GENOPTS *o, uint8_t *seed, size_t seedlen,
                           int (*plan_of)(const void *core, fs_resume_plan *plan),
                           stateful_keygen_fn keygen, void **key);

/* ---- building blocks for the adapters ---- */
/* A key object over core (taken over, freed on failure). */
STATEFUL_KEY *stateful_new(const fs_stateful_ops *ops, void *core);
/* The range [first, end) the key signs (its core's). */
void stateful_range(const STATEFUL_KEY *x, uint64_t *first, uint64_t *end);
/* Row by name for kind, or NULL. */
const xmss_params *stateful_params(int kind, const char *name);
/* The 3n seed bytes: the caller's (-pkeyopt seed:) or OpenSSL's RNG. */
int stateful_seed(const FSP_GENOPTS *o, const xmss_params *p, uint8_t *seed);
/* At key generation, before the key is built: x->seed_fp from the seed
 * (ops->seed_fp), refused at once (STATE_REGISTERED, naming the state that
 * holds it) when the default directory's registry has it already: the same
 * seed under any parameter set of the kind would sign with the same
 * one-time keys. stateful_state_new claims it. Not refused yet when the
 * state it names exists where this key's goes (state_opt, NULL: the default
 * directory): that may be the same key again (stateful_regen_same_key); *regen
 * says so (1), for stateful_gen_check. */
int stateful_seed_check(STATEFUL_KEY *x, const uint8_t *seed, size_t seedlen,
                        const char *state_opt, int *regen, FSP_ERRDETAIL *d);
/* stateful_regen.c: a key generated again. may_hold: the registry's state
 * found (of the seed) is a state of x's size and is where a key generated
 * with state_opt in the default directory dir may keep its state. same_key: x->path is the
 * state the registry names for x's key id, and it is x's (x takes it over).
 * exists: the refusal of a state path whose file exists (STATE_EXISTS), its
 * detail saying whose state it holds and what to do. */
int stateful_regen_may_hold(const STATEFUL_KEY *x, const char *state_opt, const char *dir,
                            const char *found);
int stateful_regen_same_key(const STATEFUL_KEY *x, const char *dir);
int stateful_regen_exists(const STATEFUL_KEY *x, FSP_ERRDETAIL *d);
/* ... the same refusal of the file at path before the key id is known
 * (stateful_gen_check: no tree built). */
int stateful_regen_exists_at(const char *path, FSP_ERRDETAIL *d);
/* opt made absolute against the working directory (BAD_PARAM: too long). */
int stateful_abs_path(const char *opt, char *buf, size_t len);
/* Before the trees are built (stateful_gencheck.c): every output of the
 * generation checked (the state file's directory and path, the default
 * directory's registry; not the node cache, best effort), then
 * stateful_seed_check: a refusal costs no tree build. */
int stateful_gen_check(STATEFUL_KEY *x, const FSP_GENOPTS *o, const uint8_t *seed,
                       size_t seedlen);
/* After x->pk is set and stateful_seed_check passed: the key id, the state path
 * (o->state, else the default directory), the key id and the seed
 * fingerprint registered with that path in the default directory's
 * registry (refused, naming the state, if either has one) and a new state
 * file of the key's index count, opened (the same key generated again: the
 * state the registry names for it, stateful_regen_same_key); a refusal's
 * detail in d. */
int stateful_state_new(STATEFUL_KEY *x, const char *state_opt, FSP_ERRDETAIL *d);
/* stateful_registry.c: the two claims of stateful_state_new in the registry of the
 * default state directory dir (stateful_register: the error's detail in d, nothing
 * left claimed on failure), and their withdrawal when no state was made. */
int stateful_register(const STATEFUL_KEY *x, const char *dir, FSP_ERRDETAIL *d);
void stateful_unregister(const STATEFUL_KEY *x, const char *dir);
/* A shard just carved (x->path its state): that path added to its key's
 * registry entry in the default state directory, when there is one, so
 * that `fastsig-keytool status PUB.pem` lists the shard at any path; a
 * failure is a warning on stderr (the shard is made: its parent moved). */
void stateful_register_shard(const STATEFUL_KEY *x);
/* The default state directory (made if missing), absolute and resolved; a
 * failure's detail (naming the directory) in d. */
int stateful_default_state_dir(char *real, size_t len, FSP_ERRDETAIL *d);
/* Checks the framing of a private encoding whose core is corelen bytes and
 * copies out its state path (*path, allocated; a relative one is refused,
 * BAD_KEY naming it); *rangelen gets the length of what follows the path
 * (0 or STATEFUL_RANGE_LEN). The refusal's detail in d. */
#define STATEFUL_RANGE_LEN 17
int stateful_priv_split(const unsigned char *in, size_t len, size_t corelen, char **path,
                    size_t *rangelen, FSP_ERRDETAIL *d);
/* A private key of ops's kind: the core (ops->from_sk), the framing, the
 * range narrowed (ops->set_range; BAD_KEY for a range that is empty, past
 * the key's end or of a kind without shards). No file is opened here (a key
 * that only verifies or exports its public half touches none, and a crafted
 * path is not opened by decoding): the state and the node cache are read
 * at the first signature; a state that then fails to open refuses the
 * signature, the key still verifies. */
int stateful_priv_decode(const fs_stateful_ops *ops, const unsigned char *in, size_t len,
                     void **key, FSP_ERRDETAIL *d);
/* A public key of ops's kind (ops->from_pk). */
int stateful_pub_decode(const fs_stateful_ops *ops, const unsigned char *in, size_t len,
                    void **key);
/* The end of every key generation, err the core's: the progress shown, the
 * state made (o->state) and the node cache file written, so that the first
 * signer starts warm, then *key = x; x freed on failure. */
int stateful_gen_done(STATEFUL_KEY *x, int err, const FSP_GENOPTS *o, void **key);
/* The node cache file read into x's core once (the first signature, or a
 * carve): a missing, mismatching or damaged one is no error, the core
 * refuses bytes that do not check and builds what it needs. */
void stateful_cache_read(STATEFUL_KEY *x);

/* Fills d with x's state file and the cause of a state error err (cause:
 * the failing state call's, NULL: none) and returns err. */
int stateful_state_error(const STATEFUL_KEY *x, int err, const fastsig_cause *cause,
                     FSP_ERRDETAIL *d);
/* STATE_MAX when a state file's max / next do not fit x's range (max must be
 * its end, next at least its first index), else FASTSIG_OK; stateful_range_why
 * writes which (why: whylen bytes). */
int stateful_range_check(const STATEFUL_KEY *x, uint64_t max, uint64_t next);
void stateful_range_why(const STATEFUL_KEY *x, uint64_t max, uint64_t next, char *why, size_t whylen);
/* The cause in words of a state error err about x: STATE_MAX (stateful_range_why
 * of x->st_max / x->st_next), KEY_EXHAUSTED (the key's or shard's range),
 * OTS_USED. */
void stateful_state_why(const STATEFUL_KEY *x, int err, char *why, size_t whylen);
/* x's state handle, opened read-write by the first caller (threads and
 * copies of x share it); NULL with *err set and its detail in d when the
 * state cannot be used. */
fastsig_state *stateful_state_of(STATEFUL_KEY *x, int *err, FSP_ERRDETAIL *d);

/* stateful_shard.c: turns x (an XMSS, XMSS^MT or HSS private key with a usable
 * state) into a shard of itself: range "A-B" (indices A .. B-1, inside the state's
 * unspent part) or "+N" (the next N unspent ones) is carved from x's state
 * (fastsig_state_carve: the parent's state moves on first) into a new state
 * file, state_opt (a directory, or the file's path; NULL: beside the
 * parent's), and x then signs from that file, inside that range only. A
 * refusal's detail in d. */
int stateful_shard(STATEFUL_KEY *x, const char *range, const char *state_opt, FSP_ERRDETAIL *d);
/* The text form of x's range, "A-B" (out: at least 48 bytes). */
void stateful_range_text(const STATEFUL_KEY *x, char *out, size_t outlen);
/* Indices of a bottom subtree: a shard starting at a multiple of it is
 * signed with the cache prepared ahead from its first signature. */
uint64_t stateful_shard_align(const STATEFUL_KEY *x);

/* stateful_warn.c: the low-water warning. `warn_remaining = N` in the
 * provider's config section (stateful_warn_config at load: 0 with
 * the value refused), the key parameter and the signature-context
 * parameter "warn-remaining" (uint64 or decimal text; 0: off) override it.
 * After a signature with index idx leaves fewer than N indices after it in
 * the key's range, one line goes to stderr, once per process. */
int stateful_warn_config(const char *text);
int stateful_warn_parse(const OSSL_PARAM params[], uint64_t *v); /* 0 absent, 1, -1 bad */
void stateful_warn_check(const STATEFUL_KEY *x, const FSP_SIGOPTS *o, uint64_t idx);
/* The threshold in force: o's (o may be NULL), else x's, else the config's. */
uint64_t stateful_warn_threshold(const STATEFUL_KEY *x, const FSP_SIGOPTS *o);

/* ---- FSP_ADAPTER hooks shared by every stateful row ---- */
void stateful_free(void *key);
int stateful_has_private(const void *key);
void stateful_sizes(const void *key, FSP_KEYSIZES *out);
int stateful_pub_encode(const void *key, unsigned char *out, size_t *len);
int stateful_priv_encode(const void *key, unsigned char *out, size_t *len);
int stateful_verify(const void *key, const FSP_SIGOPTS *o, int prehashed, const unsigned char *sig,
                size_t siglen, const unsigned char *msg, size_t msglen);
/* The signing rule of every stateful row: the length and the key (its
 * seeds against its root, ops->check) checked before anything is spent,
 * one index durably taken (blocks of the context's batch
 * option when set, else of the key's), then the core of the key's kind
 * signs with it (and verifies it when the context asks: verify-after-sign);
 * a failed signature leaves no bytes. */
int stateful_sign(void *key, const FSP_SIGOPTS *o, int prehashed, unsigned char *sig,
              size_t *siglen, const unsigned char *msg, size_t msglen);
/* The rule's first half, for sign and for a message that streams: the key
 * checked, then one index durably spent (o's batch) into *idx; a refusal's
 * detail in o->detail. */
int stateful_take_index(STATEFUL_KEY *x, const FSP_SIGOPTS *o, uint64_t *idx);
/* stateful_stream.c: the FSP_ADAPTER stream hooks (a message that streams,
 * in constant memory, over the kind's msg_* ops; kinds without them hold
 * the message: *st stays NULL). */
int stateful_stream_sign_init(void *key, const FSP_SIGOPTS *o, void **st);
int stateful_stream_verify_init(const void *key, const unsigned char *sig, size_t siglen,
                                void **st);
int stateful_stream_update(void *st, const unsigned char *data, size_t len);
int stateful_stream_sign_final(void *key, const FSP_SIGOPTS *o, void *st, unsigned char *sig,
                               size_t *siglen);
int stateful_stream_verify_final(const void *key, void *st, const unsigned char *sig,
                                 size_t siglen);
void *stateful_stream_dup(void *st);
void stateful_stream_free(void *st);
const char *stateful_param_name(const void *key);
int stateful_state(const void *key, FSP_STATEINFO *out);
void stateful_sigopts_default(const FSP_SIGALG *alg, FSP_SIGOPTS *o);
int stateful_ctx_set(FSP_SIGOPTS *o, const OSSL_PARAM params[]);
int stateful_ctx_get(const FSP_SIGOPTS *o, OSSL_PARAM params[]);
int stateful_get_params(const void *key, OSSL_PARAM params[]);
int stateful_set_params(void *key, const OSSL_PARAM params[], FSP_ERRDETAIL *d);
int stateful_text(const void *key, int selection, BIO *out);
extern const OSSL_PARAM stateful_ctx_params[];
extern const OSSL_PARAM stateful_key_gettable[];
extern const OSSL_PARAM stateful_key_settable[];

/* The hooks above, for an FSP_ADAPTER initializer (..._BUT_VERIFY: for an
 * adapter with a verify of its own, e.g. HSS's for other implementations' forms). */
#define STATEFUL_COMMON_HOOKS STATEFUL_HOOKS_BUT_VERIFY, .verify = stateful_verify
#define STATEFUL_HOOKS_BUT_VERIFY                                                            \
    .free = stateful_free, .has_private = stateful_has_private, .sizes = stateful_sizes,             \
    .pub_encode = stateful_pub_encode, .priv_encode = stateful_priv_encode, .sign = stateful_sign,   \
    .param_name = stateful_param_name, .state = stateful_state,                                  \
    .sigopts_default = stateful_sigopts_default, .ctx_settable = stateful_ctx_params,            \
    .ctx_set = stateful_ctx_set, .ctx_gettable = stateful_ctx_params, .ctx_get = stateful_ctx_get,   \
    .gettable = stateful_key_gettable, .get_params = stateful_get_params,                        \
    .settable = stateful_key_settable, .set_params = stateful_set_params, .text = stateful_text,  \
    .stream_sign_init = stateful_stream_sign_init,                                             \
    .stream_verify_init = stateful_stream_verify_init, .stream_update = stateful_stream_update, \
    .stream_sign_final = stateful_stream_sign_final,                                           \
    .stream_verify_final = stateful_stream_verify_final, .stream_dup = stateful_stream_dup,    \
    .stream_free = stateful_stream_free

#endif
