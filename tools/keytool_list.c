/* keytool_list.c - `fastsig-keytool list`: every parameter set of the
 * stateful hash-based algorithms, read from the cores' own tables
 * (crypto/xmss/params.h, crypto/lms/lms_params.h), with its signature size,
 * signatures per key, a cost class of key generation, signing and
 * verification, and whether NIST SP 800-208 approves it. The costs are
 * estimates in hash calls from each set's shape (below), not measurements:
 * they order the sets, doc/performance.md has timings.
 *
 * Exit status: 0; 2 usage. */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include "xmss/params.h"
#include "lms/lms_params.h"
#include "keytool_cmds.h"

typedef struct {
    char name[64];
    const char *alg;       /* the genpkey -algorithm */
    size_t sig;            /* signature bytes */
    unsigned h;            /* signatures per key: 2^h (WOTSP: 1, h = 0) */
    double keygen, sign, verify; /* estimated hash calls */
    int approved;          /* SP 800-208 */
} ROW;

static void usage(FILE *f)
{
    fprintf(f,
            "usage: fastsig-keytool list [--json] [-provider-path DIR (ignored)]\n"
            "  Every XMSS, XMSS^MT, WOTS+ and LMS parameter set (the -pkeyopt param: names;\n"
            "  an HSS key joins 1-8 LMS rows with ',', top level first) with:\n"
            "  sig B       signature bytes (HSS: the levels' sum plus 4 bytes per level)\n"
            "  sigs        signatures per key (HSS: the product of its levels')\n"
            "  keygen      one core's key generation time, as an order of magnitude\n"
            "              from the hash calls it takes: ms (< 2^24 calls), s (< 2^30),\n"
            "              min (< 2^36), h (more)\n"
            "  sign/verify low (< 1000 hash calls), mid (< 4000), high (more):\n"
            "              signing with the node cache warm, one index\n"
            "  SP 800-208  yes: approved by NIST SP 800-208 (XMSS and XMSS^MT with\n"
            "              SHA-256, SHA-256/192, SHAKE256/256 and SHAKE256/192; every\n"
            "              LMS / LM-OTS set); no: RFC 8391 only (SHA-512, SHAKE128,\n"
            "              SHAKE256/512) or fastsig's own (WOTS+ alone)\n"
            "  --json      one JSON array; each object has set, algorithm,\n"
            "              signature_bytes, height (signatures = 2^height), signatures,\n"
            "              keygen_hashes, sign_hashes, verify_hashes (the estimates),\n"
            "              keygen, sign, verify (the classes) and sp800_208 (true/false)\n");
}

static int approved_xmss(const xmss_params *p)
{
    return p->kind != XMSS_KIND_WOTSP
           && (p->family == XMSS_SHA2_256 || p->family == XMSS_SHA2_192
               || p->family == XMSS_SHAKE256_256 || p->family == XMSS_SHAKE256_192);
}

/* XMSS, XMSS^MT, WOTS+: a leaf is a WOTS+ key (len chains of w - 1 steps,
 * their len secret keys) and its L-tree; key generation builds every leaf of
 * the top tree and of one tree per lower layer; a signature is a WOTS+
 * signature (half the chain steps on average) and, when the key has more
 * than one bottom subtree, one leaf of the next one built ahead; a
 * verification one WOTS+ key and one path per layer. */
static void xmss_row(const xmss_params *p, ROW *r)
{
    double leaf = (double)p->len * (p->w + 1), half = (double)p->len * (p->w - 1) / 2;
    unsigned b = p->tree_h < 10 ? p->tree_h : 10;

    snprintf(r->name, sizeof(r->name), "%s", p->name);
    r->alg = p->kind == XMSS_KIND_XMSS ? "XMSS" : p->kind == XMSS_KIND_XMSSMT ? "XMSSMT" : "WOTSP";
    r->sig = xmss_sig_bytes(p);
    r->h = p->h;
    r->approved = approved_xmss(p);
    if (p->kind == XMSS_KIND_WOTSP) {
        r->keygen = leaf;
        r->sign = r->verify = half;
        return;
    }
    r->keygen = (double)p->d * (double)((uint64_t)1 << p->tree_h) * leaf;
    r->sign = half + (p->h > b ? leaf : 0);
    r->verify = p->d * (half + p->len + p->tree_h);
}

