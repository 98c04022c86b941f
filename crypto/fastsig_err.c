/* fastsig_err.c - text of the error codes, from the one X-macro list. */
#include "fastsig_err.h"

const char *fastsig_strerror(int err)
{
    switch (err) {
    case FASTSIG_OK:
        return "ok";
#define FASTSIG_TEXT_ROW(name, num, text) case name: return text;
    FASTSIG_ERROR_LIST(FASTSIG_TEXT_ROW)
#undef FASTSIG_TEXT_ROW
    }
    return "unknown error";
}
