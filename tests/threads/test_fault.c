/* SPDX-License-Identifier: MIT */
/*
 * test_fault.c — units that fail.  The plan's test-only trap ([fault
 * injection], core/test_hooks/fault_hook.h) makes the K-th qc_plan_count_unit call fail with
 * QC_ENOMEM, as a unit that ran out of memory does; then qc_run, on two
 * threads with a real checkpoint ledger behind unit_done, returns QC_ENOMEM,
 * reports an incomplete count and never passes the failed unit to
 * unit_done, so the ledger never holds it; the same ledger then resumes to
 * the exact total.  On one thread, where the order is fixed, no unit
 * starts after the failure.  Every engine, K at the first, a middle and a
 * late call.  Usage: test_fault KNOWN_TSV
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fault_hook.h"
#include "plan.h"
#include "check.h"
#include "known.h"
#include "ledger.h"


typedef struct ctx {
    qcc_ledger *ledger;
    unsigned *done;           /* per unit: unit_done calls */
    size_t calls;
} ctx;

static int unit_known(void *p, size_t unit, qc_tally *out)
{
    ctx *c = p;
    return qcc_ledger_get(c->ledger, unit, out) == 0;
}

static int unit_done(void *p, size_t unit, const qc_tally *t)
{
    ctx *c = p;
    c->done[unit]++;
    c->calls++;
    return qcc_ledger_record(c->ledger, unit, t);
}

/* The trap on its own: exactly the K-th call fails, with a zero tally. */
static void test_trap(void)
{
    qc_plan *plan;
    if (qc_plan_create(&plan, 8, QC_ENGINE_HALVING) != QC_OK) {
        CHECK(0, "plan not built");
        return;
    }
    qc_tally t;
    CHECK(qc_plan_count_unit(plan, qc_plan_unit_count(plan), &t) == QC_EINVAL,
          "a unit out of range is refused");
    CHECK(qc_plan_fault_unit() == SIZE_MAX, "no failure before any arming");
    qc_plan_fault_arm(3);
    int rc[5];
    for (size_t i = 0; i < 5; i++) {
        t.solutions = 99;
        rc[i] = qc_plan_count_unit(plan, i, &t);
        if (rc[i] != QC_OK)
            CHECK(t.solutions == 0 && t.steps == 0, "a failed unit counts nothing");
    }
    CHECK(rc[0] == QC_OK && rc[1] == QC_OK && rc[2] == QC_ENOMEM && rc[3] == QC_OK
          && rc[4] == QC_OK, "the third call fails, and only it: %d %d %d %d %d",
          rc[0], rc[1], rc[2], rc[3], rc[4]);
    CHECK(qc_plan_fault_unit() == 2, "the failed unit is named: %zu", qc_plan_fault_unit());
    qc_plan_fault_arm(1);
    qc_plan_fault_arm(0);   /* disarmed again */
    CHECK(qc_plan_count_unit(plan, 0, &t) == QC_OK, "disarmed");
    qc_plan_free(plan);
}

