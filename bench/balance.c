/* SPDX-License-Identifier: MIT */
/*
 * balance.c — how evenly a plan's work units spread over T workers.
 *
 * Times every unit of one (N, engine) plan on this thread (CPU time), then schedules
 * the measured times greedily in plan order over T = 1..64 workers (each
 * unit to the worker that is free first, as the dynamic scheduler hands
 * them out) and prints, for each T, the speed-up that schedule allows and
 * its efficiency.  The schedule ignores start-up, memory and the machine:
 * a real run can do worse, never better, so these are upper bounds.
 *
 *   qcount_balance N [ENGINE] [--max-threads T] [--units]
 *
 * stdout: the table; with --units, first one line per unit (index, seconds,
 * share of all work, share of the plan's estimated work).  A line also says
 * how well the plan's estimates (qc_plan_unit_cost, which the progress
 * line's ETA uses) track the measured work: the measured share done when
 * the estimates say 10%, in plan order.  Exit 2 on bad input, 1 when a
 * unit fails.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "qcount.h"

/* The CPU time of this thread: a unit's cost, untouched by other
 * processes that share the machine. */
static double thread_cpu_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* Makespan of the units' times handed out in order to `workers` workers,
 * each unit to the worker that is free first.  free_at has room for
 * `workers` entries. */
static double greedy_makespan(const double *cost, size_t units, int workers, double *free_at)
{
    for (int w = 0; w < workers; w++)
        free_at[w] = 0;
    double end = 0;
    for (size_t u = 0; u < units; u++) {
        int first = 0;
        for (int w = 1; w < workers; w++)
            if (free_at[w] < free_at[first])
                first = w;
        free_at[first] += cost[u];
        if (free_at[first] > end)
            end = free_at[first];
    }
    return end;
}

static int usage(const char *why)
{
    fprintf(stderr, "qcount_balance: %s\n"
                    "usage: qcount_balance N [ENGINE] [--max-threads T] [--units]\n", why);
    return 2;
}

/* Parses a whole decimal number in [lo, hi]; returns 0 on success. */
static int parse_int(const char *s, long lo, long hi, long *out)
{
    char *end;
    errno = 0;
    long v = strtol(s, &end, 10);
    if (errno || end == s || *end || v < lo || v > hi)
        return -1;
    *out = v;
    return 0;
}

/* Every unit counted and timed into cost[] (thread CPU seconds); the
 * summary line, with --units a line a unit, and how far off an ETA from
 * the estimated costs would be at a tenth of the work.  *work: the
 * measured work in all.  Returns 0, or 1 when a unit fails. */
static int measure_units(const qc_plan *plan, qc_engine_id engine, long n, int list_units,
                         double *cost, double *work_out)
{
    const size_t units = qc_plan_unit_count(plan);
    double work = 0, largest = 0;
    qc_u128 total = 0;
    for (size_t u = 0; u < units; u++) {
        qc_tally t;
        double t0 = thread_cpu_seconds();
        if (qc_plan_count_unit(plan, u, &t) != QC_OK) {
            fprintf(stderr, "qcount_balance: unit %zu failed (out of memory)\n", u);
            return 1;
        }
        cost[u] = thread_cpu_seconds() - t0;
        total += t.solutions;
        work += cost[u];
        if (cost[u] > largest)
            largest = cost[u];
    }
    char buf[48];
    printf("# N=%ld engine=%s units=%zu total=%s work=%.6f s largest unit=%.2f%%\n", n,
           qc_engine_name(engine), units, qc_u128_format(total, buf), work,
           work > 0 ? 100 * largest / work : 0.0);
    double estimated = 0;
    for (size_t u = 0; u < units; u++)
        estimated += qc_plan_unit_cost(plan, u);
    if (list_units)
        for (size_t u = 0; u < units; u++)
            printf("unit %zu %.6f %.4f%% %.4f%%\n", u, cost[u], work > 0 ? 100 * cost[u] / work : 0.0,
                   estimated > 0 ? 100 * qc_plan_unit_cost(plan, u) / estimated : 0.0);
    double est_done = 0, done = 0;
    for (size_t u = 0; u < units && est_done < 0.1 * estimated; u++) {
        est_done += qc_plan_unit_cost(plan, u);
        done += cost[u];
    }
    printf("# estimates: at %.1f%% of the estimated work, %.1f%% of the measured work is done "
           "(an ETA then is off by %+.0f%%)\n", estimated > 0 ? 100 * est_done / estimated : 0.0,
           work > 0 ? 100 * done / work : 0.0,
           est_done > 0 && work > 0 ? 100 * ((done / work) / (est_done / estimated) - 1) : 0.0);
    *work_out = work;
    return 0;
}

int main(int argc, char **argv)
{
    long n = -1, max_threads = 64;
    int list_units = 0;
    const char *engine_name = NULL;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--units") == 0)
            list_units = 1;
        else if (strcmp(argv[i], "--max-threads") == 0) {
            if (++i == argc || parse_int(argv[i], 1, 4096, &max_threads))
                return usage("--max-threads needs a number from 1 to 4096");
        } else if (n < 0) {
            if (parse_int(argv[i], QC_N_MIN, QC_N_MAX, &n))
                return usage("N must be a number from 1 to 32");
        } else if (!engine_name)
            engine_name = argv[i];
        else
            return usage("too many arguments");
    }
    if (n < 0)
        return usage("missing N");
    qc_engine_id engine = qc_engine_default((int)n);
    if (engine_name && qc_engine_lookup(engine_name, &engine) != QC_OK)
        return usage("unknown engine");

    qc_plan *plan;
    if (qc_plan_create(&plan, (int)n, engine) != QC_OK)
        return usage("the plan could not be built");
    size_t units = qc_plan_unit_count(plan);
    double *cost = malloc(sizeof *cost * (units ? units : 1));
    double *free_at = malloc(sizeof *free_at * (size_t)max_threads);
    if (!cost || !free_at) {
        fprintf(stderr, "qcount_balance: out of memory\n");
        return 1;
    }
    double work;
    if (measure_units(plan, engine, n, list_units, cost, &work) != 0)
        return 1;
    printf("%-8s %-12s %-10s\n", "threads", "speedup", "efficiency");
    for (int w = 1; w <= max_threads; w++) {
        double span = greedy_makespan(cost, units, w, free_at);
        double speedup = span > 0 ? work / span : 1.0;
        printf("%-8d %-12.2f %-10.3f\n", w, speedup, speedup / w);
    }
    free(cost);
    free(free_at);
    qc_plan_free(plan);
    return 0;
}
