/* keytool_inspect.c - `fastsig-keytool state inspect STATE [--in KEY]
 * [--json]`: both slots of a state file (doc/state.md section 3) as read,
 * each one's checks, the registry's entry and high-water mark for it, and
 * a verdict: healthy (0), repairable (3: a lower bound of the spent
 * indices is known, recreate above it), broken (4: none is, or the file is
 * another key's). It reads under a shared lock and writes nothing. */
#define _GNU_SOURCE
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "fastsig_err.h"
#include "keytool_state.h" /* kt_hex */
#include "keytool_statecmd.h"
#include "state/registry.h"
#include "state/stateslot.h"

/* One slot as read, whether or not it checks. */
typedef struct {
    int valid;
    char why[160];  /* "" when valid */
    uint64_t seq, max, next, crc, crc_calc;
    char key_id[65];
} SLOT;

typedef struct {
    const char *path;
    long long size;
    SLOT slot[2];
    int file_ok, cur;      /* cur: the slot that counts (-1: none) */
    uint64_t next, max;    /* the current slot's */
    char key_id[65], problem[4][256];
    int nproblems, verdict;
    char regdir[PATH_MAX], entry[PATH_MAX], entry_state[PATH_MAX], mark_file[PATH_MAX];
    uint64_t mark, repair_at;
} REPORT;

static uint64_t le(const uint8_t *p, int n)
{
    uint64_t v = 0;
    for (int i = n - 1; i >= 0; i--)
        v = v << 8 | p[i];
    return v;
}

/* What a slot's bytes say, field by field, and the first check it fails. */
static void read_slot(const uint8_t *b, SLOT *s)
{
    static const uint8_t zero[48];
    fs_state_slot dec;
    int allzero = 1;
    for (int i = 0; i < FS_STATE_SLOT_LEN; i++)
        allzero &= b[i] == 0;
    s->seq = le(b + 16, 8);
    s->max = le(b + 24, 8);
    s->next = le(b + 32, 8);
    s->crc = le(b + 120, 8);
    s->crc_calc = fs_state_crc64(b, 120);
    kt_hex(b + 40, FASTSIG_STATE_KEY_ID_LEN, s->key_id);
    s->valid = fs_state_slot_decode(b, &dec) == 0;
    s->why[0] = '\0';
    if (s->valid)
        return;
    if (allzero)
        snprintf(s->why, sizeof(s->why), "empty (all zero: never written, or lost)");
    else if (memcmp(b, "FSIGSTAT", 8) != 0)
        snprintf(s->why, sizeof(s->why), "no FSIGSTAT magic (overwritten)");
    else if (s->crc != s->crc_calc)
        snprintf(s->why, sizeof(s->why), "bad CRC (stored %016" PRIx64 ", computed %016" PRIx64
                 "): torn or damaged, its fields are not to be trusted", s->crc, s->crc_calc);
    else if (le(b + 8, 4) != FS_STATE_VERSION || le(b + 12, 4) != 0 || memcmp(b + 72, zero, 48))
        snprintf(s->why, sizeof(s->why), "unknown version, flags or padding");
    else
        snprintf(s->why, sizeof(s->why), "max or next out of range");
}

static void __attribute__((format(printf, 2, 3))) problem(REPORT *r, const char *fmt, ...)
{
    va_list ap;
    if (r->nproblems == 4)
        return;
    va_start(ap, fmt);
    vsnprintf(r->problem[r->nproblems++], sizeof(r->problem[0]), fmt, ap);
    va_end(ap);
}

