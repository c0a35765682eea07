/* SPDX-License-Identifier: MIT */
/*
 * test_stop.c — the engines' stop checks ([stop check], core/kernel/kernel.h):
 * a stop flag left at zero changes no count and no placement; a raised
 * flag cuts a count short, and the engine says so (QC_ESTOP).  The kernel
 * and the halving engine on it; the eightfold engine, on the two-row seeds
 * and on [deep seeds] (counted with 2 and 4 stop rows through
 * qce_count_unit_with, so that small boards take them): a flag raised
 * before a unit ends it at once, and one raised while a unit runs (N=19)
 * cuts it short (how soon is printed, not tested: timings belong in the
 * benchmarks).  The join engine: a zero flag changes no tally, a raised
 * one ends a unit with QC_ESTOP before it pairs any column set.  Every engine through the public
 * qc_plan_count_unit_until: QC_ESTOP and a zero tally.
 * Usage: test_stop KNOWN_TSV
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "check.h"
#include "config.h"
#include "eightfold/eightfold.h"
#include "kernel/kernel.h"
#include "known.h"
#include "plan.h"

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static int same(qc_tally a, qc_tally b)
{
    return a.solutions == b.solutions && a.steps == b.steps;
}

/* One way to count a unit under the thread's stop flag, keeping the
 * partial tally of a unit cut short (qc_plan_count_unit would zero it). */
typedef int (*count_fn)(const qc_plan *plan, size_t unit, qc_tally *out);

static int engine_count(const qc_plan *plan, size_t unit, qc_tally *out)
{
    return plan->ops->count_unit(plan, unit, out);
}

static int eightfold_deep2(const qc_plan *plan, size_t unit, qc_tally *out)
{
    return qce_count_unit_with(plan, unit, 2, out);
}

static int eightfold_deep4(const qc_plan *plan, size_t unit, qc_tally *out)
{
    return qce_count_unit_with(plan, unit, 4, out);
}

/* Every unit of an engine's plans N=1..max against its tally with no flag:
 * the engine and each variant under a zero flag give the same tally.  From
 * N=cut_from, under a raised flag the engine and each variant count no
 * solution and do less work than the whole unit, none at all when
 * `nothing` is set, and say QC_ESTOP; through qc_plan_count_unit_until
 * every unit of every N gives QC_ESTOP and a zero tally. */
static void flag_tallies(const known_count *known, qc_engine_id engine, int max,
                         const count_fn *variant, int variants, int cut_from, int nothing)
{
    const char *name = qc_engine_name(engine);
    for (int n = 1; n <= max; n++) {
        qc_plan *plan;
        if (qc_plan_create(&plan, n, engine) != QC_OK) {
            CHECK(0);
            continue;
        }
        int zero = 0, one = 1, mismatches = 0, leaks = 0, silent = 0, kept = 0;
        qc_u128 sum = 0;
        for (size_t u = 0; u < qc_plan_unit_count(plan); u++) {
            qc_tally plain, t;
            qci_stop_flag = NULL;
            CHECK(qc_plan_count_unit(plan, u, &plain) == QC_OK);
            sum += plain.solutions;
            for (int d = 0; d <= variants; d++) {
                count_fn count = d == variants ? engine_count : variant[d];
                memset(&t, 0, sizeof t);
                qci_stop_flag = &zero;
                CHECK(count(plan, u, &t) == QC_OK);
                mismatches += !same(plain, t);
                memset(&t, 0, sizeof t);
                qci_stop_flag = &one;
                int rc = count(plan, u, &t);
                int cut = t.solutions == 0
                          && (nothing ? t.steps == 0
                                      : plain.steps == 0 || t.steps < plain.steps);
                leaks += n >= cut_from && !cut;
                silent += n >= cut_from && rc != QC_ESTOP;
            }
            qci_stop_flag = NULL;
            t.solutions = t.steps = 1;
            kept += qc_plan_count_unit_until(plan, u, &one, &t) != QC_ESTOP
                    || t.solutions != 0 || t.steps != 0;
        }
        CHECK(mismatches == 0 && leaks == 0 && silent == 0 && kept == 0,
              "%s n=%d: %d tallies changed by a zero flag, %d units not cut short by a raised "
              "one, %d cut without QC_ESTOP, %d stopped with a tally", name, n, mismatches, leaks,
              silent, kept);
        CHECK(sum == known[n].total);
        qc_plan_free(plan);
    }
}

