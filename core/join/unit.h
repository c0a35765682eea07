/* SPDX-License-Identifier: MIT */
/*
 * unit.h — counting one unit of the join engine: the solutions whose top
 * half uses the unit's pattern inside the centre M.
 */
#ifndef QCJ_UNIT_H
#define QCJ_UNIT_H

#include <stddef.h>

#include "colex.h"
#include "isa.h"
#include "join_plan.h"
#include "qcount.h"
#include "scratch.h"

/* Counts unit `unit` (< p->units) into *out with the working memory sc
 * and the joiner of kind `joiner` (joiner.h),
 * reading the thread's stop flag (qci_stop_flag, stop.h) once per column
 * set, during band building and between the chunks of a tiled join.
 * Returns QC_OK; QC_ENOMEM when out of memory; QC_ESTOP when the stop
 * flag cut the unit short.  *out is written
 * only on QC_OK.  unit.c, with bands.c, halves.c and the pair counting, is
 * built once per ISA level ([per-level objects], isa.h); qcj_count_unit_now
 * runs the level qci_isa_current() names. */
QC_ISA_DECLARE(int, qcj_count_unit,
               (const qcj_plan *p, size_t unit, qcj_scratch *sc, qcj_joiner_kind joiner,
                qc_tally *out));

/* [probe] A unit in two steps, which a count takes one after the other
 * and the sampler (probe.c) times apart: qcj_unit_lists lists the bands
 * unit `unit` counts from into *sides (its own, in sc; or its pattern's
 * shared lists, to hand back with qcj_shared_release once counted; [own
 * lists] sc's sides, unlisted, which qcj_unit_sets lists set by set), *out
 * the queens its own listing placed; for a piece's unit ([split build])
 * the piece is listed, *sides is NULL and *out is the unit's tally; so it
 * is, with nothing listed, for a unit whose pattern counts no set ([no
 * empty units], join.c).  qcj_unit_sets then counts what *job says.
 * Returns as qcj_count_unit. */
QC_ISA_DECLARE(int, qcj_unit_lists,
               (const qcj_plan *p, size_t unit, qcj_scratch *sc, const qcj_side **sides,
                qc_tally *out));
/* What qcj_unit_sets counts of a unit: its column keys [lo, hi)
 * (qcj_unit_keys: the unit's own range) with the band lists `sides`
 * (qcj_unit_lists), joined by `joiner` (a level's own, joiner.h, or the
 * probe's timed one), sample `sample` of `samples` of each set's top
 * blocks or tiles ([sampled joins], joiner.h: samples 0 or 1 all, sample
 * == samples none). */
typedef struct qcj_unit_job {
    const qcj_side *sides;
    const qcj_joiner *joiner;
    uint64_t lo, hi;
    uint32_t samples, sample;
} qcj_unit_job;

QC_ISA_DECLARE(int, qcj_unit_sets,
               (const qcj_plan *p, size_t unit, qcj_scratch *sc, const qcj_unit_job *job,
                qc_tally *out));

static inline int qcj_unit_lists_now(const qcj_plan *p, size_t unit, qcj_scratch *sc,
                                     const qcj_side **sides, qc_tally *out)
{
    static int (*const at_level[QC_ISA_LEVELS_])(const qcj_plan *, size_t, qcj_scratch *,
                                                 const qcj_side **, qc_tally *) = {
        QC_ISA_TABLE(qcj_unit_lists)};
    return at_level[qci_isa_current()](p, unit, sc, sides, out);
}

static inline int qcj_unit_sets_now(const qcj_plan *p, size_t unit, qcj_scratch *sc,
                                    const qcj_unit_job *job, qc_tally *out)
{
    static int (*const at_level[QC_ISA_LEVELS_])(const qcj_plan *, size_t, qcj_scratch *,
                                                 const qcj_unit_job *, qc_tally *) = {
        QC_ISA_TABLE(qcj_unit_sets)};
    return at_level[qci_isa_current()](p, unit, sc, job, out);
}

/* Unit `unit` at level `level` with the level's joiner of kind `joiner`
 * (the plan's own at the running level: qcj_count_unit_now). */
static inline int qcj_count_unit_at(qci_isa_level level, const qcj_plan *p, size_t unit,
                                    qcj_scratch *sc, qcj_joiner_kind joiner, qc_tally *out)
{
    static int (*const at_level[QC_ISA_LEVELS_])(const qcj_plan *, size_t, qcj_scratch *,
                                                 qcj_joiner_kind, qc_tally *) = {
        QC_ISA_TABLE(qcj_count_unit)};
    return at_level[level](p, unit, sc, joiner, out);
}

static inline int qcj_count_unit_now(const qcj_plan *p, size_t unit, qcj_scratch *sc,
                                     qc_tally *out)
{
    return qcj_count_unit_at(qci_isa_current(), p, unit, sc, p->joiner, out);
}

#endif
