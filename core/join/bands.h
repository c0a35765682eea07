/* SPDX-License-Identifier: MIT */
/*
 * bands.h — the band placements of one side of a join unit: for each band
 * of the side's half (geometry.h), every conflict-free placement of its
 * rows on the columns the side may use, sorted by column set.
 */
#ifndef QCJ_BANDS_H
#define QCJ_BANDS_H

#include <stdint.h>

#include "colex.h"
#include "geometry.h"
#include "isa.h"
#include "vec.h"

/* bands.c is built once per ISA level: [per-level names] (isa.h) */
#define qcj_side_build QC_LEVEL(qcj_side_build)
#define qcj_side_build_band QC_LEVEL(qcj_side_build_band)
#define qcj_side_free QC_LEVEL(qcj_side_free)

/* [transposed lists] Whether this level's halves test pairs transposed:
 * the levels whose pair loop is plain C (portable, NEON); the vector
 * loops of AVX2 and AVX-512 were faster (docs/PERFORMANCE.md). */
#if !defined(__AVX2__) && !defined(__AVX512F__)
#define QCJ_HALVES_TRANSPOSED 1
#else
#define QCJ_HALVES_TRANSPOSED 0
#endif

/* The placements of one band (one queen in each of its rows, no two
 * attacking, columns among a side's), sorted by the colex rank of their
 * squeezed column set: offsets[rank]..offsets[rank+1]. */
typedef struct qcj_band {
    int rows;
    uint32_t *offsets;
    uint64_t *inner;      /* inner_sig of the placement's queens, ORed  */
    uint64_t *border;     /* cell_sig (border signature), ORed          */
    /* [transposed lists] NULL, or the inner signatures by bit: for each
     * 64 placements from the first, transposed_words words, word d with bit i
     * set where placement 64c+i has inner bit d, the last word zero */
    uint64_t *transposed;
    int transposed_words;
    /* [transposed lists] NULL, or for the other band: 2 * rows bytes a
     * placement, the inner bits it has, then the index of the transposed
     * word of zeros */
    uint8_t *bit_at;
    qcj_vec mem_offsets, mem_inner, mem_border, mem_transposed, mem_bit_at;
} qcj_band;

/* One side of a unit: the band placements its halves are built from. */
typedef struct qcj_side {
    uint32_t pattern;     /* the side's columns inside M               */
    int t;                /* squeezed columns: n-m+|pattern|           */
    qcj_band band[2];     /* first (upper) and second (lower) band     */
} qcj_side;

/* The squeezed columns t of a side with `pattern` (n-m+|pattern|). */
static inline int qcj_side_cols(const qcj_geometry *g, uint32_t pattern)
{
    return g->n - qcj_centre_cols(g) + __builtin_popcount(pattern);
}

/* What listing a band takes besides the side and the band: the same for
 * every band of a unit, so made once and passed by pointer. */
typedef struct qcj_listing {
    const qcj_geometry *geo;  /* the board's geometry                      */
    const qcj_rank *rank;     /* the colex rank tables of the column sets   */
    qcj_vec *tmp;             /* 3 scratch vectors, the bands' own: the
                               * placements' squeezed sets, inner and
                               * border signatures before sorting          */
    const int *stop;          /* the thread's stop flag, or NULL           */
    uint64_t *placed;         /* the queens placed are added to *placed    */
} qcj_listing;

/* Builds s's bands for the top (bottom = 0) or the bottom half, columns
 * outside M and `pattern`, of them only those in `only` ([own lists]: the
 * columns of the halves a unit counts; all ones: every column), ranked as
 * over all of them (qcj_side_cols), as l says.  Returns QC_OK; QC_ENOMEM
 * when out of memory or the rank tables would pass QCJ_RANKS_MAX
 * (config.h); QC_ESTOP when *l->stop (if not NULL) rose meanwhile.  s
 * keeps its buffers for reuse. */
int qcj_side_build(const qcj_listing *l, int bottom, uint32_t pattern, uint32_t only, qcj_side *s);

/* [split build] One band of s alone: s->band[band], band 0 (the first)
 * or 1 (the second) of the top's or the bottom's side, as qcj_side_build
 * lists it; nothing else of s is written (s->pattern and s->t are the
 * caller's), so two threads may build s's two bands at once (each with its
 * own l).  Same returns as qcj_side_build. */
int qcj_side_build_band(const qcj_listing *l, int bottom, int band, uint32_t pattern, qcj_side *s);

/* [level build] qcj_side_build_band at the level qci_isa_current() names,
 * for code outside the levels (the shared band lists, shared.c): built at
 * the portable level, band building takes 1.7-1.8 times as long. */
QC_ISA_DECLARE(int, qcj_side_build_band,
               (const qcj_listing *l, int bottom, int band, uint32_t pattern, qcj_side *s));

static inline int qcj_side_build_band_now(const qcj_listing *l, int bottom, int band,
                                          uint32_t pattern, qcj_side *s)
{
    static int (*const at_level[QC_ISA_LEVELS_])(const qcj_listing *, int, int, uint32_t,
                                                 qcj_side *) = {QC_ISA_TABLE(qcj_side_build_band)};
    return at_level[qci_isa_current()](l, bottom, band, pattern, s);
}

/* Frees s's buffers; s is empty again. */
void qcj_side_free(qcj_side *s);

#endif