/* eightfold N=1..14, also with 2 and 4 stop rows: a raised flag lets a
 * unit do nothing at all (N >= 8: no unit there takes the plain loop). */
static void eightfold_flags(const known_count *known)
{
    const count_fn deep[] = {eightfold_deep2, eightfold_deep4};
    flag_tallies(known, QC_ENGINE_EIGHTFOLD, 14, deep, 2, 8, 1);
    qc_plan *plan;
    CHECK(qc_plan_create(&plan, 12, QC_ENGINE_EIGHTFOLD) == QC_OK);
    qc_tally t;
    CHECK(qce_count_unit_with(plan, 0, 1, &t) == QC_EINVAL);
    CHECK(qce_count_unit_with(plan, qc_plan_unit_count(plan), 14, &t) == QC_EINVAL);
    qc_plan_free(plan);
    CHECK(qc_plan_create(&plan, 12, QC_ENGINE_HALVING) == QC_OK);
    CHECK(qce_count_unit_with(plan, 0, 14, &t) == QC_EINVAL);
    qc_plan_free(plan);
}

/* halving: its units end in the kernel, which reads the flag only above
 * its last QCK_STOP_ROWS rows: at N=16 the units have more rows left. */
static void halving_flags(const known_count *known)
{
    for (int n = 1; n <= 12; n++) {   /* a zero flag changes nothing */
        qc_plan *plan;
        CHECK(qc_plan_create(&plan, n, QC_ENGINE_HALVING) == QC_OK);
        int zero = 0, mismatches = 0;
        qc_u128 sum = 0;
        for (size_t u = 0; u < qc_plan_unit_count(plan); u++) {
            qc_tally plain, t;
            CHECK(qc_plan_count_unit(plan, u, &plain) == QC_OK);
            mismatches += qc_plan_count_unit_until(plan, u, &zero, &t) != QC_OK || !same(plain, t);
            sum += t.solutions;
        }
        CHECK(mismatches == 0 && sum == known[n].total, "halving n=%d: %d changed", n, mismatches);
        qc_plan_free(plan);
    }
    qc_plan *plan;
    CHECK(qc_plan_create(&plan, 16, QC_ENGINE_HALVING) == QC_OK);
    int one = 1;
    qc_tally whole, t = {0};
    CHECK(qc_plan_count_unit(plan, 0, &whole) == QC_OK);
    qci_stop_flag = &one;
    CHECK(plan->ops->count_unit(plan, 0, &t) == QC_ESTOP);
    qci_stop_flag = NULL;
    CHECK(t.solutions == 0 && t.steps < whole.steps, "halving n=16 unit 0: %llu of %llu",
          (unsigned long long)t.steps, (unsigned long long)whole.steps);
    qc_plan_free(plan);
}

/* join N=1..16: a flag raised before a unit lets it count no column set
 * (its bands are built or begun, nothing is paired). */
static void join_flags(const known_count *known)
{
    flag_tallies(known, QC_ENGINE_JOIN, 16, NULL, 0, 1, 0);
}

typedef struct long_unit {
    const qc_plan *plan;
    int flag;           /* the stop flag, raised by the main thread */
    int done;
    int rc;
    double ended;
    qc_tally t;
} long_unit;

static void *count_long_unit(void *p)
{
    long_unit *lu = p;
    qci_stop_flag = &lu->flag;
    lu->rc = engine_count(lu->plan, 0, &lu->t);
    qci_stop_flag = NULL;
    lu->ended = now();
    __atomic_store_n(&lu->done, 1, __ATOMIC_RELEASE);
    return NULL;
}

/* Unit 0 (a corner constellation, among the largest) of the eightfold
 * N-plan, stopped after `wait` seconds while it runs: it must come back cut
 * short, with less work done than `whole` (the unit counted unstopped).
 * How soon it came back is printed, not tested: timings belong in the
 * benchmarks (a subtree takes well under a millisecond in a Release
 * build).  A unit that had already ended when the flag rose proves
 * nothing, and is reported as skipped. */
