/* SPDX-License-Identifier: MIT */
/*
 * sample.c — what a board too big to count here costs: counts a sample of
 * its plan's work units on this thread and reports CPU time per solution,
 * the whole board's CPU time extrapolated by the plan's cost estimates, and
 * the process's peak memory.
 *
 *   qcount_sample N [ENGINE] [--every K] [--first U] [--max-units U]
 *
 * --every K counts units 0, K, 2K, ... (plan order: largest estimated
 * first), --first U the U first (the largest: the peak memory of a
 * thread), --max-units U stops after U counted.  stdout: one line of
 * `key value` pairs.  Exit 2 on bad input, 1 when a unit fails.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>

#include "qcount.h"

static double thread_cpu_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static int usage(const char *why)
{
    fprintf(stderr, "qcount_sample: %s\nusage: qcount_sample N [ENGINE] [--every K] [--first U] "
                    "[--max-units U]\n", why);
    return 2;
}

/* A positive count from text, or 0. */
static unsigned long count_of(const char *s)
{
    char *end;
    errno = 0;
    unsigned long v = strtoul(s, &end, 10);
    return errno || *end || end == s || s[0] == '-' ? 0 : v;
}

int main(int argc, char **argv)
{
    int n = 0;
    qc_engine_id engine = QC_ENGINE_JOIN;
    int engine_given = 0;
    unsigned long every = 1, first = 0, max_units = 0;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        unsigned long *opt = !strcmp(a, "--every") ? &every : !strcmp(a, "--first") ? &first
                           : !strcmp(a, "--max-units") ? &max_units : NULL;
        if (opt) {
            if (i + 1 >= argc || (*opt = count_of(argv[++i])) == 0)
                return usage("a positive count must follow");
        } else if (!n) {
            unsigned long v = count_of(a);
            if (v < 1 || v > 32)
                return usage("N must be 1..32");
            n = (int)v;
        } else if (!engine_given && qc_engine_lookup(a, &engine) == QC_OK) {
            engine_given = 1;
        } else {
            return usage("unexpected argument");
        }
    }
    if (!n)
        return usage("N is missing");
    if (!engine_given)
        engine = qc_engine_default(n);
    qc_plan *plan;
    if (qc_plan_create(&plan, n, engine) != QC_OK)
        return usage("cannot plan this board");
    const size_t units = qc_plan_unit_count(plan);
    double est_all = 0, est_done = 0, cpu = 0;
    qc_u128 solutions = 0;
    size_t counted = 0;
    for (size_t u = 0; u < units; u++)
        est_all += qc_plan_unit_cost(plan, u);
    for (size_t u = 0; u < units; u++) {
        if (first ? u >= first : u % every != 0)
            continue;
        if (max_units && counted >= max_units)
            break;
        qc_tally t;
        double t0 = thread_cpu_seconds();
        if (qc_plan_count_unit(plan, u, &t) != QC_OK) {
            fprintf(stderr, "qcount_sample: unit %zu failed\n", u);
            qc_plan_free(plan);
            return 1;
        }
        cpu += thread_cpu_seconds() - t0;
        solutions += t.solutions;
        est_done += qc_plan_unit_cost(plan, u);
        counted++;
    }
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    const double sols = (double)solutions;
    printf("n %d engine %s units %zu counted %zu estimated_share %.6f cpu_s %.3f solutions %.6g "
           "ns_per_solution %.3f whole_cpu_s_estimate %.4g peak_rss_mib %.1f\n",
           n, qc_engine_name(engine), units, counted, est_all > 0 ? est_done / est_all : 0, cpu,
           sols, sols > 0 ? cpu * 1e9 / sols : 0, est_done > 0 ? cpu * est_all / est_done : 0,
           (double)ru.ru_maxrss / 1024.0);
    qc_plan_free(plan);
    return 0;
}
