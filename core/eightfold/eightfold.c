/* SPDX-License-Identifier: MIT */
/*
 * eightfold.c — the 8-fold engine: all eight symmetries of the square.
 *
 * Work units are constellations (constellations.h): one queen pre-placed on
 * each border line — first row, last row, first column, last column — as in the
 * published "constellation" / Q27 "coronal" counters.  Every solution has
 * exactly one constellation, so the constellations split the solutions;
 * only the canonical one of each orbit under the dihedral group is kept and
 * its completions count |orbit| = 2, 4 or 8 times (constellations.c proves
 * it; the self-symmetric constellations, with orbits of 2 and 4, are the
 * trap).
 * Somewhat under N^4/8 units (the attacking ones drop out): 730 at N=12,
 * 3206 at N=16, 9522 at N=20, 38604 at N=27 — fine-grained enough for
 * dynamic scheduling.  Units are numbered in the order (top, bottom, left,
 * right) ascending, and the fingerprint digests every unit's constellation
 * and weight.
 *
 * The search of a unit fills the interior rows, skipping the rows of the
 * pre-placed left/right queens; the pre-placed queens never move, so their
 * attacks on every interior row are one precomputed mask per row (rows.h).
 * Rows go in [middle-out order], diagonals are [absolute diagonals], and
 * the loop is the branch-free interleaved kernel (lanes.c), which reads
 * the scheduler's stop flag once per subtree ([stop check], with [deep
 * seeds]).  Small N needs no special case: N=1 is the one
 * constellation (0,0,0,0), fixed by all 8 symmetries (class size 1); N=2,
 * 3 have no legal constellation; units with fewer than 4 rows to fill
 * (N <= 7 only) take the plain loop, qce_count_plain.
 *
 * Measured at N=16, one thread, CPU time, same run (performance-log.md,
 * "2026-11-22 — the backtracking engines, the modes, the ledger's syncs"):
 * 172 M placements (halving: 571 M), 0.82 s against halving's 3.7 s.
 */
#include <stdlib.h>

#include "config.h"
#include "constellations.h"
#include "eightfold.h"
#include "fingerprint.h"
#include "lanes.h"
#include "plan.h"

typedef struct ef_unit {
    qce_constellation k;
    uint8_t weight;            /* orbit size: 1 (N=1), 2, 4 or 8 */
} ef_unit;

typedef struct ef_data {
    ef_unit *units;
} ef_data;

/* Walks all constellations in key order; stores the canonical ones when
 * `out` is set.  Returns how many there are. */
static size_t ef_walk(int n, ef_unit *out)
{
    size_t count = 0;
    qce_constellation k;
    for (int top = 0; top < n; top++)
        for (int bottom = 0; bottom < n; bottom++)
            for (int left = 0; left < n; left++)
                for (int right = 0; right < n; right++) {
                    k.top = (int8_t)top;
                    k.bottom = (int8_t)bottom;
                    k.left = (int8_t)left;
                    k.right = (int8_t)right;
                    int size;
                    if (!qce_legal(n, k) || !qce_canonical(n, k, &size))
                        continue;
                    if (out) {
                        out[count].k = k;
                        out[count].weight = (uint8_t)size;
                    }
                    count++;
                }
    return count;
}

static int ef_build(qc_plan *plan)
{
    const int n = plan->n;
    ef_data *data = malloc(sizeof *data);
    if (!data)
        return QC_ENOMEM;
    size_t count = ef_walk(n, NULL);
    data->units = malloc((count ? count : 1) * sizeof *data->units);
    if (!data->units) {
        free(data);
        return QC_ENOMEM;
    }
    ef_walk(n, data->units);

    uint64_t h = qc_fingerprint_mix(0, QC_ENGINE_EIGHTFOLD);
    h = qc_fingerprint_mix(h, (uint64_t)n);
    for (size_t i = 0; i < count; i++) {
        const ef_unit *u = &data->units[i];
        h = qc_fingerprint_mix(h, (uint64_t)qce_key(u->k) << 8 | u->weight);
    }
    plan->fingerprint = h;
    plan->unit_count = count;
    plan->engine_data = data;
    return QC_OK;
}

int qce_count_unit_with(const qc_plan *plan, size_t unit, int stop_rows, qc_tally *out)
{
    if (plan->engine != QC_ENGINE_EIGHTFOLD || unit >= plan->unit_count || stop_rows < 2)
        return QC_EINVAL;   /* the walk must stop above the [two-row finish] */
    const ef_data *data = plan->engine_data;
    const ef_unit *u = &data->units[unit];
    qce_rows rows;
    qce_rows_build(plan->n, u->k, &rows);
    uint64_t found = 0, placed = 0;
    int rc = qce_count_rows_now(&rows, stop_rows, &found, &placed);
    out->solutions = (qc_u128)found * u->weight;
    out->steps = placed;
    return rc;
}

static int ef_count_unit(const qc_plan *plan, size_t unit, qc_tally *out)
{
    return qce_count_unit_with(plan, unit, QCE_STOP_ROWS, out);
}

static void ef_release(qc_plan *plan)
{
    ef_data *data = plan->engine_data;
    if (data) {
        free(data->units);
        free(data);
    }
}

const qci_engine_ops qce_ops = {
    .name = "eightfold",
    .build = ef_build,
    .count_unit = ef_count_unit,
    .release = ef_release,
};
