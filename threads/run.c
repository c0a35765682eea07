/*
 * run.c — the scheduler: counts a plan's work units over OpenMP threads.
 *
 * Units are handed out one at a time from a shared counter (schedule
 * dynamic, chunk 1): units differ in size by orders of magnitude, so static
 * shares would leave threads idle.  Each thread sums into its own tally,
 * padded to a cache line so that no two threads write the same line (false
 * sharing), and the tallies are added once at the end.
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

    thread_tally *tallies = aligned_alloc(64, sizeof(thread_tally) * (size_t)threads);
    if (!tallies) {
        qct_topology_close(topo);
        return QC_ENOMEM;
    }
    memset(tallies, 0, sizeof(thread_tally) * (size_t)threads);
    int ran = threads;   /* OpenMP may grant fewer than asked for */
    const long units = (long)qc_plan_unit_count(plan);
    double start = now_seconds();

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
            qc_tally t;
            qc_plan_count_unit(plan, (size_t)i, &t);
            mine.solutions += t.solutions;
            mine.placements += t.placements;
            mine.units++;
        }
        tallies[me] = mine;
    }

    result->seconds = now_seconds() - start;
    result->total = 0;
    result->placements = 0;
    result->units = 0;
    for (int i = 0; i < threads; i++) {
        result->total += tallies[i].solutions;
        result->placements += tallies[i].placements;
        result->units += tallies[i].units;
    }
    result->threads = ran;
    free(tallies);
    qct_topology_close(topo);
    return QC_OK;
}
