/*
 * run.c — the scheduler: counts a plan's work units over OpenMP threads.
 *
 * Units are handed out one at a time from a shared counter (schedule
 * dynamic, chunk 1): units differ in size by orders of magnitude, so static
 * shares would leave threads idle.  Each thread sums into its own tally,
 * padded to a cache line so that no two threads write the same line (false
 * sharing), and the tallies are added once at the end.
 *
 * Resumable runs: units a ledger already holds (unit_known) are summed up
 * front and left out of the loop; each unit counted is handed to unit_done
 * and progress inside one critical section, so the hooks need no locks.
 * Stops: the workers read *stop before each unit, and the engines read it
 * inside long units (qc_plan_count_unit_until); a unit cut short is
 * dropped, never reported.
 * Failures: a unit that fails (out of memory) is dropped too, never
 * reported, and no worker starts another unit after it, as after a failed
 * unit_done; the units already under way finish and are reported, since
 * their tallies are right (a ledger keeps them for the next run).
 */
#include <omp.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "qcount.h"
#include "topology.h"

typedef struct thread_tally {
    _Alignas(64) qc_u128 solutions;
    qc_u128 placements;
    size_t units;
} thread_tally;

static double now_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

int qc_run(const qc_plan *plan, const qc_run_options *opts, qc_result *result)
{
    if (!plan || !result || (opts && opts->threads < 0))
        return QC_EINVAL;
    qct_topology *topo = qct_topology_open();
    int threads = opts && opts->threads > 0 ? opts->threads : qct_topology_core_count(topo);
    int bind = opts ? opts->bind : 1;
    if (!bind) {
        qct_topology_close(topo);
        topo = NULL;
    }

    const size_t unit_count = qc_plan_unit_count(plan);
    thread_tally *tallies = aligned_alloc(64, sizeof(thread_tally) * (size_t)threads);
    size_t *todo = malloc(sizeof *todo * (unit_count ? unit_count : 1));
    if (!tallies || !todo) {
        free(tallies);
        free(todo);
        qct_topology_close(topo);
        return QC_ENOMEM;
    }
    memset(tallies, 0, sizeof(thread_tally) * (size_t)threads);
    int ran = threads;   /* OpenMP may grant fewer than asked for */
    double start = now_seconds();

    /* Units known from a ledger are summed now and not counted again. */
    qc_result known = {0};
    long units = 0;
    for (size_t u = 0; u < unit_count; u++) {
        qc_tally t;
        if (opts && opts->unit_known && opts->unit_known(opts->hook_ctx, u, &t)) {
            known.total += t.solutions;
            known.placements += t.placements;
            known.units++;
        } else {
            todo[units++] = u;
        }
    }
    void *ctx = opts ? opts->hook_ctx : NULL;
    int (*unit_done)(void *, size_t, const qc_tally *) = opts ? opts->unit_done : NULL;
    void (*progress)(void *, const qc_progress *) = opts ? opts->progress : NULL;
    const int *stop = opts ? opts->stop : NULL;
    qc_progress where = {
        .units_done = known.units, .units_total = unit_count, .units_resumed = known.units,
    };
    if (progress)
        progress(ctx, &where);
    int hook_failed = 0, stopped = 0;
    int unit_failed = QC_OK;   /* the first failed unit's error */

    #pragma omp parallel num_threads(threads)
    {
        int me = omp_get_thread_num();
        #pragma omp single nowait
        ran = omp_get_num_threads();
        if (topo)
            qct_topology_pin_thread(topo, me);
        thread_tally mine = {0};
        #pragma omp for schedule(dynamic, 1) nowait
        for (long i = 0; i < units; i++) {
            if ((stop && __atomic_load_n(stop, __ATOMIC_RELAXED))
                || __atomic_load_n(&hook_failed, __ATOMIC_RELAXED)
                || __atomic_load_n(&unit_failed, __ATOMIC_RELAXED))
                continue;                 /* stopping: skip the rest fast */
            qc_tally t;
            int rc = qc_plan_count_unit_until(plan, todo[i], stop, &t);
            if (rc == QC_ESTOP)
                continue;                 /* cut short: drop it */
            if (rc != QC_OK) {            /* counted nothing: never report it */
                int none = QC_OK;
                __atomic_compare_exchange_n(&unit_failed, &none, rc, 0, __ATOMIC_RELAXED,
                                            __ATOMIC_RELAXED);
                continue;
            }
            mine.solutions += t.solutions;
            mine.placements += t.placements;
            mine.units++;
            if (unit_done || progress) {
                #pragma omp critical(qct_unit_done)
                {
                    if (unit_done && !hook_failed && unit_done(ctx, todo[i], &t) != 0)
                        __atomic_store_n(&hook_failed, 1, __ATOMIC_RELAXED);
                    where.units_done++;
                    where.placements += t.placements;
                    where.seconds = now_seconds() - start;
                    if (progress)
                        progress(ctx, &where);
                }
            }
        }
        tallies[me] = mine;
    }
    stopped = stop && __atomic_load_n(stop, __ATOMIC_RELAXED);

    result->seconds = now_seconds() - start;
    result->total = known.total;
    result->placements = known.placements;
    result->units = known.units;
    result->units_resumed = known.units;
    result->placements_resumed = known.placements;
    for (int i = 0; i < threads; i++) {
        result->total += tallies[i].solutions;
        result->placements += tallies[i].placements;
        result->units += tallies[i].units;
    }
    result->threads = ran;
    free(tallies);
    free(todo);
    qct_topology_close(topo);
    if (hook_failed)
        return QC_EHOOK;
    if (unit_failed != QC_OK)
        return unit_failed;
    return stopped && result->units < unit_count ? QC_ESTOP : QC_OK;
}
