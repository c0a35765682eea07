/* SPDX-License-Identifier: MIT */
/*
 * qcount_solutions.h — the public API of libqcount for single solutions:
 * listing every solution, the symmetries of one, checking a placement, and
 * one solution for a board of any size.  It stands alone beside qcount.h
 * (which it includes for QC_N_MAX and the error codes).
 *
 * A placement of n queens, one per row, is an array cols[0..n-1]: cols[r]
 * is the column (0-based) of row r's queen.  Everything here is pure (no
 * I/O); the program formats and prints.
 *
 * Arguments: every function checks its pointers and sizes before it reads
 * or writes anything; a NULL pointer (but for the optional ones, said
 * below), a size out of range or a column not below n gives QC_EINVAL (a
 * negative -QC_EINVAL where the result is a count, 0 for qc_enum_next and
 * qc_enum_steps).  What no check can see stays the caller's to keep:
 * arrays of at least n elements, an iterator not yet freed.
 */
#ifndef QCOUNT_SOLUTIONS_H
#define QCOUNT_SOLUTIONS_H

#include <stddef.h>
#include <stdint.h>

#include "qcount.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---- every solution, lazily ---------------------------------------- */

/* An iterator over the solutions of the n-board (1 <= n <= 32) in
 * lexicographic order of their column lists.  Each call to next does only
 * the search up to the next solution, so the first arrives at once. */
typedef struct qc_enum qc_enum;

/* Returns QC_OK with *out set, QC_EINVAL (out NULL, n out of range; *out
 * NULL when out is not) or QC_ENOMEM. */
int qc_enum_create(qc_enum **out, int n);
/* Writes the next solution into cols[0..n-1]; returns 1, or 0 when every
 * solution has been given (or it or cols is NULL). */
int qc_enum_next(qc_enum *it, uint32_t *cols);
/* The search's steps so far: the queens it has placed (its nodes); 0 for
 * NULL. */
uint64_t qc_enum_steps(const qc_enum *it);
/* The same as qc_enum_steps, under its former name. */
uint64_t qc_enum_placements(const qc_enum *it);
/* Frees it; NULL does nothing. */
void qc_enum_free(qc_enum *it);

/* ---- symmetries and checks ----------------------------------------- */

/* The 8 symmetries of the square (the dihedral group D4), numbered 0..7:
 * bit 2 transposes (row <-> column), then bit 1 mirrors the columns, then
 * bit 0 mirrors the rows.  0 is the identity, 3 the half turn, 6 the
 * quarter turn clockwise (row r's queen in column c moves to row c,
 * column n-1-r), 5 the quarter turn counter-clockwise.  Returns QC_OK, or
 * QC_EINVAL (out untouched) when out is cols, a pointer is NULL, symmetry
 * is not 0..7, n passes QC_COLUMNS_MAX or a column is not below n.  cols
 * should be a permutation of 0..n-1 (else rows of out are left unset). */
enum { QC_SYMMETRIES = 8 };
/* The most rows a placement can have: its columns are uint32_t. */
#define QC_COLUMNS_MAX ((uint64_t)UINT32_MAX + 1)
int qc_solution_transform(size_t n, const uint32_t *cols, int symmetry, uint32_t *out);

/* The canonical form of a solution's class: the lexicographically least of
 * its 8 images, written to out (1 <= n <= 32).  Returns the class size, 8
 * over the number of symmetries that leave it unchanged: 1 (only N=1), 2,
 * 4 or 8; -QC_EINVAL (out untouched) for a NULL pointer, n out of range or
 * a column not below n.  cols is canonical when out equals it. */
int qc_solution_canonical(size_t n, const uint32_t *cols, uint32_t *out);

typedef enum qc_line {
    QC_LINE_NONE = 0,       /* no attack: the placement is a solution      */
    QC_LINE_COLUMN,         /* same column                                 */
    QC_LINE_DIAGONAL,       /* same row - column: the \ diagonal           */
    QC_LINE_ANTIDIAGONAL    /* same row + column: the / diagonal           */
} qc_line;

typedef struct qc_attack {
    size_t row_a, row_b;    /* row_a < row_b, 0-based                      */
    qc_line line;           /* QC_LINE_NONE when no two queens attack      */
} qc_attack;

/* Checks a placement of n queens (one per row) in time and memory linear
 * in n.  The first attacking pair is the one whose lower queen (row_b) is
 * highest on the board, and of the queens attacking it the highest (row_a).
 * Returns QC_OK (then *first says valid or names the pair), QC_EINVAL when
 * a column is not below n, first is NULL, cols is NULL with n > 0 or n
 * passes QC_COLUMNS_MAX (*first untouched), or QC_ENOMEM. */
int qc_solution_verify(size_t n, const uint32_t *cols, qc_attack *first);

/* ---- one solution for any n ---------------------------------------- */

/* The classic explicit construction (Hoffman, Loessi and Moore 1969; the
 * "evens then odds" rule with its fixes for n mod 6 = 2 and 3): fills cols
 * in time linear in n, no memory beyond cols.  Returns QC_OK, or QC_EINVAL
 * for n = 0, 2, 3 (no solution exists for 2 and 3), n past 2^32 or cols
 * NULL. */
int qc_construct(size_t n, uint32_t *cols);

typedef struct qc_minconflicts_stats {
    uint64_t restarts;          /* fresh starts after a stall             */
    uint64_t swaps;             /* improving swaps made                   */
    uint64_t initial_conflicts; /* conflicted rows after the greedy start */
} qc_minconflicts_stats;

/* A random solution by min-conflicts local search (Sosic and Gu's swap
 * search on a permutation, from a greedy start that leaves only a few
 * queens in conflict).  The same (n, seed) always gives the same solution.
 * stats may be NULL.  Returns QC_OK, QC_EINVAL for n = 0, 2, 3, n past
 * 2^31 or cols NULL, or QC_ENOMEM. */
int qc_minconflicts(size_t n, uint64_t seed, uint32_t *cols, qc_minconflicts_stats *stats);

#ifdef __cplusplus
}
#endif
#endif
