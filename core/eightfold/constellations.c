/* SPDX-License-Identifier: MIT */
/*
 * constellations.c — canonical constellations under the dihedral group of
 * the square, and the size of their orbits.
 *
 * Why orbits weight correctly.  Every solution has exactly one queen on
 * each border line, so it has exactly one constellation; a symmetry g maps
 * solutions to solutions and border lines to border lines, so the
 * constellation of g(S) is g(constellation of S), and g is a bijection
 * between the solutions of k and those of g(k).  Hence the total is
 *     sum over canonical k of |orbit(k)| * (completions of k),
 * with |orbit(k)| = 8 / |stabiliser(k)|.  Counting every completion of k
 * (symmetric ones included) and multiplying by the orbit size is exact;
 * multiplying by 8 regardless is the classic trap: a constellation fixed by
 * a half turn has only 4 images, one fixed by a quarter turn only 2.
 *
 * No legal constellation is fixed by a reflection: the left-right mirror
 * would put the top and bottom queens both in the middle column; the
 * transpose (r,c) -> (c,r) swaps the top queen (0,a) with the left queen
 * (a,0), which share an anti-diagonal unless a = 0, and likewise the bottom
 * queen (n-1,b) with the right one (b,n-1) unless b = n-1, and the corners
 * (0,0) and (n-1,n-1) attack each other; the other two reflections are
 * these composed with a half turn.  So stabilisers are subgroups of the
 * rotations and orbits have 8, 4 or 2 members (tests/core/test_symmetry.c
 * checks that against brute enumeration of the orbits).
 */
#include "constellations.h"
#include "dihedral.h"

int qce_queens(int n, qce_constellation k, int rows[4], int cols[4])
{
    const int r[4] = {0, n - 1, k.left, k.right};
    const int c[4] = {k.top, k.bottom, 0, n - 1};
    int count = 0;
    for (int i = 0; i < 4; i++) {
        int seen = 0;
        for (int j = 0; j < count; j++)
            seen |= rows[j] == r[i] && cols[j] == c[i];
        if (!seen) {
            rows[count] = r[i];
            cols[count] = c[i];
            count++;
        }
    }
    return count;
}

int qce_legal(int n, qce_constellation k)
{
    if (k.top < 0 || k.top >= n || k.bottom < 0 || k.bottom >= n ||
        k.left < 0 || k.left >= n || k.right < 0 || k.right >= n)
        return 0;
    int rows[4], cols[4];
    int q = qce_queens(n, k, rows, cols);
    for (int i = 0; i < q; i++)
        for (int j = i + 1; j < q; j++) {
            int dr = rows[i] - rows[j], dc = cols[i] - cols[j];
            if (dr == 0 || dc == 0 || dr == dc || dr == -dc)
                return 0;
        }
    /* Pairwise non-attacking queens hold at most one square per line, so
     * each border line now holds exactly the queen k names for it. */
    return 1;
}

qce_constellation qce_image(int n, qce_constellation k, int g)
{
    int rows[4], cols[4];
    int q = qce_queens(n, k, rows, cols);
    qce_constellation out = {-1, -1, -1, -1};
    for (int i = 0; i < q; i++) {
        size_t r = (size_t)rows[i], c = (size_t)cols[i];
        qc_dihedral_square(g, (size_t)n, &r, &c);
        if (r == 0)
            out.top = (int8_t)c;
        if (r == (size_t)n - 1)
            out.bottom = (int8_t)c;
        if (c == 0)
            out.left = (int8_t)r;
        if (c == (size_t)n - 1)
            out.right = (int8_t)r;
    }
    return out;
}

int qce_canonical(int n, qce_constellation k, int *class_size)
{
    const uint32_t key = qce_key(k);
    int stabiliser = 0;
    for (int g = 0; g < QC_SYMMETRIES; g++) {
        uint32_t image = qce_key(qce_image(n, k, g));
        if (image < key)
            return 0;
        stabiliser += image == key;
    }
    *class_size = QC_SYMMETRIES / stabiliser;
    return 1;
}
