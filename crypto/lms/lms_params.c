/* lms_params.c - see lms_params.h. */
#include <string.h>
#include "fastsig_err.h"
#include "namefmt.h"
#include "lms/lms_params.h"

static const struct {
    const char *tag;      /* name part: "SHA256", "SHAKE" */
    fs_hash_family hash;
    unsigned n;
    uint32_t ots_base, lms_base;
} families[] = {
    { "SHA256", FS_HASH_SHA256, 32, 0x01, 0x05 },
    { "SHA256", FS_HASH_SHA256, 24, 0x05, 0x0a },
    { "SHAKE", FS_HASH_SHAKE256, 32, 0x09, 0x0f },
    { "SHAKE", FS_HASH_SHAKE256, 24, 0x0d, 0x14 },
};
#define NFAM (sizeof(families) / sizeof(families[0]))
#define NW 4 /* w = 1, 2, 4, 8 */
#define NH 5 /* h = 5 .. 25 */

static void fill_ots(lmots_params *o, unsigned f, unsigned k)
{
    unsigned n = families[f].n, w = 1u << k;
    unsigned u = (8 * n + w - 1) / w, lg = 0;
    for (unsigned x = ((1u << w) - 1) * u; x > 1; x >>= 1)
        lg++;
    unsigned v = (lg + 1 + w - 1) / w;
    memset(o, 0, sizeof(*o));
    o->type = families[f].ots_base + k;
    o->hash = families[f].hash;
    o->family = f;
    o->n = n;
    o->w = w;
    o->p = u + v;
    o->ls = 16 - v * w;
    size_t at = 0; /* "LMOTS_SHA256_N32_W4" */
    fs_name_str(o->name, sizeof(o->name), &at, "LMOTS_");
    fs_name_str(o->name, sizeof(o->name), &at, families[f].tag);
    fs_name_str(o->name, sizeof(o->name), &at, "_N");
    fs_name_uint(o->name, sizeof(o->name), &at, n);
    fs_name_str(o->name, sizeof(o->name), &at, "_W");
    fs_name_uint(o->name, sizeof(o->name), &at, w);
}

static void fill_lms(lms_params *l, unsigned f, unsigned k)
{
    memset(l, 0, sizeof(*l));
    l->type = families[f].lms_base + k;
    l->hash = families[f].hash;
    l->family = f;
    l->m = families[f].n;
    l->h = 5 * (k + 1);
    size_t at = 0; /* "LMS_SHA256_M32_H10" */
    fs_name_str(l->name, sizeof(l->name), &at, "LMS_");
    fs_name_str(l->name, sizeof(l->name), &at, families[f].tag);
    fs_name_str(l->name, sizeof(l->name), &at, "_M");
    fs_name_uint(l->name, sizeof(l->name), &at, l->m);
    fs_name_str(l->name, sizeof(l->name), &at, "_H");
    fs_name_uint(l->name, sizeof(l->name), &at, l->h);
}

size_t lmots_params_count(void)
{
    return NFAM * NW;
}

size_t lms_params_count(void)
{
    return NFAM * NH;
}

int lmots_params_at(lmots_params *out, size_t i)
{
    if (out == NULL)
        return FASTSIG_ERR_NULL_ARG;
    if (i >= NFAM * NW)
        return FASTSIG_ERR_UNSUPPORTED;
    fill_ots(out, (unsigned)(i / NW), (unsigned)(i % NW));
    return FASTSIG_OK;
}

int lms_params_at(lms_params *out, size_t i)
{
    if (out == NULL)
        return FASTSIG_ERR_NULL_ARG;
    if (i >= NFAM * NH)
        return FASTSIG_ERR_UNSUPPORTED;
    fill_lms(out, (unsigned)(i / NH), (unsigned)(i % NH));
    return FASTSIG_OK;
}

/* The set of one table (ots: LM-OTS, else LMS) with that name. */
static int find(int ots, const char *name, lmots_params *o, lms_params *l)
{
    size_t count = ots ? NFAM * NW : NFAM * NH;
    for (size_t i = 0; i < count; i++) {
        if (ots)
            fill_ots(o, (unsigned)(i / NW), (unsigned)(i % NW));
        else
            fill_lms(l, (unsigned)(i / NH), (unsigned)(i % NH));
        if (fs_name_eq(ots ? o->name : l->name, name))
            return FASTSIG_OK;
    }
    return FASTSIG_ERR_UNSUPPORTED;
}

/* A typecode's row from the family bases, filling only that row: every
 * verification looks its sets up, and filling a row formats its name. */
static int find_type(int ots, uint32_t type, lmots_params *o, lms_params *l)
{
    for (unsigned f = 0; f < NFAM; f++) {
        uint32_t base = ots ? families[f].ots_base : families[f].lms_base;
        unsigned rows = ots ? NW : NH;
        if (type >= base && type - base < rows) {
            if (ots)
                fill_ots(o, f, type - base);
            else
                fill_lms(l, f, type - base);
            return FASTSIG_OK;
        }
    }
    return FASTSIG_ERR_UNSUPPORTED;
}

int lmots_params_get(lmots_params *out, uint32_t type)
{
    return out == NULL ? FASTSIG_ERR_NULL_ARG : find_type(1, type, out, NULL);
}

int lms_params_get(lms_params *out, uint32_t type)
{
    return out == NULL ? FASTSIG_ERR_NULL_ARG : find_type(0, type, NULL, out);
}

int lmots_params_by_name(lmots_params *out, const char *name)
{
    return out == NULL || name == NULL ? FASTSIG_ERR_NULL_ARG : find(1, name, out, NULL);
}

int lms_params_by_name(lms_params *out, const char *name)
{
    return out == NULL || name == NULL ? FASTSIG_ERR_NULL_ARG : find(0, name, NULL, out);
}

int lms_pair_ok(const lms_params *lp, const lmots_params *op)
{
    return lp != NULL && op != NULL && lp->family == op->family;
}

fs_hash_params lms_hash_params(fs_hash_family hash, unsigned n)
{
    fs_hash_params hp = { hash, n, 32 };
    return hp;
}
