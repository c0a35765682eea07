/* SPDX-License-Identifier: MIT */
/*
 * unit_step.c — one work unit's way through a scheduler: the to-do list,
 * the count and what became of it, the hooks' books.
 */
#include "unit_step.h"

#include "qct_clock.h"

size_t qct_units_to_do(const qc_run_options *opts, size_t units, size_t *todo,
                       qc_tally *known, size_t *resumed)
{
    size_t left = 0;
    *known = (qc_tally){0, 0};
    *resumed = 0;
    for (size_t u = 0; u < units; u++) {
        qc_tally t;
        if (opts && opts->unit_known && opts->unit_known(opts->hook_ctx, u, &t)) {
            known->solutions += t.solutions;   /* resumed from a ledger */
            known->placements += t.placements;
            (*resumed)++;
        } else {
            todo[left++] = u;
        }
    }
    return left;
}

qct_step qct_count_step(const qc_plan *plan, size_t unit, const int *stop, int *first_error,
                        qc_tally *t)
{
    int rc = qc_plan_count_unit_until(plan, unit, stop, t);
    if (rc == QC_ESTOP)
        return QCT_STOPPED;
    if (rc != QC_OK) {
        qct_note_failure(first_error, rc);
        return QCT_FAILED;
    }
    return QCT_COUNTED;
}

void qct_report_begin(qct_reporter *r, const qc_run_options *hooks, const qc_plan *plan,
                      const size_t *todo, size_t count, size_t resumed, double start)
{
    const size_t units = qc_plan_unit_count(plan);
    double total = 0, left = 0;
    for (size_t u = 0; u < units; u++)
        total += qc_plan_unit_cost(plan, u);
    for (size_t i = 0; i < count; i++)
        left += qc_plan_unit_cost(plan, todo[i]);
    *r = (qct_reporter){
        .hooks = hooks,
        .plan = plan,
        .where = {.units_done = resumed, .units_total = units, .units_resumed = resumed,
                  .work_done = total - left, .work_total = total, .work_resumed = total - left},
        .start = start,
        .cpu_start = qct_cpu_seconds(),
    };
    if (hooks && hooks->progress)
        hooks->progress(hooks->hook_ctx, &r->where);
}

void qct_report_unit(qct_reporter *r, size_t unit, const qc_tally *t)
{
    const qc_run_options *h = r->hooks;
    if (h && h->unit_done && !r->hook_failed && h->unit_done(h->hook_ctx, unit, t) != 0)
        __atomic_store_n(&r->hook_failed, 1, __ATOMIC_RELAXED);
    r->where.units_done++;
    r->where.work_done += qc_plan_unit_cost(r->plan, unit);
    r->where.placements += t->placements;
}

void qct_report_progress(qct_reporter *r)
{
    if (r->hooks && r->hooks->progress) {
        r->where.seconds = qct_now_seconds() - r->start;
        r->hooks->progress(r->hooks->hook_ctx, &r->where);
    }
}
