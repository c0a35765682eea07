/* SPDX-License-Identifier: MIT */
/*
 * colex.h — sets of columns of one size in colex order (by increasing
 * mask): binomial coefficients, the rank of a set, the set of a rank, and
 * the next set.  The band lists are indexed by the ranks of their column
 * sets (bands.h), a unit's column keys are walked in this order (unit.c),
 * and the plan counts keys and placements with the binomials (join.c).
 *
 * The rank of a set x with members p_0 < p_1 < ... < p_{r-1} is
 * sum_i C(p_i, i+1), so the sets of size r of t columns are ranked
 * 0..C(t,r)-1 in increasing order of their masks.
 */
#ifndef QCJ_COLEX_H
#define QCJ_COLEX_H

#include <stdint.h>

/* C(n, k), 0 when k < 0 or k > n; exact for n <= 62. */
static inline uint64_t qcj_binomial(int n, int k)
{
    if (k < 0 || k > n)
        return 0;
    if (k > n - k)
        k = n - k;
    uint64_t c = 1;
    for (int i = 1; i <= k; i++)
        c = c * (uint64_t)(n - k + i) / (uint64_t)i;   /* C(n-k+i, i): exact at every step */
    return c;
}

/* The at-th set (from 0) of `size` members in colex order. */
uint32_t qcj_colex_at(uint64_t at, int size);

/* The set of as many members after x in colex order (x nonzero; Gosper's
 * step: the lowest run of ones moves up by one, the rest of it drops to
 * the bottom). */
static inline uint32_t qcj_colex_next(uint32_t x)
{
    const uint32_t low = x & -x, up = x + low;
    return up | (((x ^ up) >> 2) / low);
}

/* [rank by bytes] Colex ranks of sets of up to 16 members inside 32
 * columns, by table: the rank of a set is four table lookups, one per
 * byte, each given how many members lie below that byte. */
typedef struct qcj_rank {
    uint32_t binom[33][17];          /* C(a, b) for b <= 16 */
    uint32_t chunk[4][17][256];      /* [byte][members below it][byte value] */
    uint8_t ones[256];               /* the members of a byte */
} qcj_rank;

void qcj_rank_init(qcj_rank *r);

/* The members of byte x: [byte popcount] where the level has no POPCNT
 * instruction (portable x86-64, whose __builtin_popcount is a library
 * call: 4% of N=17 at that level, in the ranks of the halves' splits), a
 * lookup. */
static inline int qcj_rank_ones(const qcj_rank *r, uint32_t x)
{
#if defined(__x86_64__) && !defined(__POPCNT__)
    return r->ones[x];
#else
    (void)r;
    return __builtin_popcount(x);
#endif
}

static inline uint32_t qcj_rank_of(const qcj_rank *r, uint32_t x)
{
    uint32_t v = r->chunk[0][0][x & 255u];
    int below = qcj_rank_ones(r, x & 255u);
    v += r->chunk[1][below][(x >> 8) & 255u];
    below += qcj_rank_ones(r, (x >> 8) & 255u);
    v += r->chunk[2][below][(x >> 16) & 255u];
    below += qcj_rank_ones(r, (x >> 16) & 255u);
    return v + r->chunk[3][below][x >> 24];
}

#endif
