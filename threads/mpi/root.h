/* SPDX-License-Identifier: MIT */
/*
 * root.h — rank 0's side of an MPI count: the books of the units (the
 * to-do list, which came back, their sums), handing units out, taking the
 * tallies in, and the hooks (unit_known, unit_done, progress, stop).
 *
 * Resume and stops use qc_run's hooks, on rank 0 only: unit_known leaves
 * units out of the to-do list (their tallies join the sum), unit_done and
 * progress are called by rank 0's messenger for every tally that arrives
 * (one thread: serialised by construction), and *stop makes rank 0 return
 * QC_ESTOP at once, without waiting for the workers; the caller then ends
 * the job (MPI_Abort), as the other ranks may be deep inside long units.
 */
#ifndef QCT_MPI_ROOT_H
#define QCT_MPI_ROOT_H

#include <stddef.h>

#include "mpi_run.h"
#include "rank.h"
#include "unit_step.h"

typedef struct qct_root {
    qct_reporter rep;         /* the hooks and where the run stands      */
    int failed_rank;          /* the first rank out of memory, or -1     */
    size_t units;             /* the plan's */
    unsigned char *seen;      /* [units]: a result arrived for it        */
    size_t arrived, bad;      /* results taken; unknown or repeated ones */
    qc_u128 total, placements;
    qc_tally known;           /* from unit_known                         */
    size_t resumed;           /* units known                             */
    size_t todo;              /* units left to count when it started     */
} qct_root;

#define QCT_ROOT_NONE ((qct_root){.failed_rank = -1})

/* Rank 0: the books and its rank's to-do list (every unit unit_known does
 * not hold, in plan order: big ones first, all queued, nothing more to
 * come); calls progress once.  Ends the job when out of memory. */
void qct_root_open(qct_root *b, qct_rank *s, const qc_run_options *opts, double start);
void qct_root_close(qct_root *b);

/* Rank 0's messenger.  Returns 0 when every worker has sent LAST and its
 * own counters are through; -1 at once when asked to stop, when a hook
 * failed, or when a unit failed here or on a worker (FAIL) (its counters
 * then stop within a unit, or a kernel stop check). */
int qct_root_messenger(qct_rank *s, qct_root *b, int ranks, int counters, qct_thread_sum *mine);

/* Why the messenger quit: QC_EHOOK, QC_ENOMEM or QC_ESTOP. */
int qct_root_quit_code(const qct_root *b);

/* The sums so far into out->total, rank 0 having quit alone with rc. */
void qct_root_alone(const qct_root *b, int rc, qct_mpi_result *out, char *err, size_t errlen);

/* The whole count into out->total (out->per_rank gathered); returns rc,
 * or QC_EINVAL when units went missing or came back twice. */
int qct_root_sum(const qct_root *b, int rc, qct_mpi_result *out, char *err, size_t errlen);

#endif
