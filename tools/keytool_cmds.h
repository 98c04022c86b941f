/* keytool_cmds.h - fastsig-keytool's commands, one file each
 * (keytool_<command>.c), and what they share. A command gets argv from its
 * own name on (argv[0] is the command) and returns the exit status. */
#ifndef FASTSIG_KEYTOOL_CMDS_H
#define FASTSIG_KEYTOOL_CMDS_H

#include <openssl/provider.h>

int kt_cmd_shard(int argc, char **argv);
int kt_cmd_list(int argc, char **argv);
int kt_cmd_status(int argc, char **argv);
int kt_cmd_move(int argc, char **argv);
int kt_cmd_cms_sign(int argc, char **argv);
int kt_cmd_cms_verify(int argc, char **argv);

/* -provider-path DIR (NULL: OPENSSL_MODULES, then libcrypto's module
 * directory): 1, else 0 with a message. */
int kt_provider_path(const char *dir);
/* Loads the fastsig and default providers into the default library
 * context: 1, else 0 with a message. */
int kt_load_providers(OSSL_PROVIDER **fs, OSSL_PROVIDER **dflt);

#endif
