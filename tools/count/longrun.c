/* SPDX-License-Identifier: MIT */
/*
 * longrun.c — a count with its checkpoint ledger, progress line and signal
 * handling, and the words it ends with (see longrun.h).
 *
 * Signals: SIGINT and SIGTERM only raise the run's stop flag (an atomic
 * store, async-signal-safe) and note which signal came; the workers see
 * the flag within about a millisecond (run.c, kernel.c [stop check]), the
 * units they had finished are already in the ledger, and the ledger is
 * synced before the exit status 128+signal.  SA_RESETHAND on SIGINT: a
 * second ^C kills at once, which the ledger survives too.  SIGTERM stays
 * caught: a batch system may send it to every process of a job while the
 * job's shell forwards its own (tools/scripts/qcount-parts.slurm), and the
 * second copy must not cut the clean stop short (SIGKILL is for that).
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
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "longrun.h"
#include "mpi_run.h"

static int stop_flag;          /* the run's stop flag, set by the handler */
static int stop_signal;        /* which signal set it */

static void on_stop_signal(int sig)
{
    if (sig == SIGUSR1 || sig == SIGUSR2)   /* [forwarded stop] */
        sig = sig == SIGUSR1 ? SIGINT : SIGTERM;
    __atomic_store_n(&stop_signal, sig, __ATOMIC_RELAXED);
    __atomic_store_n(&stop_flag, 1, __ATOMIC_RELAXED);
}

/* Units of other parts are "known" with nothing in them: the run leaves
 * them out and adds nothing for them; the others are the ledger's. */
static int unit_known(void *ctx, size_t unit, qc_tally *out)
{
    qcc_longrun_ctx *lr = ctx;
    if (lr->member && !lr->member[unit]) {
        *out = (qc_tally){.solutions = 0, .steps = 0};
        return 1;
    }
    return lr->ledger && qcc_ledger_get(lr->ledger, unit, out) == 0;
}

/* [unit CPU time] A unit's CPU seconds: the calling worker's CPU clock
 * since its previous unit_done in this run (the scheduler calls unit_done
 * on the thread that counted the unit, right after counting it), or since
 * the thread started counting: the run's threads are fresh, and the
 * calling thread's clock is read as the run starts (unit_clock_start). */
static _Thread_local struct { long generation; double cpu; } unit_clock;

static double thread_cpu_seconds(void)
{
    struct timespec ts;
    if (clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts) != 0)
        return -1;
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static void unit_clock_start(qcc_longrun_ctx *lr)
{
    static long generations;
    lr->generation = __atomic_add_fetch(&generations, 1, __ATOMIC_RELAXED);
    unit_clock.generation = lr->generation;
    unit_clock.cpu = thread_cpu_seconds();
}

static double unit_cpu_seconds(const qcc_longrun_ctx *lr)
{
    double now = thread_cpu_seconds(), since = unit_clock.generation == lr->generation
                                                   ? unit_clock.cpu : 0;
    unit_clock.generation = lr->generation;
    unit_clock.cpu = now;
    return now >= 0 && since >= 0 ? now - since : -1;
}

static int unit_done(void *ctx, size_t unit, const qc_tally *t)
{
    qcc_longrun_ctx *lr = ctx;
    qcc_unit_log log = {.cpu_seconds = -1};
    snprintf(log.engine, sizeof log.engine, "%s", lr->engine);
    if (lr->remote) {
        /* counted by some rank: which one, at what level, the job does
         * not say; the host names the job's rank 0 */
        char host[32] = "?";
        gethostname(host, sizeof host - 1);
        host[sizeof host - 1] = '\0';
        snprintf(log.host, sizeof log.host, "mpi@%s", host);
    } else {
        log.cpu_seconds = unit_cpu_seconds(lr);
        snprintf(log.isa, sizeof log.isa, "%s", qc_isa_name());
    }
    if (lr->ledger && qcc_ledger_record_log(lr->ledger, unit, t, &log) != 0) {
        lr->write_errno = errno;
        return -1;
    }
    return 0;
}

