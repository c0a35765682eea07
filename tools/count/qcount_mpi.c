/* SPDX-License-Identifier: MIT */
/*
 * qcount_mpi.c — the qcount program when an MPI launcher started it
 * (mpirun, srun): join the job, count across its ranks, and let rank 0
 * alone print — the total on stdout, as in a plain run, and the per-rank
 * report (units, busy seconds) on stderr, so imbalance is visible.
 *
 * --checkpoint: rank 0 alone opens the ledger, leaves its units out and
 * records every tally as it arrives, so a job cancelled or out of time
 * resumes from it on any number of ranks.  Records are written as they
 * come (one pwrite each), so even SIGKILL loses only the units in flight.
 * SIGINT/SIGTERM on rank 0 (srun forwards them; Open MPI's mpirun does
 * not, it kills the ranks itself), or SIGUSR1/SIGUSR2 standing for them
 * (which mpirun forwards; longrun.c [forwarded stop]), syncs the ledger,
 * says how far it got and ends the job: alone, by MPI_Finalize; else by
 * MPI_Abort, without its banner ([quiet abort]).  The other ranks take
 * SIGUSR1/SIGUSR2 too and wait for rank 0's abort; SIGINT/SIGTERM keep
 * the default action there and simply kill them.  A work unit that runs
 * out of memory on any rank ends the job the same way, with one line and
 * exit status 2.
 */
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

#include "longrun.h"
#include "mpi/count.h"
#include "mpi/handshake.h"
#include "mpi/job.h"
#include "mpi_load.h"
#include "mpi_run.h"
#include "qcount_mpi.h"
#include "quote.h"
#include "report.h"

static void print_report(const qcr_mpi_result *r)
{
    fprintf(stderr, "qcount: %d ranks, %d threads, %zu units (%zu from the ledger) in %.3f s\n",
            r->ranks, r->total.threads, r->total.units, r->total.units_resumed, r->total.seconds);
    if (r->ever_silent)
        fprintf(stderr, "qcount: %d rank%s (rank %d first) sent nothing for %.0f s "
                "(QCOUNT_MPI_SILENCE): the %zu units %s held went to the others (%zu tallies "
                "came twice, the same)\n", r->ever_silent, r->ever_silent > 1 ? "s" : "",
                r->first_silent, r->silence, r->handed_again, r->ever_silent > 1 ? "they" : "it",
                r->repeats);
    for (int i = 0; i < r->ranks; i++) {
        const qcr_mpi_rank_stats *s = &r->per_rank[i];
        if (s->threads == 0) {   /* [silence] rank 0 finished without its report */
            fprintf(stderr, "qcount: rank %d: no report (silent or done as the count ended "
                    "without it)\n", s->rank);
            continue;
        }
        double use = s->wall_seconds > 0 && s->threads > 0
                     ? 100.0 * s->busy_seconds / (s->wall_seconds * s->threads) : 0.0;
        fprintf(stderr, "qcount: rank %d (%s, %d threads): %zu units, busy %.3f s of %.3f s x %d (%.0f%%)\n",
                s->rank, s->host, s->threads, s->units, s->busy_seconds, s->wall_seconds,
                s->threads, use);
    }
}

/* --json: the per-rank figures, after the fields every count has. */
static void json_ranks(FILE *out, void *ctx)
{
    const qcr_mpi_result *r = ctx;
    char steps[48];
    fprintf(out, ", \"ranks\": [");
    for (int i = 0; i < r->ranks; i++) {
        const qcr_mpi_rank_stats *s = &r->per_rank[i];
        qc_u128_format(s->steps, steps);
        fprintf(out, "%s{\"rank\": %d, \"host\": \"", i ? ", " : "", s->rank);
        for (const char *p = s->host; *p; p++)   /* host names are tame; stay valid JSON anyway */
            fputc(*p == '"' || *p == '\\' || (unsigned char)*p < 0x20 ? '?' : *p, out);
        fprintf(out, "\", \"threads\": %d, \"units\": %zu, \"busy_seconds\": %.6f, "
                "\"wall_seconds\": %.6f, \"steps\": %s, \"placements\": %s}",
                s->threads, s->units, s->busy_seconds, s->wall_seconds, steps, steps);
    }
    fprintf(out, "]");
}

