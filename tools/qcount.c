/* SPDX-License-Identifier: MIT */
/*
 * qcount.c — the command-line program: parse, count, print.  stdout gets
 * the result and nothing else; stderr gets diagnostics; bad input exits 2.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <stdlib.h>

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

int main(int argc, char **argv)
{
#ifdef QC_TEST_FAULTS
    /* the tests' qcount_fault only: the K-th unit of this process fails;
     * --check compares with the counts of QCOUNT_TEST_KNOWN */
    const char *fault = getenv("QCOUNT_TEST_FAIL_UNIT");
    if (fault)
        qc_plan_fault_arm(strtoul(fault, NULL, 10));
    if (qc_known_test_load() != 0)
        return fail("cannot read QCOUNT_TEST_KNOWN");
#endif
    if (argc > 1 && qc_ledger_command_named(argv[1]))   /* merge, audit, show */
        return qct_mpi_launcher_rank() > 0 ? 0 : qc_ledger_command(argc - 1, argv + 1);   /* ledgers/ */
    qc_options opts;
    char err[256];
    if (qc_options_parse(argc, argv, &opts, err, sizeof err) != 0)
        return fail(err);
    if (select_isa(err, sizeof err) != 0)
        return fail(err);
    if (opts.action != QC_ACTION_COUNT && qct_mpi_launcher_rank() > 0)
        return 0;
    if (opts.action == QC_ACTION_HELP) {
        fputs(qc_usage_text, stdout);
        return end_stdout();
    }
    if (opts.action == QC_ACTION_VERSION) {
        qc_context_version(stdout);
        return end_stdout();
    }
    if (opts.action == QC_ACTION_LIST || opts.action == QC_ACTION_SOLVE || opts.action == QC_ACTION_VERIFY)
        return qc_mode_main(&opts);   /* modes/ */

    if (qct_mpi_launcher_rank() >= 0) {
        if (opts.range)
            return fail("a range of board sizes is counted by one process: give mpirun one N");
        if (opts.parts)
            return fail("--part counts in one process, not across an MPI job: start each part "
                        "on its own (QCOUNT_MPI=0 under a launcher)");
        return qc_mpi_load_main(&opts, &argc, &argv);   /* count/mpi_load.c */
    }

    qc_longrun_catch_signals(NULL, NULL);   /* before the plans: a ^C now is a clean stop */
    return qc_range_count(&opts);   /* count/range.c */
}
