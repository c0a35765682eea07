/* SPDX-License-Identifier: MIT */
/*
 * test_sampling.c — the sampler's statistics (bench/sampling.h) against
 * the published totals, with no timing: the number of solutions of
 * N=16..20 estimated from seeded random samples of units, each unit
 * counted whole or, as qcount_sample --sets and --joins do, by one random
 * part of its column sets and of their joins, scaled up.
 *   - calibration: over 10 seeds a board, the 95% intervals cover Q(N) in
 *     at least 42 of the 50 samples (a correct interval misses 2.5 in 50
 *     on average; 9 misses would be a 1-in-2000 event);
 *   - convergence: over 8 other seeds, the estimates from 128 units are
 *     nearer Q(N) on average than those from 16, and their intervals
 *     narrower.
 * Also the draw itself: each stratum's units and estimated cost add up to
 * the plan's, and the same seed draws the same units.
 * Usage: test_sampling KNOWN_TSV
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "join/probe.h"
#include "qcount.h"
#include "sampling.h"
#include "check.h"
#include "known.h"

/* Solutions of unit u: whole (sets 0), or one random part of about
 * `sets` column sets, and of those one random part of 4 of their joins
 * ([sampled joins]), times the number of parts. */
static double unit_solutions(const qc_plan *plan, size_t u, uint64_t sets, uint64_t *state)
{
    qcj_probe pr;
    if (qcj_probe_start(plan, u, &pr) != QC_OK)
        return NAN;
    const uint64_t parts = sets && pr.keys > sets ? (pr.keys + sets - 1) / sets : 1;
    const uint64_t j = parts > 1 ? qcb_next(state) % parts : 0;
    const uint32_t joins = sets ? 4 : 0, jpart = joins ? (uint32_t)(qcb_next(state) % joins) : 0;
    qc_tally t;
    const int rc = qcj_probe_sets(&pr, pr.keys * j / parts, pr.keys * (j + 1) / parts, joins, jpart,
                                  &t);
    qcj_probe_end(&pr);
    return rc == QC_OK ? (double)parts * (joins ? joins : 1) * (double)t.solutions : NAN;
}

/* The estimate of the plan's solutions from `units` units in 8 strata. */
static qcb_estimate estimate(const qc_plan *plan, const double *cost, size_t units, uint64_t seed,
                             uint64_t sets)
{
    qcb_sample s;
    qcb_estimate e = {NAN, NAN, 0};
    if (qcb_draw(cost, qc_plan_unit_count(plan), 8, units / 8, seed, &s) != 0)
        return e;
    double *y = malloc(s.count * sizeof *y);
    uint64_t state = seed ^ 0x5851f42d4c957f2dULL;
    for (size_t i = 0; y && i < s.count; i++)
        y[i] = unit_solutions(plan, s.unit[i], sets, &state);
    if (y)
        e = qcb_total(&s, y);
    free(y);
    qcb_sample_free(&s);
    return e;
}

/* The draw: strata add up to the plan, and a seed draws the same units. */
static void test_draw(const double *cost, size_t units)
{
    qcb_sample a, b;
    CHECK(qcb_draw(cost, units, 8, 4, 7, &a) == 0 && qcb_draw(cost, units, 8, 4, 7, &b) == 0);
    size_t all = 0, same = a.count == b.count;
    double all_cost = 0, cost_sum = 0;
    for (int h = 0; h < a.strata; h++) {
        all += a.units_in[h];
        all_cost += a.cost_in[h];
    }
    for (size_t u = 0; u < units; u++)
        cost_sum += cost[u];
    for (size_t i = 0; same && i < a.count; i++)
        same = a.unit[i] == b.unit[i];
    CHECK(all == units && fabs(all_cost - cost_sum) <= 1e-9 * cost_sum, "strata cover the plan");
    CHECK(same, "a seed draws the same units");
    CHECK(a.count == 32, "%zu units drawn", a.count);
    qcb_sample_free(&a);
    qcb_sample_free(&b);
}

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: %s KNOWN_TSV\n", argv[0]);
        return 2;
    }
    static known_count known[QC_N_MAX + 1];
    known_load(argv[1], known);
    int covered = 0, samples = 0;
    for (int n = 16; n <= 20; n++) {
        qc_plan *plan;
        if (qc_plan_create(&plan, n, QC_ENGINE_JOIN) != QC_OK) {
            CHECK(0, "n=%d: no plan", n);
            continue;
        }
        const size_t units = qc_plan_unit_count(plan);
        double *cost = malloc(units * sizeof *cost);
        for (size_t u = 0; u < units; u++)
            cost[u] = qc_plan_unit_cost(plan, u);
        if (n == 16)
            test_draw(cost, units);
        const double q = (double)known[n].total;
        const uint64_t sets = n >= 19 ? 16 : 0;   /* parts of units, as --sets does */
        for (uint64_t seed = 1; seed <= 10; seed++) {
            const qcb_estimate e = estimate(plan, cost, 32, seed, sets);
            covered += fabs(e.value - q) <= e.half_width;
            samples++;
        }
        double err_small = 0, err_large = 0, hw_small = 0, hw_large = 0;
        for (uint64_t seed = 101; seed <= 108; seed++) {
            const qcb_estimate small = estimate(plan, cost, 16, seed, sets);
            const qcb_estimate large = estimate(plan, cost, 128, seed, sets);
            err_small += fabs(small.value - q) / q;
            err_large += fabs(large.value - q) / q;
            hw_small += small.half_width / q;
            hw_large += large.half_width / q;
        }
        printf("n=%d: mean error 16 units %.4f (interval +-%.4f), 128 units %.4f (+-%.4f)\n", n,
               err_small / 8, hw_small / 8, err_large / 8, hw_large / 8);
        CHECK(err_large < err_small && hw_large < hw_small, "n=%d: 128 units no nearer Q(N) than 16",
              n);
        free(cost);
        qc_plan_free(plan);
    }
    printf("95%% intervals covering Q(N): %d of %d\n", covered, samples);
    CHECK(samples == 50 && covered >= 42, "only %d of %d intervals cover Q(N)", covered, samples);
    return check_report("sampling");
}
