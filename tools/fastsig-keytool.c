/* fastsig-keytool - operations on fastsig keys that openssl's own commands
 * have no verb for, one command per file (keytool_cmds.h lists them):
 * `fastsig-keytool COMMAND [options]`; `fastsig-keytool -h` lists the
 * commands, `fastsig-keytool COMMAND -h` a command's options.
 *
 * $FASTSIG_STATE_LOCK_TIMEOUT bounds its lock waits as the provider's.
 * Exit status: the command's (0 done; 1 failed, see the messages; 2 usage). */
#define _GNU_SOURCE /* secure_getenv */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "fastsig_err.h"
#include "keytool_cmds.h"
#include "state/statefile.h"

static const struct {
    const char *name;
    int (*run)(int argc, char **argv);
    const char *summary;
} commands[] = {
    { "shard", kt_cmd_shard, "carve shards (ranges of unspent indices) out of a stateful key" },
    { "status", kt_cmd_status, "a key's state: set, index, remaining, state file (no passphrase)" },
    { "move", kt_cmd_move, "move a key's state file elsewhere and rewrite the key to name it" },
    { "list", kt_cmd_list, "every parameter set: sizes, signatures, costs, SP 800-208" },
    { "cms-sign", kt_cmd_cms_sign, "CMS SignedData without signed attributes, over the content itself" },
    { "cms-verify", kt_cmd_cms_verify, "check such a SignedData (RFC 9708 section 4)" },
};

static void usage(FILE *f)
{
    fprintf(f, "usage: fastsig-keytool COMMAND [options]   (COMMAND -h: its options)\n");
    for (size_t i = 0; i < sizeof(commands) / sizeof(commands[0]); i++)
        fprintf(f, "  %-10s %s\n", commands[i].name, commands[i].summary);
    fprintf(f, "environment: FASTSIG_STATE_DIR (the default state directory and its key-id\n"
               "  registry, as the provider's state_dir), FASTSIG_STATE_LOCK_TIMEOUT (seconds a\n"
               "  state lock is waited for, default 5), OPENSSL_MODULES (where fastsig.so is)\n"
               "exit status: 0 done; 1 refused or failed (the message names the file and the\n"
               "  reason); 2 usage\n");
}

/* The tool's own state-file calls wait for a lock as the provider's do:
 * $FASTSIG_STATE_LOCK_TIMEOUT (seconds), else 5 s. */
static int lock_timeout(void)
{
    const char *t = secure_getenv("FASTSIG_STATE_LOCK_TIMEOUT");
    unsigned ms;
    if (t == NULL || t[0] == '\0')
        return 1;
    if (fastsig_state_parse_timeout(t, &ms) != FASTSIG_OK) {
        fprintf(stderr, "fastsig-keytool: FASTSIG_STATE_LOCK_TIMEOUT=%s: not a number of seconds\n",
                t);
        return 0;
    }
    fastsig_state_set_lock_timeout(ms);
    return 1;
}

int main(int argc, char **argv)
{
    if (!lock_timeout())
        return 2;
    if (argc >= 2)
        for (size_t i = 0; i < sizeof(commands) / sizeof(commands[0]); i++)
            if (strcmp(argv[1], commands[i].name) == 0)
                return commands[i].run(argc - 1, argv + 1);
    if (argc >= 2 && (strcmp(argv[1], "-h") == 0 || strcmp(argv[1], "--help") == 0)) {
        usage(stdout);
        return 0;
    }
    if (argc >= 2)
        fprintf(stderr, "fastsig-keytool: unknown command: %s\n", argv[1]);
    usage(stderr);
    return 2;
}
