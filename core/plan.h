/*
 * plan.h — what every engine provides to the plan: the internal side of
 * qc_plan.  An engine fills in its units when the plan is built and counts
 * one unit on request; the plan keeps the bookkeeping common to all.
 */
#ifndef QC_PLAN_H
#define QC_PLAN_H

#include "qcount.h"

typedef struct qc_engine_ops {
    const char *name;
    /* Fills plan->units, plan->unit_count and plan->engine_data; returns
     * QC_OK or an error.  plan->n is set before the call. */
    int (*build)(qc_plan *plan);
    /* Counts one unit (unit < unit_count) into *out, which the caller has
     * zeroed; returns QC_OK, or QC_ENOMEM when the unit's working memory
     * could not be had (then *out is left at zero: a failed unit counts
     * nothing, and the caller must not take it for counted).  Cut short by
     * the thread's stop flag (qck_stop_flag), it returns QC_ESTOP or QC_OK
     * with a partial tally (the join engine: QC_ESTOP); the caller who
     * raised the flag drops the unit either way. */
    int (*count_unit)(const qc_plan *plan, size_t unit, qc_tally *out);
    void (*release)(qc_plan *plan);
} qc_engine_ops;

struct qc_plan {
    int n;
    qc_engine_id engine;
    const qc_engine_ops *ops;
    size_t unit_count;
    uint64_t fingerprint;   /* set by the engine's build */
    void *engine_data;      /* owned by the engine */
};

/* The engines' tables, one per file that implements an engine. */
extern const qc_engine_ops qc_halving_ops;
extern const qc_engine_ops qc_eightfold_ops;
extern const qc_engine_ops qc_join_ops;
extern const qc_engine_ops qc_dlx_ops;
extern const qc_engine_ops qc_brute_ops;

/* [fault injection] For the tests only, never for a real count: after
 * qc_plan_fault_arm(k) with k >= 1, the k-th call to qc_plan_count_unit
 * from then on (counted over all threads) fails with QC_ENOMEM without
 * counting, as a unit that ran out of memory does, and the trap disarms
 * itself; k = 0 disarms it.  qc_plan_fault_unit() says which unit that
 * call was given, or SIZE_MAX while none has failed since the arming.
 * Disarmed, qc_plan_count_unit pays one relaxed load per unit. */
void qc_plan_fault_arm(unsigned long k);
size_t qc_plan_fault_unit(void);

/* Fingerprint accumulation: mixes a 64-bit word into a running digest. */
static inline uint64_t qc_fingerprint_mix(uint64_t h, uint64_t word)
{
    h ^= word + 0x9e3779b97f4a7c15ULL + (h << 6) + (h >> 2);
    h *= 0xff51afd7ed558ccdULL;
    return h ^ (h >> 33);
}

#endif
