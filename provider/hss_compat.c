/* hss_compat.c - what other implementations write for HSS, read as the RFC
 * 9708 form it stands for (import and verification only):
 *
 * - RFC 8708 (obsoleted by RFC 9708) put the HSS public key in a DER OCTET
 *   STRING inside the SubjectPublicKeyInfo's BIT STRING; Bouncy Castle 1.72
 *   still writes that. A raw HSS key starts with u32str(L), a 0x00 byte, so
 *   a leading 0x04 whose DER length covers exactly the rest is that wrapper.
 * - Bouncy Castle 1.72 signs with an L = 1 key (its LMS keys) as LMS does:
 *   the bare LMS signature, without HSS's leading u32str(Nspk) = 0. Its
 *   length, read from its own typecodes, is the whole signature; verifying
 *   it with four zero bytes in front is verifying the same signature. */
#include <string.h>
#include <openssl/crypto.h>
#include "hss_compat.h"
#include "stateful_key.h"
#include "lms/lms_tree.h"
#include "fastsig_err.h"

void hss_compat_unwrap_pub(const unsigned char **in, size_t *len)
{
    const unsigned char *p = *in;
    size_t n = *len, hdr, body;

    if (n < 2 || p[0] != 0x04)
        return;
    if (p[1] < 0x80) {
        hdr = 2;
        body = p[1];
    } else if (p[1] == 0x81 && n >= 3 && p[2] >= 0x80) { /* DER: the shortest length */
        hdr = 3;
        body = p[2];
    } else {
        return;
    }
    if (hdr + body != n)
        return;
    *in = p + hdr;
    *len = body;
}

/* 1 when the key has one level: its public key starts with u32str(1). */
static int one_level(const void *key)
{
    unsigned char pk[64];
    size_t len = sizeof(pk);
    static const unsigned char l1[4] = { 0, 0, 0, 1 };

    return stateful_pub_encode(key, pk, &len) == FASTSIG_OK && len >= 4
           && memcmp(pk, l1, 4) == 0;
}

int hss_compat_verify(const void *key, const FSP_SIGOPTS *o, int prehashed,
                      const unsigned char *sig, size_t siglen, const unsigned char *msg,
                      size_t msglen)
{
    int err = stateful_verify(key, o, prehashed, sig, siglen, msg, msglen);
    unsigned char *hss;
    size_t bare;

    if ((err != FASTSIG_ERR_VERIFY && err != FASTSIG_ERR_BAD_SIGNATURE) || !one_level(key)
        || lms_sig_len(sig, siglen, &bare) != FASTSIG_OK || bare != siglen
        || siglen > SIZE_MAX - 4 || (hss = OPENSSL_malloc(siglen + 4)) == NULL)
        return err;
    memset(hss, 0, 4);
    memcpy(hss + 4, sig, siglen);
    if (stateful_verify(key, o, prehashed, hss, siglen + 4, msg, msglen) == FASTSIG_OK)
        err = FASTSIG_OK;
    OPENSSL_free(hss);
    return err;
}
