/* SPDX-License-Identifier: MIT */
/*
 * unit.h — counting one unit of the join engine: the solutions whose top
 * half uses the unit's pattern inside the block M.
 */
#ifndef QCJ_UNIT_H
#define QCJ_UNIT_H

#include <stddef.h>

#include "isa.h"
#include "join.h"
#include "qcount.h"
#include "scratch.h"

/* Counts unit `unit` (< p->units) into *out with the working memory sc
 * and the joiner of kind `joiner` (joiner.h),
 * reading the thread's stop flag (qc_stop_flag, kernel.h) once per column
 * set and during band building.  Returns QC_OK; QC_ENOMEM when out of
 * memory; QC_ESTOP when the stop flag cut the unit short.  *out is written
 * only on QC_OK.  unit.c, with bands.c, halves.c and the pair counting, is
 * built once per ISA level ([per-level objects], isa.h); qcj_count_unit
 * runs the level qc_isa_current() names. */
QC_ISA_DECLARE(int, qcj_count_unit,
               (const qcj_plan *p, size_t unit, qcj_scratch *sc, qcj_joiner_kind joiner,
                qc_tally *out));

/* Unit `unit` at level `level` with the level's joiner of kind `joiner`
 * (the plan's own at qc_isa_current(): qcj_count_unit). */
static inline int qcj_count_unit_at(qc_isa_level level, const qcj_plan *p, size_t unit,
                                    qcj_scratch *sc, qcj_joiner_kind joiner, qc_tally *out)
{
    static int (*const at_level[QC_ISA_LEVELS_])(const qcj_plan *, size_t, qcj_scratch *,
                                                 qcj_joiner_kind, qc_tally *) = {
        QC_ISA_TABLE(qcj_count_unit)};
    return at_level[level](p, unit, sc, joiner, out);
}

static inline int qcj_count_unit(const qcj_plan *p, size_t unit, qcj_scratch *sc, qc_tally *out)
{
    return qcj_count_unit_at(qc_isa_current(), p, unit, sc, p->joiner, out);
}

#endif
