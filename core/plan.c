/* SPDX-License-Identifier: MIT */
/*
 * plan.c — the engine registry, the public qc_plan_* calls and the
 * decimal printing of 128-bit totals.  A plan is built once per (N, engine)
 * and read-only afterwards, so any number of threads may count its units
 * at once.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "config.h"
#include "plan.h"
#include "stop.h"

static const qci_engine_ops *const engine_table[QC_ENGINE_COUNT_] = {
    [QC_ENGINE_HALVING] = &qch_ops,
    [QC_ENGINE_EIGHTFOLD] = &qce_ops,
    [QC_ENGINE_JOIN] = &qcj_ops,
    [QC_ENGINE_DLX] = &qco_dlx_ops,
    [QC_ENGINE_BRUTE] = &qco_brute_ops,
};

const char *qc_engine_name(qc_engine_id engine)
{
    if ((unsigned)engine >= QC_ENGINE_COUNT_)
        return NULL;
    return engine_table[engine]->name;
}

int qc_engine_lookup(const char *name, qc_engine_id *out)
{
    if (!out)
        return QC_EINVAL;
    for (int e = 0; e < QC_ENGINE_COUNT_; e++) {
        if (name && strcmp(name, engine_table[e]->name) == 0) {
            *out = (qc_engine_id)e;
            return QC_OK;
        }
    }
    return QC_EINVAL;
}

qc_engine_id qc_engine_default(int n)
{
    return n >= QC_JOIN_FROM_N ? QC_ENGINE_JOIN : QC_ENGINE_EIGHTFOLD;
}

int qc_plan_create(qc_plan **out, int n, qc_engine_id engine)
{
    return qc_plan_create_with(out, n, engine, NULL);
}

/* [growing options] The first release's qc_plan_options ends here. */
#define PLAN_OPTIONS_FIRST_SIZE (offsetof(qc_plan_options, profile) + sizeof(int))

int qc_plan_create_with(qc_plan **out, int n, qc_engine_id engine, const qc_plan_options *opts)
{
    if (!out)
        return QC_EINVAL;
    *out = NULL;
    if (n < QC_N_MIN || n > QC_N_MAX || (unsigned)engine >= QC_ENGINE_COUNT_)
        return QC_EINVAL;
    qc_plan_options o = {.size = sizeof o};
    if (opts) {
        if (opts->size < PLAN_OPTIONS_FIRST_SIZE)
            return QC_EINVAL;
        for (size_t i = sizeof o; i < opts->size; i++)
            if (((const unsigned char *)opts)[i])
                return QC_ENOTSUP;      /* a newer caller's field this library lacks */
        memcpy(&o, opts, sizeof o);
        o.size = sizeof o;
    }
    if (o.profile != 0 && (o.profile < QC_N_MIN || o.profile > QC_N_MAX))
        return QC_EINVAL;
    if (o.profile == n && engine_table[engine]->profile_name)
        o.profile = 0;                  /* its own */
    if (o.profile != 0 && !engine_table[engine]->profile_name)
        return QC_ENOTSUP;
    qc_plan *plan = calloc(1, sizeof *plan);
    if (!plan)
        return QC_ENOMEM;
    plan->n = n;
    plan->engine = engine;
    plan->profile = o.profile;
    plan->ops = engine_table[engine];
    int rc = plan->ops->build(plan);
    if (rc != QC_OK) {
        free(plan);
        return rc;
    }
    *out = plan;
    return QC_OK;
}

void qc_plan_free(qc_plan *plan)
{
    if (!plan)
        return;
    plan->ops->release(plan);
    free(plan);
}

int qc_plan_n(const qc_plan *plan) { return plan ? plan->n : 0; }
qc_engine_id qc_plan_engine(const qc_plan *plan) { return plan ? plan->engine : QC_ENGINE_COUNT_; }
size_t qc_plan_unit_count(const qc_plan *plan) { return plan ? plan->unit_count : 0; }
uint64_t qc_plan_fingerprint(const qc_plan *plan) { return plan ? plan->fingerprint : 0; }

