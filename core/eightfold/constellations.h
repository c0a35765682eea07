/* SPDX-License-Identifier: MIT */
/*
 * constellations.h — "constellations", the queens a solution has on the
 * four border lines (first and last row, first and last column), under the
 * symmetries of the square (numbered and acting as dihedral.h says).  The
 * eightfold engine keeps one constellation per orbit of the group and
 * weights it by the orbit's size; this module decides which one is
 * canonical and how big its orbit is.  Pure, no allocation.
 */
#ifndef QC_CONSTELLATIONS_H
#define QC_CONSTELLATIONS_H

#include <stdint.h>

/* A constellation, by its four border lines: the column of the queen in
 * the first row (top) and in the last row (bottom), the row of the queen in
 * the first column (left) and in the last column (right).  A corner queen
 * sits on two lines at once (top = 0 and left = 0 are one queen at (0,0)). */
typedef struct qce_constellation {
    int8_t top, bottom, left, right;
} qce_constellation;

/* The distinct queens of k as squares (3 or 4 of them for a legal one, as
 * at most one corner can hold a queen); returns how many. */
int qce_queens(int n, qce_constellation k, int rows[4], int cols[4]);

/* Nonzero when k is legal: its queens are pairwise non-attacking and each
 * border line holds exactly the queen k names for it. */
int qce_legal(int n, qce_constellation k);

/* The image of a legal constellation under symmetry g (dihedral.h). */
qce_constellation qce_image(int n, qce_constellation k, int g);

/* A number that orders constellations: the canonical one of an orbit is
 * the one with the smallest key. */
static inline uint32_t qce_key(qce_constellation k)
{
    return (uint32_t)k.top << 24 | (uint32_t)k.bottom << 16 |
           (uint32_t)k.left << 8 | (uint32_t)k.right;
}

/* Nonzero when legal k is canonical (the smallest key among its 8 images);
 * then *class_size is set to the size of its orbit, 8 / |stabiliser|:
 * 8, 4 (fixed by the half turn only) or 2 (fixed by the quarter turn).
 * No legal constellation is fixed by a reflection (constellations.c). */
int qce_canonical(int n, qce_constellation k, int *class_size);

#endif
