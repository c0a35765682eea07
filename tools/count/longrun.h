/* SPDX-License-Identifier: MIT */
/*
 * longrun.h — what makes a long count safe to leave running: the
 * checkpoint ledger, the progress line and clean stops on SIGINT/SIGTERM,
 * wrapped around qc_run for the qcount program.  The plain front
 * (qcc_longrun) and the MPI front (qcount_mpi.c) share everything here, and
 * with it the words a count ends with.
 */
#ifndef QC_LONGRUN_H
#define QC_LONGRUN_H

#include <signal.h>
#include <stddef.h>

#include "ledger.h"
#include "options.h"
#include "progress.h"

/* What a count runs with: its ledger and the ledger's file name, its
 * progress line (any may be NULL), and the errno of a ledger append that
 * failed; with --part, which units are the part's and what the others
 * are (units and estimated work), left out of the run and of its
 * progress; whether the units are counted by other processes (an MPI
 * job's ranks), whose ISA level and CPU time the records cannot tell. */
typedef struct qcc_longrun_ctx {
    qcc_ledger *ledger;
    const char *path;
    qcc_line *line;
    int write_errno;
    unsigned char *member;    /* [unit] 1 for the part's; NULL: all units */
    size_t others;
    double others_work;
    int remote;
    char engine[16];
    long generation;          /* tells this run's per-thread CPU clocks */
} qcc_longrun_ctx;

/* Clears lr and opens opts->checkpoint as its ledger, when given (for
 * opts->part of opts->parts with --part).  Returns 0, or 2 with a
 * one-line message in msg. */
int qcc_longrun_open(qcc_longrun_ctx *lr, const qca_options *opts, const qc_plan *plan,
                     char *msg, size_t msglen);
/* Starts lr's progress line on stderr when opts ask for one (--progress,
 * or by default when stderr is a terminal), unless --quiet or the ledger
 * already holds all the plan's units. */
void qcc_longrun_show_progress(qcc_longrun_ctx *lr, const qca_options *opts, size_t units);
/* Points run's hooks at lr (ledger lookups and records, the progress line)
 * and its stop flag at the one qcc_longrun_catch_signals raises. */
void qcc_longrun_hooks(qcc_longrun_ctx *lr, qc_run_options *run);
/* SIGINT/SIGTERM raise the stop flag (a second SIGINT kills at once, a
 * second SIGTERM changes nothing); the old actions go to old_int/old_term
 * when not NULL. */
void qcc_longrun_catch_signals(struct sigaction *old_int, struct sigaction *old_term);
/* Under an MPI launcher: SIGUSR1 and SIGUSR2, which mpirun forwards to
 * every rank, raise the stop flag as SIGINT and SIGTERM would (a second
 * SIGUSR1 kills at once).  [forwarded stop] */
void qcc_longrun_catch_forwarded(void);
/* The signal that raised the stop flag, or 0 (SIGINT or SIGTERM for a
 * forwarded stop). */
int qcc_longrun_stop_signal(void);

/* Syncs lr's ledger (none is fine): 0, or 2 with "ledger 'F': cannot
 * sync: ..." in msg. */
int qcc_longrun_sync(qcc_longrun_ctx *lr, char *msg, size_t msglen);
/* How a count that came back with rc ends: syncs the ledger and returns
 * the exit status, 0 for QC_OK, else with the user's one line in msg:
 *   QC_EHOOK   "ledger 'F': cannot write: ..."                      2
 *   (the ledger cannot be synced) "ledger 'F': cannot sync: ..."    2
 *   QC_ESTOP   "stopped by WHY: " what the ledger holds, or that the
 *              work is lost                                 128+signal
 *   QC_ENOMEM  "WHY: " what the ledger holds, or "(K of U were
 *              counted)"; and the advice to use fewer --threads     2
 *   other      "the count failed"                                   2
 * why: for QC_ESTOP what stopped the run, NULL for the signal that raised
 * the stop flag; for QC_ENOMEM what ran out of memory, NULL for "out of
 * memory counting a work unit".  counted: the units this run has the
 * tallies of; units: the plan's. */
int qcc_longrun_verdict(qcc_longrun_ctx *lr, int rc, const char *why, size_t counted, size_t units,
                        char *msg, size_t msglen);
/* Closes lr's ledger. */
void qcc_longrun_close(qcc_longrun_ctx *lr);

/* Counts plan as opts asks, in this process.  Returns 0 with *result
 * filled, or an exit status with a one-line message in msg: 2 for an
 * error (a bad or unwritable ledger, a work unit out of memory), 130 or
 * 143 when SIGINT or SIGTERM stopped the count (see qcc_longrun_verdict). */
int qcc_longrun(const qca_options *opts, const qc_plan *plan, qc_result *result,
                char *msg, size_t msglen);

/* With --unique, the fundamental count of a finished count r into
 * *unique, by Burnside over the symmetric solutions (two searches tiny
 * next to the count: N=20, 9.5 M steps against ~10^10, so the run's
 * statistics stay the engine's own); 0 without --unique.  Returns 0, or 2
 * with a one-line message in msg. */
int qcc_longrun_unique(const qca_options *opts, const qc_result *r, qc_u128 *unique, char *msg,
                       size_t msglen);

#endif
