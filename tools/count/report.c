/*
 * report.c — the result of a count as the user sees it (see report.h).
 * --unique is derived here, after the count, by Burnside over the
 * symmetric solutions (core/symcount.c): those searches are tiny next to
 * the count (N=20: 9.5 M placements against ~10^10), so the statistics
 * stay the engine's own.
 */
#include <sys/resource.h>

#include "report.h"

/* The rate of this run: placements resumed from a ledger took no time. */
static double run_rate(const qc_result *r)
{
    return r->seconds > 0 ? (double)(r->placements - r->placements_resumed) / r->seconds : 0.0;
}

int qc_report_result(const qc_options *o, const qc_result *r,
                     void (*json_extra)(FILE *out, void *ctx), void *ctx)
{
    char total[48], placements[48], unique[48];
    qc_u128_format(r->total, total);
    qc_u128_format(r->placements, placements);
    if (o->unique) {
        qc_u128 r90, r180;
        if (qc_symmetric_counts(o->n, &r90, &r180, NULL) != QC_OK) {
            fprintf(stderr, "qcount: cannot count the symmetric solutions\n");
            return 2;
        }
        qc_u128_format(qc_fundamental_count(o->n, r->total, r90, r180), unique);
    }
    if (o->stats)
        fprintf(stderr, "qcount: stats: placements %s, placements/s %.0f, seconds %.6f, "
                "units %zu, engine %s, threads %d\n",
                placements, run_rate(r), r->seconds, r->units, qc_engine_name(o->engine),
                r->threads);
    if (o->json) {
        printf("{\"n\": %d, \"total\": %s, ", o->n, total);
        if (o->unique)
            printf("\"unique\": %s, ", unique);
        struct rusage usage;   /* peak resident memory of this process */
        long peak_kib = getrusage(RUSAGE_SELF, &usage) == 0 ? usage.ru_maxrss : -1;
        printf("\"engine\": \"%s\", \"threads\": %d, \"seconds\": %.6f, \"units\": %zu, "
               "\"placements\": %s, \"placements_per_second\": %.0f, \"peak_rss_kib\": %ld",
               qc_engine_name(o->engine), r->threads, r->seconds, r->units, placements,
               run_rate(r), peak_kib);
        if (json_extra) {
            json_extra(stdout, ctx);
        } else {
            char cpus[256];   /* OS numbers of the CPUs this run's threads were on */
            int count = qc_topology_cpus(r->threads, o->bind, cpus, sizeof cpus);
            printf(", \"cpus\": \"%s\", \"cpu_count\": %d", cpus, count);
        }
        printf("}\n");
    } else {
        puts(total);
        if (o->unique)
            puts(unique);
    }
    if (fflush(stdout) != 0 || ferror(stdout)) {
        fprintf(stderr, "qcount: cannot write the result to stdout\n");
        return 2;
    }
    return 0;
}
