/* SPDX-License-Identifier: MIT */
/*
 * transforms.c — one placement as a permutation: its 8 symmetric images
 * (the group's numbering and action are dihedral.h's), the canonical form
 * of its class, and the check that no two queens attack.
 *
 * The check is the independent verifier of every other module (the
 * construction, the local search, the listing): it uses nothing but the
 * placement and three bitmaps, one bit per column and per diagonal, so it
 * runs in linear time and n/2 bytes for boards of millions of rows.
 */
#include <stdlib.h>
#include <string.h>

#include "dihedral.h"
#include "qcount_solutions.h"

int qc_solution_transform(size_t n, const uint32_t *cols, int symmetry, uint32_t *out)
{
    if (!cols || !out || cols == out || symmetry < 0 || symmetry >= QC_SYMMETRIES
        || n > QC_COLUMNS_MAX)
        return QC_EINVAL;
    for (size_t r = 0; r < n; r++)          /* an image row past out's end */
        if (cols[r] >= n)
            return QC_EINVAL;
    for (size_t r = 0; r < n; r++) {        /* each queen to its image */
        size_t row = r, col = cols[r];
        qc_dihedral_square(symmetry, n, &row, &col);
        out[row] = (uint32_t)col;
    }
    return QC_OK;
}

int qc_solution_canonical(size_t n, const uint32_t *cols, uint32_t *out)
{
    uint32_t image[QC_N_MAX];
    int fixed = 0;                          /* symmetries mapping cols to itself */
    if (!cols || !out || n < QC_N_MIN || n > QC_N_MAX)
        return -QC_EINVAL;
    for (size_t r = 0; r < n; r++)
        if (cols[r] >= n)
            return -QC_EINVAL;
    memcpy(out, cols, n * sizeof *out);
    for (int s = 0; s < QC_SYMMETRIES; s++) {
        qc_solution_transform(n, cols, s, image);
        int vs_cols = memcmp(image, cols, n * sizeof *image) == 0;
        fixed += vs_cols;
        size_t r = 0;                       /* lexicographic compare with out */
        while (r < n && image[r] == out[r])
            r++;
        if (r < n && image[r] < out[r])
            memcpy(out, image, n * sizeof *out);
    }
    return QC_SYMMETRIES / fixed;
}

static inline int bit_test_set(uint64_t *bits, size_t i)
{
    uint64_t m = 1ull << (i & 63);
    int was = (bits[i >> 6] & m) != 0;
    bits[i >> 6] |= m;
    return was;
}

int qc_solution_verify(size_t n, const uint32_t *cols, qc_attack *first)
{
    if (!first || (!cols && n > 0) || n > QC_COLUMNS_MAX)
        return QC_EINVAL;   /* past QC_COLUMNS_MAX some column would not fit */
    first->row_a = first->row_b = 0;
    first->line = QC_LINE_NONE;
    for (size_t r = 0; r < n; r++)
        if (cols[r] >= n)
            return QC_EINVAL;
    if (n == 0)
        return QC_OK;
    /* bitmaps: columns (n bits), r - c + n - 1 and r + c (2n - 1 bits each) */
    size_t words = (n + 63) / 64, dwords = (2 * n + 63) / 64;
    uint64_t *col = calloc(words + 2 * dwords, sizeof *col);
    if (!col)
        return QC_ENOMEM;
    uint64_t *diag = col + words, *anti = diag + dwords;
    /* Pass 1: the first row whose queen lands on a line already taken. */
    size_t b = n;
    for (size_t r = 0; r < n && b == n; r++) {
        size_t c = cols[r];
        int hit = bit_test_set(col, c);
        hit |= bit_test_set(diag, r - c + n - 1);
        hit |= bit_test_set(anti, r + c);
        if (hit)
            b = r;
    }
    free(col);
    if (b == n)
        return QC_OK;
    /* Pass 2: the highest queen above row b on one of its lines. */
    const size_t cb = cols[b];
    for (size_t a = 0; a < b; a++) {
        size_t ca = cols[a];
        qc_line line = ca == cb ? QC_LINE_COLUMN
                     : a + cb == b + ca ? QC_LINE_DIAGONAL       /* a - ca == b - cb */
                     : a + ca == b + cb ? QC_LINE_ANTIDIAGONAL
                     : QC_LINE_NONE;
        if (line != QC_LINE_NONE) {
            first->row_a = a;
            first->row_b = b;
            first->line = line;
            break;
        }
    }
    return QC_OK;
}
