/* SPDX-License-Identifier: MIT */
/*
 * ledger_files.c — what the ledger commands share (ledger_files.h): a
 * ledger file read and bound to its plan, and the printing of what they
 * read (one-line errors, --json, JSON strings, times, lists of units).
 */
#include <getopt.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "ledger_files.h"
#include "quote.h"

void qcl_error(const char *command, const char *fmt, ...)
{
    char msg[1024];
    int at = snprintf(msg, sizeof msg, "%s: ", command);
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg + at, sizeof msg - (size_t)at, fmt, ap);
    va_end(ap);
    qca_print_error(msg);   /* escaped there: one line, whatever a file name holds */
}

void qcl_two_tallies(const char *command, size_t u, qc_u128 first, const char *first_path,
                     qc_u128 second, const char *second_path)
{
    char a[48], c[48], pa[QCA_PATH_SHOWN + 1], pb[QCA_PATH_SHOWN + 1];   /* [brief paths] */
    qcl_error(command, "unit %zu has two tallies: %s solutions in ledger '%s', %s in ledger '%s'",
              u, qc_u128_format(first, a), qca_path_brief(first_path, pa),
              qc_u128_format(second, c), qca_path_brief(second_path, pb));
}

int qcl_json_options(int argc, char **argv, const char *command, const char *usage, int *json)
{
    return qcl_json_options_help(argc, argv, command, usage, usage, json);
}

int qcl_json_options_help(int argc, char **argv, const char *command, const char *usage,
                          const char *help, int *json)
{
    static const struct option options[] = {
        {"json", no_argument, NULL, 'j'},
        {"help", no_argument, NULL, 'h'},
        {NULL, 0, NULL, 0},
    };
    int c;
    *json = 0;
    opterr = 0;
    optind = 0;
    while ((c = getopt_long(argc, argv, "jh", options, NULL)) != -1) {
        if (c == 'j') {
            *json = 1;
        } else if (c == 'h') {
            return puts(help) < 0 ? 2 : 0;
        } else {
            qcl_error(command, "unknown option '%s' (%s)", argv[optind - 1], usage);
            return 2;
        }
    }
    return -1;
}

static int bind_plan(const char *path, qcl_bound *out, const qc_plan *plan)
{
    char err[512];
    char shown_buf[QCA_PATH_SHOWN + 1];   /* [brief paths] */
    const char *shown = qca_path_brief(path, shown_buf);
    const qcc_ledger_header *h = &out->file->header;
    if (!plan) {
        const char *engine = qc_engine_name((qc_engine_id)h->engine_id);
        if (h->n < QC_N_MIN || h->n > QC_N_MAX || !engine
            || qc_plan_create_with(&out->plan, h->n, (qc_engine_id)h->engine_id,
                                   &(qc_plan_options){.size = sizeof(qc_plan_options),
                                                      .profile = h->profile}) != QC_OK) {
            snprintf(err, sizeof err, "ledger '%s': this qcount cannot make its plan (N=%d, "
                     "engine %s)", shown, h->n, h->engine);
            qca_print_error(err);
            return 2;
        }
        plan = out->plan;
    }
    char why[400];
    if (qcc_ledger_check_plan(h, plan, why, sizeof why) != 0) {
        snprintf(err, sizeof err, "ledger '%s': %s", shown, why);
        qca_print_error(err);
        return 2;
    }
    return 0;
}

static int load(const char *path, qcl_bound *out, const qc_plan *plan)
{
    memset(out, 0, sizeof *out);
    out->path = path;
    char err[512];
    if (qcc_ledger_load(path, &out->file, err, sizeof err) != 0) {
        qca_print_error(err);
        return 2;
    }
    if (bind_plan(path, out, plan) != 0) {
        qcl_free(out);
        return 2;
    }
    return 0;
}

int qcl_load(const char *path, qcl_bound *out)
{
    return load(path, out, NULL);
}

int qcl_load_for(const char *path, const qc_plan *plan, qcl_bound *out)
{
    return load(path, out, plan);
}

void qcl_free(qcl_bound *b)
{
    qcc_ledger_file_free(b->file);
    qc_plan_free(b->plan);
    b->file = NULL;
    b->plan = NULL;
}

void qcl_json_string(FILE *out, const char *s)
{
    fputc('"', out);
    for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
        if (*p == '"' || *p == '\\')
            fprintf(out, "\\%c", *p);
        else if (*p < 0x20 || *p == 0x7f)
            fprintf(out, "\\u%04x", *p);
        else
            fputc(*p, out);
    }
    fputc('"', out);
}

const char *qcl_time(int64_t us, char *buf, size_t len)
{
    time_t t = (time_t)(us / 1000000);
    struct tm tm;
    if (us <= 0 || !gmtime_r(&t, &tm)) {
        snprintf(buf, len, "-");
        return buf;
    }
    snprintf(buf, len, "%04d-%02d-%02dT%02d:%02d:%02d.%03dZ", tm.tm_year + 1900, tm.tm_mon + 1,
             tm.tm_mday, tm.tm_hour, tm.tm_min, tm.tm_sec, (int)(us % 1000000 / 1000));
    return buf;
}

void qcl_unit_ranges(FILE *out, const unsigned char *flag, size_t units, unsigned char want,
                     int max_ranges)
{
    int ranges = 0;
    for (size_t u = 0; u < units; u++) {
        if (flag[u] != want)
            continue;
        size_t last = u;
        while (last + 1 < units && flag[last + 1] == want)
            last++;
        if (ranges == max_ranges) {
            fputs(", ...", out);
            return;
        }
        fprintf(out, ranges ? ", %zu" : "%zu", u);
        if (last > u)
            fprintf(out, "-%zu", last);
        ranges++;
        u = last;
    }
}