/* The raw image and the size; 0 when the file cannot be opened. */
static int read_image(REPORT *r, uint8_t img[FS_STATE_FILE_SIZE])
{
    struct stat sb;
    int fd = open(r->path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
    memset(img, 0, FS_STATE_FILE_SIZE);
    if (fd < 0 || fstat(fd, &sb) != 0) {
        if (fd >= 0)
            close(fd);
        return 0;
    }
    r->size = (long long)sb.st_size;
    if (pread(fd, img, FS_STATE_FILE_SIZE, 0) < 0)
        r->size = -1;
    close(fd);
    return 1;
}

/* The slots' agreement, the key, the registry: problems and the verdict. */
static void judge(REPORT *r, const KT_STATE_OPTS *o, const KT_KEYINFO *ki)
{
    const SLOT *s = r->slot;
    int known = s[0].valid || s[1].valid;
    uint64_t high = 0;
    r->cur = s[0].valid && (!s[1].valid || s[0].seq > s[1].seq) ? 0 : s[1].valid ? 1 : -1;
    if (r->cur >= 0) {
        r->next = s[r->cur].next;
        r->max = s[r->cur].max;
        memcpy(r->key_id, s[r->cur].key_id, sizeof(r->key_id));
    }
    for (int i = 0; i < 2; i++)
        if (s[i].valid && s[i].next > high)
            high = s[i].next;
    if (r->size != FS_STATE_FILE_SIZE)
        problem(r, "size %lld bytes, not %d", r->size, FS_STATE_FILE_SIZE);
    for (int i = 0; i < 2; i++)
        if (!s[i].valid)
            problem(r, "slot %d is unusable: %s", i, s[i].why);
    if (s[0].valid && s[1].valid && !r->file_ok)
        problem(r, "the slots disagree (seqs %" PRIu64 " and %" PRIu64 " must be one apart,"
                " key id and max equal)", s[0].seq, s[1].seq);
    if (ki != NULL && r->cur >= 0) {
        char want[65];
        kt_hex(ki->key_id, FASTSIG_STATE_KEY_ID_LEN, want);
        if (strcmp(want, r->key_id) != 0) {
            problem(r, "foreign key id: the file is another key's state, not %s's", o->in);
            r->verdict = KT_BROKEN;
            return;
        }
    }
    if (r->cur >= 0 && r->next < r->mark) {
        problem(r, "rolled back: next %" PRIu64 " below the registry's high-water mark %"
                PRIu64 " (doc/state.md section 7)", r->next, r->mark);
    }
    if (high < r->mark)
        high = r->mark;
    r->repair_at = high + KT_REPAIR_MARGIN;
    r->verdict = r->nproblems == 0 ? KT_HEALTHY : known ? KT_REPAIRABLE : KT_BROKEN;
}

/* The registry's entry for the file's key id and its mark. */
static void registry(REPORT *r, const KT_STATE_OPTS *o)
{
    uint8_t id[FASTSIG_STATE_KEY_ID_LEN];
    if (r->cur < 0 || !kt_registry_dir(o, r->regdir, sizeof(r->regdir)))
        return;
    for (int i = 0; i < FASTSIG_STATE_KEY_ID_LEN; i++)
        sscanf(r->key_id + 2 * i, "%2hhx", &id[i]);
    fastsig_registry_entry_path(r->regdir, id, r->entry, sizeof(r->entry));
    if (fastsig_registry_holder_as(FASTSIG_REGISTRY_KEY_ID, r->regdir, id, r->entry_state,
                                   sizeof(r->entry_state), NULL) != FASTSIG_ERR_STATE_REGISTERED)
        r->entry[0] = r->entry_state[0] = '\0';
    r->mark = kt_registry_mark(r->regdir, id, r->path, r->max, r->mark_file,
                               sizeof(r->mark_file));
}

static void print_text(const REPORT *r)
{
    static const char *verdicts[] = { "healthy", "", "", "repairable", "broken" };
    printf("state file %s\n  size: %lld bytes\n", r->path, r->size);
    for (int i = 0; i < 2; i++) {
        const SLOT *s = &r->slot[i];
        printf("  slot %d: %s%s\n    seq %" PRIu64 ", next %" PRIu64 ", max %" PRIu64
               ", key id %s, crc %016" PRIx64 "%s\n", i, s->valid ? "valid" : "UNUSABLE: ",
               s->why, s->seq, s->next, s->max, s->key_id, s->crc,
               s->crc == s->crc_calc ? " (ok)" : " (bad)");
    }
    if (r->cur >= 0)
        printf("  %s: slot %d: next %" PRIu64 " of max %" PRIu64 " (%" PRIu64 " remaining;"
               " unspent indices %" PRIu64 "-%" PRIu64 "), key id %s\n",
               r->file_ok ? "current" : "highest valid", r->cur, r->next, r->max,
               r->max - r->next, r->next, r->max, r->key_id);
    if (r->regdir[0] != '\0')
        printf("  registry %s: entry %s, high-water mark %" PRIu64 "%s%s\n", r->regdir,
               r->entry[0] ? r->entry_state : "none (made with another state directory?)",
               r->mark, r->mark ? " in " : " (none)", r->mark ? r->mark_file : "");
    for (int i = 0; i < r->nproblems; i++)
        printf("  problem: %s\n", r->problem[i]);
    printf("  verdict: %s\n", verdicts[r->verdict]);
    if (r->verdict == KT_REPAIRABLE && r->file_ok)
        printf("  repair: fastsig-keytool state advance %s --to %" PRIu64 "   (the mark + %d:"
               " doc/state.md section 6)\n", r->path, r->repair_at, KT_REPAIR_MARGIN);
    else if (r->verdict == KT_REPAIRABLE)
        printf("  repair: fastsig-keytool state recreate --in KEY --at %" PRIu64 "   (the highest"
               " index seen + %d: doc/state.md section 6)\n", r->repair_at, KT_REPAIR_MARGIN);
    else if (r->verdict == KT_BROKEN)
        printf("  repair: none from this file: see doc/state.md section 6\n");
}

static void json_str(const char *k, const char *v, const char *end)
{
    if (k != NULL)
        printf("\"%s\": ", k);
    putchar('"');
    for (; *v; v++)
        if (*v == '"' || *v == '\\')
            printf("\\%c", *v);
        else if ((unsigned char)*v < 0x20)
            printf("\\u%04x", *v);
        else
            putchar(*v);
    printf("\"%s", end);
}

static void print_json(const REPORT *r)
{
    static const char *verdicts[] = { "healthy", "", "", "repairable", "broken" };
    printf("{");
    json_str("path", r->path, ", ");
    printf("\"size\": %lld, \"slots\": [", r->size);
    for (int i = 0; i < 2; i++) {
        const SLOT *s = &r->slot[i];
        printf("{\"valid\": %s, ", s->valid ? "true" : "false");
        json_str("problem", s->why, ", ");
        printf("\"seq\": %" PRIu64 ", \"next\": %" PRIu64 ", \"max\": %" PRIu64
               ", \"key_id\": \"%s\", \"crc\": \"%016" PRIx64 "\", \"crc_ok\": %s}%s",
               s->seq, s->next, s->max, s->key_id, s->crc,
               s->crc == s->crc_calc ? "true" : "false", i ? "], " : ", ");
    }
    printf("\"file_ok\": %s, \"current\": %d, ", r->file_ok ? "true" : "false", r->cur);
    if (r->cur >= 0)
        printf("\"next\": %" PRIu64 ", \"max\": %" PRIu64 ", \"remaining\": %" PRIu64
               ", \"key_id\": \"%s\", ", r->next, r->max, r->max - r->next, r->key_id);
    json_str("registry", r->regdir, ", ");
    json_str("registry_entry", r->entry_state, ", ");
    printf("\"mark\": %" PRIu64 ", ", r->mark);
    json_str("mark_file", r->mark ? r->mark_file : "", ", ");
    printf("\"problems\": [");
    for (int i = 0; i < r->nproblems; i++) {
        json_str(NULL, r->problem[i], i + 1 < r->nproblems ? ", " : "");
    }
    printf("], ");
    json_str("verdict", verdicts[r->verdict], ", ");
    printf("\"repair_at\": %" PRIu64 "}\n", r->verdict == KT_REPAIRABLE ? r->repair_at : 0);
}

int kt_state_inspect(const KT_STATE_OPTS *o)
{
    static REPORT r;
    KT_KEYINFO ki;
    fastsig_state_info info;
    fastsig_cause cause;
    uint8_t img[FS_STATE_FILE_SIZE];
    int err;

    memset(&r, 0, sizeof(r));
    r.path = o->state;
    if (o->in != NULL && !kt_key_info(o, &ki))
        return KT_FAILED;
    if ((err = fastsig_state_inspect(o->state, &info, &cause)) != FASTSIG_OK
        || !read_image(&r, img)) {
        kt_state_error(o->state, err != FASTSIG_OK ? err : FASTSIG_ERR_STATE_IO, &cause);
        return KT_FAILED;
    }
    r.file_ok = info.file_ok;
    for (int i = 0; i < 2; i++)
        read_slot(img + i * FS_STATE_SLOT_STRIDE, &r.slot[i]);
    judge(&r, o, NULL); /* the current slot, for the registry look-up */
    memset(r.problem, 0, sizeof(r.problem));
    r.nproblems = 0;
    registry(&r, o);
    judge(&r, o, o->in != NULL ? &ki : NULL);
    if (o->json)
        print_json(&r);
    else
        print_text(&r);
    return r.verdict;
}
