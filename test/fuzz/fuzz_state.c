/* fuzz_state.c - the signature state file parser: the slot and image
 * decoders on the input, and fastsig_state_inspect on a file holding it.
 * Both slots' checksums are recomputed first (a mutation rarely keeps a
 * CRC-64 right; the checks behind it are what is fuzzed), and the raw input
 * is decoded too. Checks: a slot that decodes re-encodes to the same bytes;
 * inspect agrees with the decoders. Uses the state core only (no provider). */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "fastsig_err.h"
#include "state/statefile.h"
#include "state/stateslot.h"

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

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
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
    if (fastsig_state_inspect(path, &info) != FASTSIG_OK)
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
