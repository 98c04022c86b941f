/* xmssmt_adapter.c - the XMSSMT row's adapter: crypto/hbs XMSSMT keys with
 * crypto/state behind the generic glue. Everything but the kind (which
 * picks the parameter-set oid space) is shared with the other hash-based
 * adapters in hbs_adapter.c. */
#include "hbs_adapter.h"

HBSA_DEFINE_XMSS_ADAPTER(fs_xmssmt_adapter, HBS_KIND_XMSSMT)