/* LMS: a leaf is an LM-OTS key (p chains of 2^w - 1 steps); key generation
 * builds every leaf; a signature and a verification walk half the steps. */
static void lms_row(const lms_params *lp, const lmots_params *op, ROW *r)
{
    double steps = (double)op->p * ((1u << op->w) - 1);

    snprintf(r->name, sizeof(r->name), "%s/%s", lp->name, op->name);
    r->alg = "HSS";
    r->sig = lms_sig_bytes(lp, op) + 4; /* an HSS signature of one level: Nspk first */
    r->h = lp->h;
    r->approved = 1;
    r->keygen = (double)((uint64_t)1 << lp->h) * (steps + op->p + 1);
    r->sign = steps / 2;
    r->verify = steps / 2 + lp->h;
}

static const char *keygen_class(double hashes)
{
    return hashes < 0x1p24 ? "ms" : hashes < 0x1p30 ? "s" : hashes < 0x1p36 ? "min" : "h";
}

static const char *op_class(double hashes)
{
    return hashes < 1000 ? "low" : hashes < 4000 ? "mid" : "high";
}

static void print_row(const ROW *r, int json, int first)
{
    char sigs[24];
    if (r->h == 0)
        snprintf(sigs, sizeof(sigs), "1");
    else
        snprintf(sigs, sizeof(sigs), "2^%u", r->h);
    if (!json) {
        printf("%-40s %-6s %6zu %6s %-6s %-4s %-6s %s\n", r->name, r->alg, r->sig, sigs,
               keygen_class(r->keygen), op_class(r->sign), op_class(r->verify),
               r->approved ? "yes" : "no");
        return;
    }
    printf("%s\n  {\"set\": \"%s\", \"algorithm\": \"%s\", \"signature_bytes\": %zu,"
           " \"height\": %u, \"signatures\": %" PRIu64 ", \"keygen_hashes\": %.0f,"
           " \"sign_hashes\": %.0f, \"verify_hashes\": %.0f, \"keygen\": \"%s\","
           " \"sign\": \"%s\", \"verify\": \"%s\", \"sp800_208\": %s}",
           first ? "[" : ",", r->name, r->alg, r->sig, r->h,
           r->h == 0 ? (uint64_t)1 : (uint64_t)1 << r->h, r->keygen, r->sign, r->verify,
           keygen_class(r->keygen), op_class(r->sign), op_class(r->verify),
           r->approved ? "true" : "false");
}

static void list(int json)
{
    const xmss_params *p;
    lms_params lp;
    lmots_params op;
    ROW r;
    int first = 1;

    if (!json)
        printf("%-40s %-6s %6s %6s %-6s %-4s %-6s %s\n", "set", "alg", "sig B", "sigs",
               "keygen", "sign", "verify", "SP 800-208");
    for (size_t i = 0; (p = xmss_params_at(i)) != NULL; i++, first = 0) {
        xmss_row(p, &r);
        print_row(&r, json, first);
    }
    for (size_t i = 0; lms_params_at(&lp, i) == 0; i++)
        for (size_t j = 0; lmots_params_at(&op, j) == 0; j++)
            if (lms_pair_ok(&lp, &op)) {
                lms_row(&lp, &op, &r);
                print_row(&r, json, 0);
            }
    if (json)
        printf("\n]\n");
}

int kt_cmd_list(int argc, char **argv)
{
    int json = 0;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i][0] == '-' && argv[i][1] == '-' ? argv[i] + 1 : argv[i];
        if (strcmp(a, "-h") == 0 || strcmp(a, "-help") == 0) {
            usage(stdout);
            return 0;
        }
        if (strcmp(a, "-provider-path") == 0 && i + 1 < argc) { /* as the others; unused */
            i++;
            continue;
        }
        if (strcmp(a, "-json") != 0) {
            fprintf(stderr, "fastsig-keytool: bad option: %s\n", argv[i]);
            usage(stderr);
            return 2;
        }
        json = 1;
    }
    list(json);
    return 0;
}
