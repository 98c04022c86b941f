/* errors.c - raise OpenSSL errors with fastsig's reason strings. */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <openssl/crypto.h>
#include "prov.h"
#include "fastsig_err.h"
#include "state/statecause.h"

static OSSL_FUNC_core_new_error_fn *c_new_error;
static OSSL_FUNC_core_set_error_debug_fn *c_set_error_debug;
static OSSL_FUNC_core_vset_error_fn *c_vset_error;

void fsp_err_init(const OSSL_DISPATCH *in)
{
    for (; in->function_id != 0; in++) {
        switch (in->function_id) {
        case OSSL_FUNC_CORE_NEW_ERROR:
            c_new_error = OSSL_FUNC_core_new_error(in);
            break;
        case OSSL_FUNC_CORE_SET_ERROR_DEBUG:
            c_set_error_debug = OSSL_FUNC_core_set_error_debug(in);
            break;
        case OSSL_FUNC_CORE_VSET_ERROR:
            c_vset_error = OSSL_FUNC_core_vset_error(in);
            break;
        }
    }
}

/* A detail is written where the failing call's cause is known and read by
 * the raise of its error further up: "WHAT PATH: why" (or "WHAT PATH why"
 * for a sentence). Only the raise of the same reason shows it. */
static void detail_set(FSP_ERRDETAIL *d, int reason, const char *what, const char *path,
                       const char *sep, const char *why)
{
    if (d == NULL)
        return;
    d->reason = reason;
    if (why != NULL)
        snprintf(d->text, sizeof(d->text), "%s %s%s%s", what, path != NULL ? path : "?", sep,
                 why);
    else
        snprintf(d->text, sizeof(d->text), "%s %s", what, path != NULL ? path : "?");
}

void fsp_detail_file(FSP_ERRDETAIL *d, int reason, const char *what, const char *path,
                    int sys_errno, const char *why)
{
    if (why == NULL || why[0] == '\0')
        why = sys_errno != 0 ? strerror(sys_errno) : NULL;
    detail_set(d, reason, what, path, ": ", why);
}

void fsp_detail_untrusted(FSP_ERRDETAIL *d, const fastsig_cause *cause, const char *file_what,
                         const char *dir_what)
{
    fsp_detail_file(d, cause->code, cause->is_dir ? dir_what : file_what, cause->path, 0,
                   cause->why);
}

void fsp_detail_state(FSP_ERRDETAIL *d, int reason, const char *path, int sys_errno)
{
    fsp_detail_file(d, reason, "state file", path, sys_errno, NULL);
}

void fsp_detail_state_why(FSP_ERRDETAIL *d, int reason, const char *path, const char *why)
{
    fsp_detail_file(d, reason, "state file", path, 0, why);
}

void fsp_detail_state_says(FSP_ERRDETAIL *d, int reason, const char *path, const char *rest)
{
    detail_set(d, reason, "state file", path, " ", rest != NULL && rest[0] ? rest : NULL);
}

/* c_vset_error takes a va_list only: this passes the detail through one. */
static void set_error(const FSP_PROVCTX *ctx, int reason, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    c_vset_error(ctx->handle, (uint32_t)reason, fmt, ap);
    va_end(ap);
}

/* One new error: fmt's text, or d's text after it ("head: detail") when d
 * belongs to this reason. */
static void raise_with(const FSP_PROVCTX *ctx, int reason, const FSP_ERRDETAIL *d,
                       const char *file, int line, const char *func, const char *fmt,
                       va_list ap)
{
    char head[256] = "";
    if (ctx == NULL || c_new_error == NULL || c_vset_error == NULL)
        return;
    c_new_error(ctx->handle);
    if (c_set_error_debug != NULL)
        c_set_error_debug(ctx->handle, file, line, func);
    if (d == NULL || d->reason == 0 || d->reason != reason) {
        c_vset_error(ctx->handle, (uint32_t)reason, fmt, ap);
        return;
    }
    if (fmt != NULL) {
        vsnprintf(head, sizeof(head) - 2, fmt, ap);
        strcat(head, ": ");
    }
    set_error(ctx, reason, "%s%s", head, d->text);
}

void fsp_raise(const FSP_PROVCTX *ctx, int reason, const char *file, int line,
              const char *func, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    raise_with(ctx, reason, NULL, file, line, func, fmt, ap);
    va_end(ap);
}

void fsp_raise_detail(const FSP_PROVCTX *ctx, int reason, const FSP_ERRDETAIL *d,
                     const char *file, int line, const char *func, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    raise_with(ctx, reason, d, file, line, func, fmt, ap);
    va_end(ap);
}

static const OSSL_ITEM reason_strings[] = {
#define FSP_REASON_ROW(name, num, text) { num, (void *)text },
    FASTSIG_ERROR_LIST(FSP_REASON_ROW)
#undef FSP_REASON_ROW
    { 0, NULL }
};

const OSSL_ITEM *fsp_reason_strings(void)
{
    return reason_strings;
}

/* What a digest refused to a scheme that signs the message itself most often
 * means: OpenSSL's CMS, which 3.0 runs through a digest whatever the key, and
 * 3.5 too without signed attributes (doc/design.md section 9). */
const char *fsp_cms_hint(void)
{
    return OpenSSL_version_num() < 0x30500000L
               ? "; CMS: OpenSSL 3.5 or later with signed attributes, or without them "
                 "fastsig-keytool cms-sign / cms-verify"
               : "; CMS: keep the signed attributes, or without them use fastsig-keytool "
                 "cms-sign / cms-verify (OpenSSL's CMS signs a digest, RFC 9708 the content)";
}