/* One engine, one K: a failing run, then a resume from its ledger. */
static void test_run(const char *dir, int n, qc_engine_id engine, int threads, unsigned long k,
                     qc_u128 want)
{
    const char *name = qc_engine_name(engine);
    qc_plan *plan;
    if (qc_plan_create(&plan, n, engine) != QC_OK) {
        CHECK(0, "%s n=%d: plan not built", name, n);
        return;
    }
    const size_t units = qc_plan_unit_count(plan);
    char path[512], err[512];
    snprintf(path, sizeof path, "%s/%s-%d-%d-%lu.ledger", dir, name, n, threads, k);
    ctx c = {.done = calloc(units, sizeof(unsigned))};
    if (qcc_ledger_open(&c.ledger, path, plan, err, sizeof err) != 0) {
        CHECK(0, "%s", err);
        free(c.done);
        qc_plan_free(plan);
        return;
    }
    int stop = 0;
    qc_run_options o = {.size = sizeof o, .threads = threads, .bind = 0, .hook_ctx = &c, .unit_known = unit_known,
                        .unit_done = unit_done, .stop = &stop};
    qc_result r;
    qc_plan_fault_arm(k);
    int rc = qc_run(plan, &o, &r);
    const size_t failed = qc_plan_fault_unit();
    qc_plan_fault_arm(0);
    CHECK(rc == QC_ENOMEM, "%s n=%d k=%lu: qc_run returned %d, not QC_ENOMEM", name, n, k, rc);
    CHECK(failed < units, "%s n=%d k=%lu: no unit failed", name, n, k);
    CHECK(r.units < units, "%s n=%d k=%lu: %zu of %zu units: reported complete", name, n, k,
          r.units, units);
    /* one thread: calls 1..k-1 were units, the k-th failed, none after
     * (on two, the other thread may finish one under way, or start one
     * in the instant before the failure is seen: no exact bound) */
    if (threads == 1)
        CHECK(r.units == k - 1, "%s n=%d k=%lu: %zu units counted, want %lu", name, n, k,
              r.units, k - 1);
    CHECK(r.units == c.calls && r.units_resumed == 0, "%s n=%d k=%lu: %zu units, %zu reported",
          name, n, k, r.units, c.calls);
    if (failed < units) {
        CHECK(c.done[failed] == 0, "%s n=%d k=%lu: failed unit %zu reached unit_done", name, n,
              k, failed);
        CHECK(!qcc_ledger_is_done(c.ledger, failed), "%s n=%d k=%lu: the ledger holds failed "
              "unit %zu", name, n, k, failed);
    }
    qc_u128 recorded = 0;
    for (size_t u = 0; u < units; u++) {
        qc_tally t;
        CHECK(c.done[u] <= 1, "%s n=%d: unit %zu reported %u times", name, n, u, c.done[u]);
        if (qcc_ledger_get(c.ledger, u, &t) == 0)
            recorded += t.solutions;
    }
    CHECK(recorded == r.total && qcc_ledger_done_count(c.ledger) == r.units,
          "%s n=%d k=%lu: the ledger does not match the run", name, n, k);

    /* resume: the ledger's units are taken, the rest (the failed one too) counted */
    const size_t saved = r.units;
    memset(c.done, 0, units * sizeof(unsigned));
    c.calls = 0;
    rc = qc_run(plan, &o, &r);
    CHECK(rc == QC_OK && r.total == want && r.units == units && r.units_resumed == saved,
          "%s n=%d k=%lu: resumed run rc=%d, %zu units (%zu resumed of %zu saved)", name, n, k,
          rc, r.units, r.units_resumed, saved);
    if (failed < units)
        CHECK(c.done[failed] == 1, "%s n=%d k=%lu: the failed unit was not redone", name, n, k);
    qcc_ledger_close(c.ledger);
    unlink(path);
    free(c.done);
    qc_plan_free(plan);
}

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: %s KNOWN_TSV\n", argv[0]);
        return 2;
    }
    known_count known[QC_N_MAX + 1] = {{0, 0}};
    known_load(argv[1], known);
    char dir[] = "/tmp/test_fault.XXXXXX";
    if (!mkdtemp(dir)) {
        perror("mkdtemp");
        return 2;
    }

    test_trap();
    static const struct { qc_engine_id engine; int n; } cases[] = {
        {QC_ENGINE_HALVING, 12}, {QC_ENGINE_EIGHTFOLD, 12}, {QC_ENGINE_JOIN, 13},
        {QC_ENGINE_DLX, 8}, {QC_ENGINE_BRUTE, 8},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        qc_plan *plan;
        if (qc_plan_create(&plan, cases[i].n, cases[i].engine) != QC_OK)
            continue;
        const size_t units = qc_plan_unit_count(plan);
        qc_plan_free(plan);
        const unsigned long ks[] = {1, units / 2, units - 1};
        for (int threads = 1; threads <= 2; threads++)
            for (int j = 0; j < 3; j++)
                if (ks[j] >= 1)
                    test_run(dir, cases[i].n, cases[i].engine, threads, ks[j],
                             known[cases[i].n].total);
    }

    rmdir(dir);
    return check_report("fault");
}
