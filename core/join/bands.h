/* SPDX-License-Identifier: MIT */
/*
 * bands.h — the band placements of one side of a join unit: for each band
 * of the side's half (geometry.h), every conflict-free placement of its
 * rows on the columns the side may use, sorted by column set.
 */
#ifndef QCJ_BANDS_H
#define QCJ_BANDS_H

#include <stdint.h>

#include "geometry.h"
#include "isa.h"
#include "vec.h"

/* bands.c is built once per ISA level: [per-level names] (isa.h) */
#define qcj_side_build QC_LEVEL(qcj_side_build)
#define qcj_side_free QC_LEVEL(qcj_side_free)

/* The placements of one band (one queen in each of its rows, no two
 * attacking, columns among a side's), sorted by the colex rank of their
 * squeezed column set: offsets[rank]..offsets[rank+1]. */
typedef struct qcj_band {
    int rows;
    uint32_t *offsets;
    uint64_t *inner;      /* inner_sig of the placement's queens, ORed  */
    uint64_t *border;     /* cell_sig (border signature), ORed          */
    qcj_vec mem_offsets, mem_inner, mem_border;
} qcj_band;

/* One side of a unit: the band placements its halves are built from. */
typedef struct qcj_side {
    uint32_t pattern;     /* the side's columns inside M               */
    int t;                /* squeezed columns: n-m+|pattern|           */
    qcj_band band[2];     /* first (upper) and second (lower) band     */
} qcj_side;

/* Builds s's bands for the top (bottom = 0) or the bottom half, columns
 * outside M and `pattern`; the two bands' own scratch is `tmp`.  Adds the
 * queens placed to *placed.  Returns QC_OK; QC_ENOMEM when out of memory
 * or the rank tables would pass QCJ_RANKS_MAX (config.h); QC_ESTOP when
 * *stop (if not NULL) rose meanwhile.  s keeps its buffers for reuse. */
int qcj_side_build(const qcj_geometry *g, const qcj_rank *r, int bottom, uint32_t pattern,
                   qcj_side *s, qcj_vec tmp[3], const int *stop, uint64_t *placed);

/* Its type: code outside the levels (shared.c) is handed the level's copy
 * by the level that calls it. */
typedef int qcj_side_build_fn(const qcj_geometry *g, const qcj_rank *r, int bottom,
                              uint32_t pattern, qcj_side *s, qcj_vec tmp[3], const int *stop,
                              uint64_t *placed);

/* Frees s's buffers; s is empty again. */
void qcj_side_free(qcj_side *s);

#endif
