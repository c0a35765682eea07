/* SPDX-License-Identifier: MIT */
/*
 * plan.h — what every engine provides to the plan: the internal side of
 * qc_plan.  An engine fills in its units when the plan is built and counts
 * one unit on request; the plan keeps the bookkeeping common to all.
 */
#ifndef QC_PLAN_H
#define QC_PLAN_H

#include "qcount.h"

/* Engines in the registry (plan.c): the public ids run 0..QC_ENGINE_BRUTE. */
#define QC_ENGINE_COUNT_ (QC_ENGINE_BRUTE + 1)

typedef struct qci_engine_ops {
    const char *name;
    /* Fills plan->units, plan->unit_count and plan->engine_data; returns
     * QC_OK or an error.  plan->n is set before the call. */
    int (*build)(qc_plan *plan);
    /* Counts one unit (unit < unit_count) into *out, which the caller has
     * zeroed; returns QC_OK, QC_ENOMEM when the unit's working memory
     * could not be had, or QC_ESTOP when the thread's stop flag
     * (qci_stop_flag, stop.h) cut the count short.  On an error
     * *out may hold part of a count: qc_plan_count_unit zeroes it, as a
     * failed unit counts nothing. */
    int (*count_unit)(const qc_plan *plan, size_t unit, qc_tally *out);
    /* Counts one unit by a second path (qc_plan_recount_unit), as
     * count_unit; *how names it.  NULL: the engine has none. */
    int (*recount_unit)(const qc_plan *plan, size_t unit, qc_tally *out, const char **how);
    /* The unit's estimated work, relative (qc_plan_unit_cost); NULL: the
     * engine does not estimate, every unit counts 1. */
    double (*unit_cost)(const qc_plan *plan, size_t unit);
    /* [unit cases] The unit's cases to each (qc_plan_unit_describe);
     * NULL: the engine does not describe its units. */
    int (*describe_unit)(const qc_plan *plan, size_t unit,
                         int (*each)(void *ctx, const qc_unit_case *c), void *ctx);
    /* [plan profiles] The plan's profile name; NULL: the engine has no
     * profiles (build then refuses plan->profile != 0). */
    const char *(*profile_name)(const qc_plan *plan);
    void (*release)(qc_plan *plan);
} qci_engine_ops;

struct qc_plan {
    int n;
    qc_engine_id engine;
    const qci_engine_ops *ops;
    size_t unit_count;
    int profile;            /* [plan profiles] 0: n's own, else the board size asked */
    uint64_t fingerprint;   /* set by the engine's build */
    void *engine_data;      /* owned by the engine */
};

/* [fault injection] The plan's test trap: NULL, except in a test program
 * linked with the test-only library qcount_fault_trap
 * (test_hooks/fault_trap.c), which sets it; then a unit for which it
 * returns nonzero fails with QC_ENOMEM without counting, as a unit that
 * ran out of memory does.  Never exported from libqcount.so.  A real count
 * pays one load per unit. */
extern int (*qci_plan_unit_trap)(size_t unit);

/* The engines' tables, one per file that implements an engine. */
extern const qci_engine_ops qch_ops;
extern const qci_engine_ops qce_ops;
extern const qci_engine_ops qcj_ops;
extern const qci_engine_ops qco_dlx_ops;
extern const qci_engine_ops qco_brute_ops;

#endif