/* The progress of the part alone: the other parts' units are neither
 * done nor to do. */
static void progress(void *ctx, const qc_progress *p)
{
    qcc_longrun_ctx *lr = ctx;
    if (!lr->line)
        return;
    qc_progress mine = *p;
    mine.units_done -= lr->others;
    mine.units_total -= lr->others;
    mine.units_resumed -= lr->others;
    mine.work_done -= lr->others_work;
    mine.work_total -= lr->others_work;
    mine.work_resumed -= lr->others_work;
    if (mine.work_resumed < 0)   /* rounding */
        mine.work_resumed = 0;
    qcc_line_update(lr->line, &mine);
}

int qcc_longrun_open(qcc_longrun_ctx *lr, const qca_options *opts, const qc_plan *plan,
                     char *msg, size_t msglen)
{
    memset(lr, 0, sizeof *lr);
    lr->path = opts->checkpoint;
    lr->remote = qct_mpi_launcher_rank() >= 0;
    const char *engine = qc_engine_name(qc_plan_engine(plan));
    snprintf(lr->engine, sizeof lr->engine, "%s", engine ? engine : "?");
    qcc_part part = {0, 0, 0, 0};
    if (opts->parts) {
        const size_t units = qc_plan_unit_count(plan);
        part.index = (uint32_t)opts->part;
        part.count = (uint32_t)opts->parts;
        lr->member = malloc(units ? units : 1);
        if (!lr->member || qcc_part_fill(plan, &part, lr->member) != 0) {
            free(lr->member);
            lr->member = NULL;
            snprintf(msg, msglen, "out of memory dealing the units into parts");
            return 2;
        }
        for (size_t u = 0; u < units; u++)
            if (!lr->member[u]) {
                lr->others++;
                lr->others_work += qc_plan_unit_cost(plan, u);
            }
    }
    if (opts->checkpoint
        && qcc_ledger_open_part(&lr->ledger, opts->checkpoint, plan, &part, msg, msglen) != 0) {
        free(lr->member);
        lr->member = NULL;
        return 2;
    }
    return 0;
}

void qcc_longrun_show_progress(qcc_longrun_ctx *lr, const qca_options *opts, size_t units)
{
    int finished = lr->ledger && qcc_ledger_done_count(lr->ledger) == units - lr->others;
    int tty = isatty(STDERR_FILENO);
    if (!finished && (opts->progress == QC_PROGRESS_ALWAYS
                      || (opts->progress == QC_PROGRESS_AUTO && tty)))
        lr->line = qcc_line_start(STDERR_FILENO, tty);
}

void qcc_longrun_hooks(qcc_longrun_ctx *lr, qc_run_options *run)
{
    run->hook_ctx = lr;
    run->unit_known = lr->ledger || lr->member ? unit_known : NULL;
    run->unit_done = lr->ledger ? unit_done : NULL;
    run->progress = lr->line ? progress : NULL;
    run->stop = &stop_flag;
}

/* a raises the stop flag once (then its default action) and b every time
 * it comes; their old actions to old_a/old_b */
static void catch_pair(int a, int b, struct sigaction *old_a, struct sigaction *old_b)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_stop_signal;
    sigemptyset(&sa.sa_mask);
    sa.sa_flags = SA_RESETHAND;
    sigaction(a, &sa, old_a);
    sa.sa_flags = 0;
    sigaction(b, &sa, old_b);
}

void qcc_longrun_catch_signals(struct sigaction *old_int, struct sigaction *old_term)
{
    catch_pair(SIGINT, SIGTERM, old_int, old_term);
}

void qcc_longrun_catch_forwarded(void)
{
    catch_pair(SIGUSR1, SIGUSR2, NULL, NULL);
}

int qcc_longrun_stop_signal(void)
{
    return __atomic_load_n(&stop_signal, __ATOMIC_RELAXED);
}

