/* fastsig-keytool - operations on fastsig keys that openssl's own commands
 * have no verb for, one command per file (keytool_cmds.h lists them):
 * `fastsig-keytool COMMAND [options]`; `fastsig-keytool -h` lists the
 * commands, `fastsig-keytool COMMAND -h` a command's options.
 *
 * Exit status: the command's (0 done; 1 failed, see the messages; 2 usage). */
#include <stdio.h>
#include <string.h>
#include "keytool_cmds.h"

static const struct {
    const char *name;
    int (*run)(int argc, char **argv);
    const char *summary;
} commands[] = {
    { "shard", kt_cmd_shard, "carve shards (ranges of unspent indices) out of a stateful key" },
    { "state", kt_cmd_state, "inspect, advance or recreate a state file (recovery)" },
};

static void usage(FILE *f)
{
    fprintf(f, "usage: fastsig-keytool COMMAND [options]   (COMMAND -h: its options)\n");
    for (size_t i = 0; i < sizeof(commands) / sizeof(commands[0]); i++)
        fprintf(f, "  %-10s %s\n", commands[i].name, commands[i].summary);
}

int main(int argc, char **argv)
{
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
