/*
 * qcount.c — the command-line program: parse, count, print.  stdout gets
 * the result and nothing else; stderr gets diagnostics; bad input exits 2.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "longrun.h"
#include "modes.h"
#include "mpi_run.h"
#include "options.h"
#include "quote.h"
#include "report.h"
#ifdef QC_HAVE_MPI
#include "qcount_mpi.h"
#endif
#ifdef QC_TEST_FAULTS
#include <stdlib.h>

#include "fault_hook.h"
#endif

static int fail(const char *msg)
{
    if (qct_mpi_launcher_rank() > 0)
        return 2;   /* under mpirun every rank sees the same input: rank 0 says it */
    qc_print_error(msg);
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

int main(int argc, char **argv)
{
#ifdef QC_TEST_FAULTS
    /* the tests' qcount_fault only: the K-th unit of this process fails */
    const char *fault = getenv("QCOUNT_TEST_FAIL_UNIT");
    if (fault)
        qc_plan_fault_arm(strtoul(fault, NULL, 10));
#endif
    qc_options opts;
    char err[256];
    if (qc_options_parse(argc, argv, &opts, err, sizeof err) != 0)
        return fail(err);
    if (opts.action != QC_ACTION_COUNT && qct_mpi_launcher_rank() > 0)
        return 0;
    if (opts.action == QC_ACTION_HELP) {
        fputs(qc_usage_text, stdout);
        return end_stdout();
    }
    if (opts.action == QC_ACTION_VERSION) {
        printf("qcount %s\n", QC_VERSION);
        return end_stdout();
    }
    if (opts.action == QC_ACTION_LIST || opts.action == QC_ACTION_SOLVE || opts.action == QC_ACTION_VERIFY)
        return qc_mode_main(&opts);   /* modes/ */

    if (qct_mpi_launcher_rank() >= 0) {
#ifdef QC_HAVE_MPI
        return qcount_mpi_main(&opts, &argc, &argv);
#else
        return fail("started by an MPI launcher, but this qcount was built without MPI "
                    "(install libopenmpi-dev and rebuild, or set QCOUNT_MPI=0)");
#endif
    }

    qc_longrun_catch_signals(NULL, NULL);   /* before the plan: a ^C now is a clean stop */
    qc_plan *plan;
    int rc = qc_plan_create(&plan, opts.n, opts.engine);
    if (rc != QC_OK)
        return fail(rc == QC_ENOMEM ? "out of memory building the work units" : "cannot plan this count");
    qc_result result;
    char msg[512];
    rc = qc_longrun(&opts, plan, &result, msg, sizeof msg);   /* ledger, progress, signals */
    qc_plan_free(plan);
    if (rc != 0) {
        qc_print_error(msg);   /* may quote the ledger's file name */
        return rc;
    }

    return qc_report_result(&opts, &result, NULL, NULL);
}
