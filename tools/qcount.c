/* SPDX-License-Identifier: MIT */
/*
 * qcount.c — the command-line program: parse, count, print.  stdout gets
 * the result and nothing else; stderr gets diagnostics; bad input exits 2.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <stdlib.h>
#include <unistd.h>

#include "context.h"
#include "ledger_commands.h"
#include "modes.h"
#include "mpi_load.h"
#include "mpi_run.h"
#include "options.h"
#include "longrun.h"
#include "quote.h"
#include "range.h"
#ifdef QC_TEST_FAULTS
#include "fault_hook.h"
#include "known_test.h"
#endif

static int fail(const char *msg)
{
    qca_print_error(msg);
    return 2;
}

/* stdout flushed: 0, or 2 with one line when it could not be written
 * (a full disk, a closed descriptor; a closed pipe kills by SIGPIPE). */
static int end_stdout(void)
{
    if (fflush(stdout) == 0 && !ferror(stdout))
        return 0;
    char msg[128];
    snprintf(msg, sizeof msg, "cannot write to stdout: %s", strerror(errno));
    return fail(msg);
}

/* QCOUNT_ISA=portable|avx2|avx512|avx512vbmi|neon (unset or empty: the best level this
 * CPU has) runs the kernels at that level (qc_isa_select).  Returns 0, or
 * nonzero with the reason in err. */
static int select_isa(char *err, size_t size)
{
    const char *name = getenv("QCOUNT_ISA");
    if (!name || !*name)
        return 0;
    int rc = qc_isa_select(name);
    if (rc == QC_EINVAL)
        snprintf(err, size, "QCOUNT_ISA=%s: unknown level (portable, avx2, avx512, avx512vbmi or neon)", name);
    else if (rc != QC_OK)
        snprintf(err, size, "QCOUNT_ISA=%s: this CPU lacks it (its best level is %s)", name,
                 qc_isa_name());
    return rc;
}

/* [standard fds] Fds 0, 1 and 2 open before qcount opens anything, so that
 * no file of its own (a ledger, an SVG, a temporary) is ever given one of
 * their numbers and then written to as stdout or stderr.  A closed one gets
 * /dev/null in the direction it is not used (stdin write-only, stdout and
 * stderr read-only): it stays as useless as closed, a read or write on it
 * failing with EBADF as before.  Returns 0, or -1 when /dev/null cannot be
 * opened (nothing can be said then: stderr may be the closed one). */
static int open_standard_fds(void)
{
    for (int fd = 0; fd <= 2; fd++) {
        if (fcntl(fd, F_GETFD) != -1 || errno != EBADF)
            continue;
        int got = open("/dev/null", fd == 0 ? O_WRONLY : O_RDONLY);
        if (got != fd) {   /* the lowest free number: fd, or a failure */
            if (got >= 0)
                close(got);
            return -1;
        }
    }
    return 0;
}

/* [srun without MPI] srun started this process as one of several tasks
 * of a step but gave it no MPI (no --mpi=pmix, MpiDefault=none): every
 * task would count the whole board and print the total.  Returns the
 * step's task count then, else 0; QCOUNT_MPI=0 (tasks meant to run
 * alone, as qcount-parts.slurm's) makes it 0. */
static long srun_without_mpi(void)
{
    const char *force = getenv("QCOUNT_MPI");
    if ((force && strcmp(force, "0") == 0) || qct_mpi_launcher_rank() >= 0)
        return 0;
    long tasks = qct_launcher_number("SLURM_STEP_NUM_TASKS");
    long task = qct_launcher_number("SLURM_PROCID");
    return tasks > 1 && task >= 0 && task < tasks ? tasks : 0;
}

int main(int argc, char **argv)
{
    if (open_standard_fds() != 0)
        return 2;
#ifdef QC_TEST_FAULTS
    /* the tests' qcount_fault only: the K-th unit of this process fails;
     * --check compares with the counts of QCOUNT_TEST_KNOWN */
    const char *fault = getenv("QCOUNT_TEST_FAIL_UNIT");
    if (fault)
        qc_plan_fault_arm(strtoul(fault, NULL, 10));
    /* [paused units] QCOUNT_TEST_PAUSE_WHILE=FILE, QCOUNT_TEST_PAUSE_AFTER=K:
     * the units after the first K wait while FILE exists */
    const char *pause = getenv("QCOUNT_TEST_PAUSE_WHILE");
    const char *after = getenv("QCOUNT_TEST_PAUSE_AFTER");
    if (pause)
        qc_plan_pause_while(pause, after ? strtoul(after, NULL, 10) : 0);
    if (qcc_known_test_load() != 0)
        return fail("cannot read QCOUNT_TEST_KNOWN");
#endif
    if (argc > 1 && qcl_command_named(argv[1]))   /* merge, audit, show, unit */
        return qct_mpi_launcher_rank() > 0 ? 0 : qcl_command(argc - 1, argv + 1);   /* ledgers/ */
    qca_options opts;
    char err[256];
    int refused = qca_options_parse(argc, argv, &opts, err, sizeof err) != 0;
    if (!refused && opts.action != QC_ACTION_HELP)   /* --help whatever the environment holds */
        refused = select_isa(err, sizeof err) != 0;
    const long srun_tasks = srun_without_mpi();
    if (!refused && srun_tasks && opts.action != QC_ACTION_HELP && opts.action != QC_ACTION_VERSION) {
        if (qct_launcher_number("SLURM_PROCID") > 0)
            return 2;   /* task 0 says why, once */
        snprintf(err, sizeof err, "srun started %ld tasks without MPI, so each would count "
                 "alone and print the whole total: use srun --mpi=pmix (or -n 1; QCOUNT_MPI=0 "
                 "lets each count alone)", srun_tasks);
        return fail(err);
    }
    /* [join timeout] every rank of a job of several joins it, whatever it
     * was asked, so that none is left waiting for another: count/mpi_load.c;
     * a job of one rank joins only to count */
    const int launched = qct_mpi_launcher_rank() >= 0;
    if (launched && !refused && opts.action == QC_ACTION_COUNT && opts.range) {
        snprintf(err, sizeof err, "a range of board sizes is counted by one process: give mpirun one N");
        refused = 1;
    }
    if (launched && !refused && opts.action == QC_ACTION_COUNT && opts.parts) {
        snprintf(err, sizeof err, "--part counts in one process, not across an MPI job: start each "
                 "part on its own (QCOUNT_MPI=0 under a launcher)");
        refused = 1;
    }
    if (qct_mpi_launcher_size() > 1 || (launched && !refused && opts.action == QC_ACTION_COUNT)) {
        int status = qcc_mpi_load_main(&opts, refused ? err : NULL, &argc, &argv);
        if (status != QC_MPI_RUN_HERE)
            return status;
        refused = 0;   /* rank 0, every rank agreeing: the mode runs here alone */
    }
    if (refused)
        return fail(err);
    if (opts.action == QC_ACTION_HELP) {
        fputs(qca_usage_text, stdout);
        return end_stdout();
    }
    if (opts.action == QC_ACTION_VERSION) {
        qcc_context_version(stdout);
        return end_stdout();
    }
    if (opts.action == QC_ACTION_LIST || opts.action == QC_ACTION_SOLVE || opts.action == QC_ACTION_VERIFY)
        return qcm_main(&opts);   /* modes/ */

    qcc_longrun_catch_signals(NULL, NULL);   /* before the plans: a ^C now is a clean stop */
    return qcc_range_count(&opts);   /* count/range.c */
}
