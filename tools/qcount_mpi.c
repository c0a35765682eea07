/*
 * qcount_mpi.c — the qcount program when an MPI launcher started it
 * (mpirun, srun): join the job, count across its ranks, and let rank 0
 * alone print — the total on stdout, as in a plain run, and the per-rank
 * report (units, busy seconds) on stderr, so imbalance is visible.
 */
#include <stdio.h>

#include "mpi_run.h"
#include "qcount_mpi.h"

static void print_report(const qct_mpi_result *r)
{
    fprintf(stderr, "qcount: %d ranks, %d threads, %zu units in %.3f s\n", r->ranks,
            r->total.threads, r->total.units, r->total.seconds);
    for (int i = 0; i < r->ranks; i++) {
        const qct_mpi_rank_stats *s = &r->per_rank[i];
        double use = s->wall_seconds > 0 && s->threads > 0
                     ? 100.0 * s->busy_seconds / (s->wall_seconds * s->threads) : 0.0;
        fprintf(stderr, "qcount: rank %d (%s, %d threads): %zu units, busy %.3f s of %.3f s x %d (%.0f%%)\n",
                s->rank, s->host, s->threads, s->units, s->busy_seconds, s->wall_seconds,
                s->threads, use);
    }
}

static void print_json(const qc_options *o, const qct_mpi_result *r)
{
    char total[48], placements[48];
    qc_u128_format(r->total.total, total);
    qc_u128_format(r->total.placements, placements);
    double rate = r->total.seconds > 0 ? (double)r->total.placements / r->total.seconds : 0.0;
    printf("{\"n\": %d, \"total\": %s, \"engine\": \"%s\", \"threads\": %d, "
           "\"seconds\": %.6f, \"units\": %zu, \"placements\": %s, "
           "\"placements_per_second\": %.0f, \"ranks\": [",
           o->n, total, qc_engine_name(o->engine), r->total.threads, r->total.seconds,
           r->total.units, placements, rate);
    for (int i = 0; i < r->ranks; i++) {
        const qct_mpi_rank_stats *s = &r->per_rank[i];
        qc_u128_format(s->placements, placements);
        printf("%s{\"rank\": %d, \"host\": \"", i ? ", " : "", s->rank);
        for (const char *p = s->host; *p; p++)   /* host names are tame; stay valid JSON anyway */
            putchar(*p == '"' || *p == '\\' || (unsigned char)*p < 0x20 ? '?' : *p);
        printf("\", \"threads\": %d, \"units\": %zu, \"busy_seconds\": %.6f, "
               "\"wall_seconds\": %.6f, \"placements\": %s}",
               s->threads, s->units, s->busy_seconds, s->wall_seconds, placements);
    }
    printf("]}\n");
}

int qcount_mpi_main(const qc_options *opts, int *argc, char ***argv)
{
    if (qct_mpi_init(argc, argv) != QC_OK) {
        fprintf(stderr, "qcount: MPI could not start with thread support (MPI_THREAD_FUNNELED)\n");
        qct_mpi_finalize();
        return 2;
    }
    const int root = qct_mpi_rank() == 0;
    qc_plan *plan = NULL;
    if (qc_plan_create(&plan, opts->n, opts->engine) != QC_OK)
        plan = NULL;
    qc_run_options run = {.threads = opts->threads, .bind = opts->bind};
    qct_mpi_result result;
    char err[512];
    int rc = qct_mpi_count(plan, &run, NULL, NULL, &result, err, sizeof err);
    qc_plan_free(plan);
    int status = 0;
    if (rc != QC_OK) {
        if (root)
            fprintf(stderr, "qcount: %s\n", err);
        status = 2;
    } else if (root) {
        print_report(&result);
        if (opts->json) {
            print_json(opts, &result);
        } else {
            char total[48];
            puts(qc_u128_format(result.total.total, total));
        }
        if (fflush(stdout) != 0 || ferror(stdout)) {
            fprintf(stderr, "qcount: cannot write the result to stdout\n");
            status = 2;
        }
    }
    qct_mpi_result_free(&result);
    qct_mpi_finalize();
    return status;
}
