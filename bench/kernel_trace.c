/* kernel_trace.c - kernel-trace: the instructions one call of each asm
 * kernel executes, for tools/kernel_mix.py (which maps them to mnemonics
 * with objdump and writes the bench's mix table, bench/kernel_mix.c).
 *
 * In-process single stepping: the trap flag set, every instruction raises
 * SIGTRAP and the handler records its address (minus the load bias, so the
 * addresses are objdump's). Every table row the CPU allows is traced, except
 * the portable ones (compiled C: their mix is the compiler's), so a new row
 * in a kernel table is picked up without a name here. Output, per trace:
 *   trace TABLE ROW UNITS STEPS
 *   ADDRESS (hex, one a line; the tracer's own functions, trace_*, included:
 *            the tool drops them; everything else between trace_start and
 *            trace_stop is the kernel's, so the row's entry point is looked
 *            up before)
 *   end
 * A chain kernel is traced twice (4 and 6 steps: the paired WOTS+ kernel
 * hands calls of fewer than 4 steps to another): the tool takes the
 * difference, the cost of two steps of the row's lanes (16 or 32), as the
 * bench's long calls see it. Not a measuring tool: single stepping is slow (~1 us an
 * instruction) and counts, never times. x86-64 Linux only. */
#define _GNU_SOURCE
#include <link.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <ucontext.h>
#include "cpu.h"
#include "kernel_cost.h"
#include "hash/keccak.h"
#include "hash/sha256.h"
#include "hash/sha256_chain.h"
#include "hash/sha512.h"

enum { CAP = 1 << 20 };
static uintptr_t *trace_rip;
static volatile size_t trace_n;
static uintptr_t trace_bias;

static void trace_on_trap(int sig, siginfo_t *si, void *ctx)
{
    (void)sig;
    (void)si;
    ucontext_t *uc = ctx;
    if (trace_n < CAP)
        trace_rip[trace_n++] = (uintptr_t)uc->uc_mcontext.gregs[REG_RIP];
}

static __attribute__((noinline)) void trace_start(void)
{
    trace_n = 0;
    __asm__ volatile("pushfq\n\torq $0x100, (%%rsp)\n\tpopfq" ::: "memory", "cc");
}

static __attribute__((noinline)) void trace_stop(void)
{
    __asm__ volatile("pushfq\n\tandq $~0x100, (%%rsp)\n\tpopfq" ::: "memory", "cc");
}

static void trace_print(const char *table, const char *row, unsigned units, unsigned steps)
{
    printf("trace %s %s %u %u\n", table, row, units, steps);
    for (size_t i = 0; i < trace_n && i < CAP; i++)
        printf("%lx\n", (unsigned long)(trace_rip[i] - trace_bias));
    printf("end\n");
}

static int trace_bias_of(struct dl_phdr_info *info, size_t size, void *data)
{
    (void)size;
    (void)data;
    trace_bias = info->dlpi_addr; /* the first object is the program */
    return 1;
}

/* The inputs: any bytes (the kernels have no data-dependent branches). */
static _Alignas(64) uint8_t trace_data[16 * 4 * 128];
static _Alignas(64) uint64_t trace_state[25 * 16];
static _Alignas(64) uint32_t trace_words[FS_CHAIN_MAX_WORDS * FS_CHAIN_MAX_LANES];

static __attribute__((noinline)) void trace_sha256(const fs_kernel *k)
{
    const uint8_t *in[FS_SHA256_MAX_LANES];
    for (unsigned l = 0; l < FS_SHA256_MAX_LANES; l++)
        in[l] = trace_data + 128 * l;
    fs_sha256_compress_fn *fn = fs_sha256_fn(k); /* not traced at -O0 */
    trace_start();
    fn((uint32_t *)trace_state, in, 2);
    trace_stop();
    trace_print(fs_sha256_table.name, k->name, 2 * k->lanes, 2);
}

static __attribute__((noinline)) void trace_sha512(const fs_kernel *k)
{
    const uint8_t *in[16];
    for (unsigned l = 0; l < 16; l++)
        in[l] = trace_data + 256 * l;
    fs_sha512_compress_fn *fn = fs_sha512_fn(k);
    trace_start();
    fn(trace_state, in, 2);
    trace_stop();
    trace_print(fs_sha512_table.name, k->name, 2 * k->lanes, 2);
}

static __attribute__((noinline)) void trace_keccak(const fs_kernel *k)
{
    void (*fn)(uint64_t *) = fs_keccak_perm(k);
    trace_start();
    fn(trace_state);
    trace_stop();
    trace_print(fs_keccak_table.name, k->name, k->lanes, 1);
}

static __attribute__((noinline)) void trace_chain(const char *table, const fs_kernel *k)
{
    static const uint32_t key[8] = { 1, 2, 3, 4, 5, 6, 7, 8 };
    fs_chain_fn *fn = fs_chain_fn_of(k);
    for (unsigned steps = 4; steps <= 6; steps += 2) {
        trace_start();
        fn((uint32_t *)trace_state, trace_words, key, steps, 32);
        trace_stop();
        trace_print(table, k->name, k->lanes * steps, steps);
    }
}

/* The rows a dispatcher may pick on this CPU, portable ones left out. */
static int trace_wanted(const fs_kernel *k)
{
    return k->cpu != 0 && fs_kernel_usable(k, fs_cpu_detected(), 0);
}

int main(void)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof(sa));
    sa.sa_sigaction = trace_on_trap;
    sa.sa_flags = SA_SIGINFO;
    trace_rip = malloc(CAP * sizeof(*trace_rip));
    if (trace_rip == NULL || sigaction(SIGTRAP, &sa, NULL) != 0) {
        fprintf(stderr, "kernel-trace: cannot set up single stepping\n");
        return 1;
    }
    dl_iterate_phdr(trace_bias_of, NULL);
    for (unsigned i = 0; i < sizeof(trace_data); i++)
        trace_data[i] = (uint8_t)(i * 167 + 13);
    for (const fs_kernel *k = fs_sha256_kernels; k->name; k++)
        if (trace_wanted(k))
            trace_sha256(k);
    for (const fs_kernel *k = fs_sha512_kernels; k->name; k++)
        if (trace_wanted(k))
            trace_sha512(k);
    for (const fs_kernel *k = fs_keccak_kernels; k->name; k++)
        if (trace_wanted(k))
            trace_keccak(k);
    for (int kind = 0; kind < FS_CHAIN_KINDS; kind++) {
        const fs_kernel_table *t = fs_chain_table((fs_chain_kind)kind);
        for (const fs_kernel *k = t->rows; k->name; k++)
            if (trace_wanted(k))
                trace_chain(t->name, k);
    }
    return fflush(stdout) == 0 ? 0 : 1;
}
