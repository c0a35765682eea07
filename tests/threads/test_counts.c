/* SPDX-License-Identifier: MIT */
/*
 * test_counts.c — every engine's totals against the published counts, under
 * several thread counts.  Usage: test_counts TSV ENGINE N_LO N_HI THREADS...
 * where a thread count of 0 means "more threads than the plan has units".
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "known.h"

int main(int argc, char **argv)
{
    if (argc < 6) {
        fprintf(stderr, "usage: %s TSV ENGINE N_LO N_HI THREADS...\n", argv[0]);
        return 2;
    }
    known_count known[QC_N_MAX + 1] = {0};
    known_load(argv[1], known);
    qc_engine_id engine;
    if (qc_engine_lookup(argv[2], &engine) != QC_OK) {
        fprintf(stderr, "unknown engine %s\n", argv[2]);
        return 2;
    }
    int lo = atoi(argv[3]), hi = atoi(argv[4]);
    for (int n = lo; n <= hi; n++) {
        qc_plan *plan;
        int built = qc_plan_create(&plan, n, engine) == QC_OK;
        CHECK(built, "n=%d", n);
        if (!built)
            continue;
        for (int a = 5; a < argc; a++) {
            int threads = atoi(argv[a]);
            if (threads == 0)   /* more threads than units, as far as a run takes */
                threads = qc_plan_unit_count(plan) + 3 < QC_THREADS_MAX
                          ? (int)qc_plan_unit_count(plan) + 3 : QC_THREADS_MAX;
            qc_run_options opts = {.size = sizeof opts, .threads = threads, .bind = 1};
            qc_result r;
            int rc = qc_run(plan, &opts, &r);
            char got[48], want[48];
            qc_u128_format(r.total, got);
            qc_u128_format(known[n].total, want);
            int ok = rc == QC_OK && r.total == known[n].total && r.units == qc_plan_unit_count(plan);
            CHECK(ok, "%s n=%d threads=%d: got %s, want %s (rc %d, units %zu of %zu)",
                  argv[2], n, threads, got, want, rc, r.units, qc_plan_unit_count(plan));
            if (ok)
                printf("ok   %s n=%d threads=%d: %s (%zu units)\n", argv[2], n, r.threads, got, r.units);
        }
        qc_plan_free(plan);
    }
    return check_report("counts");
}
