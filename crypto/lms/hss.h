/* hss.h - HSS (RFC 8554 section 6): L = 1 .. 8 LMS levels, the top one
 * from (SEED, I), each lower tree derived from its parent as hash-sigs
 * derives it (hss_generate_child_seed_I_value, with its SECRET_METHOD 0
 * pseudorandom function, the one of SP 800-208 Appendix A): the child of
 * the parent tree (I, SEED) signed by parent leaf q has
 *   SEED' = H(I || u32str(q) || u16str(0xfffe) || u8str(0xff) || SEED)
 *   I'    = first 16 bytes of H(I || u32str(q) || u16str(0xffff) || u8str(0xff) || SEED)
 * with the parent's hash. (hash-sigs' own top-level (SEED, I) come from its
 * private key by a hash of its own; fastsig takes them as given, which is
 * what ACVP and hash-sigs' "ACVP mode" do, so an L = 1 key reproduces
 * published LMS keys; for L > 1 it matches hash-sigs built with
 * SECRET_METHOD 0, not its default side-channel-resistant method 1.)
 * Every level uses the same hash and n (SP 800-208 section 4); heights and w
 * may differ per level.
 *
 * Public key: u32str(L) || LMS public key of the top tree.
 * Signature at global index g (0 .. 2^(h_0 + ... + h_{L-1}) - 1, level
 * L-1's leaf in the low bits): u32str(L-1) || for each lower level i:
 * sig_{i-1}(pub_i) || pub_i || sig_{L-1}(message).
 *
 * Contract: hss_sign signs at the index given; which indices were used is
 * the caller's state. The key keeps one tree per level, the parent's
 * signature of it, and the level's next tree under construction: each
 * signature builds the share of its leaves that keeps it on time (the
 * bottom level one leaf per signature), so signing in order never builds a
 * whole tree at once; the switch costs the parent's signature of the new
 * tree. Signing at an index under a tree that is neither current nor the
 * prepared next one builds it (and the ones below it) then. Not safe for
 * concurrent signing. */
#ifndef FASTSIG_LMS_HSS_H
#define FASTSIG_LMS_HSS_H

#include <stddef.h>
#include <stdint.h>
#include "lms/lms_params.h"
#include "lms/lms_tree.h"
#include "hash/hash_stream.h"
#include "keygen_resume.h"

typedef struct hss_key hss_key;

/* The levels' sets: lms[i], ots[i] for i < L (top first). FASTSIG_ERR_UNSUPPORTED
 * for L out of 1..8, unknown or mismatched sets. seed is n bytes. */
int hss_key_gen(hss_key **out, unsigned L, const lms_params *lms, const lmots_params *ots,
                const uint8_t *seed, const uint8_t I[LMS_I_BYTES], lms_progress_fn progress,
                void *parg);
/* The same with whole trees (the top one, and lower ones built when first
 * needed) built on up to `threads` threads (lms_tree_build). */
int hss_key_gen_mt(hss_key **out, unsigned L, const lms_params *lms, const lmots_params *ots,
                   const uint8_t *seed, const uint8_t I[LMS_I_BYTES], unsigned threads,
                   lms_progress_fn progress, void *parg);
/* A key that signs only the indices first .. end - 1 (a shard of the key:
 * end 0 stands for 2^64, first 0 and end 0 for the whole key of any height;
 * BAD_PARAM for an empty range or one past the key's last index): its lower
 * trees are built for index first, not 0, since a shard never signs below it
 * (hss_key_gen_mt is this with the whole range). */
int hss_key_gen_range(hss_key **out, unsigned L, const lms_params *lms,
                      const lmots_params *ots, const uint8_t *seed,
                      const uint8_t I[LMS_I_BYTES], unsigned threads, uint64_t first,
                      uint64_t end, lms_progress_fn progress, void *parg);
