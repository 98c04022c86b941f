/* kernel_bound.c - a kernel row's bound from its mix and the measured ports
 * (kernel_bound.h). */
#include <stdio.h>
#include <string.h>
#include "kernel_bound.h"
#include "kernel_mix.h"
#include "port_probe.h"

const bench_mix *bench_mix_of(const char *table, const char *row)
{
    for (const bench_mix *m = bench_mixes; m->table; m++)
        if (strcmp(m->table, table) == 0 && strcmp(m->row, row) == 0)
            return m;
    return NULL;
}

/* The binding resource so far: its name and cycles; every resource is
 * also listed, per unit, on the row's "# bound" line. */
typedef struct {
    double cycles, units;
    char by[48];
} worst;

static void consider(worst *w, double cycles, const char *a, const char *b)
{
    if (cycles > 0)
        printf(" %s%s%s %.2f", a, b ? "+" : "", b ? b : "", cycles / w->units);
    if (cycles > w->cycles) {
        w->cycles = cycles;
        strncpy(w->by, a, sizeof(w->by) - 1);
        if (b != NULL) {
            strncat(w->by, "+", sizeof(w->by) - strlen(w->by) - 1);
            strncat(w->by, b, sizeof(w->by) - strlen(w->by) - 1);
        }
    }
}

/* Cycles per call, 0 when a class the kernel uses was not measured. */
static double bound_of(const bench_mix *m, const bench_ports *p, worst *w)
{
    double vec = 0, path = 0;
    for (int c = 0; c < MIX_INSN; c++) {
        if (m->count[c] == 0)
            continue;
        if (p->tp[c] <= 0)
            return 0;
        consider(w, m->count[c] / p->tp[c], bench_mix_class_name(c), NULL);
        vec += m->count[c] * bench_ports_vec_weight(p, c);
    }
    for (int c = 0; c < MIX_INSN; c++)
        path += m->path[c] * p->lat[c];
    consider(w, vec, "vector-alu", NULL);
    if (p->fe > 0)
        consider(w, m->count[MIX_INSN] / p->fe, "front-end", NULL);
    for (unsigned i = 0; i < p->npair; i++) {
        const bench_port_pair *q = &p->pair[i];
        if (q->shared)
            consider(w, (m->count[q->a] + m->count[q->b]) * q->cycles / (q->na + q->nb),
                     bench_mix_class_name(q->a), bench_mix_class_name(q->b));
    }
    consider(w, path, "path", NULL);
    return w->cycles;
}

void bench_kernel_bound(const char *op, const char *variant, const char *table, const char *row)
{
    static char by[64][48];
    static unsigned next;
    const bench_mix *m = bench_mix_of(table, row);
    bench_next_bound(0, NULL);
    if (m == NULL || !bench_selected(op, variant))
        return;
    const bench_ports *p = bench_ports_get();
    worst w = { 0, m->units, "" };
    if (p == NULL)
        return;
    printf("# bound   %s %s, cycles per unit:", table, row);
    double cycles = bound_of(m, p, &w);
    printf("\n");
    if (cycles <= 0)
        return;
    memcpy(by[next % 64], w.by, sizeof(w.by)); /* the row's name outlives w */
    bench_next_bound(w.cycles / m->units, by[next++ % 64]);
}
