/* SPDX-License-Identifier: MIT */
/*
 * run.c — the scheduler: counts a plan's work units over a team of threads.
 *
 * Units are handed out one at a time from a shared counter (dynamic, one
 * unit a time): units differ in size by orders of magnitude, so static
 * shares would leave threads idle.  Each thread sums into its own tally,
 * on its own stack, and adds it to the run's once, as it ends.
 *
 * Resumable runs: units a ledger already holds (unit_known) are summed up
 * front and left out of the loop; each unit counted is handed to unit_done
 * and progress under one lock, so the hooks need no locks of their own.
 * Stops: the workers read *stop before each unit, and the engines read it
 * inside long units (qc_plan_count_unit_until); a unit cut short is
 * dropped, never reported.
 * Threads: one per slot of the allowed CPUs unless asked otherwise, bound
 * inside them (topology.h); each run makes its own team (spawn.h [team]),
 * so a run never inherits another run's pinning.  Fewer when the system
 * refuses to create more: result->threads says how many counted, and a
 * refusal never ends the process.
 * Failures: a unit that fails (out of memory) is dropped too, never
 * reported, and no worker starts another unit after it, as after a failed
 * unit_done; the units already under way finish and are reported, since
 * their tallies are right (a ledger keeps them for the next run).
 */
#include <pthread.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "qcount.h"
#include "qct_clock.h"
#include "spawn.h"
#include "topology.h"
#include "unit_step.h"

/* One qc_run: what its threads share. */
typedef struct run_state {
    const qc_plan *plan;
    const int *stop;          /* the caller's stop flag, or NULL          */
    qct_topology *topo;       /* NULL: threads are not bound              */
    int bind;                 /* QC_BIND_* flags                          */
    int threads;              /* asked for                                */
    int ran;                  /* made: the system may let fewer start     */
    qct_thread_sum sum;       /* the threads' tallies, each added as it ends */
    size_t unit_count;        /* the plan's                               */
    qct_todo todo;            /* the units to count, not known before     */
    size_t next;              /* the next unit to look at (atomic)        */
    pthread_mutex_t report_lock;  /* around the hooks and sum             */
    qc_tally known;           /* summed from unit_known                   */
    size_t resumed;           /* units known                              */
    qct_reporter rep;         /* unit_done and progress, and the books    */
    int report;               /* any hook to call after each unit         */
    int unit_failed;          /* the first failed unit's error (atomic)   */
} run_state;

static void run_close(run_state *r)
{
    pthread_mutex_destroy(&r->report_lock);
    qct_todo_close(&r->todo);
    qct_topology_close(r->topo);
}

/* Threads, pinning and memory; the units known from a ledger are summed
 * now and not counted again.  Returns QC_OK or QC_ENOMEM. */
static int run_open(run_state *r, const qc_plan *plan, const qc_run_options *opts)
{
    memset(r, 0, sizeof *r);
    pthread_mutex_init(&r->report_lock, NULL);
    r->plan = plan;
    r->topo = qct_topology_open();
    r->bind = opts ? opts->bind : QC_BIND_PIN;
    r->threads = opts && opts->threads > 0 ? opts->threads : qct_topology_slots(r->topo, r->bind);
    r->unit_count = qc_plan_unit_count(plan);
    r->ran = r->threads;
    double start = qct_now_seconds();
    if (qct_todo_open(&r->todo, opts, r->unit_count, &r->known, &r->resumed) != QC_OK) {
        run_close(r);
        return QC_ENOMEM;
    }
    r->stop = opts ? opts->stop : NULL;
    r->report = opts && (opts->unit_done || opts->progress);
    qct_report_begin(&r->rep, opts, plan, &r->todo, r->resumed, start);
    return QC_OK;
}

/* Stopping (asked to, a hook failed, a unit failed): skip the rest fast. */
static int stopping(const run_state *r)
{
    return (r->stop && __atomic_load_n(r->stop, __ATOMIC_RELAXED))
           || __atomic_load_n(&r->rep.hook_failed, __ATOMIC_RELAXED)
           || __atomic_load_n(&r->unit_failed, __ATOMIC_RELAXED);
}