/* Key generation in pieces (keygen_resume.h; hss_resume.c), for keys whose
 * top tree is taller than 10 (H15, H20, H25): that tree's leaves are built
 * in order, 2^c at a time (c = max(10, h - 10): 2^(h - c) pieces, at most
 * 1024), and a piece leaves its share of the tree's kept node row (lms_tree.h:
 * level max(0, h - 15), per = 2^(c - that level) nodes), which a later run
 * loads instead of building: the tree, hence the key, is the one
 * hss_key_gen_mt makes, byte for byte, however the build was cut. The lower
 * levels' trees are built after the top one, as hss_key_gen_mt does (they
 * are never in a checkpoint). hss_keygen_pieces: the pieces of a top tree of
 * lp (0: built whole, no resume); *per its nodes per piece. */
uint64_t hss_keygen_pieces(const lms_params *top, uint32_t *per);
int hss_key_gen_resume(hss_key **out, unsigned L, const lms_params *lms,
                       const lmots_params *ots, const uint8_t *seed,
                       const uint8_t I[LMS_I_BYTES], unsigned threads,
                       const fs_keygen_resume *resume, lms_progress_fn progress, void *parg);
/* Restricts the indices k signs to first .. end - 1: hss_sign refuses any
 * other with FASTSIG_ERR_KEY_EXHAUSTED. The range only shrinks (BAD_PARAM
 * for an empty one or one not inside the current one). */
int hss_key_set_range(hss_key *k, uint64_t first, uint64_t end);
void hss_key_free(hss_key *k);
/* A key of these levels with no tree yet (the checks of hss_key_gen), for
 * hss_cache_import to fill with hss_level_set; it signs nothing before. */
int hss_key_new(hss_key **out, unsigned L, const lms_params *lms, const lmots_params *ots,
                unsigned threads);
unsigned hss_levels(const hss_key *k);
/* Total height: the key has 2^hss_total_height indices. */
unsigned hss_total_height(const hss_key *k);
size_t hss_pub_bytes(const hss_key *k);
size_t hss_sig_bytes(const hss_key *k);
void hss_pub(const hss_key *k, uint8_t *pub);
/* Signature at global index g into sig (hss_sig_bytes). */
int hss_sign(hss_key *k, uint64_t g, const uint8_t *msg, size_t mlen, uint8_t *sig);
/* ---- a message that streams (hss_stream.c): never held whole ----
 * Signing: hss_sign_begin, once the caller has durably spent g, writes the
 * bottom tree's I and C (n bytes; both derive from the top level's SEED and
 * I and g, whichever trees are current) and starts h (Q's prefix); the
 * caller feeds the message to h; hss_sign_end finishes h and signs Q at g
 * (the bytes of hss_sign over the whole message; FASTSIG_ERR_INTERNAL if
 * the tree under g has another I). An abandoned h only burns g.
 * Verification: hss_verify_begin makes hss_verify's checks of sig that need
 * no message (its codes) and starts h from the bottom level's I, q and C;
 * hss_verify_end finishes h and verifies the same sig (both on the halves
 * below, as libfastsig-verify is). The pieces under them: hss_sign of a
 * digest Q made with C under I, hss_verify of the bottom level's digest Q. */
int hss_sign_begin(hss_key *k, uint64_t g, uint8_t I[LMS_I_BYTES], uint8_t *C,
                   fs_hash_stream *h);
int hss_sign_end(hss_key *k, uint64_t g, const uint8_t I[LMS_I_BYTES], const uint8_t *C,
                 fs_hash_stream *h, uint8_t *sig);
int hss_verify_begin(const uint8_t *pub, size_t publen, const uint8_t *sig, size_t siglen,
                     fs_hash_stream *h);
int hss_verify_end(const uint8_t *pub, size_t publen, fs_hash_stream *h, const uint8_t *sig,
                   size_t siglen);
int hss_sign_digest(hss_key *k, uint64_t g, const uint8_t I[LMS_I_BYTES], const uint8_t *C,
                    const uint8_t *Q, uint8_t *sig);
int hss_verify_digest(const uint8_t *pub, size_t publen, const uint8_t *Q, const uint8_t *sig,
                      size_t siglen);
/* Level i's leaf under global index g. */
uint32_t hss_leaf_of(const hss_key *k, unsigned i, uint64_t g);

