/* verify_stack.c - libfastsig-verify's peak stack, measured: every known
 * answer (verify_cases.h) is verified one-shot and streamed on a stack of
 * its own (makecontext), painted beforehand; the deepest byte changed is
 * the peak. Prints one line per case and the largest; fails when a
 * verification fails or any peak exceeds FASTSIG_VERIFY_STACK_BUDGET, the
 * figure doc/performance.md publishes (so that a change that grows it must
 * update both). Runs under qemu-arm too (scripts/test.sh). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <ucontext.h>
#include "fastsig/verify.h"
#include "vecfile.h"
#include "verify_cases.h"

/* The budget: the largest peak measured (28.5 KB on x86-64, 28.2 KB on
 * 32-bit ARM, gcc 12 -O3), rounded up. */
#define FASTSIG_VERIFY_STACK_BUDGET (32 * 1024)
#define AREA (512 * 1024)
#define PAINT 0xa5

void fs_vector_missing(const char *msg)
{
    (void)msg; /* reported on stderr; the loaders then return 0 cases */
}

static ucontext_t main_ctx, run_ctx;
static const verify_case *cur;
static int streamed, result;

static void run(void)
{
    const verify_case *c = cur;
    if (!streamed) {
        result = fastsig_verify(c->scheme, c->pk, c->pklen, c->msg, c->mlen, c->sig, c->siglen);
        return;
    }
    fastsig_verify_ctx ctx; /* on the measured stack, as a device would keep it */
    result = fastsig_verify_init(&ctx, c->scheme, c->pk, c->pklen, c->sig, c->siglen);
    if (result == FASTSIG_OK)
        result = fastsig_verify_update(&ctx, c->msg, c->mlen);
    if (result == FASTSIG_OK)
        result = fastsig_verify_final(&ctx);
}

/* Peak bytes of stack run() used (the stack grows down on both targets). */
static size_t peak(uint8_t *area)
{
    memset(area, PAINT, AREA);
    getcontext(&run_ctx);
    run_ctx.uc_stack.ss_sp = area;
    run_ctx.uc_stack.ss_size = AREA;
    run_ctx.uc_link = &main_ctx;
    makecontext(&run_ctx, run, 0);
    swapcontext(&main_ctx, &run_ctx);
    size_t untouched = 0;
    while (untouched < AREA && area[untouched] == PAINT)
        untouched++;
    return AREA - untouched;
}

/* One line per case; the worst peak of the cases into *worst. */
static size_t measure(const verify_case *c, size_t n, uint8_t *area, size_t *worst)
{
    size_t failures = 0;
    for (size_t i = 0; i < n; i++) {
        size_t p[2];
        cur = &c[i];
        for (streamed = 0; streamed < 2; streamed++) {
            p[streamed] = peak(area);
            if (result != FASTSIG_OK) {
                printf("FAIL %s: verification failed (%d)\n", c[i].name, result);
                failures++;
            }
            *worst = p[streamed] > *worst ? p[streamed] : *worst;
        }
        printf("%-34s %10zu %10zu\n", c[i].name, p[0], p[1]);
    }
    return failures;
}

int main(void)
{
    verify_case *c, *a;
    size_t n = verify_cases_load(&c), na = verify_cases_acvp(&a), worst = 0, failures = 0;
    uint8_t *area = malloc(AREA);
    if (n == 0 || na == 0 || area == NULL)
        return 1;
    printf("%-34s %10s %10s\n", "known answer", "one-shot", "streamed");
    failures += measure(c, n, area, &worst);
    failures += measure(a, na, area, &worst);
    printf("peak stack: %zu bytes (budget %u)\n", worst, (unsigned)FASTSIG_VERIFY_STACK_BUDGET);
    if (worst > FASTSIG_VERIFY_STACK_BUDGET) {
        printf("FAIL: peak stack above the budget\n");
        failures++;
    }
    size_t checks = 2 * (n + na) + 1;
    printf("verify-stack: %zu checks, %zu passed, %zu failed\n", checks, checks - failures, failures);
    verify_cases_free(c, n);
    verify_cases_free(a, na);
    free(area);
    return failures ? 1 : 0;
}
