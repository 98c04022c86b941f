/* params.c - the parameter table, built once from the per-family and
 * per-height descriptions below (so a set is a combination, never a copy). */
#include <string.h>
#include "fastsig_err.h"
#include "namefmt.h"
#include "once.h"
#include "xmss/params.h"

/* One row per hash family, in the order of the RFC 8391 / SP 800-208 oid
 * blocks: the XMSS oid of (family f, height index i) is 1 + 3f + i, the
 * XMSS^MT oid of (f, h/d index j) is 1 + 8f + j. */
static const struct {
    uint8_t family, n, pad_len;
    const char *tag;  /* name part before the height */
    uint16_t bits;    /* name part after it */
} families[XMSS_FAMILY_COUNT] = {
    { XMSS_SHA2_256,     32, 32, "SHA2",     256 },
    { XMSS_SHA2_512,     64, 64, "SHA2",     512 },
    { XMSS_SHAKE128_256, 32, 32, "SHAKE",    256 },
    { XMSS_SHAKE256_512, 64, 64, "SHAKE",    512 },
    { XMSS_SHA2_192,     24,  4, "SHA2",     192 },
    { XMSS_SHAKE256_256, 32, 32, "SHAKE256", 256 },
    { XMSS_SHAKE256_192, 24,  4, "SHAKE256", 192 },
};

static const uint8_t xmss_heights[3] = { 10, 16, 20 };
static const uint8_t mt_hd[8][2] = {
    { 20, 2 }, { 20, 4 }, { 40, 2 }, { 40, 4 }, { 40, 8 }, { 60, 3 }, { 60, 6 }, { 60, 12 },
};
/* WOTS+ standalone: w=16 (default, no suffix), 4 and 256. */
static const uint16_t wots_ws[3] = { 16, 4, 256 };

#define N_XMSS (XMSS_FAMILY_COUNT * 3)
#define N_MT (XMSS_FAMILY_COUNT * 8)
#define N_WOTS (XMSS_FAMILY_COUNT * 3)
#define N_ROWS (N_XMSS + N_MT + N_WOTS)

static xmss_params rows[N_ROWS];
static char names[N_ROWS][32];
static fs_once_flag once = FS_ONCE_INIT;

static void fill_wots(xmss_params *p, unsigned f, unsigned w)
{
    p->family = families[f].family;
    p->n = families[f].n;
    p->pad_len = families[f].pad_len;
    p->w = (uint16_t)w;
    p->log_w = w == 4 ? 2 : w == 16 ? 4 : 8;
    p->len1 = (uint16_t)(8u * p->n / p->log_w);
    /* len2 = floor(log2(len1 * (w - 1)) / log2(w)) + 1 */
    unsigned max_csum = p->len1 * (w - 1u), lg = 0;
    while ((2u << lg) <= max_csum)
        lg++;
    p->len2 = (uint16_t)(lg / p->log_w + 1);
    p->len = (uint16_t)(p->len1 + p->len2);
}

/* An XMSS (d = 1) or XMSS^MT row of family f. */
static void tree_row(size_t r, int kind, unsigned f, uint32_t oid, unsigned h, unsigned d)
{
    xmss_params *p = &rows[r];
    fill_wots(p, f, 16);
    p->kind = kind;
    p->oid = oid;
    p->h = (uint8_t)h;
    p->d = (uint8_t)d;
    p->tree_h = (uint8_t)(h / d);
    p->idx_bytes = (uint8_t)(kind == XMSS_KIND_XMSS ? 4 : (h + 7) / 8);
    /* "XMSS-SHA2_10_256", "XMSSMT-SHA2_20/2_256" */
    char *nm = names[r];
    size_t at = 0, cap = sizeof(names[r]);
    fs_name_str(nm, cap, &at, kind == XMSS_KIND_XMSS ? "XMSS-" : "XMSSMT-");
    fs_name_str(nm, cap, &at, families[f].tag);
    fs_name_str(nm, cap, &at, "_");
    fs_name_uint(nm, cap, &at, h);
    if (kind != XMSS_KIND_XMSS) {
        fs_name_str(nm, cap, &at, "/");
        fs_name_uint(nm, cap, &at, d);
    }
    fs_name_str(nm, cap, &at, "_");
    fs_name_uint(nm, cap, &at, families[f].bits);
    p->name = names[r];
}