int qc_plan_profile(const qc_plan *plan)
{
    if (!plan || !plan->ops->profile_name)
        return 0;
    return plan->profile ? plan->profile : plan->n;
}

const char *qc_plan_profile_name(const qc_plan *plan)
{
    return plan && plan->ops->profile_name ? plan->ops->profile_name(plan) : "";
}

int qc_plan_unit_describe(const qc_plan *plan, size_t unit,
                          int (*each)(void *ctx, const qc_unit_case *c), void *ctx)
{
    if (!plan || !each || unit >= plan->unit_count)
        return QC_EINVAL;
    if (!plan->ops->describe_unit)
        return QC_ENOTSUP;
    return plan->ops->describe_unit(plan, unit, each, ctx);
}

/* [fault injection] Set by the test-only library alone (test_hooks/). */
int (*qci_plan_unit_trap)(size_t unit);

int qc_plan_count_unit(const qc_plan *plan, size_t unit, qc_tally *out)
{
    if (!out)
        return QC_EINVAL;
    out->solutions = 0;
    out->steps = 0;
    if (!plan || unit >= plan->unit_count)
        return QC_EINVAL;
    int (*trap)(size_t) = __atomic_load_n(&qci_plan_unit_trap, __ATOMIC_ACQUIRE);
    if (__builtin_expect(trap != NULL, 0) && trap(unit))
        return QC_ENOMEM;
    int rc = plan->ops->count_unit(plan, unit, out);
    if (rc != QC_OK) {
        out->solutions = 0;   /* a failed unit counts nothing */
        out->steps = 0;
    }
    return rc;
}

int qc_plan_recount_unit(const qc_plan *plan, size_t unit, qc_tally *out, const char **how)
{
    if (!out)
        return QC_EINVAL;
    out->solutions = 0;
    out->steps = 0;
    if (how)
        *how = "none";
    if (!plan || unit >= plan->unit_count)
        return QC_EINVAL;
    if (!plan->ops->recount_unit)
        return QC_ENOTSUP;
    const char *path = "none";
    int rc = plan->ops->recount_unit(plan, unit, out, &path);
    if (rc != QC_OK) {
        out->solutions = 0;   /* a failed unit counts nothing */
        out->steps = 0;
    }
    if (how)
        *how = path;
    return rc;
}

double qc_plan_unit_cost(const qc_plan *plan, size_t unit)
{
    if (!plan || unit >= plan->unit_count)
        return 0;
    return plan->ops->unit_cost ? plan->ops->unit_cost(plan, unit) : 1.0;
}

int qc_plan_count_unit_until(const qc_plan *plan, size_t unit, const int *stop, qc_tally *out)
{
    if (!out)
        return QC_EINVAL;
    if (stop && __atomic_load_n(stop, __ATOMIC_RELAXED)) {
        out->solutions = 0;
        out->steps = 0;
        return QC_ESTOP;
    }
    const int *outer = qci_stop_flag;
    qci_stop_flag = stop;   /* [stop check]: the engines read it inside a unit */
    int rc = qc_plan_count_unit(plan, unit, out);   /* zeroes *out on an error */
    qci_stop_flag = outer;
    if (rc == QC_OK && stop && __atomic_load_n(stop, __ATOMIC_RELAXED)) {
        out->solutions = 0;  /* raised as the unit ended: it may have been cut */
        out->steps = 0; /* short unseen, and a count is never partial */
        return QC_ESTOP;
    }
    return rc;
}

/* printf has no conversion for 128 bits. */
char *qc_u128_format(qc_u128 v, char *buf)
{
    if (!buf)
        return NULL;
    char tmp[40];
    int len = 0;
    do {
        tmp[len++] = (char)('0' + (int)(v % 10));
        v /= 10;
    } while (v);
    for (int i = 0; i < len; i++)
        buf[i] = tmp[len - 1 - i];
    buf[len] = '\0';
    return buf;
}
