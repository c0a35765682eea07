/* SPDX-License-Identifier: MIT */
/*
 * lanes.h — the search of one eightfold unit over its rows (rows.h), by
 * the interleaved kernel of lanes.c, built once per ISA level
 * ([per-level objects], isa.h).
 */
#ifndef QC_EIGHTFOLD_LANES_H
#define QC_EIGHTFOLD_LANES_H

#include <stdint.h>

#include "isa.h"
#include "rows.h"

/* The completions of a unit's rows into *solutions, its queens added to
 * *steps; with the thread's stop flag (kernel.h), [deep seeds] span
 * the last stop_rows rows (>= 2).  Returns QC_OK, or QC_ESTOP when the
 * flag was raised before the count ended (*solutions may then be
 * partial).  qce_count_rows_now runs the level qci_isa_current() names. */
QC_ISA_DECLARE(int, qce_count_rows,
               (const qce_rows *rows, int stop_rows, uint64_t *solutions, uint64_t *steps));

static inline int qce_count_rows_now(const qce_rows *rows, int stop_rows, uint64_t *solutions,
                                     uint64_t *steps)
{
    static int (*const at_level[QC_ISA_LEVELS_])(const qce_rows *, int, uint64_t *, uint64_t *) = {
        QC_ISA_TABLE(qce_count_rows)};
    return at_level[qci_isa_current()](rows, stop_rows, solutions, steps);
}

#endif
