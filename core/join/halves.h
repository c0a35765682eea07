/* SPDX-License-Identifier: MIT */
/*
 * halves.h — the halves of one column set, combined from a side's band
 * placements (bands.h): every conflict-free way to put one queen in each
 * row of a half using exactly those columns, as border signatures.
 */
#ifndef QCJ_HALVES_H
#define QCJ_HALVES_H

#include <stddef.h>
#include <stdint.h>

#include "bands.h"
#include "colex.h"
#include "geometry.h"
#include "isa.h"
#include "vec.h"

/* halves.c is built once per ISA level: [per-level names] (isa.h) */
#define qcj_splits_init QC_LEVEL(qcj_splits_init)
#define qcj_splits_free QC_LEVEL(qcj_splits_free)
#define qcj_halves_of QC_LEVEL(qcj_halves_of)

/* The splits of a half's h squeezed columns between its bands: every set
 * of `first_rows` of h bits, in increasing order (first_rows <= h <= 16). */
typedef struct qcj_splits {
    uint32_t *subset;
    size_t count;
} qcj_splits;

/* Returns QC_OK or QC_ENOMEM (sp then empty, safe to free). */
int qcj_splits_init(qcj_splits *sp, int h, int first_rows);
void qcj_splits_free(qcj_splits *sp);

/* Appends to out, after its first *len entries, the border signature of
 * every half of side s whose squeezed column set is `set` (h columns) and
 * that uses none of the border diagonals in `avoid` (odd N: the middle
 * queen's), ORed with `mark` (odd N: the middle queen's signature, so that
 * the half carries it into the join), and adds their number to *len: each
 * pair of band placements, first band on a subset of `set` (sp) and second
 * band on the rest, that shares no crossing diagonal.  Adds the pairs of
 * band placements tested to *tested.
 * [halves capped] The splits are taken in order from *at; with cap > 0 it
 * stops after the first split at which *len reaches cap, so that a caller
 * can use the halves so far and call again for the rest.  *at is left at
 * the next split (sp->count: all done).  Returns QC_OK, or QC_ENOMEM (*len
 * then undefined). */
int qcj_halves_of(const qcj_rank *r, const qcj_splits *sp, const qcj_side *s, uint32_t set,
                  uint64_t avoid, uint64_t mark, size_t *at, size_t cap, qcj_vec *out, size_t *len,
                  uint64_t *tested);

/* qcj_halves_of at any level (the tests: each level's vector code). */
QC_ISA_DECLARE(int, qcj_halves_of,
               (const qcj_rank *r, const qcj_splits *sp, const qcj_side *s, uint32_t set,
                uint64_t avoid, uint64_t mark, size_t *at, size_t cap, qcj_vec *out, size_t *len,
                uint64_t *tested));

static inline int qcj_halves_of_at(qc_isa_level level, const qcj_rank *r, const qcj_splits *sp,
                                   const qcj_side *s, uint32_t set, uint64_t avoid, uint64_t mark,
                                   size_t *at, size_t cap, qcj_vec *out, size_t *len,
                                   uint64_t *tested)
{
    static int (*const at_level[QC_ISA_LEVELS_])(const qcj_rank *, const qcj_splits *,
                                                 const qcj_side *, uint32_t, uint64_t, uint64_t,
                                                 size_t *, size_t, qcj_vec *, size_t *,
                                                 uint64_t *) = {QC_ISA_TABLE(qcj_halves_of)};
    return at_level[level](r, sp, s, set, avoid, mark, at, cap, out, len, tested);
}

#endif
