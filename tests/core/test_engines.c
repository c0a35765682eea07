/* SPDX-License-Identifier: MIT */
/*
 * test_engines.c — the engines against each other and against the
 * published fundamental counts: same totals, the same fundamental count
 * through Burnside from each engine's own total, per-unit tallies that add
 * up to the run, and plans that are deterministic (same fingerprint when
 * built twice, different across engines and sizes).
 * Usage: test_engines TSV N_LO N_HI [ENGINE...] (default: every engine)
 */
#include <stdio.h>
#include <stdlib.h>

#include "check.h"
#include "known.h"


/* Counts a plan one unit at a time, on this thread. */
static qc_tally count_serially(const qc_plan *plan)
{
    qc_tally sum = {0};
    for (size_t u = 0; u < qc_plan_unit_count(plan); u++) {
        qc_tally t;
        CHECK(qc_plan_count_unit(plan, u, &t) == QC_OK, "unit %zu failed", u);
        sum.solutions += t.solutions;
        sum.steps += t.steps;
    }
    return sum;
}

/* One engine's n-plan: built twice alike (its fingerprint in *print),
 * counted unit by unit and by qc_run alike, against the published total
 * (in *total) and, through Burnside, the published fundamental count.
 * Returns 0 when the plan was not built. */
static int check_engine(const known_count *known, int n, qc_engine_id e, qc_u128 r90,
                        qc_u128 r180, uint64_t *print, qc_u128 *total)
{
    const char *name = qc_engine_name(e);
    qc_plan *plan, *again;
    if (qc_plan_create(&plan, n, e) != QC_OK || qc_plan_create(&again, n, e) != QC_OK) {
        CHECK(0, "%s n=%d: plan not built", name, n);
        return 0;
    }
    *print = qc_plan_fingerprint(plan);
    CHECK(*print == qc_plan_fingerprint(again) &&
          qc_plan_unit_count(plan) == qc_plan_unit_count(again),
          "%s n=%d: two builds differ", name, n);
    qc_tally serial = count_serially(plan);
    qc_run_options opts = {.size = sizeof opts, .threads = 2, .bind = 0};
    qc_result r;
    CHECK(qc_run(again, &opts, &r) == QC_OK, "%s n=%d: run failed", name, n);
    char got[48], want[48];
    CHECK(serial.solutions == known[n].total, "%s n=%d: total %s, want %s", name, n,
          qc_u128_format(serial.solutions, got), qc_u128_format(known[n].total, want));
    CHECK(r.total == serial.solutions && r.steps == serial.steps,
          "%s n=%d: the run and the units disagree", name, n);
    CHECK(n < 5 || serial.steps > 0, "%s n=%d: no placements counted", name, n);
    qc_u128 unique = qc_fundamental_count(n, serial.solutions, r90, r180);
    CHECK(unique == known[n].unique, "%s n=%d: unique %s, want %s", name, n,
          qc_u128_format(unique, got), qc_u128_format(known[n].unique, want));
    *total = serial.solutions;
    qc_plan_free(plan);
    qc_plan_free(again);
    return 1;
}

int main(int argc, char **argv)
{
    if (argc < 4) {
        fprintf(stderr, "usage: %s TSV N_LO N_HI [ENGINE...]\n", argv[0]);
        return 2;
    }
    known_count known[QC_N_MAX + 1] = {{0, 0}};
    known_load(argv[1], known);
    const int lo = atoi(argv[2]), hi = atoi(argv[3]);
    /* the engines: the public ids 0.. as far as qc_engine_name knows them */
    int engines = 0;
    while (qc_engine_name((qc_engine_id)engines))
        engines++;
    CHECK(engines == QC_ENGINE_BRUTE + 1, "qc_engine_name knows %d engines", engines);
    int use[QC_ENGINE_BRUTE + 1];
    for (int e = 0; e < engines; e++)
        use[e] = argc == 4;
    for (int a = 4; a < argc; a++) {
        qc_engine_id e;
        if (qc_engine_lookup(argv[a], &e) != QC_OK) {
            fprintf(stderr, "unknown engine %s\n", argv[a]);
            return 2;
        }
        use[e] = 1;
    }

    /* the default by measurement: join from N=14, eightfold below */
    CHECK(qc_engine_default(14) == QC_ENGINE_JOIN && qc_engine_default(32) == QC_ENGINE_JOIN,
          "the default engine from N=14 is not join, the fastest");
    CHECK(qc_engine_default(13) == QC_ENGINE_EIGHTFOLD && qc_engine_default(1) == QC_ENGINE_EIGHTFOLD,
          "the default engine below N=14 is not eightfold");
    uint64_t previous[QC_ENGINE_BRUTE + 1] = {0};
    for (int n = lo; n <= hi; n++) {
        qc_u128 r90, r180;
        CHECK(qc_symmetric_counts(n, &r90, &r180, NULL) == QC_OK, "n=%d: symmetric counts", n);
        qc_u128 first_total = 0;
        int first = -1;
        uint64_t prints[QC_ENGINE_BRUTE + 1] = {0};
        for (int e = 0; e < engines; e++) {
            if (!use[e])
                continue;
            qc_u128 total;
            if (!check_engine(known, n, (qc_engine_id)e, r90, r180, &prints[e], &total))
                continue;
            CHECK(prints[e] != previous[e], "%s n=%d: same fingerprint as n-1",
                  qc_engine_name((qc_engine_id)e), n);
            previous[e] = prints[e];
            if (first < 0) {
                first = e;
                first_total = total;
            }
            CHECK(total == first_total, "%s n=%d: disagrees with %s", qc_engine_name((qc_engine_id)e),
                  n, qc_engine_name((qc_engine_id)first));
        }
        for (int e = 0; e < engines; e++)
            for (int f = e + 1; f < engines; f++)
                CHECK(!use[e] || !use[f] || prints[e] != prints[f],
                      "n=%d: engines %d and %d share a fingerprint", n, e, f);
    }

    /* the eightfold split: thousands of units at N=16 for load balance, and
     * plans build for every N up to the maximum */
    qc_plan *plan;
    CHECK(qc_plan_create(&plan, 16, QC_ENGINE_EIGHTFOLD) == QC_OK, "n=16 plan");
    CHECK(qc_plan_unit_count(plan) >= 1000, "n=16: only %zu units", qc_plan_unit_count(plan));
    qc_plan_free(plan);
    CHECK(qc_plan_create(&plan, QC_N_MAX, QC_ENGINE_EIGHTFOLD) == QC_OK, "n=%d plan", QC_N_MAX);
    CHECK(qc_plan_unit_count(plan) > 0, "n=%d: no units", QC_N_MAX);
    qc_plan_free(plan);

    return check_report("engines");
}
