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

/* What a call of qcj_halves_of asks for: the halves of one side on one
 * column set, from a range of the set's splits. */
typedef struct qcj_halves_request {
    const qcj_side *side;     /* the side whose band placements are combined */
    const qcj_splits *splits; /* the splits of the set between the side's two bands */
    uint32_t set;             /* the halves' squeezed column set (h columns) */
    uint64_t avoid;           /* border diagonals no half may use (odd N: the
                               * middle queen's), or 0 */
    uint64_t mark;            /* ORed into every half's border signature (odd
                               * N: the middle queen's, so that the half
                               * carries it into the join), or 0 */
    size_t cap;               /* [halves capped] the halves after which a call
                               * stops at the end of a split; 0: no cap */
} qcj_halves_request;

/* Appends to out, after its first *len entries, the border signature of
 * every half of side rq->side whose squeezed column set is rq->set and
 * that uses none of the border diagonals in rq->avoid, ORed with
 * rq->mark, and adds their number to *len: each pair of band placements,
 * first band on a subset of the set (rq->splits) and second band on the
 * rest, that shares no crossing diagonal.  r ranks the squeezed column
 * sets (colex.h).  Adds the pairs of band placements tested to *tested.
 * [halves capped] The splits are taken in order from *at; with rq->cap
 * > 0 it stops after the first split at which *len reaches rq->cap, so
 * that a caller can use the halves so far and call again for the rest.
 * *at is left at the next split (rq->splits->count: all done).  Returns
 * QC_OK, or QC_ENOMEM (*len then undefined). */
int qcj_halves_of(const qcj_rank *r, const qcj_halves_request *rq, size_t *at, qcj_vec *out,
                  size_t *len, uint64_t *tested);

/* qcj_halves_of at any level (the tests: each level's vector code). */
QC_ISA_DECLARE(int, qcj_halves_of,
               (const qcj_rank *r, const qcj_halves_request *rq, size_t *at, qcj_vec *out,
                size_t *len, uint64_t *tested));

static inline int qcj_halves_of_at(qci_isa_level level, const qcj_rank *r,
                                   const qcj_halves_request *rq, size_t *at, qcj_vec *out,
                                   size_t *len, uint64_t *tested)
{
    static int (*const at_level[QC_ISA_LEVELS_])(const qcj_rank *, const qcj_halves_request *,
                                                 size_t *, qcj_vec *, size_t *, uint64_t *) = {
        QC_ISA_TABLE(qcj_halves_of)};
    return at_level[level](r, rq, at, out, len, tested);
}

#endif
