/* SPDX-License-Identifier: MIT */
/*
 * geometry.h — the join engine's board geometry: the split of the board
 * into halves and bands, the border signatures of every square, and the
 * column keys and squeezed columns the band lists are indexed by (through
 * their colex ranks, colex.h).
 *
 * A solution is a top half (rows 0..h-1, h = N/2 rounded down), on odd N a
 * middle row h, and a bottom half (rows b0..N-1, b0 = N-h, so both halves
 * have h rows), each half a partial placement without conflicts inside it,
 * such that (1) the column sets of the halves (and the middle queen) are
 * complementary and (2) no diagonal is used twice.  Queens of different
 * parts can share only the "border diagonals": the anti-diagonals r+c and
 * the diagonals r-c+N-1 numbered h..h+W-1, W = N-1 on even N (those that
 * reach both halves) and W = N on odd N (all those through row h).  Each
 * border diagonal gets one bit of a 64-bit signature, so condition (2) is
 * `(top_sig & bottom_sig) == 0`, and on odd N also no overlap with the
 * middle queen's signature cell_sig[h][c].
 *
 * Each half is itself built from two bands of rows, its "first" (upper)
 * and "second" (lower) band: top rows [0, split[0]) and [split[0], h),
 * bottom rows [b0, split[1]) and [split[1], n).  The outer band of each
 * half has band_rows = h/2 rows (the top's first, the bottom's second), so
 * the bottom's bands are the top's turned over.  Queens of the two bands of
 * one half can share only the diagonals crossing the split: anti-diagonals
 * and diagonals numbered split..split+n-2, n-1 each; inner_sig gives them
 * bits 0..n-2 and n-1..2n-3, so two band placements fit together exactly
 * when their columns differ and (inner & inner) == 0.  Bit 63 is never
 * set (2n-3 <= 61): the halves use it as a guard ([guard bit], halves.c).
 */
#ifndef QCJ_GEOMETRY_H
#define QCJ_GEOMETRY_H

#include <stdint.h>

#if defined(__BMI2__)
#include <immintrin.h>
#endif

#include "kernel/kernel.h"   /* qck_full_mask */

typedef struct qcj_geometry {
    int n;            /* board size                                        */
    int h;            /* rows in each half: top 0..h-1, bottom b0..n-1     */
    int b0;           /* first bottom row, n-h (h+1 past a middle row)      */
    int unit_lo;      /* unit columns M = [unit_lo, unit_hi): a unit fixes */
    int unit_hi;      /*   which of them the top half uses (its pattern)   */
    int key_bits;     /* k: border diagonals sorted into groups, not ANDed */
    int key_shift;    /* signature bit of the first group-key diagonal     */
    int wide;         /* 1: the key sits at bits 64-k.., 0: at bits 32.. */
    int and_bits;     /* the ANDed part: signature bits 0..and_bits-1     */
    int band_rows;    /* rows of each half's outer band, h/2               */
    int bands_in_place; /* list bands in two walks, no unsorted copy (bands.c) */
    int bands_pruned; /* list no placement a half cannot use ([outside quota]) */
    int own_lists;    /* [own lists] bands listed set by set, on the set's columns (unit.c) */
    int halves_transposed; /* [transposed lists] the halves test their pairs transposed (bands.c) */
    int halves_transposed_fit; /* ... the bands have the rows for it (QCJ_HALVES_TRANSPOSED_FROM_ROWS) */
    size_t tile_bytes; /* [bottom tiles] the sieve's tiles (joiner.h; 0: config.h's) */
    size_t halves_cap; /* [halves capped] halves of a side a join holds (0: no cap) */
    size_t memory_budget; /* [memory budget] bytes a unit's band lists and halves aim at (0: none) */
    int key_splits;   /* [spread key sample] splits the key's bottoms come from (unit.c) */
    double set_key_from; /* [set key] pairs of halves from which a chunk of tops
                          * gets its set's own key (set_key.h; 0: always) */
    int sort_coarse_from; /* [sort by halves of the key] key bits from which the
                           * halves are grouped in two passes (unit.c) */
    int split[2];     /* first row of the second band: top, bottom         */
    uint64_t cell_sig[32][32];   /* [row][col]: the border diagonals of a queen */
    uint64_t inner_sig[32][32];  /* [row][col]: its diagonals crossing its half's split */
} qcj_geometry;

/* Fills g for board size n (1..32) with centre width unit_cols (n's
 * parity) and key_bits group-key diagonals; with force_wide the ANDed part
 * takes 64-bit lanes even where 32 bits would do (so that small boards test
 * the path large ones take). */
void qcj_geometry_init(qcj_geometry *g, int n, int unit_cols, int key_bits, int force_wide);

/* The centre M as a column mask, and its width m. */
static inline int qcj_centre_cols(const qcj_geometry *g)
{
    return g->unit_hi - g->unit_lo;
}

static inline uint32_t qcj_centre(const qcj_geometry *g)
{
    return qck_full_mask(qcj_centre_cols(g)) << g->unit_lo;
}

/* The column key: the columns outside M, squeezed together (bits below
 * unit_lo stay, bits from unit_hi on move down to unit_lo). */
static inline uint32_t qcj_colkey(const qcj_geometry *g, uint32_t cols)
{
    uint32_t low = cols & ((1u << g->unit_lo) - 1u);
    uint32_t high = g->unit_hi >= 32 ? 0 : cols >> g->unit_hi;
    return low | high << g->unit_lo;
}

/* The inverse: the column set outside M that a column key stands for. */
static inline uint32_t qcj_colkey_expand(const qcj_geometry *g, uint32_t key)
{
    uint32_t low = key & ((1u << g->unit_lo) - 1u);
    uint32_t high = (uint32_t)((uint64_t)(key >> g->unit_lo) << g->unit_hi);
    return low | high;
}

/* [squeezed columns] Column sets are handled "squeezed" to the columns a
 * side may use: a unit side (top with pattern q, or bottom with M\q) may
 * use the columns outside M and its pattern's, t = n-m+|pattern| of them;
 * squeezed bit i < n-m is column-key bit i, bit n-m+j the pattern's j-th
 * column.  Inline, so that the kernels' levels (isa.h) that have BMI2
 * extract with PEXT. */
static inline uint32_t qcj_extract(uint32_t x, uint32_t mask)   /* x's bits at mask's, packed */
{
#if defined(__BMI2__)
    return _pext_u32(x, mask);
#else
    uint32_t r = 0;
    for (uint32_t bit = 1; mask; mask &= mask - 1, bit <<= 1)
        if (x & mask & -mask)
            r |= bit;
    return r;
#endif
}

static inline uint32_t qcj_squeeze(const qcj_geometry *g, uint32_t pattern, uint32_t cols)
{
    const uint32_t centre = qcj_centre(g);
    return qcj_colkey(g, cols & ~centre)
         | qcj_extract(cols & centre, pattern) << (g->n - qcj_centre_cols(g));
}

#endif
