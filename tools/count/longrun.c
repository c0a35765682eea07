/* SPDX-License-Identifier: MIT */
/*
 * longrun.c — a count with its checkpoint ledger, progress line and signal
 * handling, and the words it ends with (see longrun.h).
 *
 * Signals: SIGINT and SIGTERM only raise the run's stop flag (an atomic
 * store, async-signal-safe) and note which signal came; the workers see
 * the flag within about a millisecond (run.c, kernel.c [stop check]), the
 * units they had finished are already in the ledger, and the ledger is
 * synced before the exit status 128+signal.  SA_RESETHAND: a second ^C
 * kills at once, which the ledger survives too.
 *
 * [forwarded stop] Open MPI's mpirun forwards SIGUSR1 and SIGUSR2 to its
 * ranks but never SIGINT or SIGTERM (it kills the job itself and exits 1),
 * so under a launcher SIGUSR1 stands for SIGINT and SIGUSR2 for SIGTERM:
 * the same stop, stop line and status.  tools/scripts/qcount-mpirun turns
 * the INT and TERM it gets into these.
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "longrun.h"

static int stop_flag;          /* the run's stop flag, set by the handler */
static int stop_signal;        /* which signal set it */

static void on_stop_signal(int sig)
{
    if (sig == SIGUSR1 || sig == SIGUSR2)   /* [forwarded stop] */
        sig = sig == SIGUSR1 ? SIGINT : SIGTERM;
    __atomic_store_n(&stop_signal, sig, __ATOMIC_RELAXED);
    __atomic_store_n(&stop_flag, 1, __ATOMIC_RELAXED);
}

static int unit_known(void *ctx, size_t unit, qc_tally *out)
{
    qc_longrun_ctx *lr = ctx;
    return qct_ledger_get(lr->ledger, unit, out) == 0;
}

static int unit_done(void *ctx, size_t unit, const qc_tally *t)
{
    qc_longrun_ctx *lr = ctx;
    if (lr->ledger && qct_ledger_record(lr->ledger, unit, t) != 0) {
        lr->write_errno = errno;
        return -1;
    }
    return 0;
}

static void progress(void *ctx, const qc_progress *p)
{
    qc_longrun_ctx *lr = ctx;
    if (lr->line)
        qcp_line_update(lr->line, p);
}

int qc_longrun_open(qc_longrun_ctx *lr, const qc_options *opts, const qc_plan *plan,
                    char *msg, size_t msglen)
{
    memset(lr, 0, sizeof *lr);
    lr->path = opts->checkpoint;
    if (opts->checkpoint && qct_ledger_open(&lr->ledger, opts->checkpoint, plan, msg, msglen) != 0)
        return 2;
    return 0;
}

void qc_longrun_show_progress(qc_longrun_ctx *lr, const qc_options *opts, size_t units)
{
    int finished = lr->ledger && qct_ledger_done_count(lr->ledger) == units;
    int tty = isatty(STDERR_FILENO);
    if (!finished && (opts->progress == QC_PROGRESS_ALWAYS
                      || (opts->progress == QC_PROGRESS_AUTO && tty)))
        lr->line = qcp_line_start(STDERR_FILENO, tty);
}

void qc_longrun_hooks(qc_longrun_ctx *lr, qc_run_options *run)
{
    run->hook_ctx = lr;
    run->unit_known = lr->ledger ? unit_known : NULL;
    run->unit_done = lr->ledger ? unit_done : NULL;
    run->progress = lr->line ? progress : NULL;
    run->stop = &stop_flag;
}

/* a and b raise the stop flag, once each; their old actions to old_a/old_b */
static void catch_pair(int a, int b, struct sigaction *old_a, struct sigaction *old_b)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_stop_signal;
    sigemptyset(&sa.sa_mask);
    sa.sa_flags = SA_RESETHAND;
    sigaction(a, &sa, old_a);
    sigaction(b, &sa, old_b);
}

void qc_longrun_catch_signals(struct sigaction *old_int, struct sigaction *old_term)
{
    catch_pair(SIGINT, SIGTERM, old_int, old_term);
}

void qc_longrun_catch_forwarded(void)
{
    catch_pair(SIGUSR1, SIGUSR2, NULL, NULL);
}

int qc_longrun_stop_signal(void)
{
    return __atomic_load_n(&stop_signal, __ATOMIC_RELAXED);
}

