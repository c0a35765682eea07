/* SPDX-License-Identifier: MIT */
/*
 * probe.h — one join unit in steps, timed, for the sampler
 * (bench/sample.c): the probe lists a unit's bands, counts a range of its
 * column keys with its joins timed, and hands everything back (probe.c).
 * A plain count never reaches this code.
 */
#ifndef QCJ_PROBE_H
#define QCJ_PROBE_H

#include <stddef.h>
#include <stdint.h>

#include "qcount.h"

struct qcj_scratch;
struct qcj_side;

/* [probe] One unit in steps, for the sampler (bench/sample.c): start lists
 * the bands the unit counts from (to time apart), sets counts a range of
 * its column keys, end hands everything back.  The listing a whole run
 * charges to the unit is list_share of this one: 1 where the unit lists
 * its own bands, 1/k for a slice of k whose lists the run lists once (by
 * its first slice to come), 0 where the pattern's pieces' units list them
 * (and are charged); a piece's unit counts no key, its tally is `listed`,
 * and so does a unit whose pattern counts no set ([no empty units]). */
typedef struct qcj_probe {
    const qc_plan *plan;
    size_t unit;
    uint64_t keys;        /* the unit's column keys: sets counts [0, keys) */
    double list_share;
    qc_tally listed;      /* the listing's queens (a piece's unit: its tally) */
    struct qcj_scratch *sc;
    const struct qcj_side *sides;
    uint64_t key0;
    /* [joins timed] of the last qcj_probe_sets, thread CPU seconds: in
     * the joins themselves (without the joiner's layout of the bottoms and
     * its skipped blocks, timed in a call that joins none when samples > 1),
     * and in that extra call, which a run never makes */
    double join_seconds, timing_seconds;
} qcj_probe;

int qcj_probe_start(const qc_plan *plan, size_t unit, qcj_probe *pr);
/* Counts the unit's keys [lo, hi) (hi <= pr->keys) into *out, joining
 * sample `sample` of `samples` of each set's top blocks or, where a join
 * is cut into tiles, of its tiles ([sampled joins], joiner.h: samples 0
 * or 1 all, sample == samples none). */
int qcj_probe_sets(qcj_probe *pr, uint64_t lo, uint64_t hi, uint32_t samples, uint32_t sample,
                   qc_tally *out);
void qcj_probe_end(qcj_probe *pr);
/* Frees the working memory and band lists the plan keeps between units,
 * so that the next unit's peak memory is its own. */
void qcj_plan_trim(const qc_plan *plan);

#endif
