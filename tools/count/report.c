/* SPDX-License-Identifier: MIT */
/*
 * report.c — the result of a count as the user sees it (see report.h): it
 * prints what the count gathered and computes nothing.
 */
#include <string.h>
#include <sys/resource.h>

#include "context.h"
#include "known_counts.h"
#include "report.h"

/* The rate of this run: steps resumed from a ledger took no time. */
static double run_rate(const qc_result *r)
{
    return r->seconds > 0 ? (double)(r->steps - r->steps_resumed) / r->seconds : 0.0;
}

/* The width of a column of counts up to N=last: the published count's, or
 * room for any count of a board up to 32 when there is none. */
static int column_width(int last, int unique)
{
    int w = qcc_known_digits(last, unique);
    return w > 0 ? w : 24;
}

/* One line of a range: "N total [unique]", right-aligned to the range's
 * last N; with --format=bfile, "N a(N)" (A000170, or A002562 with -u). */
static void print_line(const qca_options *o, const char *total, const char *unique)
{
    if (o->mode.format == QC_FORMAT_BFILE) {
        printf("%d %s\n", o->n, o->unique ? unique : total);
        return;
    }
    int nw = o->n_last >= 10 ? 2 : 1;
    printf("%*d %*s", nw, o->n, column_width(o->n_last, 0), total);
    if (o->unique)
        printf(" %*s", column_width(o->n_last, 1), unique);
    putchar('\n');
}

static void print_json(const qca_options *o, const qc_result *r, const char *total,
                       const char *unique, const char *check,
                       void (*json_extra)(FILE *out, void *ctx), void *ctx)
{
    char steps[48];
    qc_u128_format(r->steps, steps);
    printf("{\"n\": %d, \"total\": %s, ", o->n, total);
    if (o->parts)   /* total is then the part's share */
        printf("\"part\": \"%d/%d\", ", o->part, o->parts);
    if (o->unique)
        printf("\"unique\": %s, ", unique);
    if (o->plan)    /* [plan profiles] board P's plan, not N's own */
        printf("\"plan\": %d, ", o->plan);
    if (check)
        printf("\"check\": \"%s\", ", check);
    struct rusage usage;   /* peak resident memory of this process */
    long peak_kib = getrusage(RUSAGE_SELF, &usage) == 0 ? usage.ru_maxrss : -1;
    printf("\"engine\": \"%s\", \"threads\": %d, \"seconds\": %.6f, \"cpu_seconds\": %.6f, "
           "\"units\": %zu, \"steps\": %s, \"steps_per_second\": %.0f, "
           "\"placements\": %s, \"placements_per_second\": %.0f, \"peak_rss_kib\": %ld",
           qc_engine_name(o->engine), r->threads, r->seconds, r->cpu_seconds,
           r->units, steps, run_rate(r), steps, run_rate(r), peak_kib);
    if (json_extra)
        json_extra(stdout, ctx);
    else
        printf(", \"cpus\": \"%s\", \"cpu_count\": %d", r->cpus, r->cpu_count);
    qcc_context_json(stdout, o);
    printf("}\n");
}

/* --check: 0 when N's counts agree with the published ones or there are
 * none (said on stderr), 1 when they differ (said on stderr). */
static int check_counts(const qca_options *o, const qc_result *r, qc_u128 unique, const char **word)
{
    char msg[256];
    qcc_known_verdict v = qcc_known_compare(o->n, r->total, o->unique ? &unique : NULL, msg, sizeof msg);
    static const char *const words[] = {
        [QC_KNOWN_AGREE] = "agree", [QC_KNOWN_DIFFER] = "differs", [QC_KNOWN_NONE] = "unknown"};
    *word = words[v];
    if (v != QC_KNOWN_AGREE)
        fprintf(stderr, "qcount: --check: %s\n", msg);
    return v == QC_KNOWN_DIFFER;
}

int qcc_report_result(const qca_options *o, const qc_result *r, qc_u128 fundamental,
                      void (*json_extra)(FILE *out, void *ctx), void *ctx)
{
    char total[48], steps[48], unique[48] = "";
    qc_u128_format(r->total, total);
    if (o->unique)
        qc_u128_format(fundamental, unique);
    if (o->stats)
        fprintf(stderr, "qcount: stats: steps %s, steps/s %.0f, seconds %.6f, "
                "units %zu, engine %s%s%.0d, threads %d\n",
                qc_u128_format(r->steps, steps), run_rate(r), r->seconds, r->units,
                qc_engine_name(o->engine), o->plan ? " plan " : "", o->plan, r->threads);
    const char *check = NULL;
    int status = o->check ? check_counts(o, r, fundamental, &check) : 0;
    if (o->json) {
        print_json(o, r, total, unique, check, json_extra, ctx);
    } else if (o->range || o->mode.format == QC_FORMAT_BFILE) {
        print_line(o, total, unique);
    } else {
        puts(total);
        if (o->unique)
            puts(unique);
    }
    if (fflush(stdout) != 0 || ferror(stdout)) {
        fprintf(stderr, "qcount: cannot write the result to stdout\n");
        return 2;
    }
    return status;
}