static void eightfold_stop_while_running(int n, double wait, qc_tally whole)
{
    qc_plan *plan;
    if (qc_plan_create(&plan, n, QC_ENGINE_EIGHTFOLD) != QC_OK) {
        CHECK(0);
        return;
    }
    long_unit lu = {.plan = plan};
    pthread_t th;
    if (pthread_create(&th, NULL, count_long_unit, &lu) != 0) {
        CHECK(0);
        qc_plan_free(plan);
        return;
    }
    struct timespec pause = {(time_t)wait, (long)((wait - (double)(time_t)wait) * 1e9)};
    nanosleep(&pause, NULL);
    int running = !__atomic_load_n(&lu.done, __ATOMIC_ACQUIRE);
    double raised = now();
    __atomic_store_n(&lu.flag, 1, __ATOMIC_RELAXED);
    pthread_join(th, NULL);
    if (!running) {
        fprintf(stderr, "eightfold n=%d: unit 0 ended before the stop; skipped\n", n);
    } else {
        fprintf(stderr, "eightfold n=%d: unit 0 ended %.4f s after the stop, %llu of %llu "
                "placements done\n", n, lu.ended - raised, (unsigned long long)lu.t.steps,
                (unsigned long long)whole.steps);
        CHECK(lu.rc == QC_ESTOP && lu.t.steps < whole.steps);
    }
    qc_plan_free(plan);
}

/* The same unit counted whole under a zero flag, and its time in this
 * build (to raise the flag a tenth of the way in). */
static qc_tally eightfold_unit_whole(int n, double *seconds)
{
    qc_tally t = {0};
    qc_plan *plan;
    if (qc_plan_create(&plan, n, QC_ENGINE_EIGHTFOLD) != QC_OK)
        return t;
    int zero = 0;
    qci_stop_flag = &zero;
    double t0 = now();
    CHECK(qc_plan_count_unit(plan, 0, &t) == QC_OK);
    *seconds = now() - t0;
    qci_stop_flag = NULL;
    qc_plan_free(plan);
    return t;
}

int main(int argc, char **argv)
{
    if (argc != 2)
        return 2;
    known_count known[QC_N_MAX + 1] = {0};
    known_load(argv[1], known);

    /* kernel: a zero flag changes nothing, a raised one cuts short */
    for (int n = 4; n <= 14; n++) {
        qck_board empty = {0, 0, 0};
        uint64_t plain, flagged, stopped = 1, p_plain = 0, p_flag = 0, p_stop = 0;
        int zero = 0, one = 1;
        CHECK(qck_count_completions_now(n, empty, n, &plain, &p_plain) == QC_OK);
        qci_stop_flag = &zero;
        CHECK(qck_count_completions_now(n, empty, n, &flagged, &p_flag) == QC_OK);
        qci_stop_flag = &one;
        int rc = qck_count_completions_now(n, empty, n, &stopped, &p_stop);
        qci_stop_flag = NULL;
        CHECK(plain == flagged && p_plain == p_flag, "n=%d", n);
        CHECK(plain == (uint64_t)known[n].total, "n=%d", n);
        /* raised from the start: at most one queen per row walked before
         * the first reading of the flag, not a walk of the top rows; at
         * most QCK_STOP_ROWS rows the flag is not read */
        if (n > QCK_STOP_ROWS)
            CHECK(rc == QC_ESTOP && stopped == 0 && p_stop <= (uint64_t)n, "n=%d", n);
        else
            CHECK(rc == QC_OK && stopped == plain, "n=%d", n);
    }

    halving_flags(known);
    eightfold_flags(known);
    join_flags(known);
    /* the two-row seeds: N=19's unit 0 (0.2 s in Release) counted whole,
     * then again stopped a tenth of the way in */
    double whole_seconds = 0;
    qc_tally whole = eightfold_unit_whole(19, &whole_seconds);
    eightfold_stop_while_running(19, whole_seconds / 10, whole);
    return check_report("stop");
}
