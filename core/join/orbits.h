/* SPDX-License-Identifier: MIT */
/*
 * orbits.h — the join engine's symmetry: which units and which top column
 * sets it counts, and the weight (orbit size) each counted set stands for,
 * under the left-right mirror and, on even N, the top-bottom flip.
 */
#ifndef QCJ_ORBITS_H
#define QCJ_ORBITS_H

#include <stdint.h>

/* The columns of set s reflected left-right on an n-board. */
uint32_t qcj_mirror(uint32_t s, int n);

/* Whether pattern q (a subset of the mirror-symmetric centre M) is
 * the smallest of its images under mirror and, when flip is set, under
 * complement within m (the top-bottom flip of an even board). */
int qcj_pattern_canonical(uint32_t q, uint32_t m, int n, int flip);

/* The weight of top column set s in the unit of pattern q: 0 when another
 * set of the same unit stands for s (an image of s with the same pattern
 * and a smaller value), otherwise the number of distinct images of s, all
 * of which have as many solutions as s. */
int qcj_set_weight(uint32_t s, uint32_t q, uint32_t m, int n, int flip);

/* Odd N: the weight of the solutions with top column set s, middle queen
 * in column c and bottom column set ~s\{c}, over the group {mirror, flip}
 * acting on (top set, c, bottom set); 0 unless (s & m, s, c) is the
 * smallest of its images' (pattern, top set, c). */
int qcj_triple_weight(uint32_t s, int c, uint32_t m, int n);

/* The passes of top set s in the unit of pattern q: the middle columns
 * counted at once (a mask) and their weight.  Even N: one pass, no middle
 * queen (cols 0), with s's weight, or none when it is 0.  Odd N: one pass
 * per free column of the middle queen with a weight, or with `merge` one
 * per weight with all its columns.  Returns the number of passes. */
int qcj_set_passes(uint32_t s, uint32_t q, uint32_t m, int n, int flip, int merge, uint32_t cols[32],
                   int weight[32]);

#endif
