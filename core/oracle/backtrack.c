/* SPDX-License-Identifier: MIT */
/*
 * backtrack.c — [backtrack oracle] the independent recount of a described
 * unit (qcount.h, qc_case_count, qc_plan_backtrack_unit): a plain search
 * row by row with bitmasks, each row's queen kept to its case's columns.
 * It reads a unit through the public description alone and includes
 * nothing of any engine: no bands, halves, keys, tables or AND loop, so
 * that a bug in the join's building blocks cannot be counted again the
 * same way.
 */
#include <stdlib.h>

#include "qcount.h"

/* [stop check] Queens placed between two readings of the stop flag. */
#define BACKTRACK_STOP_EVERY (1u << 20)

/* [look ahead] Whether rows `from` .. from + BACKTRACK_AHEAD - 2 (those
 * of them above the last) each keep a column free of the queens so far
 * (their columns cols, their diagonals left and right as seen from row
 * from - 1), ignoring the queens between: a row with none ends the branch
 * before it is searched.  Measured on three N=20 units: 0.82-0.89 of the
 * time of no look-ahead, 3 rows about as good as 5 or all
 * (performance-log.md, "2026-12-01 — the record plan's profiles on known
 * boards; the independent recount's cost at N=22 to 28; a real N=28 audit by
 * backtracking"). */
#define BACKTRACK_AHEAD 3

static inline int rows_ahead_open(const uint32_t *rows, int from, int n, uint32_t full,
                                  uint32_t cols, uint32_t left, uint32_t right)
{
    for (int r = from; r < from + BACKTRACK_AHEAD - 1 && r < n; r++) {
        left <<= 1;
        right >>= 1;
        if (!(rows[r] & full & ~(cols | left | right)))
            return 0;
    }
    return 1;
}

int qc_case_count(int n, const qc_unit_case *c, const int *stop, qc_u128 *solutions,
                  uint64_t *placements)
{
    if (solutions)
        *solutions = 0;
    if (!c || !solutions || n < QC_N_MIN || n > QC_N_MAX)
        return QC_EINVAL;
    const uint32_t full = n == 32 ? UINT32_MAX : (1u << n) - 1u;
    /* Row r's state as its queen is chosen: the columns and the two
     * diagonal directions attacked from the rows above (shifted to row
     * r), and the columns still to try. */
    uint32_t cols[QC_N_MAX], left[QC_N_MAX], right[QC_N_MAX], todo[QC_N_MAX];
    qc_u128 found = 0;
    uint64_t found_now = 0, placed = 0, next_check = BACKTRACK_STOP_EVERY;
    int r = 0;
    cols[0] = left[0] = right[0] = 0;
    todo[0] = c->rows[0] & full;
    if (n == 1) {
        found = (unsigned)__builtin_popcount(todo[0]);
        placed = (uint64_t)found;
    }
    while (n > 1) {
        if (todo[r] == 0) {
            if (r == 0)
                break;
            r--;
            continue;
        }
        const uint32_t bit = todo[r] & -todo[r];
        todo[r] ^= bit;
        placed++;
        const uint32_t cn = cols[r] | bit, ln = (left[r] | bit) << 1, rn = (right[r] | bit) >> 1;
        const uint32_t next = c->rows[r + 1] & full & ~(cn | ln | rn);
        if (r + 1 == n - 1) {               /* the last row: its free columns are solutions */
            const unsigned last = (unsigned)__builtin_popcount(next);
            found_now += last;
            placed += last;
        } else if (next && rows_ahead_open(c->rows, r + 2, n, full, cn, ln, rn)) {
            r++;
            cols[r] = cn;
            left[r] = ln;
            right[r] = rn;
            todo[r] = next;
        }
        if (placed >= next_check) {         /* [stop check], and the count carried */
            next_check = placed + BACKTRACK_STOP_EVERY;
            found += found_now;             /* under 2^64: at most 33 a queen placed */
            found_now = 0;
            if (stop && __atomic_load_n(stop, __ATOMIC_RELAXED))
                return QC_ESTOP;
        }
    }
    *solutions = found + found_now;
    if (placements)
        *placements += placed;
    return QC_OK;
}

/* qc_plan_backtrack_unit's walk over the cases. */
typedef struct backtrack_walk {
    int n;
    const int *stop;
    qc_tally sum;
    int rc;
} backtrack_walk;

static int backtrack_case(void *ctx, const qc_unit_case *c)
{
    backtrack_walk *w = ctx;
    qc_u128 found;
    w->rc = qc_case_count(w->n, c, w->stop, &found, &w->sum.placements);
    if (w->rc != QC_OK)
        return 1;
    w->sum.solutions += found * c->weight;
    return 0;
}

int qc_plan_backtrack_unit(const qc_plan *plan, size_t unit, const int *stop, qc_tally *out)
{
    if (!out)
        return QC_EINVAL;
    out->solutions = 0;
    out->placements = 0;
    backtrack_walk w = {.n = qc_plan_n(plan), .stop = stop, .rc = QC_OK};
    int rc = qc_plan_unit_describe(plan, unit, backtrack_case, &w);
    if (rc == QC_EHOOK)
        rc = w.rc;                          /* the case's own error */
    if (rc == QC_OK)
        *out = w.sum;
    return rc;
}
