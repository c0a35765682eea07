/* SPDX-License-Identifier: MIT */
/*
 * brute.c — the `brute` engine: a plain permutation search, the oracle
 * anyone can check by eye.  It shares no code with the other engines and
 * uses no bitmasks: rows get the columns of a permutation built by swaps,
 * and each new queen is checked against every queen above it by
 * coordinates (same diagonal: equal row and column distances).
 *
 * Work units: one per first-row column, no symmetry.
 */
#include <stdlib.h>

#include "oracle.h"

/* Does the queen of `row` (column perm[row]) attack a queen above it?
 * Columns never clash: perm is a permutation. */
static int brute_attacked(const int *perm, int row)
{
    for (int r = 0; r < row; r++) {
        int dc = perm[row] - perm[r];
        if (dc == row - r || -dc == row - r)
            return 1;
    }
    return 0;
}

/* Counts the permutations completing rows row..n-1 (perm[row..] holds the
 * columns still free) with no two queens on a diagonal. */
static uint64_t brute_search(int *perm, int n, int row, uint64_t *placed)
{
    if (row == n)
        return 1;
    uint64_t found = 0;
    for (int k = row; k < n; k++) {
        int t = perm[row]; perm[row] = perm[k]; perm[k] = t;   /* try column perm[k] */
        (*placed)++;
        if (!brute_attacked(perm, row))
            found += brute_search(perm, n, row + 1, placed);
        t = perm[row]; perm[row] = perm[k]; perm[k] = t;       /* undo */
    }
    return found;
}

static int brute_count_unit(const qc_plan *plan, size_t unit, qc_tally *out)
{
    int perm[QC_N_MAX];
    const int n = plan->n;
    for (int c = 0; c < n; c++)
        perm[c] = c;
    perm[0] = (int)unit;                       /* the first row's column */
    perm[unit] = 0;
    uint64_t placed = 1;
    out->solutions = brute_search(perm, n, 1, &placed);
    out->steps = placed;
    return QC_OK;
}

static void brute_release(qc_plan *plan)
{
    (void)plan;
}

const qci_engine_ops qco_brute_ops = {
    .name = "brute",
    .build = qco_build_by_first_column,
    .count_unit = brute_count_unit,
    .release = brute_release,
};
