/*
 * test_stop.c — the scheduler's resumable-run hooks and the kernel's stop
 * check: a stop flag left at zero changes no count and no placement; a
 * raised flag cuts a count short and the run reports QC_ESTOP; units known
 * in advance are added, not recounted, and every other unit reaches
 * unit_done exactly once; a failing unit_done stops the run (QC_EHOOK).
 * The eightfold engine's stop check as the kernel's: a zero flag changes
 * no unit's tally, on the two-row seeds and on [deep seeds] (eightfold.c
 * built again with 2 and 4 stop rows, so that small boards take them); a
 * flag raised before a unit ends it at once, and one raised while a unit
 * runs (N=19) cuts it short (how soon is printed, not tested: timings
 * belong in the benchmarks).  The join engine: a zero flag changes no
 * tally, a raised one ends a unit with QC_ESTOP, nothing counted.
 * Usage: test_stop KNOWN_TSV
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "kernel/kernel.h"
#include "known.h"
#include "plan.h"
#include "qcount.h"

/* eightfold.c built with EF_STOP_ROWS 2 and 4 (tests/CMakeLists.txt) */
extern const qc_engine_ops qc_eightfold_deep2_ops, qc_eightfold_deep4_ops;

static int failures;
#define CHECK(cond) do { if (!(cond)) { failures++; \
    fprintf(stderr, "%s:%d: CHECK failed: %s\n", __FILE__, __LINE__, #cond); } } while (0)

typedef struct hooks {
    const qc_plan *plan;
    unsigned *done_calls;     /* per unit: unit_done calls */
    size_t fail_after;        /* unit_done fails from this call on (0: never) */
    size_t calls;
    qc_progress last;
    size_t progress_calls;
} hooks;

static int known_even(void *ctx, size_t unit, qc_tally *out)
{
    hooks *h = ctx;
    if (unit % 2)
        return 0;
    CHECK(qc_plan_count_unit(h->plan, unit, out) == QC_OK);
    return 1;
}

static int record(void *ctx, size_t unit, const qc_tally *t)
{
    hooks *h = ctx;
    qc_tally want;
    CHECK(qc_plan_count_unit(h->plan, unit, &want) == QC_OK);
    CHECK(want.solutions == t->solutions && want.placements == t->placements);
    h->done_calls[unit]++;
    h->calls++;
    return h->fail_after && h->calls >= h->fail_after ? -1 : 0;
}

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static int same(qc_tally a, qc_tally b)
{
    return a.solutions == b.solutions && a.placements == b.placements;
}

/* Every unit of an engine's plans N=1..max against its tally with no flag:
 * a zero flag, and each variant (other ops over the same plan) under a zero
 * flag, give the same tally.  Under a raised flag the unit and each variant
 * return stop_rc (QC_OK: a partial tally; QC_ESTOP: cut short, dropped),
 * and from N=cut_from count no solution and do less work than the whole
 * unit, none at all when `nothing` is set. */
static void flag_tallies(const known_count *known, qc_engine_id engine, int max,
                         const qc_engine_ops *const *variant, int variants, int cut_from,
                         int nothing, int stop_rc)
{
    const char *name = qc_engine_name(engine);
    for (int n = 1; n <= max; n++) {
        qc_plan *plan;
        if (qc_plan_create(&plan, n, engine) != QC_OK) {
            CHECK(0);
            continue;
        }
        int zero = 0, one = 1, mismatches = 0, leaks = 0;
        qc_u128 sum = 0;
        for (size_t u = 0; u < qc_plan_unit_count(plan); u++) {
            qc_tally plain, t;
            qck_stop_flag = NULL;
            CHECK(qc_plan_count_unit(plan, u, &plain) == QC_OK);
            sum += plain.solutions;
            qck_stop_flag = &zero;
            CHECK(qc_plan_count_unit(plan, u, &t) == QC_OK);
            mismatches += !same(plain, t);
            for (int d = 0; d < variants; d++) {
                memset(&t, 0, sizeof t);
                CHECK(variant[d]->count_unit(plan, u, &t) == QC_OK);
                mismatches += !same(plain, t);
            }
            qck_stop_flag = &one;
            for (int d = 0; d <= variants; d++) {
                memset(&t, 0, sizeof t);
                if (d == variants)
                    CHECK(qc_plan_count_unit(plan, u, &t) == stop_rc);
                else
                    CHECK(variant[d]->count_unit(plan, u, &t) == stop_rc);
                int cut = t.solutions == 0
                          && (nothing ? t.placements == 0
                                      : plain.placements == 0 || t.placements < plain.placements);
                leaks += n >= cut_from && !cut;
            }
            qck_stop_flag = NULL;
        }
        if (mismatches || leaks)
            fprintf(stderr, "%s n=%d: %d tallies changed by a zero flag, %d units not cut short "
                    "by a raised one\n", name, n, mismatches, leaks);
        CHECK(mismatches == 0 && leaks == 0);
        CHECK(sum == known[n].total);
        qc_plan_free(plan);
    }
}

/* eightfold N=1..14, also the deep-seed builds: a raised flag lets a unit
 * do nothing at all (N >= 8: no unit there takes the plain loop). */
static void eightfold_flags(const known_count *known)
{
    const qc_engine_ops *deep[] = {&qc_eightfold_deep2_ops, &qc_eightfold_deep4_ops};
    flag_tallies(known, QC_ENGINE_EIGHTFOLD, 14, deep, 2, 8, 1, QC_OK);
}

/* join N=1..16: a flag raised before a unit ends it with QC_ESTOP (its
 * bands begun, nothing paired) and nothing counted. */
static void join_flags(const known_count *known)
{
    flag_tallies(known, QC_ENGINE_JOIN, 16, NULL, 0, 1, 0, QC_ESTOP);
}

typedef struct long_unit {
    const qc_plan *plan;
    int flag;           /* the stop flag, raised by the main thread */
    int done;
    double ended;
    qc_tally t;
} long_unit;

static void *count_long_unit(void *p)
{
    long_unit *lu = p;
    qck_stop_flag = &lu->flag;
    qc_plan_count_unit(lu->plan, 0, &lu->t);
    qck_stop_flag = NULL;
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
                "placements done\n", n, lu.ended - raised, (unsigned long long)lu.t.placements,
                (unsigned long long)whole.placements);
        CHECK(lu.t.placements < whole.placements);
    }
    qc_plan_free(plan);
}

