/* SPDX-License-Identifier: MIT */
/*
 * dihedral.h — the 8 symmetries of the square (the dihedral group D4): the
 * one numbering of its elements and their action on a square of a board,
 * shared by the solutions' images (solutions/transforms.c) and the
 * eightfold engine's constellations (eightfold/constellations.c).
 */
#ifndef QC_DIHEDRAL_H
#define QC_DIHEDRAL_H

#include <stddef.h>

#include "qcount_solutions.h"

/* Symmetry g, 0 <= g < QC_SYMMETRIES, is the numbering that
 * qc_solution_transform publishes: bit 2 transposes (r, c) -> (c, r), then
 * bit 1 mirrors the columns (c -> n-1-c), then bit 0 mirrors the rows
 * (r -> n-1-r).  Rows count down from the top, columns right from the left. */
enum qc_dihedral {
    QC_DIHEDRAL_IDENTITY = 0,
    QC_DIHEDRAL_MIRROR_ROWS = 1,     /* (r, c) -> (n-1-r, c)                 */
    QC_DIHEDRAL_MIRROR_COLS = 2,     /* (r, c) -> (r, n-1-c)                 */
    QC_DIHEDRAL_HALF_TURN = 3,       /* (r, c) -> (n-1-r, n-1-c)             */
    QC_DIHEDRAL_TRANSPOSE = 4,       /* (r, c) -> (c, r): the main diagonal  */
    QC_DIHEDRAL_TURN_LEFT = 5,       /* (r, c) -> (n-1-c, r): counter-clockwise */
    QC_DIHEDRAL_TURN_RIGHT = 6,      /* (r, c) -> (c, n-1-r): clockwise      */
    QC_DIHEDRAL_ANTITRANSPOSE = 7    /* (r, c) -> (n-1-c, n-1-r)             */
};

/* Moves square (*r, *c) of an n-board to its image under symmetry g. */
static inline void qc_dihedral_square(int g, size_t n, size_t *r, size_t *c)
{
    size_t row = *r, col = *c;
    if (g & 4) {
        size_t t = row;
        row = col;
        col = t;
    }
    if (g & 2)
        col = n - 1 - col;
    if (g & 1)
        row = n - 1 - row;
    *r = row;
    *c = col;
}

#endif
