/* tzsum - Tillich-Zemor digests of files, and the homomorphic operations on
 * digests, from the command line (sha256sum-style output and --check).
 *
 * Exit status: 0 success; 1 a --check line failed or could not be read;
 * 2 usage or I/O error; 3 malformed hex; 4 wrong digest length (not 64
 * bytes); 5 a digest element has bit 127 set; 6 not invertible. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "fastsig/tz.h"
#include "fastsig/fastsig_err.h"
#include "hex.h"

enum {
    EX_OK = 0,
    EX_MISMATCH = 1,
    EX_USAGE = 2,
    EX_BADHEX = 3,
    EX_LENGTH = 4,
    EX_BIT127 = 5,
    EX_SINGULAR = 6,
};

#define CHUNK (256 * 1024) /* big reads keep the lane kernels busy */

static void usage(FILE *f)
{
    fprintf(f,
            "usage: tzsum [FILE]...            print the TZ digest of each FILE ('-' = stdin)\n"
            "       tzsum --check FILE         verify lines '<hex>  <name>' (as sha256sum -c)\n"
            "       tzsum --concat HEX...      H(a||b||...) from H(a), H(b), ... in order\n"
            "       tzsum --subtract-left C A  H(b) from C = H(a||b) and A = H(a)\n"
            "       tzsum --subtract-right C B H(a) from C = H(a||b) and B = H(b)\n"
            "       tzsum --help\n"
            "A digest is 128 hex digits (64 bytes). Tillich-Zemor is not collision\n"
            "resistant: use it for its algebra, not as a secure hash.\n"
            "exit: 0 ok, 1 check failed, 2 usage/IO, 3 bad hex, 4 wrong length,\n"
            "      5 element with bit 127 set, 6 not invertible\n");
}

static void print_hex(const uint8_t d[TZ_DIGEST_SIZE])
{
    for (int i = 0; i < TZ_DIGEST_SIZE; i++)
        printf("%02x", d[i]);
}

/* Parses a digest given as hex of length n; returns EX_OK or an exit code
 * and says why on stderr. */
static int parse_digest(const char *hex, size_t n, uint8_t out[TZ_DIGEST_SIZE], const char *what)
{
    for (size_t i = 0; i < n; i++) {
        if (fs_hex_digit((unsigned char)hex[i]) < 0) {
            fprintf(stderr, "tzsum: %s: not hexadecimal (character %zu)\n", what, i + 1);
            return EX_BADHEX;
        }
    }
    if (n % 2 != 0) {
        fprintf(stderr, "tzsum: %s: odd number of hex digits (%zu)\n", what, n);
        return EX_BADHEX;
    }
    if (n != 2 * TZ_DIGEST_SIZE) {
        fprintf(stderr, "tzsum: %s: %zu bytes, a TZ digest is %d\n", what, n / 2, TZ_DIGEST_SIZE);
        return EX_LENGTH;
    }
    fs_hex_bytes(hex, out, TZ_DIGEST_SIZE); /* digits and length checked above */
    if (tz_digest_check(out) != FASTSIG_OK) {
        fprintf(stderr, "tzsum: %s: an element has bit 127 set (not a TZ digest)\n", what);
        return EX_BIT127;
    }
    return EX_OK;
}

static int parse_arg(const char *hex, uint8_t out[TZ_DIGEST_SIZE])
{
    return parse_digest(hex, strlen(hex), out, hex[0] ? hex : "(empty)");
}

/* Digest of a file ('-' = stdin); returns 0, or -1 with errno-style message printed. */
static int digest_file(const char *name, uint8_t out[TZ_DIGEST_SIZE])
{
    FILE *f = strcmp(name, "-") == 0 ? stdin : fopen(name, "rb");
    if (f == NULL) {
        fprintf(stderr, "tzsum: %s: %s\n", name, strerror(errno));
        return -1;
    }
    static uint8_t buf[CHUNK];
    tz_ctx ctx;
    size_t n;
    tz_init(&ctx);
    while ((n = fread(buf, 1, sizeof(buf), f)) > 0)
        tz_update(&ctx, buf, n);
    int bad = ferror(f);
    if (bad)
        fprintf(stderr, "tzsum: %s: read error\n", name);
    if (f != stdin)
        fclose(f);
    else
        clearerr(stdin);
    if (bad)
        return -1;
    tz_final(&ctx, out);
    return 0;
}

static int cmd_sum(int argc, char **argv)
{
    static char *dash[] = { "-" };
    int rc = EX_OK;
    if (argc == 0) {
        argc = 1;
        argv = dash;
    }
    for (int i = 0; i < argc; i++) {
        uint8_t d[TZ_DIGEST_SIZE];
        if (digest_file(argv[i], d) != 0) {
            rc = EX_USAGE;
            continue;
        }
        print_hex(d);
        printf("  %s\n", argv[i]);
    }
    return rc;
}

