/* SPDX-License-Identifier: MIT */
/*
 * count_progress.c — counting an N-Queens board through libqcount's public
 * API, with a progress callback: qcount's embedding example.
 *
 *   count_progress N [THREADS]
 *
 * prints the progress to stderr as units finish and the total to stdout;
 * exits 0, 1 on a library error, 2 on bad arguments.
 */
#include <stdio.h>
#include <stdlib.h>

#include <qcount.h>

/* Called once before counting and after each finished unit, one call at a
 * time; prints each tenth of the way, so that the output stays short. */
static void on_progress(void *ctx, const qc_progress *p)
{
    size_t *shown = ctx;
    size_t tenth = p->units_total ? p->units_done * 10 / p->units_total : 10;
    if (p->units_done > 0 && tenth == *shown)
        return;
    *shown = tenth;
    fprintf(stderr, "progress: %zu of %zu units, %.3f s\n", p->units_done, p->units_total,
            p->seconds);
}

static long parse(const char *s, long lo, long hi)
{
    char *end;
    long v = strtol(s, &end, 10);
    return *s && !*end && v >= lo && v <= hi ? v : -1;
}

int main(int argc, char **argv)
{
    /* the library found at run time must be of these headers' major
     * version, whose ABI this program was built for */
    if (qc_version() / 10000 != QC_VERSION_MAJOR) {
        fprintf(stderr, "libqcount %s, built for %s\n", qc_version_string(), QC_VERSION);
        return 1;
    }
    long n = argc > 1 ? parse(argv[1], QC_N_MIN, QC_N_MAX) : -1;
    long threads = argc > 2 ? parse(argv[2], 0, 4096) : 0;
    if (argc > 3 || n < 0 || threads < 0) {
        fprintf(stderr, "usage: %s N [THREADS]   (N from %d to %d; THREADS 0: one per core)\n",
                argv[0], QC_N_MIN, QC_N_MAX);
        return 2;
    }

    qc_plan *plan;
    int rc = qc_plan_create(&plan, (int)n, qc_engine_default((int)n));
    if (rc != QC_OK) {
        fprintf(stderr, "qc_plan_create: %s\n", qc_strerror(rc));
        return 1;
    }
    size_t shown = (size_t)-1;
    qc_run_options opts = {.size = sizeof opts, .threads = (int)threads, .bind = QC_BIND_PIN,
                           .hook_ctx = &shown, .progress = on_progress};
    qc_result result;
    rc = qc_run(plan, &opts, &result);
    qc_plan_free(plan);
    if (rc != QC_OK) {
        fprintf(stderr, "qc_run: %s\n", qc_strerror(rc));
        return 1;
    }
    char total[48];
    printf("%s\n", qc_u128_format(result.total, total));
    fprintf(stderr, "%zu units on %d threads in %.3f s (libqcount %s)\n", result.units,
            result.threads, result.seconds, qc_version_string());
    return 0;
}
