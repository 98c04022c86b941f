/* objects.c - register fastsig's OIDs and signature ids with the core, so
 * that OBJ_* lookups, `openssl x509 -text` and `openssl verify` know them. */
#include "prov.h"
#include "oids.h"

struct fs_object {
    const char *oid, *sn, *ln;
};

/* Signature algorithms add a row here when they arrive (with a sigid row
 * below when the signature OID equals the key OID, as in RFC 9802). */
static const struct fs_object objects[] = {
    { FS_OID_TZ, "TZ", "Tillich-Zemor" },
};

struct fs_sigid {
    const char *sig, *digest, *pkey; /* digest NULL: signs the message whole */
};

static const struct fs_sigid sigids[] = {
    { NULL, NULL, NULL } /* none yet */
};

int fs_register_objects(const OSSL_CORE_HANDLE *handle, const OSSL_DISPATCH *in)
{
    OSSL_FUNC_core_obj_create_fn *obj_create = NULL;
    OSSL_FUNC_core_obj_add_sigid_fn *add_sigid = NULL;

    for (; in->function_id != 0; in++) {
        if (in->function_id == OSSL_FUNC_CORE_OBJ_CREATE)
            obj_create = OSSL_FUNC_core_obj_create(in);
        else if (in->function_id == OSSL_FUNC_CORE_OBJ_ADD_SIGID)
            add_sigid = OSSL_FUNC_core_obj_add_sigid(in);
    }
    if (obj_create == NULL || add_sigid == NULL)
        return 0;
    for (size_t i = 0; i < sizeof(objects) / sizeof(objects[0]); i++)
        if (!obj_create(handle, objects[i].oid, objects[i].sn, objects[i].ln))
            return 0;
    for (size_t i = 0; i < sizeof(sigids) / sizeof(sigids[0]); i++)
        if (sigids[i].sig != NULL
            && !add_sigid(handle, sigids[i].sig, sigids[i].digest, sigids[i].pkey))
            return 0;
    return 1;
}
