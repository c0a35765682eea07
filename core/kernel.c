/*
 * kernel.c — the counting loop every backtracking engine ends in.
 *
 * Depth-first search with an explicit stack (no calls, no recursion).  Per
 * placement: take the lowest free bit, clear it from the row's free set,
 * derive the next row's three masks.  Tricks, each named where it is used:
 *   [last-row popcount]  the queens of the final row are never placed one by
 *                         one: the row before it adds popcount(free) at once;
 *   [free set on stack]   each level keeps only the free squares still to
 *                         try plus its three masks, so a pop is one decrement;
 *   [shift-off]           diagonals are shifted in 32-bit words: bits that
 *                         leave the board fall off instead of being masked;
 *   [stop check]          with a stop flag, the top rows are walked by a
 *                         small recursion that reads the flag before each
 *                         subtree of QCK_STOP_ROWS rows, and the loop below
 *                         counts those subtrees untouched: the hot path
 *                         pays nothing for being interruptible.
 */
#include "kernel.h"

_Thread_local const int *qck_stop_flag;

/* Rows of the subtrees between two readings of the stop flag: at N=27 a
 * subtree of 10 rows is some 10^5 placements, well under a millisecond. */
#define QCK_STOP_ROWS 10

static uint64_t count_loop(int n, qck_board b, int rows_left, uint64_t *placements)
{
    const uint32_t full = qck_full_mask(n);
    if (rows_left <= 0)
        return 1;
    uint32_t free0 = qck_free(b, full);
    if (rows_left == 1) {
        uint64_t c = (uint64_t)__builtin_popcount(free0);
        *placements += c;
        return c;
    }

    /* Level d holds the board above row d (of the rows left) and the free
     * squares of row d not yet tried.  Level `last` is the next-to-last row:
     * its children are counted by [last-row popcount]. */
    uint32_t cols[32], diag_l[32], diag_r[32], todo[32];
    const int last = rows_left - 2;
    uint64_t solutions = 0, placed = 0;
    int d = 0;
    cols[0] = b.cols;
    diag_l[0] = b.diag_l;
    diag_r[0] = b.diag_r;
    todo[0] = free0;

    for (;;) {
        uint32_t t = todo[d];
        if (t == 0) {                     /* row exhausted: back up        */
            if (--d < 0)
                break;
            continue;
        }
        uint32_t bit = t & -t;            /* lowest free square             */
        todo[d] = t & (t - 1);            /* ... no longer to try           */
        uint32_t c = cols[d] | bit;
        uint32_t l = (diag_l[d] | bit) << 1;   /* [shift-off]               */
        uint32_t r = (diag_r[d] | bit) >> 1;
        uint32_t f = full & ~(c | l | r);
        placed++;
        if (d == last) {                  /* [last-row popcount]            */
            uint32_t k = (uint32_t)__builtin_popcount(f);
            solutions += k;
            placed += k;
            continue;
        }
        d++;                              /* descend: push the child row    */
        cols[d] = c;
        diag_l[d] = l;
        diag_r[d] = r;
        todo[d] = f;
    }
    *placements += placed;
    return solutions;
}

/* [stop check] Walks the rows above the last QCK_STOP_ROWS one queen at a
 * time, reading the flag before each subtree; a stop returns a partial
 * count (the caller drops it). */
static uint64_t count_stoppable(int n, qck_board b, int rows_left, uint64_t *placements,
                                const int *stop)
{
    if (rows_left <= QCK_STOP_ROWS)
        return __atomic_load_n(stop, __ATOMIC_RELAXED) ? 0
                                                       : count_loop(n, b, rows_left, placements);
    uint64_t solutions = 0;
    for (uint32_t f = qck_free(b, qck_full_mask(n)); f; f &= f - 1) {
        (*placements)++;
        solutions += count_stoppable(n, qck_place(b, f & -f), rows_left - 1, placements, stop);
        if (__atomic_load_n(stop, __ATOMIC_RELAXED))
            break;                 /* unwind at once, not node by node */
    }
    return solutions;
}

uint64_t qck_count_completions(int n, qck_board b, int rows_left,
                               uint64_t *placements)
{
    const int *stop = qck_stop_flag;
    if (stop && rows_left > QCK_STOP_ROWS)
        return count_stoppable(n, b, rows_left, placements, stop);
    return count_loop(n, b, rows_left, placements);
}
