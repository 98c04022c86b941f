/* text.c - `openssl pkey -text` / `-text_pub` for every row: a generic
 * header (size, parameter set, signature state) then the adapter's lines
 * (default: the raw public key in hex). */
#include <inttypes.h>
#include <openssl/bio.h>
#include <openssl/core_dispatch.h>
#include "prov.h"
#include "sigalgs.h"
#include "fastsig_err.h"

int fsp_text_hex(BIO *out, const char *label, const unsigned char *b, size_t len)
{
    if (BIO_printf(out, "%s:", label) <= 0)
        return 0;
    for (size_t i = 0; i < len; i++) {
        if (i % 15 == 0 && BIO_printf(out, "\n    ") <= 0)
            return 0;
        if (BIO_printf(out, "%02x%s", b[i], i + 1 < len ? ":" : "") <= 0)
            return 0;
    }
    return BIO_printf(out, "\n") > 0;
}

int fsp_key_to_text(BIO *out, const FSP_KEY *k, int selection)
{
    const FSP_ADAPTER *ad = k->alg->ad;
    void *core = fsp_key_core(k);
    int priv = (selection & OSSL_KEYMGMT_SELECT_PRIVATE_KEY) != 0;
    FSP_KEYSIZES sz;
    FSP_STATEINFO st;
    unsigned char *pub = NULL;
    size_t len = 0;
    int err, ok;

    if (core == NULL || (priv && !ad->has_private(core)))
        return 0;
    ad->sizes(core, &sz);
    if (BIO_printf(out, "%s %s-Key: (%d bit, security %d bits)\n", k->alg->name,
                   priv ? "Private" : "Public", sz.bits, sz.security_bits) <= 0)
        return 0;
    if (ad->param_name != NULL
        && BIO_printf(out, "parameter set: %s\n", ad->param_name(core)) <= 0)
        return 0;
    if (priv && (k->alg->flags & FSP_SIGALG_STATEFUL) && ad->state != NULL) {
        st.why[0] = '\0';
        st.detail = NULL; /* the text says the code and why only */
        if ((err = ad->state(core, &st)) == FASTSIG_OK)
            ok = BIO_printf(out, "state: index %" PRIu64 ", remaining %" PRIu64
                            " of %" PRIu64 " signatures\n", st.index, st.remaining, st.max);
        else if (st.why[0] != '\0')
            ok = BIO_printf(out, "state: UNUSABLE (%s: %s): this key cannot sign\n",
                            fastsig_strerror(err), st.why);
        else
            ok = BIO_printf(out, "state: UNUSABLE (%s): this key cannot sign\n",
                            fastsig_strerror(err));
        if (ok <= 0)
            return 0;
    }
    if (ad->text != NULL)
        return ad->text(core, selection, out) == FASTSIG_OK;
    if (fsp_key_pub(k, &pub, &len) != FASTSIG_OK)
        return 0;
    ok = fsp_text_hex(out, "pub", pub, len);
    OPENSSL_free(pub);
    return ok;
}
