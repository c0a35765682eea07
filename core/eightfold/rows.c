/* SPDX-License-Identifier: MIT */
/*
 * rows.c — the rows of an eightfold unit in [middle-out order] with what
 * the pre-placed queens fix on each, and the plain loop for the units with
 * few rows to fill.
 */
#include "kernel/kernel.h"
#include "rows.h"

void qce_rows_build(int n, qce_constellation k, qce_rows *rows)
{
    int qr[4], qc[4];
    int q = qce_queens(n, k, qr, qc);
    uint32_t fixed_cols = 0;
    for (int i = 0; i < q; i++)
        fixed_cols |= 1u << qc[i];
    const uint32_t outside = ~qck_full_mask(n);
    int free_rows[QC_N_MAX], count = 0;
    for (int r = 1; r < n - 1; r++)
        if (r != k.left && r != k.right)
            free_rows[count++] = r;
    const int middle = count / 2;
    for (int i = 0; i < count; i++) {
        /* [middle-out order]: middle..last ascending, then middle-1..0 */
        int r = i < count - middle ? free_rows[middle + i] : free_rows[count - 1 - i];
        uint32_t b = outside | fixed_cols;
        for (int j = 0; j < q; j++) {
            int dist = r > qr[j] ? r - qr[j] : qr[j] - r;
            if (qc[j] + dist < n)
                b |= 1u << (qc[j] + dist);
            if (qc[j] - dist >= 0)
                b |= 1u << (qc[j] - dist);
        }
        rows->lv[i].block = b;
        rows->lv[i].up = (uint8_t)r;
        rows->lv[i].down = (uint8_t)(n - 1 - r);
    }
    rows->levels = count;
    for (int i = count; i < count + 2; i++) {
        rows->lv[i].block = ~0u;
        rows->lv[i].up = rows->lv[i].down = 0;
    }
}

uint64_t qce_count_plain(const qce_rows *rows, uint64_t *steps)
{
    const int levels = rows->levels;
    uint64_t placed = 0;
    if (levels == 0)
        return 1;
    if (levels == 1) {
        uint64_t c = (uint64_t)__builtin_popcount(~rows->lv[0].block);
        *steps += c;
        return c;
    }
    const int li = levels - 2, lj = levels - 1;
    const int s_ij = rows->lv[li].up > rows->lv[lj].up ? rows->lv[li].up - rows->lv[lj].up
                                                       : rows->lv[lj].up - rows->lv[li].up;
    if (levels == 2) {
        uint64_t c = qce_finish2(qce_free(0, 0, 0, rows, li), qce_free(0, 0, 0, rows, lj),
                                 s_ij, &placed);
        *steps += placed;
        return c;
    }

    /* Level d (0 <= d <= last) holds the board before row d and the
     * squares of row d still to try; a queen on row `last` leaves two rows
     * for [two-row finish]. */
    uint32_t cols[QC_N_MAX], todo[QC_N_MAX];
    uint64_t anti[QC_N_MAX], main[QC_N_MAX];
    const int last = levels - 3;
    uint64_t solutions = 0;
    int d = 0;
    cols[0] = 0;
    anti[0] = main[0] = 0;
    todo[0] = qce_free(0, 0, 0, rows, 0);
    for (;;) {
        uint32_t t = todo[d];
        if (t == 0) {                       /* row exhausted: back up      */
            if (--d < 0)
                break;
            continue;
        }
        uint32_t bit = t & -t;              /* lowest free square          */
        todo[d] = t & (t - 1);
        uint32_t c = cols[d] | bit;         /* [absolute diagonals]        */
        uint64_t a = anti[d] | (uint64_t)bit << rows->lv[d].up;
        uint64_t m = main[d] | (uint64_t)bit << rows->lv[d].down;
        placed++;
        if (d == last) {
            solutions += qce_finish2(qce_free(c, a, m, rows, li), qce_free(c, a, m, rows, lj),
                                     s_ij, &placed);
            continue;
        }
        d++;
        cols[d] = c;
        anti[d] = a;
        main[d] = m;
        /* [look-ahead] row d+1 already blocked: nothing to try on row d */
        uint32_t ahead = qce_free(c, a, m, rows, d + 1);
        todo[d] = ahead ? qce_free(c, a, m, rows, d) : 0;
    }
    *steps += placed;
    return solutions;
}
