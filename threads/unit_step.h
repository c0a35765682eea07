/* SPDX-License-Identifier: MIT */
/*
 * unit_step.h — one work unit's way through a scheduler, the same under
 * qc_run (threads) and under MPI (ranks): known from a ledger or left to
 * do; counted, dropped on a stop, or failed; then reported to the hooks.
 */
#ifndef QCT_UNIT_STEP_H
#define QCT_UNIT_STEP_H

#include <stddef.h>
#include <stdint.h>

#include "qcount.h"

/* [todo bits] The units of a run left to count: one bit a unit, in plan
 * order (5 MB for N=28's 40 million units; a list of their numbers would
 * take 321 MB).  qc_run's threads and MPI's rank 0 both take units from it
 * in plan order. */
typedef struct qct_todo {
    uint64_t *bits;           /* bit u of word u/64: unit u is to count   */
    size_t units;             /* the plan's                               */
    size_t count;             /* bits set                                 */
} qct_todo;

/* Every unit of a plan of `units` that opts->unit_known does not hold goes
 * into *t; the known ones' tallies are summed into *known and counted in
 * *resumed (both start at zero here).  opts may be NULL.  Returns QC_OK,
 * or QC_ENOMEM (*t then empty, safe to close). */
int qct_todo_open(qct_todo *t, const qc_run_options *opts, size_t units, qc_tally *known,
                  size_t *resumed);
void qct_todo_close(qct_todo *t);

static inline int qct_todo_has(const qct_todo *t, size_t unit)
{
    return unit < t->units && (t->bits[unit / 64] >> (unit % 64) & 1);
}

/* The first unit to count at or after `from`, or t->units if none. */
size_t qct_todo_next(const qct_todo *t, size_t from);

/* What one counting thread did, alone on its cache line(s), so that no
 * two threads write the same line (false sharing); summed once at the end. */
typedef struct qct_thread_sum {
    _Alignas(64) qc_u128 solutions;
    qc_u128 steps;
    size_t units;
    double busy;              /* seconds inside units (MPI's report only) */
} qct_thread_sum;

static inline void qct_thread_sum_add(qct_thread_sum *sum, const qc_tally *t)
{
    sum->solutions += t->solutions;
    sum->steps += t->steps;
    sum->units++;
}

/* Keeps the first failure's code in *first_error (QC_OK until then; an
 * atomic compare-and-swap, so any thread may call it). */
static inline void qct_note_failure(int *first_error, int rc)
{
    int none = QC_OK;
    __atomic_compare_exchange_n(first_error, &none, rc, 0, __ATOMIC_RELAXED, __ATOMIC_RELAXED);
}

typedef enum qct_step {
    QCT_COUNTED,              /* *t holds the unit's tally: report it      */
    QCT_STOPPED,              /* *stop cut it short: drop it               */
    QCT_FAILED                /* it counted nothing (out of memory): drop
                                 it; its code is noted in *first_error     */
} qct_step;

/* Counts one unit (qc_plan_count_unit_until, watching *stop) and says what
 * became of it.  A unit stopped or failed is never reported as counted. */
qct_step qct_count_step(const qc_plan *plan, size_t unit, const int *stop, int *first_error,
                        qc_tally *t);

/* The hooks' side of a run (qc_run_options' unit_done and progress) and
 * where the run stands.  Its calls must be serialised by the caller (one
 * critical section, or one thread). */
typedef struct qct_reporter {
    const qc_run_options *hooks;   /* may be NULL: nothing is called       */
    const qc_plan *plan;           /* for the units' estimated work        */
    qc_progress where;
    double start;                  /* qct_now_seconds() at the start       */
    double cpu_start;              /* qct_cpu_seconds() at the same time   */
    int hook_failed;               /* unit_done returned nonzero (stored
                                      atomically: others may read it)      */
} qct_reporter;

/* Starts the books: the plan's units, `resumed` of them known, the ones
 * in todo to be counted; calls progress once, before counting. */
void qct_report_begin(qct_reporter *r, const qc_run_options *hooks, const qc_plan *plan,
                      const qct_todo *todo, size_t resumed, double start);
/* One unit counted: unit_done (until one fails), and the progress books. */
void qct_report_unit(qct_reporter *r, size_t unit, const qc_tally *t);
/* Calls progress with where the run stands now. */
void qct_report_progress(qct_reporter *r);

#endif
