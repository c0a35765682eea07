/*
 * constellations.h — the dihedral group of the square (4 rotations x reflection)
 * acting on board squares and on "constellations": the queens a solution
 * has on the four border lines (first and last row, first and last
 * column).  The eightfold engine keeps one constellation per orbit of the
 * group and weights it by the orbit's size; this module decides which one
 * is canonical and how big its orbit is.  Pure, no allocation.
 */
#ifndef QC_SYMMETRY_H
#define QC_SYMMETRY_H

#include <stdint.h>

/* The 8 symmetries are numbered 0..7: g = 4*m + k means "mirror the
 * columns if m, then turn a quarter clockwise k times".  0 is identity. */
#define QCS_GROUP_ORDER 8

/* Image of square (r, c) of an n-board under symmetry g. */
static inline void qcs_apply(int g, int n, int r, int c, int *r_out, int *c_out)
{
    if (g >= 4)
        c = n - 1 - c;                 /* mirror: left <-> right */
    for (int k = g & 3; k > 0; k--) {  /* quarter turn clockwise */
        int t = r;
        r = c;
        c = n - 1 - t;
    }
    *r_out = r;
    *c_out = c;
}

/* A constellation, by its four border lines: the column of the queen in
 * the first row (top) and in the last row (bottom), the row of the queen in
 * the first column (left) and in the last column (right).  A corner queen
 * sits on two lines at once (top = 0 and left = 0 are one queen at (0,0)). */
typedef struct qcs_constellation {
    int8_t top, bottom, left, right;
} qcs_constellation;

/* The distinct queens of k as squares (3 or 4 of them for a legal one, as
 * at most one corner can hold a queen); returns how many. */
int qcs_queens(int n, qcs_constellation k, int rows[4], int cols[4]);

/* Nonzero when k is legal: its queens are pairwise non-attacking and each
 * border line holds exactly the queen k names for it. */
int qcs_legal(int n, qcs_constellation k);

/* The image of a legal constellation under symmetry g. */
qcs_constellation qcs_image(int n, qcs_constellation k, int g);

/* A number that orders constellations: the canonical one of an orbit is
 * the one with the smallest key. */
static inline uint32_t qcs_key(qcs_constellation k)
{
    return (uint32_t)k.top << 24 | (uint32_t)k.bottom << 16 |
           (uint32_t)k.left << 8 | (uint32_t)k.right;
}

/* Nonzero when legal k is canonical (the smallest key among its 8 images);
 * then *class_size is set to the size of its orbit, 8 / |stabiliser|:
 * 8, 4 (fixed by the half turn only) or 2 (fixed by the quarter turn).
 * No legal constellation is fixed by a reflection (see symmetry.c). */
int qcs_canonical(int n, qcs_constellation k, int *class_size);

#endif
