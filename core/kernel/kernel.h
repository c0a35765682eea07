/* SPDX-License-Identifier: MIT */
/*
 * kernel.h — the backtracking kernel: counts the ways to finish a partly
 * filled board.  A partial board is three bitmasks over the columns of the
 * next empty row: the columns taken, and the squares attacked along the two
 * diagonals, already shifted down to that row.
 */
#ifndef QC_KERNEL_H
#define QC_KERNEL_H

#include <stdint.h>

#include "isa.h"
#include "qcount.h"
#include "stop.h"   /* [stop check] */

typedef struct qck_board {
    uint32_t cols;    /* columns holding a queen                          */
    uint32_t diag_l;  /* squares of the next row attacked up-right→down-left */
    uint32_t diag_r;  /* squares of the next row attacked up-left→down-right */
} qck_board;

/* Mask of the n columns of a row (n <= 32). */
static inline uint32_t qck_full_mask(int n)
{
    return n >= 32 ? 0xffffffffu : (1u << n) - 1u;
}

/* Places a queen on column bit `bit` of the next row of b: the board of the
 * row after.  diag_l moves one column left per row, diag_r one right; bits
 * shifted past column 31 or below column 0 fall off, as they should. */
static inline qck_board qck_place(qck_board b, uint32_t bit)
{
    qck_board next = {
        .cols = b.cols | bit,
        .diag_l = (b.diag_l | bit) << 1,
        .diag_r = (b.diag_r | bit) >> 1,
    };
    return next;
}

/* Free squares of the next row. */
static inline uint32_t qck_free(qck_board b, uint32_t full)
{
    return full & ~(b.cols | b.diag_l | b.diag_r);
}


/* Counts the completions of board b on an n-board with rows_left empty
 * rows (0 <= rows_left <= n) into *solutions, adding the queens it places
 * to *steps.  Returns QC_OK, or QC_ESTOP when qci_stop_flag was
 * raised before the count ended: *solutions may then be partial.
 * kernel.c is built once per ISA level ([per-level objects], isa.h); this
 * runs the level qci_isa_current() names (qck_count_completions_now). */
QC_ISA_DECLARE(int, qck_count_completions,
               (int n, qck_board b, int rows_left, uint64_t *solutions, uint64_t *steps));

static inline int qck_count_completions_now(int n, qck_board b, int rows_left,
                                            uint64_t *solutions, uint64_t *steps)
{
    static int (*const at_level[QC_ISA_LEVELS_])(int, qck_board, int, uint64_t *, uint64_t *) = {
        QC_ISA_TABLE(qck_count_completions)};
    return at_level[qci_isa_current()](n, b, rows_left, solutions, steps);
}

#endif
