/* fastsig_err.h - the one list of error codes the crypto cores return.
 *
 * Contract: every core function that can fail returns an int that is
 * FASTSIG_OK (0) or one of the codes below. provider/ maps each code to an
 * OpenSSL reason string of the same number, so the list is an X-macro:
 * add a row here and both the enum and the strings grow together. Codes are
 * never renumbered once released (they are OpenSSL reason codes). */
#ifndef FASTSIG_ERR_H
#define FASTSIG_ERR_H

#define FASTSIG_ERROR_LIST(X)                                                  \
    X(FASTSIG_ERR_NULL_ARG,       1, "null argument")                          \
    X(FASTSIG_ERR_BAD_LENGTH,     2, "wrong length")                           \
    X(FASTSIG_ERR_NOMEM,          3, "out of memory")                          \
    X(FASTSIG_ERR_TZ_BIT127,      4, "TZ element has bit 127 set")             \
    X(FASTSIG_ERR_TZ_SINGULAR,    5, "TZ matrix is singular or not in SL2")    \
    X(FASTSIG_ERR_BAD_HEX,        6, "malformed hexadecimal")                  \
    X(FASTSIG_ERR_BAD_PARAM,      7, "invalid parameter")                      \
    X(FASTSIG_ERR_UNSUPPORTED,    8, "unsupported parameter set or operation") \
    X(FASTSIG_ERR_BAD_LANES,      9, "lane count out of range")                \
    X(FASTSIG_ERR_BAD_KEY,       10, "malformed or invalid key")               \
    X(FASTSIG_ERR_BAD_SIGNATURE, 11, "malformed signature")                    \
    X(FASTSIG_ERR_VERIFY,        12, "signature does not verify")              \
    X(FASTSIG_ERR_RNG,           13, "random number generator failed")         \
    X(FASTSIG_ERR_KEY_EXHAUSTED, 14, "key exhausted: no signatures left")      \
    X(FASTSIG_ERR_OTS_USED,      15, "one-time key already used")              \
    X(FASTSIG_ERR_STATE_MISSING, 16, "signature state file is missing")        \
    X(FASTSIG_ERR_STATE_CORRUPT, 17, "signature state file is corrupt")        \
    X(FASTSIG_ERR_STATE_WRONG_KEY, 18, "signature state belongs to another key") \
    X(FASTSIG_ERR_STATE_IO,      19, "signature state could not be written durably") \
    X(FASTSIG_ERR_FAULT,         20, "fault detected: signature withheld")     \
    X(FASTSIG_ERR_INTERNAL,      21, "internal error")                         \
    X(FASTSIG_ERR_STATE_EXISTS,  22, "signature state file already exists")   \
    X(FASTSIG_ERR_STATE_NO_DIR,  23, "signature state directory does not exist") \
    X(FASTSIG_ERR_STATE_NOT_FILE, 24, "signature state path is not a regular file") \
    X(FASTSIG_ERR_STATE_MAX,     25, "signature state index count does not match the key") \
    X(FASTSIG_ERR_STATE_RANGE,   26, "index range is not among the key's unspent indices") \
    X(FASTSIG_ERR_KEY_MISMATCH,  27, "private key does not match its public key (SK_SEED, PUB_SEED or root damaged)") \
    X(FASTSIG_ERR_STATE_REGISTERED, 28, "key already registered with a signature state") \
    X(FASTSIG_ERR_STATE_LOCKED,  29, "signature state locked by another process") \
    X(FASTSIG_ERR_STATE_UNTRUSTED, 30, "signature state file or directory is open to other users") \
    X(FASTSIG_ERR_STATE_ROLLED_BACK, 31, "signature state file was rolled back")

enum fastsig_err {
    FASTSIG_OK = 0,
#define FASTSIG_ENUM_ROW(name, num, text) name = num,
    FASTSIG_ERROR_LIST(FASTSIG_ENUM_ROW)
#undef FASTSIG_ENUM_ROW
};

/* Human-readable text of a code ("ok" for FASTSIG_OK, "unknown error" else). */
const char *fastsig_strerror(int err);

#endif
