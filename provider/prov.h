/* prov.h - what every file of the provider glue shares: the provider
 * context, error raising, and the algorithm tables. */
#ifndef FASTSIG_PROV_H
#define FASTSIG_PROV_H

#include <openssl/core.h>
#include <openssl/core_dispatch.h>
#include <openssl/crypto.h>

typedef struct fsp_provctx {
    const OSSL_CORE_HANDLE *handle;
    OSSL_LIB_CTX *libctx; /* child of the core's library context */
} FSP_PROVCTX;

/* Errors: `reason` is a fastsig_err code (include/fastsig/fastsig_err.h);
 * its text is registered with the core as the reason string. fmt may be
 * NULL. */
void fsp_err_init(const OSSL_DISPATCH *in);
void fsp_raise(const FSP_PROVCTX *ctx, int reason, const char *file, int line,
              const char *func, const char *fmt, ...);
#define FSP_ERR(ctx, reason) \
    fsp_raise((ctx), (reason), OPENSSL_FILE, OPENSSL_LINE, OPENSSL_FUNC, NULL)
#define FSP_ERR_MSG(ctx, reason, ...) \
    fsp_raise((ctx), (reason), OPENSSL_FILE, OPENSSL_LINE, OPENSSL_FUNC, __VA_ARGS__)
const OSSL_ITEM *fsp_reason_strings(void);
/* The hint a digest refused to a row that signs the message whole ends with:
 * what works for CMS on the running OpenSSL. */
const char *fsp_cms_hint(void);
/* The detail of one error ("state file PATH: why"), carried explicitly
 * from the call that knows the path and cause (the state layer's
 * fastsig_cause) to the raise that knows the provider context. reason: the
 * error it belongs to (0: none); a raise of another reason ignores it. */
#define FSP_DETAIL_MAX 8704
struct fsp_errdetail {
    int reason;
    char text[FSP_DETAIL_MAX];
};
typedef struct fsp_errdetail FSP_ERRDETAIL;
/* Raises reason as fsp_raise does, with d's text ("head: text" when fmt
 * gives a head) when d is about reason. d may be NULL. */
void fsp_raise_detail(const FSP_PROVCTX *ctx, int reason, const FSP_ERRDETAIL *d,
                     const char *file, int line, const char *func, const char *fmt, ...);
#define FSP_ERR_DETAIL(ctx, reason, d) \
    fsp_raise_detail((ctx), (reason), (d), OPENSSL_FILE, OPENSSL_LINE, OPENSSL_FUNC, NULL)
#define FSP_ERR_DETAIL_MSG(ctx, reason, d, ...) \
    fsp_raise_detail((ctx), (reason), (d), OPENSSL_FILE, OPENSSL_LINE, OPENSSL_FUNC, __VA_ARGS__)
/* Fill d (NULL: nothing) for an error about a file: "WHAT PATH: why"; why
 * NULL or "": the errno's text (sys_errno 0: none, "WHAT PATH"). */
void fsp_detail_file(FSP_ERRDETAIL *d, int reason, const char *what, const char *path,
                    int sys_errno, const char *why);
/* The same for the state file ("state file PATH: ..."). */
void fsp_detail_state(FSP_ERRDETAIL *d, int reason, const char *path, int sys_errno);
void fsp_detail_state_why(FSP_ERRDETAIL *d, int reason, const char *path, const char *why);
/* The same as a sentence: "state file PATH rest". */
void fsp_detail_state_says(FSP_ERRDETAIL *d, int reason, const char *path, const char *rest);
/* A file or directory crypto/state refused as open to other users
 * (FASTSIG_ERR_STATE_UNTRUSTED, the call's cause): "WHAT PATH: why" with
 * file_what or dir_what for the path it names. */
struct fastsig_cause;
void fsp_detail_untrusted(FSP_ERRDETAIL *d, const struct fastsig_cause *cause,
                         const char *file_what, const char *dir_what);

/* Provider configuration read once at init (fastsig.c): the `state_dir`
 * key of the provider's section in openssl.cnf / provider.cnf, or NULL. */
const char *fsp_config_state_dir(void);

/* Object registration with the core (OIDs, signature ids). */
int fsp_register_objects(const OSSL_CORE_HANDLE *handle, const OSSL_DISPATCH *in);

/* Algorithm tables (algs.c), one per operation; NULL when empty. */
const OSSL_ALGORITHM *fsp_query_algorithms(int operation_id);

/* Dispatch tables of the individual algorithms. */
extern const OSSL_DISPATCH fsp_tz_digest_functions[];

#endif
