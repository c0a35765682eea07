/* SPDX-License-Identifier: MIT */
/*
 * enumerate.c — every solution of the n-board, one at a time, in
 * lexicographic order of the column lists: the source of `qcount N --list`.
 *
 * The bitmask backtracker of the kernel (core/kernel.h), turned into an
 * iterator: the explicit stack lives in the iterator, so next() resumes the
 * search where the last solution was found and stops at the next one.
 * Columns are tried lowest bit first, and bit c is column c, so solutions
 * come out in lexicographic order.
 */
#include <stdlib.h>

#include "kernel/kernel.h"
#include "qcount_solutions.h"

struct qc_enum {
    int n;
    int depth;              /* row whose free squares todo[depth] is trying */
    int done;
    uint32_t full;
    uint64_t placed;
    qck_board board[32];    /* board above row d                           */
    uint32_t todo[32];      /* free squares of row d not yet tried         */
    uint32_t col[32];       /* column of row d's queen, while it stands    */
};

int qc_enum_create(qc_enum **out, int n)
{
    if (!out)
        return QC_EINVAL;
    *out = NULL;
    if (n < QC_N_MIN || n > QC_N_MAX)
        return QC_EINVAL;
    qc_enum *it = calloc(1, sizeof *it);
    if (!it)
        return QC_ENOMEM;
    it->n = n;
    it->full = qck_full_mask(n);
    it->todo[0] = it->full;                 /* an empty board: all free */
    *out = it;
    return QC_OK;
}

int qc_enum_next(qc_enum *it, uint32_t *cols)
{
    if (!it || !cols || it->done)
        return 0;
    int d = it->depth;
    for (;;) {
        uint32_t t = it->todo[d];
        if (t == 0) {                       /* row exhausted: back up */
            if (d == 0) {
                it->done = 1;
                return 0;
            }
            d--;
            continue;
        }
        uint32_t bit = t & -t;              /* lowest column first: lexicographic */
        it->todo[d] = t & (t - 1);
        it->col[d] = (uint32_t)__builtin_ctz(bit);
        it->placed++;
        if (d == it->n - 1) {               /* the last row: a solution */
            for (int r = 0; r < it->n; r++)
                cols[r] = it->col[r];
            it->depth = d;                  /* resume by trying row d's next square */
            return 1;
        }
        qck_board next = qck_place(it->board[d], bit);
        d++;
        it->board[d] = next;
        it->todo[d] = qck_free(next, it->full);
    }
}

uint64_t qc_enum_steps(const qc_enum *it)
{
    return it ? it->placed : 0;
}

uint64_t qc_enum_placements(const qc_enum *it)
{
    return qc_enum_steps(it);
}

void qc_enum_free(qc_enum *it)
{
    free(it);
}
