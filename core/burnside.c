/* SPDX-License-Identifier: MIT */
/*
 * burnside.c — fundamental solutions (OEIS A002562) by Burnside's lemma,
 * for any engine: two small searches count the solutions that a half turn
 * and a quarter turn leave unchanged, and qc_fundamental_count combines
 * them with the total.  Pure: no threads, no I/O.
 *
 * The formula.  The dihedral group G of the square (8 elements: identity,
 * quarter turns r and r^3, half turn r^2, four reflections) acts on the set
 * of solutions; the fundamental solutions are its orbits.  Burnside's lemma
 * says #orbits = (1/|G|) * sum over g in G of |Fix(g)|.  Here
 *   Fix(id)          = all solutions: the total T;
 *   Fix(r) = Fix(r^3) = R90: a board fixed by r is fixed by r^3 = r^-1 and
 *                       conversely;
 *   Fix(r^2)         = R180 (it includes the R90 boards);
 *   Fix(reflection)  = empty for N > 1:
 *     - left-right mirror: each row's queen would be in the middle column,
 *       N queens in one column; top-bottom mirror likewise with a row;
 *     - transpose (r,c) -> (c,r): a queen off the main diagonal comes with
 *       its image, and (i,j), (j,i) share the anti-diagonal i+j; so every
 *       queen is on the main diagonal, where two queens attack each other;
 *     - anti-transpose (r,c) -> (n-1-c, n-1-r): likewise, (i,j) and its
 *       image share the diagonal r-c, and the anti-diagonal holds one queen.
 * Hence for N > 1:  unique = (T + 2*R90 + R180) / 8.  For N = 1 the lone
 * queen is fixed by all eight and unique = 1.
 *
 * The searches.  A half-turn-symmetric board is decided by its top half:
 * the queen (r,c) brings (n-1-r, n-1-c), so rows are filled in pairs from
 * the top down, and for odd N the middle row's queen must be its own image,
 * the centre.  A quarter-turn-symmetric board is decided by orbits of four
 * queens (r,c), (c,n-1-r), (n-1-r,n-1-c), (n-1-c,r); the middle row and
 * column of odd N again force the centre, so such boards exist only for
 * N = 4k or 4k+1 (the orbits of 4 must cover the other rows).  Both
 * searches keep diagonals as 64-bit masks indexed r+c and c-r+n-1.
 */
#include "qcount.h"

typedef struct sym_search {
    int n;
    uint32_t full;
    uint64_t steps;
} sym_search;

/* Half turn: rows r and n-1-r are filled together, r = 0..n/2-1.  Row r
 * sees column c attacked when bit r+c of d1 or bit c-r+n-1 of d2 is set. */
static uint64_t r180_rows(sym_search *s, int r, uint32_t cols, uint64_t d1, uint64_t d2)
{
    const int n = s->n;
    if (r == n / 2)
        return 1;
    const int mirror_row = n - 1 - r;
    /* the pair (r,c), (n-1-r,n-1-c) attacks itself when c = r (both on
     * the diagonal c-r = 0) or c = n-1-r (both on the anti-diagonal n-1) */
    uint32_t free = s->full & ~(cols | (uint32_t)(d1 >> r) | (uint32_t)(d2 >> mirror_row)
                                | 1u << r | 1u << mirror_row);
    uint64_t found = 0;
    while (free) {
        int c = __builtin_ctz(free);
        free &= free - 1;
        int mc = n - 1 - c;
        s->steps += 2;
        found += r180_rows(s, r + 1, cols | 1u << c | 1u << mc,
                           d1 | 1ull << (r + c) | 1ull << (mirror_row + mc),
                           d2 | 1ull << (c - r + n - 1) | 1ull << (mc - mirror_row + n - 1));
    }
    return found;
}

typedef struct r90_board {
    uint32_t rows, cols;
    uint64_t d1, d2;
} r90_board;

/* Places a queen on (r,c) unless a queen already attacks it. */
static int r90_put(r90_board *b, int n, int r, int c)
{
    uint64_t a = 1ull << (r + c), e = 1ull << (c - r + n - 1);
    if ((b->rows >> r & 1) || (b->cols >> c & 1) || (b->d1 & a) || (b->d2 & e))
        return 0;
    b->rows |= 1u << r;
    b->cols |= 1u << c;
    b->d1 |= a;
    b->d2 |= e;
    return 1;
}

/* Quarter turn: the first empty row r gets a queen (r,c) and its orbit. */
static uint64_t r90_orbits(sym_search *s, r90_board b)
{
    const int n = s->n;
    if (b.rows == s->full)
        return 1;
    const int r = __builtin_ctz(~b.rows);
    uint64_t found = 0;
    for (int c = 0; c < n; c++) {
        r90_board next = b;
        if (r90_put(&next, n, r, c) && r90_put(&next, n, c, n - 1 - r) &&
            r90_put(&next, n, n - 1 - r, n - 1 - c) && r90_put(&next, n, n - 1 - c, r)) {
            s->steps += 4;
            found += r90_orbits(s, next);
        }
    }
    return found;
}

int qc_symmetric_counts(int n, qc_u128 *r90, qc_u128 *r180, uint64_t *steps)
{
    if (!r90 || !r180 || n < QC_N_MIN || n > QC_N_MAX)
        return QC_EINVAL;
    sym_search s = {.n = n, .full = n >= 32 ? 0xffffffffu : (1u << n) - 1u, .steps = 0};
    const int m = (n - 1) / 2;      /* the centre, for odd n */
    uint32_t cols = 0;
    uint64_t d1 = 0, d2 = 0;
    if (n & 1) {
        cols = 1u << m;
        d1 = 1ull << (2 * m);
        d2 = 1ull << (n - 1);
    }
    *r180 = r180_rows(&s, 0, cols, d1, d2);
    *r90 = 0;
    if (n % 4 == 0 || n % 4 == 1) {
        r90_board b = {0, 0, 0, 0};
        if (n & 1)
            r90_put(&b, n, m, m);
        *r90 = r90_orbits(&s, b);
    }
    if (steps)
        *steps = s.steps;
    return QC_OK;
}

qc_u128 qc_fundamental_count(int n, qc_u128 total, qc_u128 r90, qc_u128 r180)
{
    if (n < QC_N_MIN || n > QC_N_MAX)
        return 0;
    if (n == 1)
        return total;   /* the lone queen: fixed by all 8 symmetries */
    return (total + 2 * r90 + r180) / 8;
}
