/* keytool_cms.h - what fastsig-keytool's cms-sign and cms-verify share:
 * CMS SignedData without signed attributes, whose signature is over the
 * content itself (RFC 9708 section 4), which OpenSSL's own CMS code cannot
 * make or check (it hands the provider a digest: doc/design.md section 9). */
#ifndef FASTSIG_KEYTOOL_CMS_H
#define FASTSIG_KEYTOOL_CMS_H

#include <stddef.h>
#include <openssl/x509.h>

/* The whole file path (OPENSSL_free it): 1, else 0 with a message. */
int kt_read_file(const char *path, unsigned char **data, size_t *len);
/* The PEM certificate in path (NULL with a message). */
X509 *kt_load_cert(const char *path);
/* The OID of cert's public-key algorithm: fastsig's keys sign under their
 * key's OID, parameters absent (doc/design.md section 8). */
const ASN1_OBJECT *kt_key_oid(const X509 *cert);

#endif
