/* SPDX-License-Identifier: MIT */
/*
 * minconflicts.c — a random solution for a big board by local search, after
 * Sosic and Gu ("Efficient local search with conflict minimization: a case
 * study of the n-queens problem", IEEE TKDE 1994, their QS4).
 *
 * The queens always form a permutation (one per row and per column), so
 * only diagonals can clash; moves swap the columns of two rows.  Counters
 * per diagonal give the collisions (queens on a diagonal past the first,
 * summed over diagonals) and the change a swap makes, in O(1).
 *   [greedy start]  row by row, swap in a random column from the rows still
 *                   unplaced until one lands on two free diagonals (at most
 *                   GREEDY_TRIES tries; the last GREEDY_TAIL rows just take
 *                   a random one): only a few dozen queens end in conflict,
 *                   whatever n, and this phase is linear in n.
 *   [repair]        for each queen in conflict, swap it with random rows
 *                   until a swap lowers the collisions; rescan for the
 *                   queens still in conflict; repeat until none.
 *   [restart]       after STALL_PASSES passes without progress (small
 *                   boards have local minima), start afresh: the random
 *                   stream just goes on, so the run stays reproducible.
 * The generator is our own (xoshiro256** seeded by splitmix64, both by
 * Blackman and Vigna), so a seed gives the same board on every platform.
 */
#include <stdlib.h>

#include "qcount_solutions.h"

enum { GREEDY_TRIES = 64, GREEDY_TAIL = 32, STALL_PASSES = 16 };

/* ---- random numbers ------------------------------------------------ */

typedef struct mc_rng {
    uint64_t s[4];
} mc_rng;

static uint64_t splitmix64(uint64_t *x)
{
    uint64_t z = (*x += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

static inline uint64_t rotl(uint64_t x, int k)
{
    return (x << k) | (x >> (64 - k));
}

static uint64_t xoshiro_next(mc_rng *g)      /* xoshiro256** */
{
    uint64_t *s = g->s;
    uint64_t result = rotl(s[1] * 5, 7) * 9;
    uint64_t t = s[1] << 17;
    s[2] ^= s[0];
    s[3] ^= s[1];
    s[1] ^= s[2];
    s[0] ^= s[3];
    s[2] ^= t;
    s[3] = rotl(s[3], 45);
    return result;
}

/* Uniform in [0, bound), bound > 0: Lemire's multiply-and-reject. */
static uint64_t below(mc_rng *g, uint64_t bound)
{
    unsigned __int128 m = (unsigned __int128)xoshiro_next(g) * bound;
    uint64_t low = (uint64_t)m;
    if (low < bound) {
        uint64_t threshold = -bound % bound;
        while (low < threshold) {
            m = (unsigned __int128)xoshiro_next(g) * bound;
            low = (uint64_t)m;
        }
    }
    return (uint64_t)(m >> 64);
}

/* ---- the board ----------------------------------------------------- */

typedef struct mc_board {
    size_t n;
    uint32_t *q;            /* q[r]: column of row r's queen (a permutation) */
    uint32_t *anti;         /* queens on each r + c diagonal                */
    uint32_t *diag;         /* queens on each r - c + n - 1 diagonal        */
    uint64_t collisions;    /* sum over diagonals of (queens - 1), if > 0   */
} mc_board;

static inline void mc_add(mc_board *b, size_t r)
{
    size_t c = b->q[r];
    b->collisions += (b->anti[r + c]++ > 0) + (b->diag[r - c + b->n - 1]++ > 0);
}

static inline void mc_remove(mc_board *b, size_t r)
{
    size_t c = b->q[r];
    b->collisions -= (--b->anti[r + c] > 0) + (--b->diag[r - c + b->n - 1] > 0);
}

static inline int mc_conflicted(const mc_board *b, size_t r)
{
    size_t c = b->q[r];
    return b->anti[r + c] > 1 || b->diag[r - c + b->n - 1] > 1;
}

static inline void mc_swap_columns(mc_board *b, size_t i, size_t j)
{
    uint32_t t = b->q[i];
    b->q[i] = b->q[j];
    b->q[j] = t;
}

/* Swaps the columns of rows i != j if that lowers the collisions; returns
 * whether it did. */
static int mc_try_swap(mc_board *b, size_t i, size_t j)
{
    uint64_t before = b->collisions;
    mc_remove(b, i);
    mc_remove(b, j);
    mc_swap_columns(b, i, j);
    mc_add(b, i);
    mc_add(b, j);
    if (b->collisions < before)
        return 1;
    mc_remove(b, i);                        /* no better: undo */
    mc_remove(b, j);
    mc_swap_columns(b, i, j);
    mc_add(b, i);
    mc_add(b, j);
    return 0;
}

/* [greedy start] */
static void mc_greedy_start(mc_board *b, mc_rng *g)
{
    const size_t n = b->n;
    for (size_t c = 0; c < 2 * n - 1; c++)
        b->anti[c] = b->diag[c] = 0;
    for (size_t r = 0; r < n; r++)
        b->q[r] = (uint32_t)r;
    b->collisions = 0;
    for (size_t r = 0; r < n; r++) {
        size_t j = r + below(g, n - r);
        if (r + GREEDY_TAIL < n) {
            for (int t = 1; t < GREEDY_TRIES; t++) {
                size_t c = b->q[j];
                if (b->anti[r + c] == 0 && b->diag[r - c + n - 1] == 0)
                    break;
                j = r + below(g, n - r);
            }
        }
        mc_swap_columns(b, r, j);
        mc_add(b, r);
    }
}

int qc_minconflicts(size_t n, uint64_t seed, uint32_t *cols, qc_minconflicts_stats *stats)
{
    qc_minconflicts_stats st = {0, 0, 0};
    if (!cols || n == 0 || n == 2 || n == 3 || n > (size_t)1 << 31)
        return QC_EINVAL;
    mc_board b = {.n = n, .q = cols};
    b.anti = malloc((2 * n - 1) * sizeof *b.anti);
    b.diag = malloc((2 * n - 1) * sizeof *b.diag);
    uint32_t *todo = malloc(n * sizeof *todo);     /* rows in conflict */
    if (!b.anti || !b.diag || !todo) {
        free(b.anti);
        free(b.diag);
        free(todo);
        return QC_ENOMEM;
    }
    mc_rng g;
    uint64_t x = seed;
    for (int k = 0; k < 4; k++)
        g.s[k] = splitmix64(&x);

    mc_greedy_start(&b, &g);
    int stalled = 0, first = 1;
    while (b.collisions > 0) {
        /* [repair]: one pass over the queens in conflict */
        size_t count = 0;
        for (size_t r = 0; r < n; r++)
            if (mc_conflicted(&b, r))
                todo[count++] = (uint32_t)r;
        if (first) {
            st.initial_conflicts = count;
            first = 0;
        }
        int progress = 0;
        const uint64_t tries = 64 + n;
        for (size_t k = 0; k < count; k++) {
            size_t i = todo[k];
            if (!mc_conflicted(&b, i))
                continue;
            for (uint64_t t = 0; t < tries; t++) {
                size_t j = below(&g, n);
                if (j != i && mc_try_swap(&b, i, j)) {
                    st.swaps++;
                    progress = 1;
                    break;
                }
            }
        }
        stalled = progress ? 0 : stalled + 1;
        if (stalled >= STALL_PASSES) {      /* [restart] */
            st.restarts++;
            stalled = 0;
            mc_greedy_start(&b, &g);
        }
    }
    free(b.anti);
    free(b.diag);
    free(todo);
    if (stats)
        *stats = st;
    return QC_OK;
}