int qcc_longrun_sync(qcc_longrun_ctx *lr, char *msg, size_t msglen)
{
    if (!lr->ledger || qcc_ledger_sync(lr->ledger) == 0)
        return 0;
    snprintf(msg, msglen, "ledger '%s': cannot sync: %s", lr->path, strerror(errno));
    return 2;
}

/* "stopped by WHY: ...": the exit status 128+signal. */
static int say_stopped(const qcc_longrun_ctx *lr, const char *why, size_t counted, size_t units,
                       char *msg, size_t msglen)
{
    int sig = qcc_longrun_stop_signal();
    if (!why)
        why = sig == SIGINT ? "SIGINT" : sig == SIGTERM ? "SIGTERM" : "a signal";
    if (lr->ledger)
        snprintf(msg, msglen, "stopped by %s: %zu of %zu work units are saved in ledger '%s'; "
                 "run the same command again to resume", why,
                 qcc_ledger_done_count(lr->ledger), units, lr->path);
    else
        snprintf(msg, msglen, "stopped by %s after %zu of %zu work units; without "
                 "--checkpoint the work done is lost", why, counted, units);
    return 128 + (sig ? sig : SIGINT);
}

/* "WHY: ...", WHY being what ran out of memory: the exit status 2. */
static int say_out_of_memory(const qcc_longrun_ctx *lr, const char *why, size_t counted,
                             size_t units, char *msg, size_t msglen)
{
    if (!why)
        why = "out of memory counting a work unit";
    if (lr->ledger)
        snprintf(msg, msglen, "%s: %zu of %zu work units are saved in ledger '%s'; "
                 "run it again, with fewer --threads, to resume",
                 why, qcc_ledger_done_count(lr->ledger), units, lr->path);
    else
        snprintf(msg, msglen, "%s (%zu of %zu were counted); try fewer --threads",
                 why, counted, units);
    return 2;
}

int qcc_longrun_verdict(qcc_longrun_ctx *lr, int rc, const char *why, size_t counted, size_t units,
                        char *msg, size_t msglen)
{
    if (rc == QC_EHOOK) {
        snprintf(msg, msglen, "ledger '%s': cannot write: %s", lr->path, strerror(lr->write_errno));
        return 2;
    }
    if (qcc_longrun_sync(lr, msg, msglen) != 0)
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

int qcc_longrun_unique(const qca_options *opts, const qc_result *r, qc_u128 *unique, char *msg,
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

void qcc_longrun_close(qcc_longrun_ctx *lr)
{
    qcc_ledger_close(lr->ledger);
    lr->ledger = NULL;
    free(lr->member);
    lr->member = NULL;
}

int qcc_longrun(const qca_options *opts, const qc_plan *plan, qc_result *result,
                char *msg, size_t msglen)
{
    qcc_longrun_ctx lr;
    if (qcc_longrun_open(&lr, opts, plan, msg, msglen) != 0)
        return 2;

    struct sigaction old_int, old_term;
    qcc_longrun_catch_signals(&old_int, &old_term);
    size_t units = qc_plan_unit_count(plan);
    qcc_longrun_show_progress(&lr, opts, units);

    qc_run_options run = {.size = sizeof run, .threads = opts->threads, .bind = opts->bind};
    qcc_longrun_hooks(&lr, &run);
    unit_clock_start(&lr);
    int rc = qc_run(plan, &run, result);
    qcc_line_stop(lr.line);
    if (result->units_resumed >= lr.others) {   /* the part's alone */
        result->units -= lr.others;
        result->units_resumed -= lr.others;
    }
    units -= lr.others;
    if (opts->threads > 0 && result->threads > 0 && result->threads < opts->threads)
        fprintf(stderr, "qcount: the system let only %d of the %d threads start; "
                "counted on %d\n", result->threads, opts->threads, result->threads);

    int status = qcc_longrun_verdict(&lr, rc, NULL, result->units, units, msg, msglen);
    qcc_longrun_close(&lr);
    sigaction(SIGINT, &old_int, NULL);
    sigaction(SIGTERM, &old_term, NULL);
    return status;
}
