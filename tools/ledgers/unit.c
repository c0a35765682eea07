/* SPDX-License-Identifier: MIT */
/*
 * unit.c — qcount unit: what one unit of the join engine's plan of board
 * N holds, as its weighted cases (qcount.h, [unit cases]): for every case
 * its weight and, for each row, the set of columns that row's queen may
 * take.  The unit's tally is the sum over the cases of weight x the
 * solutions that keep every queen in its row's set, so the description
 * alone lets a program that knows nothing of join check a recorded tally
 * (ledger_commands.h).
 *
 *   qcount unit N U [--plan=P] [--json]     unit U
 *   qcount unit N --all [--plan=P] [--json] every unit, in order
 *
 * Text: a header line (N, the plan's profile, the unit, the plan's unit
 * count, the number of cases), then one line a case: its weight and each
 * row's columns as ranges ("{1-3,5}", "{}" for none), rows 0 to N-1.
 * JSON: one object a unit, on one line,
 *   {"n":N,"plan":P,"unit":U,"cases":[{"weight":W,"rows":[M0,...]}]}
 * where bit c of Mr is column c+1 of row r.  A unit's output is built
 * whole before it is written, so an error leaves no part of it on stdout.
 */
#include <errno.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include "ledger_files.h"
#include "ledgers.h"

static const char usage[] =
    "usage: qcount unit N U [--plan=P] [--json] | qcount unit N --all [--plan=P] [--json] "
    "(a unit of the join engine's plan)";

/* What the cases are written to, and how. */
typedef struct unit_out {
    FILE *out;
    int n;
    int json;
    size_t cases;             /* written so far */
} unit_out;

/* The columns of mask (bit c: column c+1) as ranges: "{1-3,5}". */
static void qcl_print_columns(FILE *out, uint32_t mask, int n)
{
    fputc('{', out);
    int first = 1;
    for (int c = 0; c < n; c++) {
        if (!(mask >> c & 1u))
            continue;
        int last = c;
        while (last + 1 < n && (mask >> (last + 1) & 1u))
            last++;
        fprintf(out, first ? "%d" : ",%d", c + 1);
        if (last > c)
            fprintf(out, "-%d", last + 1);
        first = 0;
        c = last;
    }
    fputc('}', out);
}

static int qcl_count_case(void *ctx, const qc_unit_case *c)
{
    (void)c;
    ((unit_out *)ctx)->cases++;
    return 0;
}

static int qcl_print_case(void *ctx, const qc_unit_case *c)
{
    unit_out *o = ctx;
    if (o->json) {
        fprintf(o->out, "%s{\"weight\":%llu,\"rows\":[", o->cases ? "," : "",
                (unsigned long long)c->weight);
        for (int r = 0; r < o->n; r++)
            fprintf(o->out, r ? ",%lu" : "%lu", (unsigned long)c->rows[r]);
        fputs("]}", o->out);
    } else {
        fprintf(o->out, "weight %llu:", (unsigned long long)c->weight);
        for (int r = 0; r < o->n; r++) {
            fputc(' ', o->out);
            qcl_print_columns(o->out, c->rows[r], o->n);
        }
        fputc('\n', o->out);
    }
    o->cases++;
    return 0;
}

/* Unit `unit` of plan into a buffer, then onto stdout.  Returns 0, or 2
 * with the one-line error printed. */
static int qcl_print_unit(const qc_plan *plan, int n, size_t unit, int json)
{
    char *text = NULL;
    size_t len = 0;
    FILE *buf = open_memstream(&text, &len);
    if (!buf) {
        qcl_error("unit", "out of memory");
        return 2;
    }
    unit_out o = {.out = buf, .n = n, .json = json};
    int rc = QC_OK;
    if (json) {
        fprintf(buf, "{\"n\":%d,\"plan\":%d,\"unit\":%zu,\"cases\":[", n, qc_plan_profile(plan),
                unit);
    } else {
        rc = qc_plan_unit_describe(plan, unit, qcl_count_case, &o);
        fprintf(buf, "N=%d, plan profile %d (%s), unit %zu of %zu: %zu case%s\n", n,
                qc_plan_profile(plan), qc_plan_profile_name(plan), unit,
                qc_plan_unit_count(plan), o.cases, o.cases == 1 ? "" : "s");
        o.cases = 0;
    }
    if (rc == QC_OK)
        rc = qc_plan_unit_describe(plan, unit, qcl_print_case, &o);
    if (json)
        fputs("]}\n", buf);
    int failed = ferror(buf);
    fclose(buf);
    if (rc != QC_OK || failed) {
        qcl_error("unit", "unit %zu cannot be described (%s)", unit,
                  failed ? "out of memory" : qc_strerror(rc));
        free(text);
        return 2;
    }
    fwrite(text, 1, len, stdout);
    free(text);
    return 0;
}