static int cmd_check(const char *listname)
{
    FILE *f = strcmp(listname, "-") == 0 ? stdin : fopen(listname, "r");
    if (f == NULL) {
        fprintf(stderr, "tzsum: %s: %s\n", listname, strerror(errno));
        return EX_USAGE;
    }
    char line[8192];
    unsigned long lineno = 0, good = 0, failed = 0, unreadable = 0, malformed = 0;
    while (fgets(line, sizeof(line), f) != NULL) {
        lineno++;
        size_t len = strcspn(line, "\r\n");
        line[len] = 0;
        if (len == 0)
            continue;
        /* "<128 hex><space><space or *><name>" */
        const char *sp = strchr(line, ' ');
        uint8_t want[TZ_DIGEST_SIZE], got[TZ_DIGEST_SIZE];
        if (sp == NULL || (sp[1] != ' ' && sp[1] != '*') || sp[2] == 0
            || (size_t)(sp - line) != 2 * TZ_DIGEST_SIZE) {
            malformed++;
            fprintf(stderr, "tzsum: %s: %lu: improperly formatted TZ checksum line\n", listname, lineno);
            continue;
        }
        char what[64];
        snprintf(what, sizeof(what), "%s: line %lu", listname, lineno);
        if (parse_digest(line, 2 * TZ_DIGEST_SIZE, want, what) != EX_OK) {
            malformed++;
            continue;
        }
        const char *name = sp + 2;
        if (digest_file(name, got) != 0) {
            printf("%s: FAILED open or read\n", name);
            unreadable++;
            continue;
        }
        int ok = tz_ct_equal(got, want, TZ_DIGEST_SIZE);
        printf("%s: %s\n", name, ok ? "OK" : "FAILED");
        if (ok)
            good++;
        else
            failed++;
    }
    if (f != stdin)
        fclose(f);
    if (malformed)
        fprintf(stderr, "tzsum: WARNING: %lu line%s improperly formatted\n", malformed, malformed == 1 ? " is" : "s are");
    if (unreadable)
        fprintf(stderr, "tzsum: WARNING: %lu listed file%s could not be read\n", unreadable, unreadable == 1 ? "" : "s");
    if (failed)
        fprintf(stderr, "tzsum: WARNING: %lu computed checksum%s did NOT match\n", failed, failed == 1 ? "" : "s");
    if (good + failed + unreadable == 0) {
        fprintf(stderr, "tzsum: %s: no properly formatted TZ checksum lines found\n", listname);
        return EX_MISMATCH;
    }
    return (failed || unreadable) ? EX_MISMATCH : EX_OK;
}

static int cmd_concat(int argc, char **argv)
{
    uint8_t *parts = malloc((size_t)(argc ? argc : 1) * TZ_DIGEST_SIZE), out[TZ_DIGEST_SIZE];
    if (parts == NULL) {
        fprintf(stderr, "tzsum: out of memory\n");
        return EX_USAGE;
    }
    for (int i = 0; i < argc; i++) {
        int rc = parse_arg(argv[i], parts + (size_t)i * TZ_DIGEST_SIZE);
        if (rc != EX_OK) {
            free(parts);
            return rc;
        }
    }
    tz_concat(parts, (size_t)argc, out);
    free(parts);
    print_hex(out);
    printf("\n");
    return EX_OK;
}

static int cmd_subtract(int left, char **argv)
{
    uint8_t c[TZ_DIGEST_SIZE], x[TZ_DIGEST_SIZE], out[TZ_DIGEST_SIZE];
    int rc = parse_arg(argv[0], c);
    if (rc == EX_OK)
        rc = parse_arg(argv[1], x);
    if (rc != EX_OK)
        return rc;
    int err = left ? tz_subtract_left(c, x, out) : tz_subtract_right(c, x, out);
    if (err != FASTSIG_OK) {
        fprintf(stderr, "tzsum: %s\n", err == FASTSIG_ERR_TZ_SINGULAR
                                           ? "the digest to subtract is not invertible"
                                           : fastsig_strerror(err));
        return err == FASTSIG_ERR_TZ_SINGULAR ? EX_SINGULAR : EX_USAGE;
    }
    print_hex(out);
    printf("\n");
    return EX_OK;
}

int main(int argc, char **argv)
{
    if (argc >= 2 && strcmp(argv[1], "--help") == 0) {
        usage(stdout);
        return EX_OK;
    }
    if (argc >= 2 && strcmp(argv[1], "--check") == 0) {
        if (argc != 3) {
            fprintf(stderr, "tzsum: --check takes one list file\n");
            return EX_USAGE;
        }
        return cmd_check(argv[2]);
    }
    if (argc >= 2 && strcmp(argv[1], "--concat") == 0)
        return cmd_concat(argc - 2, argv + 2);
    if (argc >= 2 && (strcmp(argv[1], "--subtract-left") == 0 || strcmp(argv[1], "--subtract-right") == 0)) {
        if (argc != 4) {
            fprintf(stderr, "tzsum: %s takes two digests\n", argv[1]);
            return EX_USAGE;
        }
        return cmd_subtract(strcmp(argv[1], "--subtract-left") == 0, argv + 2);
    }
    int first = 1;
    if (argc >= 2 && strcmp(argv[1], "--") == 0)
        first = 2;
    else if (argc >= 2 && argv[1][0] == '-' && argv[1][1] != 0) {
        fprintf(stderr, "tzsum: unknown option %s\n", argv[1]);
        usage(stderr);
        return EX_USAGE;
    }
    return cmd_sum(argc - first, argv + first);
}
