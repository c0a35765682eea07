/*
 * longrun.h — what makes a long count safe to leave running: the
 * checkpoint ledger, the progress line and clean stops on SIGINT/SIGTERM,
 * wrapped around qc_run for the qcount program.
 */
#ifndef QC_LONGRUN_H
#define QC_LONGRUN_H

#include <signal.h>
#include <stddef.h>

#include "ledger.h"
#include "options.h"
#include "progress.h"

/* What a count runs with: its ledger and progress line (either may be
 * NULL), and the errno of a ledger append that failed. */
typedef struct qc_longrun_ctx {
    qct_ledger *ledger;
    qcp_line *line;
    int write_errno;
} qc_longrun_ctx;

/* Points run's hooks at lr (ledger lookups and records, the progress line)
 * and its stop flag at the one qc_longrun_catch_signals raises. */
void qc_longrun_hooks(qc_longrun_ctx *lr, qc_run_options *run);
/* SIGINT/SIGTERM raise the stop flag (a second one kills at once); the old
 * actions go to old_int/old_term when not NULL. */
void qc_longrun_catch_signals(struct sigaction *old_int, struct sigaction *old_term);
/* The signal that raised the stop flag, or 0. */
int qc_longrun_stop_signal(void);

/* Counts plan as opts asks.  Returns 0 with *result filled; or an exit
 * status with a one-line message in msg: 2 for an error (a bad or
 * unwritable ledger, a work unit out of memory), 130 or 143 when SIGINT or
 * SIGTERM stopped the count (msg says how many units the ledger holds, or
 * that the work is lost). */
int qc_longrun(const qc_options *opts, const qc_plan *plan, qc_result *result,
               char *msg, size_t msglen);

#endif
