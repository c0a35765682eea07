/* SPDX-License-Identifier: MIT */
/*
 * rows.h — the rows a unit of the eightfold engine fills, in search order,
 * with what its pre-placed queens fix on each; the read of a row's free
 * squares ([absolute diagonals]) and the [two-row finish], shared by the
 * plain loop (rows.c) and the interleaved kernel (eightfold.c).
 */
#ifndef QC_EIGHTFOLD_ROWS_H
#define QC_EIGHTFOLD_ROWS_H

#include <stdint.h>

#include "constellations.h"
#include "qcount.h"

/* The rows a unit's search fills, in search order ([middle-out order]),
 * and what is fixed on each: block[i] has a bit for every square of the
 * i-th row searched that is off the board, in a pre-placed queen's column,
 * or attacked by a pre-placed queen; up[i] and down[i] are the shifts that
 * bring that row's diagonals to bit 0 of the diagonal masks (row, n-1-row).
 *
 * [middle-out order]  Rows are not filled top-down.  The search starts in
 * the middle row, fills the rows below it in turn down to the bottom, then
 * those above it from the middle up to the top.  The fixed queens of the
 * last row and the side columns then prune the first sweep early, and the
 * second sweep runs into the first row's queen: N=16 visits 210 M
 * placements this way against 338 M top-down (measured; mid-out both ways
 * alternately 260 M, bottom-up first 335 M). */
typedef struct qce_level {
    uint32_t block;
    uint8_t up, down;         /* row, n-1-row */
} qce_level;

typedef struct qce_rows {
    int levels;
    /* two levels of padding past the last row: all blocked, so that a
     * look-ahead past the end reads "no free square" */
    qce_level lv[QC_N_MAX + 2];
} qce_rows;

/* Fills *rows for the unit of constellation k on an n-board. */
void qce_rows_build(int n, qce_constellation k, qce_rows *rows);

/* [absolute diagonals]  Rows are visited out of order, so diagonals are
 * not shifted row to row: a queen on (r, c) sets bit r+c of `anti` and bit
 * c-r+n-1 of `main` (64-bit: 2n-1 diagonals), and row r reads its attacked
 * columns as anti >> r and main >> (n-1-r). */
static inline uint32_t qce_free_at(uint32_t cols, uint64_t anti, uint64_t main,
                                   const qce_level *lv)
{
    return ~(cols | (uint32_t)(anti >> lv->up) | (uint32_t)(main >> lv->down) | lv->block);
}

static inline uint32_t qce_free(uint32_t cols, uint64_t anti, uint64_t main,
                                const qce_rows *rows, int level)
{
    return qce_free_at(cols, anti, main, &rows->lv[level]);
}

/* [two-row finish] The last two rows searched (levels i, j = i+1, s rows
 * apart) without a branch.  F1 = free squares of row i, F2 = free squares
 * of row j given the queens placed before row i.  A queen x in F1 and a
 * queen y in F2 clash exactly when y = x (column) or y = x +- s
 * (diagonals), three disjoint cases, so the pairs that finish the board are
 *   |F1|*|F2| - |F1 & F2| - |(F1 << s) & F2| - |(F1 >> s) & F2|.
 * The queens of row i are counted as placements, and so are the last-row
 * queens (one per solution), as in the other kernels. */
static inline uint64_t qce_finish2(uint32_t f1, uint32_t f2, int s, uint64_t *placed)
{
    uint64_t n1 = (uint64_t)__builtin_popcount(f1);
    uint64_t pairs = n1 * (uint64_t)__builtin_popcount(f2)
                   - (uint64_t)__builtin_popcount(f1 & f2)
                   - (uint64_t)__builtin_popcount((f1 << s) & f2)
                   - (uint64_t)__builtin_popcount((f1 >> s) & f2);
    *placed += n1 + pairs;
    return pairs;
}

/* Completions of the interior given the fixed rows, by a plain loop, for
 * the few units with less than 4 rows to fill (N <= 7 only); adds the
 * queens it places (its steps) to *steps. */
uint64_t qce_count_plain(const qce_rows *rows, uint64_t *steps);

#endif
