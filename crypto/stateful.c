/* stateful.c - what the cores of the stateful contract share (stateful.h). */
#include <string.h>
#include "stateful.h"
#include "fastsig_err.h"

int fs_stateful_put_sk(const uint8_t *src, size_t srclen, uint8_t *out, size_t *len)
{
    if (src == NULL)
        return FASTSIG_ERR_BAD_KEY;
    if (out != NULL && *len < srclen)
        return FASTSIG_ERR_BAD_LENGTH;
    if (out != NULL)
        memcpy(out, src, srclen);
    *len = srclen;
    return FASTSIG_OK;
}

void fs_stateful_msg_update(fs_stateful_msg *m, const uint8_t *data, size_t len)
{
    fs_hash_stream_update(&m->h, data, len);
}