/* [quiet abort] A stop ends the other ranks by MPI_Abort, whose banner
 * ("MPI_ABORT was invoked on rank 0 ... errorcode 143") reads as a crash
 * under the stop line.  Open MPI prints it from the aborting process
 * itself when srun started it, so stderr goes to /dev/null first (the
 * stop line is out by then); under mpirun, mpirun prints it, and it stays. */
static void quiet_stderr(void)
{
    int null = open("/dev/null", O_WRONLY);
    if (null >= 0 && null != STDERR_FILENO) {
        dup2(null, STDERR_FILENO);
        close(null);
    }
}

/* Rank 0 quit at once, without the other ranks (a stop, a failed ledger
 * write, a unit out of memory): say how far it got, then end every rank. */
static int end_alone(qcc_longrun_ctx *ctx, qcr_mpi_result *result, int rc, const char *err,
                     size_t units)
{
    const char *why = rc == QC_ENOMEM ? err : NULL;
    if (rc == QC_ESTOP && qcr_mpi_orphaned()) {
        signal(SIGPIPE, SIG_IGN);   /* stderr may lead to a dead mpirun */
        why = "the loss of its launcher (mpirun killed?)";
    }
    char msg[1024];
    int status = qcc_longrun_verdict(ctx, rc, why, result->total.units, units, msg, sizeof msg);
    qca_print_error(msg);
    qcc_longrun_close(ctx);
    const int ranks = result->ranks;
    qcr_mpi_result_free(result);
    fflush(stderr);
    if (qcr_mpi_orphaned())
        _exit(status);   /* no launcher left to carry out an MPI_Abort */
    if (rc == QC_ESTOP && ranks <= 1) {   /* a clean stop, no other rank to end */
        qcr_mpi_finalize();
        return status;
    }
    if (rc == QC_ESTOP)
        quiet_stderr();
    qcr_mpi_abort(status);
    return status;
}

/* [silence] Rank 0 finished without a silent rank, and ends the job.  If
 * that rank's host is cut off, an MPI_Abort now would hold mpirun for
 * many minutes: it sends the kill to the lost host's daemon, and TCP
 * keepalive never runs on a link with data waiting.  Open MPI ends the job
 * itself once keepalive finds the daemon gone (qcount-mpirun's settings:
 * 5 + 2 x 3 s of an idle link, and rank 0 heard nothing from that host
 * for the silence timeout already), so rank 0 waits that long for the
 * SIGTERM that says so; when none comes (a rank stopped, not cut off; no
 * keepalive set, or one of more than a minute), MPI_Abort ends the job. */
static void end_without_silent(int status)
{
    fflush(stdout);
    fflush(stderr);
    long idle = qct_launcher_number("OMPI_MCA_oob_tcp_keepalive_time");
    long every = qct_launcher_number("OMPI_MCA_oob_tcp_keepalive_intvl");
    long probes = qct_launcher_number("OMPI_MCA_oob_tcp_keepalive_probes");
    long wait = idle > 0 && every >= 0 && probes >= 0 ? idle + every * probes + 2 : 0;
    struct timespec tick = {0, 50000000};
    for (long t = 0; wait <= 60 && t < wait * 20 && !qcc_longrun_stop_signal(); t++)
        nanosleep(&tick, NULL);
    if (qcc_longrun_stop_signal())
        _exit(status);   /* Open MPI is ending the job */
    qcr_mpi_abort(status);
}

/* The count ended on every rank: rank 0 prints the result and the report.
 * A ledger that cannot be synced still lets the right count be printed,
 * but fails the run. */
static int end_together(const qca_options *opts, qcc_longrun_ctx *ctx, qcr_mpi_result *result,
                        int rc, const char *err, int root)
{
    char msg[512];
    int status = 0;
    if (rc == QC_OK && qcc_longrun_sync(ctx, msg, sizeof msg) != 0) {
        err = msg;
        rc = QC_EHOOK;
    }
    qcc_longrun_close(ctx);
    if (rc != QC_OK && rc != QC_EHOOK) {
        if (root)
            qca_print_error(err);
        status = 2;
    } else if (root) {
        if (rc == QC_EHOOK) {
            qca_print_error(err);
            status = 2;
        }
        print_report(result);
        qc_u128 unique;
        int reported = qcc_longrun_unique(opts, &result->total, &unique, msg, sizeof msg);
        if (reported != 0)
            qca_print_error(msg);
        else
            reported = qcc_report_result(opts, &result->total, unique, json_ranks, result);
        if (reported != 0)
            status = reported;   /* 1: --check found a difference */
    }
    int silent = result->silent;
    qcr_mpi_result_free(result);
    if (silent)   /* [silence] silent ranks may never reach MPI_Finalize */
        end_without_silent(status);
    qcr_mpi_finalize();
    return status;
}

