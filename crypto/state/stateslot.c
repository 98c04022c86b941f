/* stateslot.c - encoding and validation of the state file's two slots. */
#include <string.h>
#include "bytes.h"
#include "stateslot.h"

static const uint8_t slot_magic[8] = { 'F', 'S', 'I', 'G', 'S', 'T', 'A', 'T' };

uint64_t fs_state_crc64(const uint8_t *p, size_t len)
{
    /* bitwise: the records are tiny, and every update that checksums one
     * also pays an fdatasync that dwarfs it */
    uint64_t crc = ~UINT64_C(0);
    for (size_t i = 0; i < len; i++) {
        crc ^= p[i];
        for (int b = 0; b < 8; b++)
            crc = (crc >> 1) ^ (UINT64_C(0xC96C5795D7870F42) & (0 - (crc & 1)));
    }
    return ~crc;
}

static int all_zero(const uint8_t *p, size_t len)
{
    uint8_t acc = 0;
    for (size_t i = 0; i < len; i++)
        acc |= p[i];
    return acc == 0;
}

void fs_state_slot_encode(const fs_state_slot *s, uint8_t out[FS_STATE_SLOT_LEN])
{
    memset(out, 0, FS_STATE_SLOT_LEN);
    memcpy(out, slot_magic, 8);
    out[8] = (uint8_t)FS_STATE_VERSION; /* u32 LE; flags (12..15) stay 0 */
    fs_store_le64(out + 16, s->seq);
    fs_store_le64(out + 24, s->max);
    fs_store_le64(out + 32, s->next);
    memcpy(out + 40, s->key_id, FASTSIG_STATE_KEY_ID_LEN);
    fs_store_le64(out + 120, fs_state_crc64(out, 120));
}

int fs_state_slot_decode(const uint8_t in[FS_STATE_SLOT_LEN], fs_state_slot *s)
{
    static const uint8_t version_flags[8] = { FS_STATE_VERSION, 0, 0, 0, 0, 0, 0, 0 };
    if (fs_load_le64(in + 120) != fs_state_crc64(in, 120))
        return -1;
    if (memcmp(in, slot_magic, 8) != 0 || memcmp(in + 8, version_flags, 8) != 0)
        return -1;
    if (!all_zero(in + 72, 48))
        return -1;
    s->seq = fs_load_le64(in + 16);
    s->max = fs_load_le64(in + 24);
    s->next = fs_load_le64(in + 32);
    memcpy(s->key_id, in + 40, FASTSIG_STATE_KEY_ID_LEN);
    if (s->max == 0 || s->max > FS_STATE_MAX_LIMIT || s->next > s->max)
        return -1;
    return 0;
}

int fs_state_image_decode(const uint8_t img[FS_STATE_FILE_SIZE], fs_state_slot *cur,
                          int *cur_pos)
{
    fs_state_slot s[2];
    for (int i = 0; i < 2; i++) {
        const uint8_t *p = img + i * FS_STATE_SLOT_STRIDE;
        if (fs_state_slot_decode(p, &s[i]) != 0 ||
            !all_zero(p + FS_STATE_SLOT_LEN, FS_STATE_SLOT_STRIDE - FS_STATE_SLOT_LEN))
            return -1;
    }
    if (s[0].max != s[1].max || memcmp(s[0].key_id, s[1].key_id, FASTSIG_STATE_KEY_ID_LEN) != 0)
        return -1;
    int newer;
    if (s[0].seq + 1 == s[1].seq)
        newer = 1;
    else if (s[1].seq + 1 == s[0].seq)
        newer = 0;
    else
        return -1;
    *cur = s[newer];
    *cur_pos = newer;
    return 0;
}
