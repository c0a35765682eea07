/* SPDX-License-Identifier: MIT */
/*
 * range.c — the counts of range.h.  A range is a loop over single counts:
 * each N has its own plan, progress line and report, so a range shows
 * every N's line as soon as it is counted and a stopped range keeps the
 * lines it printed.  --checkpoint takes one N (options.c refuses a range
 * with it): a ledger belongs to one plan.
 */
#include <stdio.h>

#include "longrun.h"
#include "quote.h"
#include "range.h"
#include "report.h"

/* Counts one N; returns the exit status as qcc_range_count does. */
static int count_one(const qca_options *o)
{
    qc_plan *plan;
    int rc = qc_plan_create_with(&plan, o->n, o->engine,
                                 &(qc_plan_options){.size = sizeof(qc_plan_options),
                                                    .profile = o->plan});
    if (rc != QC_OK) {
        fprintf(stderr, "qcount: %s (N=%d)\n",
                rc == QC_ENOMEM ? "out of memory building the work units" : "cannot plan this count",
                o->n);
        return 2;
    }
    qc_result result;
    char msg[512];
    rc = qcc_longrun(o, plan, &result, msg, sizeof msg);   /* ledger, progress, signals */
    qc_plan_free(plan);
    qc_u128 unique;
    if (rc == 0)
        rc = qcc_longrun_unique(o, &result, &unique, msg, sizeof msg);
    if (rc != 0) {
        qca_print_error(msg);   /* may quote the ledger's file name */
        return rc;
    }
    if (o->parts)   /* a share, not the count: say so where it cannot be mistaken */
        fprintf(stderr, "qcount: part %d/%d of N=%d: %zu work units, their solutions on "
                "stdout; 'qcount merge' the parts' ledgers for the total\n",
                o->part, o->parts, o->n, result.units);
    return qcc_report_result(o, &result, unique, NULL, NULL);
}

int qcc_range_count(const qca_options *opts)
{
    for (int n = opts->n; n <= opts->n_last; n++) {
        qca_options one = *opts;
        one.n = n;
        if (!opts->engine_given)
            one.engine = opts->plan ? QC_ENGINE_JOIN : qc_engine_default(n);
        int status = count_one(&one);
        if (status != 0)
            return status;
    }
    return 0;
}
