/*
 * longrun.c — a count with its checkpoint ledger, progress line and signal
 * handling (see longrun.h).
 *
 * Signals: SIGINT and SIGTERM only raise the run's stop flag (an atomic
 * store, async-signal-safe) and note which signal came; the workers see
 * the flag within about a millisecond (run.c, kernel.c [stop check]), the
 * units they had finished are already in the ledger, and the ledger is
 * synced before the exit status 128+signal.  SA_RESETHAND: a second ^C
 * kills at once, which the ledger survives too.
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

void qc_longrun_hooks(qc_longrun_ctx *lr, qc_run_options *run)
{
    run->hook_ctx = lr;
    run->unit_known = lr->ledger ? unit_known : NULL;
    run->unit_done = lr->ledger ? unit_done : NULL;
    run->progress = lr->line ? progress : NULL;
    run->stop = &stop_flag;
}

void qc_longrun_catch_signals(struct sigaction *old_int, struct sigaction *old_term)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_stop_signal;
    sigemptyset(&sa.sa_mask);
    sa.sa_flags = SA_RESETHAND;
    sigaction(SIGINT, &sa, old_int);
    sigaction(SIGTERM, &sa, old_term);
}

int qc_longrun_stop_signal(void)
{
    return __atomic_load_n(&stop_signal, __ATOMIC_RELAXED);
}

int qc_longrun(const qc_options *opts, const qc_plan *plan, qc_result *result,
               char *msg, size_t msglen)
{
    qc_longrun_ctx lr = {0};
    if (opts->checkpoint && qct_ledger_open(&lr.ledger, opts->checkpoint, plan, msg, msglen) != 0)
        return 2;

    struct sigaction old_int, old_term;
    qc_longrun_catch_signals(&old_int, &old_term);

    size_t units = qc_plan_unit_count(plan);
    int finished = lr.ledger && qct_ledger_done_count(lr.ledger) == units;
    int tty = isatty(STDERR_FILENO);
    if (!finished && (opts->progress == QC_PROGRESS_ALWAYS
                      || (opts->progress == QC_PROGRESS_AUTO && tty)))
        lr.line = qcp_line_start(STDERR_FILENO, tty);

    qc_run_options run = {.threads = opts->threads, .bind = opts->bind};
    qc_longrun_hooks(&lr, &run);
    int rc = qc_run(plan, &run, result);
    qcp_line_stop(lr.line);

    int status = 0;
    if (rc == QC_EHOOK) {
        snprintf(msg, msglen, "ledger '%s': cannot write: %s", opts->checkpoint,
                 strerror(lr.write_errno));
        status = 2;
    } else if (lr.ledger && qct_ledger_sync(lr.ledger) != 0) {
        snprintf(msg, msglen, "ledger '%s': cannot sync: %s", opts->checkpoint, strerror(errno));
        status = 2;
    } else if (rc == QC_ESTOP) {
        int sig = qc_longrun_stop_signal();
        const char *name = sig == SIGINT ? "SIGINT" : sig == SIGTERM ? "SIGTERM" : "a signal";
        if (lr.ledger)
            snprintf(msg, msglen, "stopped by %s: %zu of %zu work units are saved in ledger '%s'; "
                     "run the same command again to resume", name,
                     qct_ledger_done_count(lr.ledger), units, opts->checkpoint);
        else
            snprintf(msg, msglen, "stopped by %s after %zu of %zu work units; without "
                     "--checkpoint the work done is lost", name, result->units, units);
        status = 128 + (sig ? sig : SIGINT);
    } else if (rc == QC_ENOMEM) {
        if (lr.ledger)
            snprintf(msg, msglen, "out of memory counting a work unit: %zu of %zu work units are "
                     "saved in ledger '%s'; run it again, with fewer --threads, to resume",
                     qct_ledger_done_count(lr.ledger), units, opts->checkpoint);
        else
            snprintf(msg, msglen, "out of memory counting a work unit (%zu of %zu were counted); "
                     "try fewer --threads", result->units, units);
        status = 2;
    } else if (rc != QC_OK) {
        snprintf(msg, msglen, "the count failed");
        status = 2;
    }
    qct_ledger_close(lr.ledger);
    sigaction(SIGINT, &old_int, NULL);
    sigaction(SIGTERM, &old_term, NULL);
    return status;
}
