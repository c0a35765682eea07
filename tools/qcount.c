/*
 * qcount.c — the command-line program: parse, count, print.  stdout gets
 * the result and nothing else; stderr gets diagnostics; bad input exits 2.
 */
#include <stdio.h>

#include "options.h"

static int fail(const char *msg)
{
    fprintf(stderr, "qcount: %s\n", msg);
    return 2;
}

static void print_json(const qc_options *o, const qc_result *r)
{
    char total[48], placements[48];
    qc_u128_format(r->total, total);
    qc_u128_format(r->placements, placements);
    double rate = r->seconds > 0 ? (double)r->placements / r->seconds : 0.0;
    printf("{\"n\": %d, \"total\": %s, \"engine\": \"%s\", \"threads\": %d, "
           "\"seconds\": %.6f, \"units\": %zu, \"placements\": %s, "
           "\"placements_per_second\": %.0f}\n",
           o->n, total, qc_engine_name(o->engine), r->threads, r->seconds,
           r->units, placements, rate);
}

int main(int argc, char **argv)
{
    qc_options opts;
    char err[256];
    if (qc_options_parse(argc, argv, &opts, err, sizeof err) != 0)
        return fail(err);
    if (opts.action == QC_ACTION_HELP) {
        fputs(qc_usage_text, stdout);
        return 0;
    }
    if (opts.action == QC_ACTION_VERSION) {
        printf("qcount %s\n", QC_VERSION);
        return 0;
    }
    if (opts.action == QC_ACTION_LIST || opts.action == QC_ACTION_SOLVE || opts.action == QC_ACTION_VERIFY)
        return qc_mode_main(&opts);   /* tools/modes.c */

    qc_plan *plan;
    int rc = qc_plan_create(&plan, opts.n, opts.engine);
    if (rc != QC_OK)
        return fail(rc == QC_ENOMEM ? "out of memory building the work units" : "cannot plan this count");
    qc_run_options run = {.threads = opts.threads, .bind = opts.bind};
    qc_result result;
    rc = qc_run(plan, &run, &result);
    qc_plan_free(plan);
    if (rc != QC_OK)
        return fail("the count failed");

    if (opts.json) {
        print_json(&opts, &result);
    } else {
        char total[48];
        puts(qc_u128_format(result.total, total));
    }
    if (fflush(stdout) != 0 || ferror(stdout))
        return fail("cannot write the result to stdout");
    return 0;
}
