/* errors.c - raise OpenSSL errors with fastsig's reason strings. */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include "prov.h"
#include "fastsig_err.h"
#include "state/statecause.h"

static OSSL_FUNC_core_new_error_fn *c_new_error;
static OSSL_FUNC_core_set_error_debug_fn *c_set_error_debug;
static OSSL_FUNC_core_vset_error_fn *c_vset_error;

void fs_err_init(const OSSL_DISPATCH *in)
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

/* The core's state functions return codes, not strings: the adapter notes
 * the file and errno here right where a state call failed, and the raise
 * further up (which sees only the code) adds them. */
static _Thread_local struct {
    int reason; /* 0: nothing noted */
    int sys_errno;
    const char *what; /* "state file", "registry entry" */
    char path[4096];
    char why[4352]; /* "" or the cause in words (may name another path) */
    const char *sep; /* between path and why: ": ", or " " for a sentence */
} state_detail;

void fs_err_file_detail(int reason, const char *what, const char *path, int sys_errno,
                        const char *why)
{
    state_detail.reason = reason;
    state_detail.sys_errno = sys_errno;
    state_detail.what = what;
    snprintf(state_detail.path, sizeof(state_detail.path), "%s", path != NULL ? path : "?");
    snprintf(state_detail.why, sizeof(state_detail.why), "%s", why != NULL ? why : "");
    state_detail.sep = ": ";
}

void fs_err_untrusted(const fastsig_cause *cause, const char *file_what, const char *dir_what)
{
    fs_err_file_detail(cause->code, cause->is_dir ? dir_what : file_what, cause->path, 0,
                       cause->why);
}

void fs_err_state_detail(int reason, const char *path, int sys_errno)
{
    fs_err_file_detail(reason, "state file", path, sys_errno, NULL);
}

void fs_err_state_why(int reason, const char *path, const char *why)
{
    fs_err_file_detail(reason, "state file", path, 0, why);
}

void fs_err_state_says(int reason, const char *path, const char *rest)
{
    fs_err_file_detail(reason, "state file", path, 0, rest);
    state_detail.sep = " ";
}

/* c_vset_error takes a va_list only: this passes the detail through one. */
static void set_error(const FS_PROVCTX *ctx, int reason, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    c_vset_error(ctx->handle, (uint32_t)reason, fmt, ap);
    va_end(ap);
}

/* The noted file (and cause), after head ("decoding a ... key: ") if any. */
static void set_detail(const FS_PROVCTX *ctx, int reason, const char *head)
{
    const char *why = state_detail.why[0] != '\0' ? state_detail.why
                      : state_detail.sys_errno != 0 ? strerror(state_detail.sys_errno) : NULL;
    if (why != NULL)
        set_error(ctx, reason, "%s%s %s%s%s", head, state_detail.what, state_detail.path,
                  state_detail.sep, why);
    else
        set_error(ctx, reason, "%s%s %s", head, state_detail.what, state_detail.path);
}

void fs_raise(const FS_PROVCTX *ctx, int reason, const char *file, int line,
              const char *func, const char *fmt, ...)
{
    va_list ap;
    char head[256] = "";
    int detail = state_detail.reason != 0 && state_detail.reason == reason;
    state_detail.reason = 0; /* one raise consumes it, and no later one reuses it */
    if (ctx == NULL || c_new_error == NULL || c_vset_error == NULL)
        return;
    c_new_error(ctx->handle);
    if (c_set_error_debug != NULL)
        c_set_error_debug(ctx->handle, file, line, func);
    if (detail) {
        if (fmt != NULL) {
            va_start(ap, fmt);
            vsnprintf(head, sizeof(head) - 2, fmt, ap);
            va_end(ap);
            strcat(head, ": ");
        }
        set_detail(ctx, reason, head);
        return;
    }
    va_start(ap, fmt);
    c_vset_error(ctx->handle, (uint32_t)reason, fmt, ap);
    va_end(ap);
}

static const OSSL_ITEM reason_strings[] = {
#define FS_REASON_ROW(name, num, text) { num, (void *)text },
    FASTSIG_ERROR_LIST(FS_REASON_ROW)
#undef FS_REASON_ROW
    { 0, NULL }
};

const OSSL_ITEM *fs_reason_strings(void)
{
    return reason_strings;
}
