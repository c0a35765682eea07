/* SPDX-License-Identifier: MIT */
/*
 * unit.h — counting one unit of the join engine: the solutions whose top
 * half uses the unit's pattern inside the block M.
 */
#ifndef QCJ_UNIT_H
#define QCJ_UNIT_H

#include <stddef.h>

#include "colex.h"
#include "isa.h"
#include "join.h"
#include "qcount.h"
#include "scratch.h"

/* Counts unit `unit` (< p->units) into *out with the working memory sc
 * and the joiner of kind `joiner` (joiner.h),
 * reading the thread's stop flag (qc_stop_flag, stop.h) once per column
 * set, during band building and between the chunks of a tiled join.
 * Returns QC_OK; QC_ENOMEM when out of memory; QC_ESTOP when the stop
 * flag cut the unit short.  *out is written
 * only on QC_OK.  unit.c, with bands.c, halves.c and the pair counting, is
 * built once per ISA level ([per-level objects], isa.h); qcj_count_unit
 * runs the level qc_isa_current() names. */
QC_ISA_DECLARE(int, qcj_count_unit,
               (const qcj_plan *p, size_t unit, qcj_scratch *sc, qcj_joiner_kind joiner,
                qc_tally *out));

/* [probe] A unit in two steps, for the sampler (bench/sample.c), which
 * times them apart and counts a part of a unit's sets alone:
 * qcj_unit_lists lists the bands unit `unit` counts from into *sides (its
 * own, in sc; or its pattern's shared lists, to hand back with
 * qcj_shared_release once counted; [own lists] sc's sides, unlisted, which
 * qcj_unit_sets lists set by set), *out the queens its own listing
 * placed; for a part's unit ([split build]) the part is listed, *sides is
 * NULL and *out is the unit's tally; so it is, with nothing listed, for a
 * unit whose pattern counts no set ([no empty units], join.c).  parts and
 * part: [sampled joins] (joiner.h; 0, 0: all).  qcj_unit_sets then counts its column
 * keys [lo, hi) (qcj_unit_keys: the unit's own range) with those lists.
 * Returns as qcj_count_unit. */
QC_ISA_DECLARE(int, qcj_unit_lists,
               (const qcj_plan *p, size_t unit, qcj_scratch *sc, const qcj_side **sides,
                qc_tally *out));
QC_ISA_DECLARE(int, qcj_unit_sets,
               (const qcj_plan *p, size_t unit, qcj_scratch *sc, const qcj_side *sides,
                qcj_joiner_kind joiner, uint64_t lo, uint64_t hi, uint32_t parts, uint32_t part,
                qc_tally *out));

/* The column keys unit `unit` counts, [*lo, *hi) (none for a part's
 * unit): its slice of its pattern's keys, in colex order ([set parts]:
 * its part's key alone). */
static inline void qcj_unit_keys(const qcj_plan *p, size_t unit, uint64_t *lo, uint64_t *hi)
{
    const qcj_geometry *g = &p->geo;
    const qcj_unit_ref ref = qcj_unit_at(p, unit);
    const uint32_t slices = p->slices[ref.pattern] / p->set_parts;
    const uint32_t slice = ref.slice / p->set_parts;
    const int top_free = g->h - __builtin_popcount(p->pattern[ref.pattern]);
    const uint64_t keys = qcj_binomial(g->n - qcj_block_cols(g), top_free);
    *lo = *hi = 0;
    if (slice < slices) {
        *lo = keys * slice / slices;
        *hi = keys * (slice + 1) / slices;
    }
}

/* [set parts] The top splits (halves.h) unit `unit` joins of each column
 * set it counts, [*from, *to): all, or its part's equal share. */
static inline void qcj_unit_splits(const qcj_plan *p, size_t unit, size_t *from, size_t *to)
{
    const uint32_t parts = p->set_parts, part = qcj_unit_at(p, unit).slice % parts;
    const size_t count = p->splits[0].count;
    *from = count * part / parts;
    *to = count * (part + 1) / parts;
}

/* Whether unit `unit` counts from its pattern's shared lists ([even
 * slices], shared.h): a slice of a cut pattern, unless units list their
 * own ([own lists], geometry.h). */
static inline int qcj_unit_shares_lists(const qcj_plan *p, size_t unit)
{
    const qcj_unit_ref ref = qcj_unit_at(p, unit);
    return p->slices[ref.pattern] > 1 && ref.slice < p->slices[ref.pattern] && !p->geo.own_lists;
}

static inline int qcj_unit_lists_now(const qcj_plan *p, size_t unit, qcj_scratch *sc,
                                     const qcj_side **sides, qc_tally *out)
{
    static int (*const at_level[QC_ISA_LEVELS_])(const qcj_plan *, size_t, qcj_scratch *,
                                                 const qcj_side **, qc_tally *) = {
        QC_ISA_TABLE(qcj_unit_lists)};
    return at_level[qc_isa_current()](p, unit, sc, sides, out);
}

static inline int qcj_unit_sets_now(const qcj_plan *p, size_t unit, qcj_scratch *sc,
                                    const qcj_side *sides, uint64_t lo, uint64_t hi,
                                    uint32_t parts, uint32_t part, qc_tally *out)
{
    static int (*const at_level[QC_ISA_LEVELS_])(const qcj_plan *, size_t, qcj_scratch *,
                                                 const qcj_side *, qcj_joiner_kind, uint64_t,
                                                 uint64_t, uint32_t, uint32_t, qc_tally *) = {
        QC_ISA_TABLE(qcj_unit_sets)};
    return at_level[qc_isa_current()](p, unit, sc, sides, p->joiner, lo, hi, parts, part, out);
}

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
