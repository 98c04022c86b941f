/* kernel_cost.h - what each kernel costs on the running CPU, measured once.
 *
 * A primitive's kernels (cpu.h fs_kernel rows) are chosen by fs_kernel_pick
 * from per-row costs. Those costs come from a calibration the first time a
 * primitive is used: each row the usable set allows (fs_cpu_features(), no
 * twins) runs the primitive's trial a few times and keeps its best time per
 * lane (picoseconds), so the choice fits the CPU at hand rather than the one
 * a static table was tuned on. A table without a trial (RW's rows need a
 * key) keeps its rows' static costs.
 *
 * FASTSIG_KERNEL_COSTS (read with secure_getenv, once) overrides it for
 * reproducible runs: a comma-separated list of
 *   static              every table keeps its rows' static costs (no timing);
 *   TABLE:ROW=N         row ROW of table TABLE costs N per lane (in the unit
 *                       of that table's other rows: picoseconds when measured,
 *                       the static unit under "static"), e.g.
 *                       sha256:shani-x2=1; "N" of 0 means "never pick".
 * Unknown tables or rows are ignored. Thread-safe: the first user measures
 * under a lock and publishes; later calls cost one load. */
#ifndef FASTSIG_KERNEL_COST_H
#define FASTSIG_KERNEL_COST_H

#include "cpu.h"

#define FS_KERNEL_MAX_ROWS 16
#define FS_KERNEL_COST_NONE 0xffffffffu /* a row not allowed here: not measured */

/* One call of row k on fixed data of the trial's own (a few microseconds). */
typedef void fs_kernel_trial_fn(const fs_kernel *k);

/* The mutable part of a table: its costs once worked out. */
typedef struct {
    int ready;
    unsigned cost[FS_KERNEL_MAX_ROWS];
    unsigned long long ns; /* time the calibration took */
    const fs_kernel *chosen; /* fs_kernel_default's answer, once made */
} fs_kernel_costs_state;

/* A primitive's kernel table as the picker and the calibration see it. */
typedef struct {
    const char *name;           /* "sha256", "keccak", "tz", "rw-powm2", ... */
    const fs_kernel *rows;      /* NULL-name terminated, <= FS_KERNEL_MAX_ROWS */
    fs_kernel_trial_fn *trial;  /* NULL: static costs only */
    fs_kernel_costs_state *state;
} fs_kernel_table;

/* Defines table var (its state beside it) of rows with trial (or NULL). */
#define FS_KERNEL_TABLE(var, name, rows, trial)                                                \
    static fs_kernel_costs_state var##_state;                                                  \
    const fs_kernel_table var = { name, rows, trial, &var##_state }

/* The per-row costs of t in this process (calibrated or overridden on first
 * call), indexed like t->rows. */
const unsigned *fs_kernel_costs(const fs_kernel_table *t);
/* fs_kernel_pick over t's rows with its costs. */
const fs_kernel *fs_kernel_choose(const fs_kernel_table *t, unsigned mask, unsigned skip,
                                  unsigned lanes);
/* The row the process uses for a call of one message (fs_kernel_choose
 * under fs_cpu_features()), picked once; NULL when none is usable. */
const fs_kernel *fs_kernel_default(const fs_kernel_table *t);
/* 1 when the costs of t were measured (not static, not calibrated yet: 0). */
int fs_kernel_costs_measured(const fs_kernel_table *t);
/* Applies the overrides of an FASTSIG_KERNEL_COSTS value to t's costs:
 * returns 1 when it says "static" (the caller then starts from the static
 * costs), else 0; sets cost[i] for every TABLE:ROW=N item naming t. */
int fs_kernel_costs_parse(const fs_kernel_table *t, const char *spec, unsigned *cost);
/* Total time this process spent calibrating, in nanoseconds. */
unsigned long long fs_kernel_calibration_ns(void);

#endif
