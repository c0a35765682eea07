/* SPDX-License-Identifier: MIT */
/*
 * test_run_hooks.c — the scheduler's resumable-run hooks and its stop
 * flag: units known in advance are added, not recounted, and every other
 * unit reaches unit_done exactly once, with the tally a fresh count gives;
 * progress only moves forward; a raised flag counts nothing and the run
 * reports QC_ESTOP (halving and eightfold); a failing unit_done stops the
 * run (QC_EHOOK).  Usage: test_run_hooks KNOWN_TSV
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "known.h"

typedef struct hooks {
    const qc_plan *plan;
    unsigned *done_calls;     /* per unit: unit_done calls */
    size_t fail_after;        /* unit_done fails from this call on (0: never) */
    size_t calls;
    qc_progress last;
    size_t progress_calls;
} hooks;

static int known_even(void *ctx, size_t unit, qc_tally *out)
{
    hooks *h = ctx;
    if (unit % 2)
        return 0;
    CHECK(qc_plan_count_unit(h->plan, unit, out) == QC_OK);
    return 1;
}

static int record(void *ctx, size_t unit, const qc_tally *t)
{
    hooks *h = ctx;
    qc_tally want;
    CHECK(qc_plan_count_unit(h->plan, unit, &want) == QC_OK);
    CHECK(want.solutions == t->solutions && want.steps == t->steps);
    h->done_calls[unit]++;
    h->calls++;
    return h->fail_after && h->calls >= h->fail_after ? -1 : 0;
}

static void progress(void *ctx, const qc_progress *p)
{
    hooks *h = ctx;
    CHECK(p->units_done >= h->last.units_done);
    CHECK(p->work_done >= h->last.work_done && p->work_done <= p->work_total * (1 + 1e-9));
    h->last = *p;
    h->progress_calls++;
}

/* The work estimates of a join plan (its units differ in cost): the run's
 * books start at the resumed units' share and end at the whole. */
static void work_books(void)
{
    qc_plan *plan;
    CHECK(qc_plan_create(&plan, 14, QC_ENGINE_JOIN) == QC_OK);
    const size_t units = qc_plan_unit_count(plan);
    hooks h = {.plan = plan, .done_calls = calloc(units, sizeof(unsigned))};
    double total = 0, resumed = 0, smallest = 1e300, largest = 0;
    for (size_t u = 0; u < units; u++) {
        double c = qc_plan_unit_cost(plan, u);
        CHECK(c > 0, "unit %zu cost %g", u, c);
        total += c;
        resumed += u % 2 ? 0 : c;
        smallest = c < smallest ? c : smallest;
        largest = c > largest ? c : largest;
    }
    CHECK(qc_plan_unit_cost(plan, units) == 0);
    CHECK(largest > 2 * smallest, "join units should differ in cost");
    qc_run_options o = {.size = sizeof o, .threads = 2, .bind = 0, .hook_ctx = &h, .unit_known = known_even,
                        .unit_done = record, .progress = progress};
    qc_result r;
    CHECK(qc_run(plan, &o, &r) == QC_OK);
    CHECK(h.last.work_total > total * (1 - 1e-9) && h.last.work_total < total * (1 + 1e-9));
    CHECK(h.last.work_resumed > resumed * (1 - 1e-9) && h.last.work_resumed < resumed * (1 + 1e-9));
    CHECK(h.last.work_done > total * (1 - 1e-9), "work done %g of %g", h.last.work_done, total);
    free(h.done_calls);
    qc_plan_free(plan);
}

int main(int argc, char **argv)
{
    if (argc != 2)
        return 2;
    known_count known[QC_N_MAX + 1] = {0};
    known_load(argv[1], known);

    work_books();
    qc_plan *plan;
    if (qc_plan_create(&plan, 12, QC_ENGINE_HALVING) != QC_OK)
        return 1;
    const size_t units = qc_plan_unit_count(plan);
    hooks h = {.plan = plan, .done_calls = calloc(units, sizeof(unsigned))};
    int stop = 0;
    qc_run_options o = {.size = sizeof o, .threads = 3, .bind = 0, .hook_ctx = &h, .unit_known = known_even,
                        .unit_done = record, .progress = progress, .stop = &stop};
    qc_result r;
    CHECK(qc_run(plan, &o, &r) == QC_OK);
    CHECK(r.total == known[12].total);
    CHECK(r.units == units && r.units_resumed == (units + 1) / 2);
    for (size_t u = 0; u < units; u++)
        CHECK(h.done_calls[u] == (u % 2 ? 1u : 0u), "unit %zu", u);
    CHECK(h.last.units_done == units && h.last.units_total == units);
    CHECK(h.progress_calls == 1 + units / 2);

    /* a raised flag: nothing counted, QC_ESTOP */
    stop = 1;
    memset(h.done_calls, 0, units * sizeof(unsigned));
    memset(&h.last, 0, sizeof h.last);
    o.unit_known = NULL;
    CHECK(qc_run(plan, &o, &r) == QC_ESTOP);
    CHECK(r.units == 0 && r.total == 0);
    for (size_t u = 0; u < units; u++)
        CHECK(h.done_calls[u] == 0, "unit %zu", u);

    /* a failing unit_done stops the run */
    stop = 0;
    h.calls = 0;
    memset(&h.last, 0, sizeof h.last);
    h.fail_after = 5;
    CHECK(qc_run(plan, &o, &r) == QC_EHOOK);
    CHECK(r.units < units);

    free(h.done_calls);
    qc_plan_free(plan);

    /* the eightfold engine under qc_run: a raised flag, QC_ESTOP */
    if (qc_plan_create(&plan, 16, QC_ENGINE_EIGHTFOLD) != QC_OK)
        return 1;
    qc_run_options eo = {.size = sizeof eo, .threads = 2, .bind = 0, .stop = &stop};
    stop = 1;
    CHECK(qc_run(plan, &eo, &r) == QC_ESTOP);
    CHECK(r.units == 0 && r.total == 0);
    qc_plan_free(plan);
    return check_report("run_hooks");
}