/* The fingerprint of the top level's (SEED, I), for the key-id registry's
 * seed entries (crypto/state/registry.h; hss_seedfp.c): LM-OTS secrets are
 * H(I || u32str(q) || u16str(i) || u8str(0xff) || SEED), whatever the
 * heights, w or level count, and the lower levels' (SEED, I) derive from
 * the top's, so LMS and HSS keys of one (SEED, I) share one-time keys.
 *   fp = SHA-256("fastsig seed fingerprint v1 lms" || SEED (n) || I (16))
 * One-way over full-entropy seeds; the copy is wiped. */
#define HSS_SEED_FP_LEN 32
int hss_seed_fp(const uint8_t *seed, size_t n, const uint8_t I[LMS_I_BYTES],
                uint8_t fp[HSS_SEED_FP_LEN]);
/* The child (SEED', I') of parent (I, SEED) at leaf q, by the parent's set. */
int hss_child_seed(const lmots_params *parent_ots, const uint8_t I[LMS_I_BYTES],
                   const uint8_t *seed, uint32_t q, uint8_t *child_seed,
                   uint8_t child_I[LMS_I_BYTES]);

/* The levels' working data (public), for the node cache (hss_cache.c):
 * level i's sets, current tree and its number (UINT64_MAX: none yet), its
 * next tree under construction (NULL: none) and, for i > 0, the buffer of
 * the parent's signature of its public key (lms_sig_bytes of level i-1).
 * hss_level_set makes t tree number idx of level i and nt its next (the
 * ones they replace are freed); the caller vouches for them. */
const lms_params *hss_level_lms(const hss_key *k, unsigned i);
const lmots_params *hss_level_ots(const hss_key *k, unsigned i);
lms_tree *hss_level_tree(const hss_key *k, unsigned i);
uint64_t hss_level_index(const hss_key *k, unsigned i);
lms_tree *hss_level_next(const hss_key *k, unsigned i);
uint8_t *hss_level_sig(hss_key *k, unsigned i);
void hss_level_set(hss_key *k, unsigned i, uint64_t idx, lms_tree *t, lms_tree *nt);

/* RFC 8554 section 6.3; the codes of lms_verify, and FASTSIG_ERR_BAD_SIGNATURE
 * when the level counts disagree or bytes are left over. */
int hss_verify(const uint8_t *pub, size_t publen, const uint8_t *msg, size_t mlen,
               const uint8_t *sig, size_t siglen);
/* hss_verify in two halves (streamed verification keeps the view between
 * them): hss_sig_parse makes the checks that need no hash, level by level
 * (a level's parts stay where they are in pub, sig and msg: they must
 * outlive the view). It returns the code of the outer checks (argument,
 * level counts); the first malformed level's code is kept in bad, the
 * levels before it in v[0 .. parsed-1]. hss_levels_verify hashes them and
 * returns hss_verify's code. A caller that streams the message starts
 * its Q with hss_levels_q_start (the first malformed level's code, or the
 * bottom level's Q prefix in s) and ends with hss_levels_verify_q (the last
 * level's v.Q = Q, then hss_levels_verify). No allocation (freestanding). */
typedef struct {
    lms_sig_view v[LMS_MAX_LEVELS];
    const uint8_t *msg[LMS_MAX_LEVELS];
    size_t mlen[LMS_MAX_LEVELS];
    unsigned levels, parsed;
    int bad;
} hss_levels_view;
int hss_sig_parse(const uint8_t *pub, size_t publen, const uint8_t *msg, size_t mlen,
                  const uint8_t *sig, size_t siglen, hss_levels_view *h);
int hss_levels_verify(const hss_levels_view *h);
int hss_levels_q_start(const hss_levels_view *h, fs_hash_stream *s);
int hss_levels_verify_q(hss_levels_view *h, const uint8_t *Q);
/* The same one level after another (the levels' lms_verify in turn): the
 * reference the tests hold hss_verify, which runs the levels side by side,
 * to. */
int hss_verify_serial(const uint8_t *pub, size_t publen, const uint8_t *msg, size_t mlen,
                      const uint8_t *sig, size_t siglen);

#endif