/* [join timeout] Every rank's mode and options shown to rank 0 before
 * anything else: AGREED_COUNT to go on counting; else the exit status, or
 * QC_MPI_RUN_HERE for rank 0 to run the agreed mode alone. */
enum { AGREED_COUNT = -2 };
static int agree_on_command(const qca_options *opts, const char *refused, double timeout)
{
    char summary[QCR_SUMMARY_MAX], err[QCR_SUMMARY_MAX + 256];
    if (refused)
        snprintf(summary, sizeof summary, "error: %s", refused);
    else
        qca_options_summary(opts, summary, sizeof summary);
    const int root = qcr_mpi_rank() == 0;
    if (qcr_mpi_handshake(summary, timeout, err, sizeof err) != QC_OK) {
        qca_print_error(err);   /* rank 0 alone gets here */
        fflush(stderr);
        qcr_mpi_abort(2);
        return 2;
    }
    if (!refused && opts->action == QC_ACTION_COUNT)
        return AGREED_COUNT;
    if (root && refused)
        qca_print_error(refused);   /* every rank refused the same words: said once */
    qcr_mpi_finalize();
    return refused ? 2 : root ? QC_MPI_RUN_HERE : 0;
}

int qcc_mpi_main(const qca_options *opts, const char *refused, int *argc, char ***argv)
{
    qcc_longrun_catch_forwarded();   /* every rank, before MPI starts: mpirun forwards to all */
    double timeout = qcr_mpi_join_timeout();
    char bad_timeout[256];
    if (timeout < 0) {   /* refused like bad words, once every rank has joined */
        timeout = QCR_JOIN_TIMEOUT_DEFAULT;
        snprintf(bad_timeout, sizeof bad_timeout,
                 "invalid QCOUNT_MPI_TIMEOUT '%s' (expected 1 to 3600 seconds)", getenv("QCOUNT_MPI_TIMEOUT"));
        refused = refused ? refused : bad_timeout;
    }
    char bad_silence[256];
    if (qcr_mpi_silence() < 0) {
        snprintf(bad_silence, sizeof bad_silence,
                 "invalid QCOUNT_MPI_SILENCE '%s' (expected 3 to 3600 seconds)", getenv("QCOUNT_MPI_SILENCE"));
        refused = refused ? refused : bad_silence;
    }
    if (qcr_mpi_init(argc, argv, timeout) != QC_OK) {
        fprintf(stderr, "qcount: MPI could not start with thread support (MPI_THREAD_FUNNELED)\n");
        qcr_mpi_finalize();
        return 2;
    }
    int agreed = agree_on_command(opts, refused, timeout);
    if (agreed != AGREED_COUNT)
        return agreed;
    const int root = qcr_mpi_rank() == 0;
    qc_plan *plan = NULL;
    if (qc_plan_create_with(&plan, opts->n, opts->engine,
                            &(qc_plan_options){.size = sizeof(qc_plan_options),
                                               .profile = opts->plan}) != QC_OK)
        plan = NULL;
    size_t units = plan ? qc_plan_unit_count(plan) : 0;
    qc_run_options run = {.size = sizeof run, .threads = opts->threads, .bind = opts->bind};
    qcc_longrun_ctx ctx = {0};
    char err[512], why[512];
    const char *root_error = NULL;
    if (root && plan) {
        if (qcc_longrun_open(&ctx, opts, plan, why, sizeof why) != 0)
            root_error = why;
        qcc_longrun_catch_signals(NULL, NULL);
        if (!root_error)
            qcc_longrun_show_progress(&ctx, opts, units);
        qcc_longrun_hooks(&ctx, &run);
    }
    qcr_mpi_result result;
    int rc = qcr_mpi_count(plan, &run, root_error, &result, err, sizeof err);
    qcc_line_stop(ctx.line);
    qc_plan_free(plan);
    if (result.alone && !result.silent)
        return end_alone(&ctx, &result, rc, err, units);
    return end_together(opts, &ctx, &result, rc, err, root);
}
