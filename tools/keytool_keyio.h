/* keytool_keyio.h - fastsig-keytool's private-key files: openssl's
 * passphrase arguments, loading a PEM key (noting whether it was
 * encrypted), and writing a new key file that is never readable by others. */
#ifndef FASTSIG_KEYTOOL_KEYIO_H
#define FASTSIG_KEYTOOL_KEYIO_H

#include <stddef.h>
#include <openssl/evp.h>

#define KT_PASS_MAX 1024

/* An input key's passphrase: from -passin (known), else asked for at the
 * first encrypted load and kept for the next loads; encrypted once a load
 * needed it. Wipe with OPENSSL_cleanse. */
typedef struct {
    char pass[KT_PASS_MAX];
    int known, encrypted;
} KT_PASSIN;

/* fastsig-keytool: what, then OpenSSL's error queue, on stderr. */
void kt_die_ssl(const char *what);

/* openssl's passphrase arguments: pass:TEXT, env:VAR, file:PATH (first
 * line) into out: 1, else 0 with a message. */
int kt_read_pass(const char *arg, char *out, size_t len);

/* The private key in the PEM file path (NULL with a message). */
EVP_PKEY *kt_load_key(const char *path, KT_PASSIN *in);

/* Writes k to the new file path (refused if it exists), mode 0600 from its
 * creation whatever the umask, through a temporary name in its directory:
 * written, fsync'd, moved in without replacing, the directory fsync'd.
 * PKCS#8 encrypted with cipher and pass when cipher is not NULL. 1, else 0
 * with a message naming the path. */
int kt_write_key(EVP_PKEY *k, const char *path, const EVP_CIPHER *cipher, const char *pass);
/* The same for len bytes of data (a key's text); replace: over an existing
 * file (atomically), else refused when path exists. */
int kt_write_file(const char *data, size_t len, const char *path, int replace);

#endif
