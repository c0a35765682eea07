/* SPDX-License-Identifier: MIT */
/*
 * unit_step.c — one work unit's way through a scheduler: the to-do list,
 * the count and what became of it, the hooks' books.
 */
#include "unit_step.h"

#include <stdlib.h>

#include "qct_clock.h"

int qct_todo_open(qct_todo *t, const qc_run_options *opts, size_t units, qc_tally *known,
                  size_t *resumed)
{
    *known = (qc_tally){.solutions = 0, .steps = 0};
    *resumed = 0;
    *t = (qct_todo){.bits = calloc(units / 64 + 1, sizeof *t->bits)};
    if (!t->bits)
        return QC_ENOMEM;
    t->units = units;
    for (size_t u = 0; u < units; u++) {
        qc_tally k;
        if (opts && opts->unit_known && opts->unit_known(opts->hook_ctx, u, &k)) {
            known->solutions += k.solutions;   /* resumed from a ledger */
            known->steps += k.steps;
            (*resumed)++;
        } else {
            t->bits[u / 64] |= (uint64_t)1 << (u % 64);
            t->count++;
        }
    }
    return QC_OK;
}

void qct_todo_close(qct_todo *t)
{
    free(t->bits);
    *t = (qct_todo){0};
}

size_t qct_todo_next(const qct_todo *t, size_t from)
{
    if (from >= t->units)
        return t->units;
    size_t w = from / 64;
    uint64_t word = t->bits[w] & (~(uint64_t)0 << (from % 64));
    const size_t words = (t->units + 63) / 64;
    while (!word) {
        if (++w >= words)
            return t->units;
        word = t->bits[w];
    }
    return w * 64 + (size_t)__builtin_ctzll(word);   /* bits past units are never set */
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
                      const qct_todo *todo, size_t resumed, double start)
{
    const size_t units = qc_plan_unit_count(plan);
    double total = 0, left = 0;
    for (size_t u = 0; u < units; u++) {
        const double cost = qc_plan_unit_cost(plan, u);
        total += cost;
        if (qct_todo_has(todo, u))
            left += cost;
    }
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
    r->where.steps += t->steps;
}

void qct_report_progress(qct_reporter *r)
{
    if (r->hooks && r->hooks->progress) {
        r->where.seconds = qct_now_seconds() - r->start;
        r->hooks->progress(r->hooks->hook_ctx, &r->where);
    }
}