/* One unit on one thread: counted into *mine and reported, or dropped. */
static void count_unit(run_state *r, size_t unit, qct_thread_sum *mine)
{
    qc_tally t;
    if (qct_count_step(r->plan, unit, r->stop, &r->unit_failed, &t) != QCT_COUNTED)
        return;
    qct_thread_sum_add(mine, &t);
    if (r->report) {
        pthread_mutex_lock(&r->report_lock);
        qct_report_unit(&r->rep, unit, &t);
        qct_report_progress(&r->rep);
        pthread_mutex_unlock(&r->report_lock);
    }
}

/* One member of the team: units from the shared counter until none is
 * left or the run stops; a unit known before is passed over. */
static void count_member(void *ctx, int me, int team)
{
    run_state *r = ctx;
    qct_topology_bind_thread(r->topo, me, team, r->bind);
    qct_thread_sum mine = {0};
    for (;;) {
        size_t unit = __atomic_fetch_add(&r->next, 1, __ATOMIC_RELAXED);
        if (unit >= r->unit_count || stopping(r))
            break;
        if (qct_todo_has(&r->todo, unit))
            count_unit(r, unit, &mine);
    }
    pthread_mutex_lock(&r->report_lock);
    r->sum.solutions += mine.solutions;
    r->sum.steps += mine.steps;
    r->sum.units += mine.units;
    pthread_mutex_unlock(&r->report_lock);
}

static void count_all(run_state *r)
{
    r->ran = qct_team_run(r->threads, NULL, count_member, r);
    qct_topology_unbind(r->topo);   /* the caller's thread was member 0 */
}

/* The known units and every thread's sums into *result; the run's code. */
static int sum_up(const run_state *r, qc_result *result)
{
    int stopped = r->stop && __atomic_load_n(r->stop, __ATOMIC_RELAXED);
    result->seconds = qct_now_seconds() - r->rep.start;
    result->cpu_seconds = qct_cpu_seconds() - r->rep.cpu_start;
    result->total = r->known.solutions;
    result->steps = r->known.steps;
    result->units = r->resumed;
    result->units_resumed = r->resumed;
    result->steps_resumed = r->known.steps;
    result->total += r->sum.solutions;
    result->steps += r->sum.steps;
    result->units += r->sum.units;
    result->threads = r->ran;
    result->cpu_count = qct_topology_team_cpus(r->topo, r->ran, r->bind, result->cpus,
                                               sizeof result->cpus);
    if (r->rep.hook_failed)
        return QC_EHOOK;
    if (r->unit_failed != QC_OK)
        return r->unit_failed;
    return stopped && result->units < r->unit_count ? QC_ESTOP : QC_OK;
}

/* The first release's qc_run_options ends with stop: a caller's struct is
 * at least that long. */
#define RUN_OPTIONS_SIZE_FIRST (offsetof(qc_run_options, stop) + sizeof(const int *))

/* [growing options] The caller's options as this library knows them, in
 * *copy: the fields within in->size, zero past it; QC_ENOTSUP when a
 * newer caller set a field past this library's struct. */
static int run_options_take(const qc_run_options *in, qc_run_options *copy)
{
    if (in->size < RUN_OPTIONS_SIZE_FIRST)
        return QC_EINVAL;
    for (size_t i = sizeof *copy; i < in->size; i++)
        if (((const unsigned char *)in)[i] != 0)
            return QC_ENOTSUP;
    memset(copy, 0, sizeof *copy);
    memcpy(copy, in, in->size < sizeof *copy ? in->size : sizeof *copy);
    return QC_OK;
}

int qc_run(const qc_plan *plan, const qc_run_options *opts, qc_result *result)
{
    if (result)
        memset(result, 0, sizeof *result);   /* an error before counting: nothing counted */
    if (!plan || !result)
        return QC_EINVAL;
    qc_run_options known;
    if (opts) {
        int taken = run_options_take(opts, &known);
        if (taken != QC_OK)
            return taken;
        opts = &known;
    }
    if (opts && (opts->threads < 0 || opts->threads > QC_THREADS_MAX
                 || (opts->bind & ~(QC_BIND_PIN | QC_BIND_SMT))))
        return QC_EINVAL;
    run_state r;
    int rc = run_open(&r, plan, opts);
    if (rc != QC_OK)
        return rc;
    count_all(&r);
    rc = sum_up(&r, result);
    run_close(&r);
    return rc;
}