int qc_longrun_sync(qc_longrun_ctx *lr, char *msg, size_t msglen)
{
    if (!lr->ledger || qct_ledger_sync(lr->ledger) == 0)
        return 0;
    snprintf(msg, msglen, "ledger '%s': cannot sync: %s", lr->path, strerror(errno));
    return 2;
}

/* "stopped by WHY: ...": the exit status 128+signal. */
static int say_stopped(const qc_longrun_ctx *lr, const char *why, size_t counted, size_t units,
                       char *msg, size_t msglen)
{
    int sig = qc_longrun_stop_signal();
    if (!why)
        why = sig == SIGINT ? "SIGINT" : sig == SIGTERM ? "SIGTERM" : "a signal";
    if (lr->ledger)
        snprintf(msg, msglen, "stopped by %s: %zu of %zu work units are saved in ledger '%s'; "
                 "run the same command again to resume", why,
                 qct_ledger_done_count(lr->ledger), units, lr->path);
    else
        snprintf(msg, msglen, "stopped by %s after %zu of %zu work units; without "
                 "--checkpoint the work done is lost", why, counted, units);
    return 128 + (sig ? sig : SIGINT);
}

/* "WHY: ...", WHY being what ran out of memory: the exit status 2. */
static int say_out_of_memory(const qc_longrun_ctx *lr, const char *why, size_t counted,
                             size_t units, char *msg, size_t msglen)
{
    if (!why)
        why = "out of memory counting a work unit";
    if (lr->ledger)
        snprintf(msg, msglen, "%s: %zu of %zu work units are saved in ledger '%s'; "
                 "run it again, with fewer --threads, to resume",
                 why, qct_ledger_done_count(lr->ledger), units, lr->path);
    else
        snprintf(msg, msglen, "%s (%zu of %zu were counted); try fewer --threads",
                 why, counted, units);
    return 2;
}

int qc_longrun_verdict(qc_longrun_ctx *lr, int rc, const char *why, size_t counted, size_t units,
                       char *msg, size_t msglen)
{
    if (rc == QC_EHOOK) {
        snprintf(msg, msglen, "ledger '%s': cannot write: %s", lr->path, strerror(lr->write_errno));
        return 2;
    }
    if (qc_longrun_sync(lr, msg, msglen) != 0)
        return 2;
    if (rc == QC_OK)
        return 0;
    if (rc == QC_ESTOP)
        return say_stopped(lr, why, counted, units, msg, msglen);
    if (rc == QC_ENOMEM)
        return say_out_of_memory(lr, why, counted, units, msg, msglen);
    snprintf(msg, msglen, "the count failed");
    return 2;
}

int qc_longrun_unique(const qc_options *opts, const qc_result *r, qc_u128 *unique, char *msg,
                      size_t msglen)
{
    *unique = 0;
    if (!opts->unique)
        return 0;
    qc_u128 r90, r180;
    if (qc_symmetric_counts(opts->n, &r90, &r180, NULL) != QC_OK) {
        snprintf(msg, msglen, "cannot count the symmetric solutions");
        return 2;
    }
    *unique = qc_fundamental_count(opts->n, r->total, r90, r180);
    return 0;
}

void qc_longrun_close(qc_longrun_ctx *lr)
{
    qct_ledger_close(lr->ledger);
    lr->ledger = NULL;
}

int qc_longrun(const qc_options *opts, const qc_plan *plan, qc_result *result,
               char *msg, size_t msglen)
{
    qc_longrun_ctx lr;
    if (qc_longrun_open(&lr, opts, plan, msg, msglen) != 0)
        return 2;

    struct sigaction old_int, old_term;
    qc_longrun_catch_signals(&old_int, &old_term);
    size_t units = qc_plan_unit_count(plan);
    qc_longrun_show_progress(&lr, opts, units);

    qc_run_options run = {.size = sizeof run, .threads = opts->threads, .bind = opts->bind};
    qc_longrun_hooks(&lr, &run);
    int rc = qc_run(plan, &run, result);
    qcp_line_stop(lr.line);
    if (opts->threads > 0 && result->threads > 0 && result->threads < opts->threads)
        fprintf(stderr, "qcount: the system let only %d of the %d threads start; "
                "counted on %d\n", result->threads, opts->threads, result->threads);

    int status = qc_longrun_verdict(&lr, rc, NULL, result->units, units, msg, msglen);
    qc_longrun_close(&lr);
    sigaction(SIGINT, &old_int, NULL);
    sigaction(SIGTERM, &old_term, NULL);
    return status;
}
