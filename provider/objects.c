/* objects.c - register fastsig's OIDs and signature ids with the core, so
 * that OBJ_* lookups, `openssl x509 -text` and `openssl verify` know them.
 * Signature algorithms come from the descriptor table: short name = the
 * algorithm name, signature OID = key OID, with the row's digest (RW-P1363:
 * SHA-256) or none (the message is signed whole). */
#include "prov.h"
#include "oids.h"
#include "sigalgs.h"

struct fsp_object {
    const char *oid, *sn, *ln;
};

/* Objects that are not signature algorithms. */
static const struct fsp_object objects[] = {
    { FSP_OID_TZ, "TZ", "Tillich-Zemor" },
};

int fsp_register_objects(const OSSL_CORE_HANDLE *handle, const OSSL_DISPATCH *in)
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
    for (size_t i = 0; i < fsp_nsigalgs; i++) {
        const FSP_SIGALG *a = &fsp_sigalgs[i];
        if (!obj_create(handle, a->oid, a->name, a->ln)
            || !add_sigid(handle, a->oid, a->md, a->oid))
            return 0;
    }
    return 1;
}