static void build(void)
{
    size_t r = 0;
    for (unsigned f = 0; f < XMSS_FAMILY_COUNT; f++)
        for (unsigned i = 0; i < 3; i++, r++)
            tree_row(r, XMSS_KIND_XMSS, f, 1 + 3 * f + i, xmss_heights[i], 1);
    for (unsigned f = 0; f < XMSS_FAMILY_COUNT; f++)
        for (unsigned j = 0; j < 8; j++, r++)
            tree_row(r, XMSS_KIND_XMSSMT, f, 1 + 8 * f + j, mt_hd[j][0], mt_hd[j][1]);
    for (unsigned f = 0; f < XMSS_FAMILY_COUNT; f++)
        for (unsigned k = 0; k < 3; k++, r++) {
            xmss_params *p = &rows[r];
            fill_wots(p, f, wots_ws[k]);
            p->kind = XMSS_KIND_WOTSP;
            p->oid = 1 + 3 * f + k;
            /* "WOTSP-SHA2_256", "WOTSP-SHA2_256_W4" */
            size_t at = 0, cap = sizeof(names[r]);
            fs_name_str(names[r], cap, &at, "WOTSP-");
            fs_name_str(names[r], cap, &at, families[f].tag);
            fs_name_str(names[r], cap, &at, "_");
            fs_name_uint(names[r], cap, &at, families[f].bits);
            if (k != 0) {
                fs_name_str(names[r], cap, &at, "_W");
                fs_name_uint(names[r], cap, &at, wots_ws[k]);
            }
            p->name = names[r];
        }
}

size_t xmss_params_count(void)
{
    return N_ROWS;
}

const xmss_params *xmss_params_at(size_t i)
{
    fs_once(&once, build);
    return i < N_ROWS ? &rows[i] : NULL;
}

const xmss_params *xmss_params_by_name(const char *name)
{
    if (name == NULL)
        return NULL;
    fs_once(&once, build);
    for (size_t i = 0; i < N_ROWS; i++)
        if (fs_name_eq(rows[i].name, name))
            return &rows[i];
    return NULL;
}

const xmss_params *xmss_params_by_oid(int kind, uint32_t oid)
{
    fs_once(&once, build);
    for (size_t i = 0; i < N_ROWS; i++)
        if (rows[i].kind == kind && rows[i].oid == oid)
            return &rows[i];
    return NULL;
}

size_t xmss_pk_bytes(const xmss_params *p)
{
    return 4 + 2 * (size_t)p->n;
}

size_t xmss_sk_bytes(const xmss_params *p)
{
    return 4 + (p->kind == XMSS_KIND_WOTSP ? 0 : p->idx_bytes) + 4 * (size_t)p->n;
}

size_t xmss_wots_sig_bytes(const xmss_params *p)
{
    return (size_t)p->len * p->n;
}

size_t xmss_sig_bytes(const xmss_params *p)
{
    if (p->kind == XMSS_KIND_WOTSP)
        return (size_t)p->n + xmss_wots_sig_bytes(p);
    return p->idx_bytes + (size_t)p->n +
           (size_t)p->d * (xmss_wots_sig_bytes(p) + (size_t)p->tree_h * p->n);
}

uint64_t xmss_last_index(const xmss_params *p)
{
    if (p->kind == XMSS_KIND_WOTSP)
        return 0;
    return p->h >= 64 ? UINT64_MAX : (((uint64_t)1 << p->h) - 1);
}

int xmss_params_reduced(const xmss_params *p, unsigned tree_h, xmss_params *out)
{
    if (p == NULL || out == NULL || p->kind == XMSS_KIND_WOTSP || tree_h == 0 ||
        tree_h > p->tree_h)
        return FASTSIG_ERR_BAD_PARAM;
    *out = *p;
    out->tree_h = (uint8_t)tree_h;
    out->h = (uint8_t)(tree_h * p->d);
    return FASTSIG_OK;
}
