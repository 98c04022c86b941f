/* xmss_adapter.c - the XMSS row's adapter: crypto/hbs XMSS keys with
 * crypto/state behind the generic glue. Everything but the kind (which
 * picks the parameter-set oid space) is shared with the other hash-based
 * adapters in hbs_adapter.c. */
#include "hbs_adapter.h"

HBSA_DEFINE_XMSS_ADAPTER(fs_xmss_adapter, HBS_KIND_XMSS)
