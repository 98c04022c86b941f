/* verify_cases.c - see verify_cases.h. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "fastsig/verify.h"
#include "verify_cases.h"
#include "vecfile.h"
#include "xmss_vec.h"

static const char *const files[] = {
    "XMSS-SHA2_10_256.txt", "XMSS-SHA2_10_192.txt", "XMSS-SHA2_10_512.txt",
    "XMSS-SHAKE_10_256.txt", "XMSS-SHAKE_10_512.txt", "XMSS-SHAKE256_10_256.txt",
    "XMSS-SHAKE256_10_192.txt", "XMSSMT-SHA2_20-2_256.txt", "XMSSMT-SHA2_20-4_256.txt",
    "XMSSMT-SHA2_20-4_192.txt", "XMSSMT-SHA2_40-8_256.txt", "XMSSMT-SHA2_60-12_256.txt",
    "XMSSMT-SHAKE_20-4_256.txt", "XMSSMT-SHAKE256_20-4_256.txt",
    "XMSSMT-SHAKE256_20-4_192.txt", "../lms/rfc8554-tc1.txt", "../lms/rfc8554-tc2.txt",
    "../lms/LMS_SHA256_M24_H5-LMOTS_SHA256_N24_W8.txt",
    "../lms/LMS_SHAKE_M24_H5-LMOTS_SHAKE_N24_W8.txt",
    "../lms/LMS_SHAKE_M32_H5-LMOTS_SHAKE_N32_W8.txt",
};
#define NFILES (sizeof(files) / sizeof(files[0]))

static uint8_t *dup_bytes(const uint8_t *p, size_t len)
{
    uint8_t *d = malloc(len ? len : 1);
    memcpy(d, p, len);
    return d;
}

size_t verify_cases_load(verify_case **out)
{
    verify_case *c = calloc(2 * NFILES, sizeof(*c));
    size_t n = 0;
    for (size_t f = 0; f < NFILES; f++) {
        xmss_vec *v = xmss_vec_load(files[f]);
        int lms = strncmp(files[f], "../lms/", 7) == 0;
        verify_case *k = &c[n];
        k->pk = xmss_vec_bytes(v, lms ? "pub" : "pk", &k->pklen);
        k->msg = xmss_vec_bytes(v, "msg", &k->mlen);
        k->sig = xmss_vec_bytes(v, lms ? "sig" : "sig_idx0", &k->siglen);
        const char *set = xmss_vec_get(v, "name"), *levels = xmss_vec_get(v, "levels");
        if (k->pk == NULL || k->msg == NULL || k->sig == NULL || (!lms && set == NULL)) {
            fprintf(stderr, "verify_cases: %s incomplete\n", files[f]);
            xmss_vec_free(v);
            verify_cases_free(c, n + 1);
            return 0;
        }
        if (lms) {
            char base[48];
            snprintf(base, sizeof(base), "%s", files[f] + 7);
            base[strlen(base) - 4] = 0; /* .txt */
            snprintf(k->name, sizeof(k->name), "HSS %s", base);
            k->scheme = FASTSIG_VERIFY_HSS;
            if (levels && strcmp(levels, "1") == 0) { /* the bare LMS form too */
                verify_case *b = &c[++n];
                snprintf(b->name, sizeof(b->name), "LMS %s", base);
                b->scheme = FASTSIG_VERIFY_LMS;
                b->pk = dup_bytes(k->pk + 4, b->pklen = k->pklen - 4);
                b->msg = dup_bytes(k->msg, b->mlen = k->mlen);
                b->sig = dup_bytes(k->sig + 4, b->siglen = k->siglen - 4);
            }
        } else {
            snprintf(k->name, sizeof(k->name), "%s", set);
            k->scheme = strncmp(set, "XMSSMT", 6) == 0 ? FASTSIG_VERIFY_XMSSMT : FASTSIG_VERIFY_XMSS;
        }
        n++;
        xmss_vec_free(v);
    }
    *out = c;
    return n;
}

void verify_cases_free(verify_case *c, size_t n)
{
    for (size_t i = 0; c != NULL && i < n; i++) {
        free(c[i].pk);
        free(c[i].msg);
        free(c[i].sig);
    }
    free(c);
}


size_t verify_cases_acvp(verify_case **out)
{
    xmss_vec *v = xmss_vec_load("../lms/acvp-lms-sigver.txt");
    verify_case *c = calloc(v ? v->count : 1, sizeof(*c));
    uint8_t *pk = NULL, *msg = NULL;
    size_t pklen = 0, mlen = 0, n = 0;
    char name[64] = "";
    for (size_t i = 0; v != NULL && i < v->count; i++) {
        const char *key = v->keys[i], *val = v->vals[i];
        if (strcmp(key, "PublicKeyRaw") == 0) { /* NAME:LMS:hex */
            const char *hex = strrchr(val, ':');
            free(pk);
            pk = fs_unhex_alloc(hex ? hex + 1 : val, &pklen);
            snprintf(name, sizeof(name), "ACVP %.*s", (int)strcspn(val, ":"), val);
        } else if (strcmp(key, "Input") == 0) {
            free(msg);
            msg = fs_unhex_alloc(val, &mlen);
        } else if (strcmp(key, "Output") == 0 && pk != NULL && msg != NULL) {
            verify_case *k = &c[n];
            k->sig = fs_unhex_alloc(val, &k->siglen);
            if (k->sig == NULL)
                continue;
            snprintf(k->name, sizeof(k->name), "%s", name);
            k->scheme = FASTSIG_VERIFY_LMS;
            k->pk = dup_bytes(pk, k->pklen = pklen);
            k->msg = dup_bytes(msg, k->mlen = mlen);
            n++;
        }
    }
    free(pk);
    free(msg);
    xmss_vec_free(v);
    *out = c;
    return n;
}
