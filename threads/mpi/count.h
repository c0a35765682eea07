/* SPDX-License-Identifier: MIT */
/*
 * count.h — one plan counted across the ranks of an MPI job (count.c): the
 * count, its result with every rank's report, and the silence timeout.
 *
 * Hybrid: one rank per machine (or NUMA node), a team of threads inside each
 * rank.  Rank 0 owns the list of units still to count and hands them out on
 * request (pull-based: a slow or busy machine simply asks less often); every
 * rank, rank 0 included, counts with its own threads and sends each unit's
 * tally back, and rank 0 sums them (and records them in a checkpoint ledger
 * when given one).  See protocol.h for the protocol.
 */
#ifndef QCR_MPI_COUNT_H
#define QCR_MPI_COUNT_H

#include <stddef.h>

#include "qcount.h"

/* What one rank did, for the imbalance report. */
typedef struct qcr_mpi_rank_stats {
    int rank;
    int threads;            /* counting threads                             */
    size_t units;           /* units this rank counted                      */
    double busy_seconds;    /* summed over its threads: time inside units   */
    double wall_seconds;    /* from the first hand-out to its last result   */
    qc_u128 steps;
    char host[64];
} qcr_mpi_rank_stats;

typedef struct qcr_mpi_result {
    qc_result total;        /* as qc_run's; threads = all ranks' threads    */
    int ranks;
    int alone;              /* rank 0 returned at once, without the other
                               ranks: the caller must end the job           */
    qcr_mpi_rank_stats *per_rank;   /* [ranks] on rank 0, NULL elsewhere    */
    /* [silence] on rank 0: */
    int silent;             /* ranks still silent as the count ended: then
                               alone is set and per_rank holds rank 0's
                               stats alone (the others have threads = 0)   */
    int ever_silent;        /* ranks ever taken for silent                  */
    int first_silent;       /* the first of them, or -1                     */
    size_t handed_again;    /* units they held, handed to other ranks       */
    size_t repeats;         /* tallies of those that came twice, the same   */
    double silence;         /* the timeout, seconds                         */
} qcr_mpi_result;

/* [silence] How long rank 0 waits on a worker it hears nothing from (no
 * tally, no heartbeat: protocol.h) before it hands that worker's units to
 * the other ranks, in seconds: QCOUNT_MPI_SILENCE (3 to 3600), the default
 * when unset or empty, or -1 for any other value.  10 s by default: ten
 * missed heartbeats, far beyond a busy machine's scheduling delays or a
 * congested link, so only a stopped, swapped-out or cut-off rank is taken
 * for lost, and short enough that a job loses a minute at most (with
 * qcount-mpirun's TCP keepalive, Open MPI itself notices a lost host in
 * 9 to 14 s).  A rank taken for lost that speaks again is heard: its
 * tallies of units already counted elsewhere are checked, never added. */
#define QCR_SILENCE_DEFAULT 10.0
double qcr_mpi_silence(void);

/* Counts plan over every rank of MPI_COMM_WORLD; collective.  plan may be
 * NULL on a rank that could not build it, and root_error non-NULL on rank 0
 * when it cannot go on (a bad checkpoint): then, as when the ranks' plans
 * differ (fingerprints), every rank returns QC_EINVAL and rank 0 gets the
 * reason in err.  opts->threads and bind apply on every rank; its hooks
 * (unit_known, unit_done, progress, stop: see qc_run_options) are used on
 * rank 0 only, with qc_run's meanings, except that on a stop or a failed
 * unit_done rank 0 returns QC_ESTOP or QC_EHOOK at once and alone, and
 * when a unit ran out of memory on any rank, QC_ENOMEM at once and alone
 * (err names the rank): then out->alone is set, the other ranks are left
 * waiting, and the caller must end the job (qcr_mpi_abort, job.h).
 * [silence] When workers fell silent and never spoke again, rank 0
 * finishes the count without them and returns it (its rc as at the end,
 * out->silent set, out->alone too): the caller reports it and ends the
 * job.  (QC_ENOMEM on every rank, without out->alone: a failure seen only
 * as the count ended.)  Fills *out (free it with qcr_mpi_result_free,
 * which takes NULL); totals are meaningful on rank 0.  err may be NULL (no
 * message).  Precondition, not checked: out is not NULL, on every rank, as
 * a rank that returned at once would leave the others waiting in a
 * collective call. */
int qcr_mpi_count(const qc_plan *plan, const qc_run_options *opts, const char *root_error,
                  qcr_mpi_result *out, char *err, size_t errlen);
void qcr_mpi_result_free(qcr_mpi_result *r);

#endif
