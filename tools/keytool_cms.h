/* keytool_cms.h - what fastsig-keytool's cms-sign and cms-verify share:
 * CMS SignedData without signed attributes, whose signature is over the
 * content itself (RFC 9708 section 4), which OpenSSL's own CMS code cannot
 * make or check (it hands the provider a digest: doc/design.md section 9). */
#ifndef FASTSIG_KEYTOOL_CMS_H
#define FASTSIG_KEYTOOL_CMS_H

#include <stddef.h>
#include <stdio.h>
#include <openssl/x509.h>

/* One option: its name ("-in"; --in is accepted too) and where its value
 * goes, or for a flag (value NULL) the int set to 1. A NULL name ends a list. */
typedef struct {
    const char *name;
    const char **value;
    int *flag;
} KT_OPT;

/* argv (argv[0] the command) into opts; -h prints usage on stdout. 1 parsed,
 * 0 -h, -1 a bad option or value (said on stderr, with the usage). */
int kt_parse_opts(int argc, char **argv, const KT_OPT *opts, void (*usage)(FILE *));
/* run(arg) with the fastsig and default providers loaded (from provider_path
 * when not NULL): its exit status, 2 for a bad path, 1 when they do not load. */
int kt_with_providers(const char *provider_path, int (*run)(const void *), const void *arg);

/* The whole file path (OPENSSL_free it): 1, else 0 with a message. */
int kt_read_file(const char *path, unsigned char **data, size_t *len);
/* The PEM certificate in path (NULL with a message). */
X509 *kt_load_cert(const char *path);
/* The OID of cert's public-key algorithm: fastsig's keys sign under their
 * key's OID, parameters absent (doc/design.md section 8). */
const ASN1_OBJECT *kt_key_oid(const X509 *cert);

#endif
