/* fuzz_state.c - the signature state file parser: the slot and image
 * decoders on the input, and fastsig_state_inspect on a file holding it.
 * Both slots' checksums are recomputed first (a mutation rarely keeps a
 * CRC-64 right; the checks behind it are what is fuzzed), and the raw input
 * is decoded too. Checks: a slot that decodes re-encodes to the same bytes;
 * inspect agrees with the decoders. An input that starts "FSHS" is an HSS
 * node cache instead (hss_cache.h) of the key make_corpus.sh makes from
 * HSS_SEED: imported as it is and sealed with that key's tag (so the checks
 * behind the tag are fuzzed); a cache that imports must export to the same
 * bytes. Uses the cores only (no provider). */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "bytes.h"
#include "fastsig_err.h"
#include "state/statefile.h"
#include "state/stateslot.h"
#include "lms/hss_cache.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerInitialize(int *argc, char ***argv);

static char path[64];
static int fd = -1;

static void remove_file(void)
{
    unlink(path);
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc;
    (void)argv;
    /* memory-backed when available: a write per input */
    snprintf(path, sizeof(path), "%s/fastsig-fuzz-XXXXXX",
             access("/dev/shm", W_OK) == 0 ? "/dev/shm" : "/tmp");
    if ((fd = mkstemp(path)) < 0)
        abort();
    atexit(remove_file);
    return 0;
}

/* Decodes the slot at img+off of a zero-padded file image; a slot that
 * decodes must re-encode to its bytes. */
static int slot_ok(const uint8_t *img, size_t off)
{
    fs_state_slot s;
    uint8_t again[FS_STATE_SLOT_LEN];
    if (fs_state_slot_decode(img + off, &s) != 0)
        return 0;
    fs_state_slot_encode(&s, again);
    if (memcmp(again, img + off, FS_STATE_SLOT_LEN) != 0)
        abort();
    return 1;
}

static void put_crc(uint8_t *slot)
{
    uint64_t c = fs_state_crc64(slot, 120);
    for (int i = 0; i < 8; i++)
        slot[120 + i] = (uint8_t)(c >> (8 * i));
}

/* SEED of the HSS key of corpus/state/hss.cache (make_corpus.sh's
 * HSS_SEED); its I and sets are read from the input's header. */
static const uint8_t hss_seed[32] = {
    0x5e, 0xed, 0x00, 0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07, 0x08, 0x09, 0x0a, 0x0b, 0x0c, 0x0d,
    0x0e, 0x0f, 0x10, 0x11, 0x12, 0x13, 0x14, 0x15, 0x16, 0x17, 0x18, 0x19, 0x1a, 0x1b, 0x1c, 0x1d,
};

static void hss_cache_case(const uint8_t *data, size_t size)
{
    lms_params lp[LMS_MAX_LEVELS];
    lmots_params op[LMS_MAX_LEVELS];
    unsigned L = size > 5 ? data[5] : 0;
    if (L < 1 || L > LMS_MAX_LEVELS || size < 6 + 8 * (size_t)L)
        return;
    for (unsigned i = 0; i < L; i++)
        if (lms_params_get(&lp[i], fs_load_be32(data + 6 + 8 * i)) != FASTSIG_OK
            || lmots_params_get(&op[i], fs_load_be32(data + 10 + 8 * i)) != FASTSIG_OK)
            return;
    size_t at = 6 + 8 * (size_t)L, publen = 4 + lms_pub_bytes(&lp[0]);
    if (size < at + publen + lp[0].m)
        return;
    const uint8_t *pub = data + at, *I = pub + 12;
    uint8_t *buf = malloc(size), *out = NULL;
    size_t outlen = 0;
    hss_key *k = NULL;
    if (buf == NULL)
        abort();
    memcpy(buf, data, size);
    for (int sealed = 0; sealed < 2; sealed++) {
        if (sealed && hss_cache_seal(&lp[0], hss_seed, I, buf, size) != FASTSIG_OK)
            abort();
        if (hss_cache_import(&k, L, lp, op, hss_seed, I, pub, 1, buf, size) != FASTSIG_OK)
            continue;
        if (hss_cache_export(k, &out, &outlen) != FASTSIG_OK || outlen != size
            || memcmp(out, buf, size) != 0)
            abort();
        free(out);
        hss_key_free(k);
        k = NULL;
    }
    free(buf);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size >= 4 && memcmp(data, "FSHS", 4) == 0) {
        hss_cache_case(data, size);
        return 0;
    }
    uint8_t img[FS_STATE_FILE_SIZE];
    size_t n = size < sizeof(img) ? size : sizeof(img);
    fs_state_slot cur;
    fastsig_state_info info;
    int pos, valid[2];

    if (fd < 0)
        LLVMFuzzerInitialize(NULL, NULL);
    memset(img, 0, sizeof(img));
    memcpy(img, data, n);
    slot_ok(img, 0);
    slot_ok(img, FS_STATE_SLOT_STRIDE);
    if (size == sizeof(img))
        fs_state_image_decode(img, &cur, &pos);

    put_crc(img);
    put_crc(img + FS_STATE_SLOT_STRIDE);
    memset(img + n, 0, sizeof(img) - n); /* what a file of the input's length holds */
    valid[0] = slot_ok(img, 0);
    valid[1] = slot_ok(img, FS_STATE_SLOT_STRIDE);
    /* the file: the fixed image, or the input's length when it is not one */
    size_t flen = size == sizeof(img) ? sizeof(img) : size;
    if (ftruncate(fd, 0) != 0 || pwrite(fd, img, n, 0) != (ssize_t)n
        || (flen > n && pwrite(fd, data + n, flen - n, (off_t)n) != (ssize_t)(flen - n)))
        abort();
    if (fastsig_state_inspect(path, &info, NULL) != FASTSIG_OK)
        abort();
    int whole = size == sizeof(img) && fs_state_image_decode(img, &cur, &pos) == 0;
    if (info.file_ok != whole)
        abort();
    /* a file of another length still has its slots read */
    if (info.valid[0] != valid[0] || info.valid[1] != valid[1])
        abort();
    if (whole && (info.seq[pos] != cur.seq || info.next[pos] != cur.next || info.max[pos] != cur.max))
        abort();
    return 0;
}