/* The same unit counted whole under a zero flag, and its time in this
 * build (to raise the flag a tenth of the way in). */
static qc_tally eightfold_unit_whole(int n, double *seconds)
{
    qc_tally t = {0, 0};
    qc_plan *plan;
    if (qc_plan_create(&plan, n, QC_ENGINE_EIGHTFOLD) != QC_OK)
        return t;
    int zero = 0;
    qck_stop_flag = &zero;
    double t0 = now();
    CHECK(qc_plan_count_unit(plan, 0, &t) == QC_OK);
    *seconds = now() - t0;
    qck_stop_flag = NULL;
    qc_plan_free(plan);
    return t;
}

static void progress(void *ctx, const qc_progress *p)
{
    hooks *h = ctx;
    CHECK(p->units_done >= h->last.units_done);
    h->last = *p;
    h->progress_calls++;
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
        uint64_t p_plain = 0, p_flag = 0, p_stop = 0;
        int zero = 0, one = 1;
        uint64_t plain = qck_count_completions(n, empty, n, &p_plain);
        qck_stop_flag = &zero;
        uint64_t flagged = qck_count_completions(n, empty, n, &p_flag);
        qck_stop_flag = &one;
        uint64_t stopped = qck_count_completions(n, empty, n, &p_stop);
        qck_stop_flag = NULL;
        CHECK(plain == flagged && p_plain == p_flag);
        CHECK(plain == (uint64_t)known[n].total);
        /* raised from the start: at most one queen per row walked before
         * the first reading of the flag, not a walk of the top rows */
        if (n > 10)
            CHECK(stopped == 0 && p_stop <= (uint64_t)n);
    }

    eightfold_flags(known);
    join_flags(known);
    /* the two-row seeds: N=19's unit 0 (0.2 s in Release) counted whole,
     * then again stopped a tenth of the way in */
    double whole_seconds = 0;
    qc_tally whole = eightfold_unit_whole(19, &whole_seconds);
    eightfold_stop_while_running(19, whole_seconds / 10, whole);

    qc_plan *plan;
    if (qc_plan_create(&plan, 12, QC_ENGINE_HALVING) != QC_OK)
        return 1;
    const size_t units = qc_plan_unit_count(plan);
    hooks h = {.plan = plan, .done_calls = calloc(units, sizeof(unsigned))};
    int stop = 0;
    qc_run_options o = {.threads = 3, .bind = 0, .hook_ctx = &h, .unit_known = known_even,
                        .unit_done = record, .progress = progress, .stop = &stop};
    qc_result r;
    CHECK(qc_run(plan, &o, &r) == QC_OK);
    CHECK(r.total == known[12].total);
    CHECK(r.units == units && r.units_resumed == (units + 1) / 2);
    for (size_t u = 0; u < units; u++)
        CHECK(h.done_calls[u] == (u % 2 ? 1u : 0u));
    CHECK(h.last.units_done == units && h.last.units_total == units);
    CHECK(h.progress_calls == 1 + units / 2);

    /* a raised flag: nothing counted, QC_ESTOP */
    stop = 1;
    memset(h.done_calls, 0, units * sizeof(unsigned));
    memset(&h.last, 0, sizeof h.last);
    o.unit_known = NULL;
    CHECK(qc_run(plan, &o, &r) == QC_ESTOP);
    CHECK(r.units == 0 && r.total == 0);
    for (size_t u = 0; u < units; u++)
        CHECK(h.done_calls[u] == 0);

    /* a failing unit_done stops the run */
    stop = 0;
    h.calls = 0;
    memset(&h.last, 0, sizeof h.last);
    h.fail_after = 5;
    CHECK(qc_run(plan, &o, &r) == QC_EHOOK);
    CHECK(r.units < units);

    free(h.done_calls);
    qc_plan_free(plan);

    /* the eightfold engine under qc_run: a raised flag, QC_ESTOP */
    if (qc_plan_create(&plan, 16, QC_ENGINE_EIGHTFOLD) != QC_OK)
        return 1;
    qc_run_options eo = {.threads = 2, .bind = 0, .stop = &stop};
    stop = 1;
    CHECK(qc_run(plan, &eo, &r) == QC_ESTOP);
    CHECK(r.units == 0 && r.total == 0);
    qc_plan_free(plan);
    if (failures)
        fprintf(stderr, "%d checks failed\n", failures);
    else
        printf("stop: all checks passed\n");
    return failures != 0;
}