/* A decimal integer from lo to hi, the whole word: 0 and *out, or -1. */
static int qcl_parse_number(const char *word, unsigned long long lo, unsigned long long hi,
                            unsigned long long *out)
{
    if (word[0] < '0' || word[0] > '9')
        return -1;
    char *end;
    errno = 0;
    unsigned long long v = strtoull(word, &end, 10);
    if (*end || errno || v < lo || v > hi)
        return -1;
    *out = v;
    return 0;
}

/* The command's options: -1 to go on (optind at the first operand), else
 * the status to exit with. */
static int qcl_unit_options(int argc, char **argv, int *profile, int *json, int *all)
{
    static const struct option options[] = {
        {"plan", required_argument, NULL, 'P'},
        {"json", no_argument, NULL, 'j'},
        {"all", no_argument, NULL, 'a'},
        {"help", no_argument, NULL, 'h'},
        {NULL, 0, NULL, 0},
    };
    int c;
    opterr = 0;
    optind = 0;
    while ((c = getopt_long(argc, argv, ":h", options, NULL)) != -1) {
        unsigned long long v;
        if (c == 'P') {
            if (qcl_parse_number(optarg, QC_N_MIN, QC_N_MAX, &v) != 0) {
                qcl_error("unit", "invalid plan profile '%s' (expected a board size from %d "
                          "to %d)", optarg, QC_N_MIN, QC_N_MAX);
                return 2;
            }
            *profile = (int)v;
        } else if (c == 'j') {
            *json = 1;
        } else if (c == 'a') {
            *all = 1;
        } else if (c == 'h') {
            puts(usage);
            return 0;
        } else if (c == ':') {
            qcl_error("unit", "option '%s' needs an argument (%s)", argv[optind - 1], usage);
            return 2;
        } else {
            qcl_error("unit", "unknown option '%s' (%s)", argv[optind - 1], usage);
            return 2;
        }
    }
    return -1;
}

int qcl_unit_main(int argc, char **argv)
{
    int profile = 0, json = 0, all = 0;
    int status = qcl_unit_options(argc, argv, &profile, &json, &all);
    if (status >= 0)
        return status;
    const int operands = argc - optind, want = all ? 1 : 2;
    unsigned long long n, unit = 0;
    if (operands != want) {
        qcl_error("unit", "%s (%s)", operands < want ? "missing arguments"
                  : all ? "--all takes no unit" : "too many arguments", usage);
        return 2;
    }
    if (qcl_parse_number(argv[optind], QC_N_MIN, QC_N_MAX, &n) != 0) {
        qcl_error("unit", "invalid board size '%s' (expected an integer from %d to %d)",
                  argv[optind], QC_N_MIN, QC_N_MAX);
        return 2;
    }
    qc_plan *plan;
    int rc = qc_plan_create_with(&plan, (int)n, QC_ENGINE_JOIN,
                                 &(qc_plan_options){.size = sizeof(qc_plan_options),
                                                    .profile = profile});
    if (rc != QC_OK) {
        qcl_error("unit", "cannot make the join plan of N=%llu (%s)", n, qc_strerror(rc));
        return 2;
    }
    const size_t units = qc_plan_unit_count(plan);
    if (!all && qcl_parse_number(argv[optind + 1], 0, units - 1, &unit) != 0) {
        qcl_error("unit", "invalid unit '%s' (the plan of N=%llu, profile %d, has units 0 to "
                  "%zu)", argv[optind + 1], n, qc_plan_profile(plan), units - 1);
        qc_plan_free(plan);
        return 2;
    }
    for (size_t u = all ? 0 : (size_t)unit; status != 2 && u < (all ? units : unit + 1); u++)
        status = qcl_print_unit(plan, (int)n, u, json);
    qc_plan_free(plan);
    if (status == 2)
        return 2;
    if (fflush(stdout) != 0 || ferror(stdout)) {
        qcl_error("unit", "cannot write to stdout");
        return 2;
    }
    return 0;
}
