/* SPDX-License-Identifier: MIT */
/*
 * halving.c — the mirror-halving engine: the baseline of the design card.
 *
 * Reflecting a solution left-right gives another solution, never the same
 * one (for N>1 no row's queen sits on its own mirror image in every row),
 * so it is enough to count solutions whose first-row queen is in the left
 * half and double.  For odd N the first-row queen may also stand in the
 * middle column, which is its own mirror image: the classic trap.  Then the
 * second-row queen cannot be in the middle (same column), so it is in the
 * left or the right half, and mirroring swaps the two: count those with the
 * second-row queen on the left, and double those too.
 *
 * Work units are all legal placements of the first `depth` rows under those
 * rules, each with its weight (2, or 1 for the lone queen of N=1).
 */
#include <stdlib.h>

#include "config.h"
#include "fingerprint.h"
#include "kernel/kernel.h"
#include "plan.h"

typedef struct halving_unit {
    qck_board board;   /* the board below the prefix: row `depth` is next */
    uint32_t weight;   /* solutions counted from this unit stand for this many */
} halving_unit;

typedef struct halving_data {
    int depth;
    halving_unit *units;
} halving_data;

/* Enumerates the prefixes of `depth` rows; stores them when `out` is set.
 * Returns how many there are. */
static size_t halving_walk(int n, int depth, int row, qck_board b,
                           int middle_first, halving_unit *out, size_t at)
{
    const uint32_t full = qck_full_mask(n);
    if (row == depth) {
        if (out) {
            out[at].board = b;
            out[at].weight = n == 1 ? 1 : 2;
        }
        return 1;
    }
    uint32_t free = qck_free(b, full);
    if (row == 0) {
        /* the left half, plus the middle column of odd N */
        free &= qck_full_mask(n / 2) | (n & 1 ? 1u << (n / 2) : 0);
    } else if (row == 1 && middle_first) {
        free &= qck_full_mask(n / 2);
    }
    size_t count = 0;
    while (free) {
        uint32_t bit = free & -free;
        free &= free - 1;
        int mid = row == 0 && (n & 1) && bit == 1u << (n / 2);
        count += halving_walk(n, depth, row + 1, qck_place(b, bit),
                              row == 0 ? mid : middle_first, out, at + count);
    }
    return count;
}

/* Units wanted: QCH_UNITS, doubled per step of N past QCH_GROW_FROM_N
 * (config.h). */
static size_t halving_target_units(int n)
{
    int extra = n > QCH_GROW_FROM_N ? n - QCH_GROW_FROM_N : 0;
    if (extra > QCH_MAX_DOUBLINGS)
        extra = QCH_MAX_DOUBLINGS;
    return (size_t)QCH_UNITS << extra;
}

static int halving_build(qc_plan *plan)
{
    const int n = plan->n;
    const qck_board empty = {0, 0, 0};
    /* odd N >= 3 needs the second row in the prefix (middle-column rule) */
    int depth = (n & 1) && n >= 3 ? 2 : 1;
    int max_depth = n > 3 ? n - 2 : n;
    size_t want = halving_target_units(n);
    while (depth < max_depth && halving_walk(n, depth, 0, empty, 0, NULL, 0) < want)
        depth++;

    halving_data *data = malloc(sizeof *data);
    if (!data)
        return QC_ENOMEM;
    size_t count = halving_walk(n, depth, 0, empty, 0, NULL, 0);
    data->depth = depth;
    data->units = malloc((count ? count : 1) * sizeof *data->units);
    if (!data->units) {
        free(data);
        return QC_ENOMEM;
    }
    halving_walk(n, depth, 0, empty, 0, data->units, 0);

    uint64_t h = qc_fingerprint_mix(0, QC_ENGINE_HALVING);
    h = qc_fingerprint_mix(h, (uint64_t)n);
    h = qc_fingerprint_mix(h, (uint64_t)depth);
    for (size_t i = 0; i < count; i++) {
        const halving_unit *u = &data->units[i];
        h = qc_fingerprint_mix(h, (uint64_t)u->board.cols << 32 | u->weight);
        h = qc_fingerprint_mix(h, (uint64_t)u->board.diag_l << 32 | u->board.diag_r);
    }
    plan->fingerprint = h;
    plan->unit_count = count;
    plan->engine_data = data;
    return QC_OK;
}

static int halving_count_unit(const qc_plan *plan, size_t unit, qc_tally *out)
{
    const halving_data *data = plan->engine_data;
    const halving_unit *u = &data->units[unit];
    uint64_t found = 0, placed = 0;
    int rc = qck_count_completions_now(plan->n, u->board, plan->n - data->depth, &found, &placed);
    out->solutions = (qc_u128)found * u->weight;
    out->steps = placed;
    return rc;
}

static void halving_release(qc_plan *plan)
{
    halving_data *data = plan->engine_data;
    if (data) {
        free(data->units);
        free(data);
    }
}

const qci_engine_ops qch_ops = {
    .name = "halving",
    .build = halving_build,
    .count_unit = halving_count_unit,
    .release = halving_release,
};
